// SPDX-License-Identifier: GPL-2.0-only
/* Where the unwinder ends a Go stack (lib/unwind/unwind_go.c), on
 * function tables written here byte by byte from the layouts of Go's
 * runtime/symtab.go (pcHeader, functab, _func) of each version the
 * unwinder reads: 1.16/1.17 (magic 0xfffffffa, pointer-sized entry pcs,
 * the flag byte at 8 + 33), 1.18/1.19 (0xfffffff0, uint32 entry offsets
 * from textStart, the flag at 37) and 1.20 on (0xfffffff1, startLine
 * before the flag: 41), in an ELF file's .gopclntab (and a PIE's
 * .data.rel.ro.gopclntab).  Five functions: runtime.goexit (TOPFRAME),
 * runtime.systemstack (SPWRITE), runtime.asyncPreempt, main.f and
 * _rt0_amd64_linux; each address answers GO_LAST, GO_INJECTED or
 * GO_FRAME, outside the table GO_FRAME.  Then corrupt tables (counts,
 * offsets and name offsets past the end, a header cut short, an unknown
 * magic or pointer size) answer GO_FRAME and read nothing outside the
 * section (ASan in make check-san). */
#include <elf.h>

#include "testutil.h"
#include "unwind/unwind_go.c"

#define TEXT 0x401000ull

static const char *const fnames[] = { "runtime.goexit", "runtime.systemstack",
				      "runtime.asyncPreempt", "main.f", "_rt0_amd64_linux" };
static const uint8_t fflags[] = { 1, 2, 0, 0, 0 };
static const int want[] = { GO_LAST, GO_LAST, GO_INJECTED, GO_FRAME, GO_LAST };
#define NF 5

static void put(uint8_t *b, size_t off, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

/* A table of version v (16, 18, 20) into b; its size. Functions at
 * TEXT + 0x100 * i, the last one ending at TEXT + 0x500. */
static size_t table(uint8_t *b, int v)
{
	unsigned ptr = 8;
	size_t names = 0x80, pcln = 0x200, fsize = 64;
	uint32_t magic = v == 16 ? 0xfffffffa : v == 18 ? 0xfffffff0 : 0xfffffff1;

	memset(b, 0, 0x1000);
	put(b, 0, magic, 4);
	b[6] = 1;		/* minLC */
	b[7] = (uint8_t)ptr;
	put(b, 8, NF, ptr);	/* nfunc */
	if (v == 16) {
		put(b, 8 + 2 * ptr, names, ptr);	/* funcnameOffset */
		put(b, 8 + 6 * ptr, pcln, ptr);		/* pclnOffset */
	} else {
		put(b, 8 + 2 * ptr, TEXT, ptr);		/* textStart */
		put(b, 8 + 3 * ptr, names, ptr);
		put(b, 8 + 7 * ptr, pcln, ptr);
	}
	size_t at = 1;		/* the name table starts with "" */

	for (int i = 0; i < NF; i++) {
		size_t entry = v == 16 ? 2 * ptr : 8;	/* functab entry size */
		size_t tab = pcln + (size_t)i * entry;
		size_t fo = (NF + 1) * entry + (size_t)i * fsize;	/* funcoff */
		size_t f = pcln + fo;

		if (v == 16) {
			put(b, tab, TEXT + 0x100 * (uint64_t)i, ptr);
			put(b, tab + ptr, fo, ptr);
			put(b, f, TEXT + 0x100 * (uint64_t)i, ptr);	/* entry */
			put(b, f + ptr, at, 4);				/* nameoff */
			b[f + ptr + 33] = fflags[i];
		} else {
			put(b, tab, 0x100 * (uint64_t)i, 4);
			put(b, tab + 4, fo, 4);
			put(b, f, 0x100 * (uint64_t)i, 4);		/* entryOff */
			put(b, f + 4, at, 4);				/* nameOff */
			b[f + (v == 18 ? 37 : 41)] = fflags[i];
		}
		memcpy(b + names + at, fnames[i], strlen(fnames[i]) + 1);
		at += strlen(fnames[i]) + 1;
	}
	/* the end entry */
	if (v == 16)
		put(b, pcln + NF * 2 * ptr, TEXT + 0x500, ptr);
	else
		put(b, pcln + NF * 8, 0x500, 4);
	return pcln + (NF + 1) * (v == 16 ? 2 * ptr : 8) + NF * fsize;
}

/* An ELF file in memory: .text at TEXT, the table as section name. */
static uint8_t img[0x4000];

static Elf *elf_with(const uint8_t *tab, size_t len, const char *name)
{
	char strtab[64];
	size_t sl = (size_t)snprintf(strtab, sizeof(strtab), "%c.text%c%s%c.shstrtab", 0, 0, name, 0) + 1;
	size_t tab_off = 0x100, str_off = tab_off + len, sh_off = (str_off + sl + 7) & ~(size_t)7;
	Elf64_Ehdr h;
	Elf64_Shdr sh[4];

	memset(img, 0, sizeof(img));
	memset(&h, 0, sizeof(h));
	memcpy(h.e_ident, ELFMAG, SELFMAG);
	h.e_ident[EI_CLASS] = ELFCLASS64;
	h.e_ident[EI_DATA] = ELFDATA2LSB;
	h.e_ident[EI_VERSION] = EV_CURRENT;
	h.e_type = ET_EXEC;
	h.e_machine = EM_X86_64;
	h.e_version = EV_CURRENT;
	h.e_shoff = sh_off;
	h.e_ehsize = sizeof(h);
	h.e_shentsize = sizeof(sh[0]);
	h.e_shnum = 4;
	h.e_shstrndx = 3;
	memset(sh, 0, sizeof(sh));
	sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_NOBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
			      .sh_addr = TEXT, .sh_size = 0x500, .sh_addralign = 16 };
	sh[2] = (Elf64_Shdr){ .sh_name = 7, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
			      .sh_addr = 0x500000, .sh_offset = tab_off, .sh_size = len, .sh_addralign = 1 };
	sh[3] = (Elf64_Shdr){ .sh_name = (uint32_t)(8 + strlen(name)), .sh_type = SHT_STRTAB,
			      .sh_offset = str_off, .sh_size = sl, .sh_addralign = 1 };
	memcpy(img, &h, sizeof(h));
	memcpy(img + tab_off, tab, len);
	memcpy(img + str_off, strtab, sl);
	memcpy(img + sh_off, sh, sizeof(sh));
	return elf_memory((char *)img, sh_off + sizeof(sh));
}

static int kind_of(const uint8_t *tab, size_t len, const char *name, uint64_t addr)
{
	Elf *e = elf_with(tab, len, name);
	int k = go_kind(e, addr);

	CHECK(e != NULL);
	elf_end(e);
	return k;
}

int main(void)
{
	static uint8_t tab[0x1000], bad[0x1000];

	elf_version(EV_CURRENT);
	for (int v = 16; v <= 20; v += 2) {
		size_t len = table(tab, v);

		for (int sec = 0; sec < 2; sec++) {
			const char *name = sec ? ".data.rel.ro.gopclntab" : ".gopclntab";

			for (int i = 0; i < NF; i++) {
				uint64_t a = TEXT + 0x100 * (uint64_t)i;
				int k0 = kind_of(tab, len, name, a), k1 = kind_of(tab, len, name, a + 0xff);

				if (k0 != want[i] || k1 != want[i])
					T_FAIL("Go 1.%d %s: %s at +0 %d, +0xff %d, expected %d", v, name,
					       fnames[i], k0, k1, want[i]);
			}
			CHECK_EQ_INT(kind_of(tab, len, name, TEXT - 1), GO_FRAME);
			CHECK_EQ_INT(kind_of(tab, len, name, TEXT + 0x500), GO_FRAME);
		}
		/* another section name: not Go's table */
		CHECK_EQ_INT(kind_of(tab, len, ".rodata", TEXT), GO_FRAME);

		/* corrupt tables: no answer, no read past the section */
		unsigned ptr = 8;
		size_t pcln_at = v == 16 ? 8 + 6 * ptr : 8 + 7 * ptr;
		size_t names_at = v == 16 ? 8 + 2 * ptr : 8 + 3 * ptr;
		struct { size_t off; uint64_t val; unsigned n; } cases[] = {
			{ 8, 1ull << 40, 8 },			/* nfunc */
			{ 8, (len - 0x200) / 8, 8 },		/* nfunc to the end */
			{ pcln_at, len, 8 },			/* pclnOffset at the end */
			{ pcln_at, ~0ull, 8 },			/* pclnOffset past it */
			{ names_at, ~0ull - 2, 8 },		/* funcnameOffset */
			{ names_at, len - 1, 8 },		/* names at the last byte */
			{ 0, 0xfffffffb, 4 },			/* Go 1.2-1.15: no flags */
			{ 7, 3, 1 },				/* pointer size */
			{ 0x200 + (v == 16 ? 8 : 4), 0xffffff00u, 4 },	/* funcoff of goexit */
		};
		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			memcpy(bad, tab, len);
			put(bad, cases[c].off, cases[c].val, cases[c].n);
			for (uint64_t a = TEXT - 0x10; a < TEXT + 0x510; a += 0x80) {
				int k = kind_of(bad, len, ".gopclntab", a);

				/* a wrong name offset leaves only the flags; a
				 * wrong funcoff of goexit, the other functions */
				if (c == 8 && a >= TEXT + 0x100 && a < TEXT + 0x500)
					continue;
				if (k != GO_FRAME && !(c >= 4 && c <= 5 && k == GO_LAST))
					T_FAIL("Go 1.%d, corrupt case %zu: 0x%llx answers %d", v, c,
					       (unsigned long long)a, k);
			}
		}
		/* cut short: the header alone, and less */
		for (size_t cut = 0; cut <= 80; cut += 8)
			CHECK_EQ_INT(kind_of(tab, cut, ".gopclntab", TEXT), GO_FRAME);
	}
	return t_done();
}
