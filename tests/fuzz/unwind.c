// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer: the DWARF unwinder (pev_chain_resolve on a sample with user
 * registers and a stack dump) with lying registers, a corrupt stack dump
 * and corrupt CFI.
 *
 * Input: 1 byte of flags, the 20 user registers of perf's x86-64 dwarf
 * mask (AX BX CX DX SI DI BP SP IP FLAGS CS SS R8..R15, 8 bytes each), a
 * 2-byte stack dump length, the dump, and what is left: the .eh_frame of a
 * small ELF file written for the input (.text at 0x1000, .eh_frame at
 * 0x2000, one PT_LOAD from offset 0), mapped at 0x400000 in process 1.
 * Flag bit 0 moves IP into .text, bit 1 SP into a plausible stack, bit 2
 * adds a data map (PERF_RECORD_MISC_MMAP_DATA) around the stack, so that
 * reads past the dump find a map that gives nothing, bit 3 fills .text
 * with PLT stubs (jmp *x(%rip); push $n; jmp) instead of nops, for the
 * guesses made where no FDE covers a pc.  The CFI can hold anything the
 * fast walk evaluates: CFA and register expressions (DW_OP_deref,
 * branches, deref_size, register operands) and signal frames ('S')
 * (tests/fuzz/unwind_corpus.py writes seeds of each).  The resolver must
 * return frames or nothing, never crash or leak. */
#include <fcntl.h>
#include <stdbool.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfev/perfev.h>

#define MAP_ADDR 0x400000ull
#define TEXT_OFF 0x1000
#define EH_OFF 0x2000
#define NREGS 20

static char path[64];

/* The ELF file, written field by field: header, one PT_LOAD, .text,
 * .eh_frame (the input's bytes), .shstrtab, section headers. */
static int write_elf(const uint8_t *eh, size_t eh_len, bool plt)
{
	static const char strtab[] = "\0.text\0.eh_frame\0.shstrtab";
	static uint8_t text[TEXT_OFF];
	size_t str_off = EH_OFF + eh_len;
	size_t sh_off = (str_off + sizeof(strtab) + 7) & ~(size_t)7;
	Elf64_Ehdr h;
	Elf64_Phdr ph;
	Elf64_Shdr sh[4];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	memset(text, 0x90, sizeof(text));	/* nop */
	for (size_t i = 0; plt && i + 16 <= sizeof(text); i += 16)
		memcpy(text + i, "\xff\x25\x00\x10\x00\x00\x68\x01\x00\x00\x00\xe9\xe0\xff\xff\xff", 16);
	memset(&h, 0, sizeof(h));
	memcpy(h.e_ident, ELFMAG, SELFMAG);
	h.e_ident[EI_CLASS] = ELFCLASS64;
	h.e_ident[EI_DATA] = ELFDATA2LSB;
	h.e_ident[EI_VERSION] = EV_CURRENT;
	h.e_type = ET_DYN;
	h.e_machine = EM_X86_64;
	h.e_version = EV_CURRENT;
	h.e_phoff = sizeof(h);
	h.e_shoff = sh_off;
	h.e_ehsize = sizeof(h);
	h.e_phentsize = sizeof(ph);
	h.e_phnum = 1;
	h.e_shentsize = sizeof(sh[0]);
	h.e_shnum = 4;
	h.e_shstrndx = 3;
	memset(&ph, 0, sizeof(ph));
	ph.p_type = PT_LOAD;
	ph.p_flags = PF_R | PF_X;
	ph.p_filesz = ph.p_memsz = str_off;
	ph.p_align = 0x1000;
	memset(sh, 0, sizeof(sh));
	sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_PROGBITS,
			      .sh_flags = SHF_ALLOC | SHF_EXECINSTR, .sh_addr = TEXT_OFF,
			      .sh_offset = TEXT_OFF, .sh_size = TEXT_OFF, .sh_addralign = 16 };
	sh[2] = (Elf64_Shdr){ .sh_name = 7, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
			      .sh_addr = EH_OFF, .sh_offset = EH_OFF, .sh_size = eh_len,
			      .sh_addralign = 8 };
	sh[3] = (Elf64_Shdr){ .sh_name = 17, .sh_type = SHT_STRTAB, .sh_offset = str_off,
			      .sh_size = sizeof(strtab), .sh_addralign = 1 };
	int ok = pwrite(fd, &h, sizeof(h), 0) == sizeof(h) &&
		 pwrite(fd, &ph, sizeof(ph), sizeof(h)) == sizeof(ph) &&
		 pwrite(fd, text, sizeof(text), TEXT_OFF) == sizeof(text) &&
		 (eh_len == 0 || pwrite(fd, eh, eh_len, EH_OFF) == (ssize_t)eh_len) &&
		 pwrite(fd, strtab, sizeof(strtab), (off_t)str_off) == sizeof(strtab) &&
		 pwrite(fd, sh, sizeof(sh), (off_t)sh_off) == sizeof(sh);

	close(fd);
	return ok ? 0 : -1;
}

static void remove_file(void)
{
	if (path[0])
		unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t regs[NREGS];
	static uint64_t stack[1024];
	size_t pos = 0;

	if (size < 1 + sizeof(regs) + 2)
		return 0;
	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/perfev-fuzz-unwind-%d.so", (int)getpid());
		atexit(remove_file);
	}
	uint8_t flags = data[pos++];

	memcpy(regs, data + pos, sizeof(regs));
	pos += sizeof(regs);
	size_t slen = (size_t)data[pos] | (size_t)data[pos + 1] << 8;

	pos += 2;
	if (slen > size - pos)
		slen = size - pos;
	if (slen > sizeof(stack))
		slen = sizeof(stack);
	memset(stack, 0, sizeof(stack));
	memcpy(stack, data + pos, slen);
	pos += slen;
	if (flags & 1)		/* IP (perf reg 8) into .text */
		regs[8] = MAP_ADDR + TEXT_OFF + regs[8] % TEXT_OFF;
	if (flags & 2)		/* SP (perf reg 7) */
		regs[7] = 0x7ffd00000000ull + (regs[7] & 0xfff8);
	if (write_elf(data + pos, size - pos, flags & 8) < 0)
		return 0;

	struct pev_dso_cache_opts dopts = { .size = sizeof(dopts), .buildid_dir = "",
					    .no_debug_files = true };
	struct pev_dso_cache *dc = pev_dso_cache_new(&dopts);
	struct pev_machine *m = dc ? pev_machine_new(dc) : NULL;
	struct pev_record rec;

	if (!m)
		abort();
	memset(&rec, 0, sizeof(rec));
	rec.type = PERF_RECORD_MMAP2;
	rec.misc = PERF_RECORD_MISC_USER;
	rec.u.mmap.pid = rec.u.mmap.tid = 1;
	rec.u.mmap.addr = MAP_ADDR;
	rec.u.mmap.len = EH_OFF + 0x1000;
	rec.u.mmap.prot = 5;
	rec.u.mmap.filename = path;
	if (pev_machine_process(m, &rec) < 0)
		abort();
	if (flags & 4) {	/* a data map around the stack */
		rec.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA;
		rec.u.mmap.addr = (regs[7] & ~0xfffull) - 0x10000;
		rec.u.mmap.len = 0x20000;
		rec.u.mmap.prot = 3;
		rec.u.mmap.filename = "[stack]";
		if (pev_machine_process(m, &rec) < 0)
			abort();
	}

	struct pev_chain_opts copts = { .size = sizeof(copts), .max_stack = 127,
					.e_machine = EM_X86_64 };
	struct pev_chain *c = pev_chain_new(m, &copts);
	struct pev_sample s;
	const struct pev_frame *fr;

	if (!c)
		abort();
	memset(&s, 0, sizeof(s));
	s.fields = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_TID;
	s.pid = s.tid = 1;
	s.ip = regs[8];
	s.regs_user.abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_user.mask = 0xff0fff;
	s.regs_user.nr = NREGS;
	s.regs_user.regs = regs;
	s.stack_user.size = sizeof(stack);
	s.stack_user.data = stack;
	s.stack_user.dyn_size = (slen + 7) & ~7ul;
	/* Twice: the second unwinding runs on the cached Dwfl. */
	for (int i = 0; i < 2; i++) {
		long n = pev_chain_resolve(c, &s, &fr);

		if (getenv("UNWIND_FUZZ_DEBUG"))
			for (long k = 0; k < n; k++)
				fprintf(stderr, "%lx %s\n", (unsigned long)fr[k].ip, fr[k].loc.dso ? pev_dso_name(fr[k].loc.dso) : "-");
		if (n < 0 || n > 127 * 33)
			abort();
		for (long k = 0; k < n; k++)
			if (!fr[k].unwound)
				abort();
	}
	pev_chain_free(c);
	pev_machine_free(m);
	pev_dso_cache_free(dc);
	return 0;
}
