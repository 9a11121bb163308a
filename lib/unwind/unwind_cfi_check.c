// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* A check of a file's CFI before libdw interprets it.
 *
 * libdw's CFI interpreter grows its register table to the largest
 * register number an instruction names, with no bound: a corrupt (or
 * hostile) .eh_frame naming register 50,000,000 costs a gigabyte per
 * lookup.  libunwind, perf's unwinder, refuses any register past its
 * table (18 on x86-64), so such CFI unwinds nothing in perf either.
 * Before its CFI is used, every CIE and FDE program of a section is
 * decoded here and the section refused when an instruction names a
 * register past REG_MAX.  What cannot be decoded here (an augmentation
 * not known, an opcode libdw does not know either) is left to libdw,
 * which stops where this scan stops. */
#include <dwarf.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdw.h>
#include <gelf.h>

#include "unwind/unwind_state.h"

#define REG_MAX 1024		/* far above any machine's DWARF numbers */

static bool uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t r = 0;

	for (unsigned shift = 0; *p < end; shift += 7) {
		uint8_t b = *(*p)++;

		if (shift < 64)
			r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			if (v)
				*v = r;
			return true;
		}
	}
	return false;
}

static bool skip(const uint8_t **p, const uint8_t *end, uint64_t n)
{
	if (n > (uint64_t)(end - *p))
		return false;
	*p += n;
	return true;
}

/* Skips a pointer of DW_EH_PE encoding enc (addr_size for absptr). */
static bool skip_ptr(const uint8_t **p, const uint8_t *end, uint8_t enc, size_t addr_size)
{
	switch (enc & 0x0f) {
	case DW_EH_PE_absptr: return skip(p, end, addr_size);
	case DW_EH_PE_uleb128:
	case DW_EH_PE_sleb128: return uleb(p, end, NULL);
	case DW_EH_PE_udata2:
	case DW_EH_PE_sdata2: return skip(p, end, 2);
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4: return skip(p, end, 4);
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8: return skip(p, end, 8);
	default: return false;
	}
}

/* A register operand; *bad set when it is past REG_MAX. */
static bool reg(const uint8_t **p, const uint8_t *end, bool *bad)
{
	uint64_t r;

	if (!uleb(p, end, &r))
		return false;
	*bad |= r > REG_MAX;
	return !*bad;
}

/* A CFI program: false when an instruction names a register past
 * REG_MAX (the scan stops where it cannot decode, as libdw does). */
static bool program_ok(const uint8_t *p, const uint8_t *end, uint8_t enc, size_t addr_size)
{
	uint64_t n;
	bool bad = false;

	while (p < end) {
		uint8_t op = *p++;

		if ((op & 0xc0) == DW_CFA_advance_loc || (op & 0xc0) == DW_CFA_restore)
			continue;
		if ((op & 0xc0) == DW_CFA_offset) {
			if (!uleb(&p, end, NULL))
				return true;
			continue;
		}
		bool ok;

		switch (op) {
		case DW_CFA_nop: case DW_CFA_remember_state: case DW_CFA_restore_state:
		case DW_CFA_GNU_window_save:
			ok = true;
			break;
		case DW_CFA_set_loc: ok = skip_ptr(&p, end, enc, addr_size); break;
		case DW_CFA_advance_loc1: ok = skip(&p, end, 1); break;
		case DW_CFA_advance_loc2: ok = skip(&p, end, 2); break;
		case DW_CFA_advance_loc4: ok = skip(&p, end, 4); break;
		case DW_CFA_MIPS_advance_loc8: ok = skip(&p, end, 8); break;
		case DW_CFA_offset_extended: case DW_CFA_offset_extended_sf:
		case DW_CFA_val_offset: case DW_CFA_val_offset_sf:
		case DW_CFA_GNU_negative_offset_extended:
		case DW_CFA_def_cfa: case DW_CFA_def_cfa_sf:
			ok = reg(&p, end, &bad) && uleb(&p, end, NULL);
			break;
		case DW_CFA_register:
			ok = reg(&p, end, &bad) && reg(&p, end, &bad);
			break;
		case DW_CFA_restore_extended: case DW_CFA_undefined:
		case DW_CFA_same_value: case DW_CFA_def_cfa_register:
			ok = reg(&p, end, &bad);
			break;
		case DW_CFA_def_cfa_offset: case DW_CFA_def_cfa_offset_sf:
		case DW_CFA_GNU_args_size:
			ok = uleb(&p, end, NULL);
			break;
		case DW_CFA_def_cfa_expression:
			ok = uleb(&p, end, &n) && skip(&p, end, n);
			break;
		case DW_CFA_expression: case DW_CFA_val_expression:
			ok = reg(&p, end, &bad) && uleb(&p, end, &n) && skip(&p, end, n);
			break;
		default:
			ok = false;
		}
		if (!ok)
			return !bad;
	}
	return true;
}

/* The pointer encoding and augmentation of the CIE at off: false when
 * it cannot be read. */
static bool cie_at(const unsigned char *ident, Elf_Data *d, bool eh, Dwarf_Off off,
		   Dwarf_CIE *cie, uint8_t *enc)
{
	Dwarf_CFI_Entry e;
	Dwarf_Off next;

	if (dwarf_next_cfi(ident, d, eh, off, &next, &e) != 0 || e.CIE_id != LIBDW_CIE_ID)
		return false;
	*cie = e.cie;
	*enc = DW_EH_PE_absptr;
	const char *a = cie->augmentation;
	const uint8_t *p = cie->augmentation_data;
	const uint8_t *end = p ? p + cie->augmentation_data_size : NULL;

	if (a[0] != 'z')
		return !a[0];	/* an augmentation not understood: refused */
	for (a++; *a; a++) {
		if (*a == 'R' || *a == 'L') {
			if (!p || p >= end)
				return false;
			if (*a == 'R')
				*enc = *p;
			p++;
		} else if (*a == 'P') {
			if (!p || p >= end)
				return false;
			uint8_t penc = *p++;

			if (!skip_ptr(&p, end, penc, 8))
				return false;
		}	/* others ('S', unknown): no data, as libdw reads them */
	}
	return true;
}

bool pev__unwind_cfi_section_ok(Elf *elf, Elf_Data *d, bool eh)
{
	const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
	size_t addr_size = ident && ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry e;

	if (!ident || !d)
		return true;
	/* An entry not understood is skipped: libdw cannot run it either;
	 * one dwarf_next_cfi refuses is stepped over by its length, as
	 * libdw's search for an FDE steps over it. */
	for (; off < d->d_size; off = next) {
		Dwarf_CIE cie;
		uint8_t enc;

		if (dwarf_next_cfi(ident, d, eh, off, &next, &e) != 0 || next <= off) {
			uint32_t len32;
			uint64_t len;

			if (d->d_size - off < 4)
				break;
			memcpy(&len32, (const char *)d->d_buf + off, 4);
			len = len32;
			next = off + 4;
			if (len32 == 0xffffffff) {
				if (d->d_size - off < 12)
					break;
				memcpy(&len, (const char *)d->d_buf + off + 4, 8);
				next = off + 12;
			}
			if (len > d->d_size - next)
				break;
			next += len;
			continue;
		}

		if (e.CIE_id == LIBDW_CIE_ID) {
			if (cie_at(ident, d, eh, off, &cie, &enc) &&
			    !program_ok(e.cie.initial_instructions, e.cie.initial_instructions_end,
					enc, addr_size))
				return false;
			continue;
		}
		const uint8_t *p = e.fde.start, *end = e.fde.end;

		if (!cie_at(ident, d, eh, e.fde.CIE_pointer, &cie, &enc) ||
		    !skip_ptr(&p, end, enc, addr_size) ||
		    !skip_ptr(&p, end, enc & 0x0f, addr_size))
			continue;
		uint64_t n = cie.fde_augmentation_data_size;

		if (cie.augmentation[0] == 'z' && !uleb(&p, end, &n))
			continue;
		if (skip(&p, end, n) && !program_ok(p, end, enc, addr_size))
			return false;
	}
	return true;
}

bool pev__unwind_elf_cfi_ok(Elf *elf, const char *section)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return true;	/* no sections: no CFI for libdw to read */
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) || strcmp(name, section))
			continue;
		return pev__unwind_cfi_section_ok(elf, elf_getdata(scn, NULL),
						  !strcmp(section, ".eh_frame"));
	}
	return true;
}

bool pev__unwind_file_cfi_ok(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return true;	/* libdwfl will not read it either */
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	bool ok = pev__unwind_elf_cfi_ok(elf, ".eh_frame");

	elf_end(elf);
	close(fd);
	return ok;
}
