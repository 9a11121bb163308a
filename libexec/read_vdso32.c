// SPDX-License-Identifier: GPL-2.0-only
/* perfev-read-vdso32: writes the 32-bit vDSO image of the running kernel
 * to stdout.  A 64-bit process has no 32-bit vDSO mapped, and the
 * kernel shows it nowhere else: the symbols of a 32-bit process's
 * "[vdso32]" come from this program, built -m32 without libc (the
 * machine needs no 32-bit libc), as perf 6.1 reads them through its
 * perf-read-vdso32.  Exit 0, or 1 when the kernel gave it no vDSO. */

/* No headers: a machine without 32-bit libc has no 32-bit <elf.h>. */
#define AT_NULL 0
#define AT_SYSINFO_EHDR 33

struct ehdr32 {			/* Elf32_Ehdr */
	unsigned char ident[16];
	unsigned short type, machine;
	unsigned version, entry, phoff, shoff, flags;
	unsigned short ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

static int sys3(int nr, int a, int b, int c)
{
	int r;

	__asm__ volatile("int $0x80" : "=a"(r) : "0"(nr), "b"(a), "c"(b), "d"(c) : "memory");
	return r;
}

__attribute__((used, noreturn)) void read_vdso32_main(unsigned *sp)
{
	unsigned argc = sp[0], *p = sp + 1 + argc + 1;
	const struct ehdr32 *eh = 0;
	int rc = 1;

	while (*p)		/* past the environment */
		p++;
	for (p++; p[0] != AT_NULL; p += 2)
		if (p[0] == AT_SYSINFO_EHDR)
			eh = (const struct ehdr32 *)p[1];
	if (eh && eh->ident[0] == 0x7f && eh->ident[4] == 1 /* ELFCLASS32 */) {
		const char *b = (const char *)eh;
		/* the whole mapping (the image's pages, the section headers
		 * at its end), as perf-read-vdso32 writes it and perf caches it */
		unsigned len = (eh->shoff + (unsigned)eh->shnum * eh->shentsize + 4095) & ~4095u, off = 0;

		rc = 0;
		while (off < len) {
			int w = sys3(4 /* write */, 1, (int)(b + off), (int)(len - off));

			if (w <= 0) {
				rc = 1;
				break;
			}
			off += (unsigned)w;
		}
	}
	for (;;)
		sys3(1 /* exit */, rc, 0, 0);
}

__asm__(".globl _start\n_start:\n\tmov %esp, %eax\n\tand $-16, %esp\n\tsub $12, %esp\n"
	"\tpush %eax\n\tcall read_vdso32_main\n");
