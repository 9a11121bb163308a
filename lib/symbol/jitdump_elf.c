// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* One ELF shared object per JIT function, built with libelf in the order
 * and with the alignments perf 6.1's genelf.c uses, so that libelf lays
 * the file out as in perf's jitted-PID-N.so:
 *
 *   ELF header, one PT_LOAD (R+X) over the code, then the sections
 *   1 .text at 0x80 (address = offset), [2 .eh_frame, 3 .eh_frame_hdr
 *   when there is unwinding data], .shstrtab, .symtab (the function),
 *   .strtab, .note.gnu.build-id, [.debug_line, .debug_info,
 *   .debug_abbrev when there are debug entries]. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/jit.h>

#include "symbol/jit_internal.h"

/* perf's section name table (offsets below). */
static const char shstrtab[] =
	"\0.text\0.shstrtab\0.symtab\0.strtab\0.note.gnu.build-id\0.debug_line"
	"\0.debug_info\0.debug_abbrev\0.eh_frame_hdr\0.eh_frame";
enum {
	N_TEXT = 1, N_SHSTR = 7, N_SYMTAB = 17, N_STRTAB = 25, N_NOTE = 33,
	N_DLINE = 52, N_DINFO = 64, N_DABBREV = 76, N_EHHDR = 90, N_EH = 104,
};

/* 20 bytes from three FNV-1a runs over what makes the function unique. */
static void make_build_id(uint8_t out[20], const char *name, uint64_t addr,
			  const uint8_t *code, uint64_t size)
{
	uint64_t h[3] = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull, 0x9e3779b97f4a7c15ull };

	for (int k = 0; k < 3; k++) {
		uint64_t x = h[k];

		for (const char *p = name; *p; p++)
			x = (x ^ (uint8_t)*p) * 0x100000001b3ull;
		for (int i = 0; i < 8; i++)
			x = (x ^ ((addr >> (8 * i)) & 0xff)) * 0x100000001b3ull;
		for (uint64_t i = 0; i < size; i++)
			x = (x ^ code[i]) * 0x100000001b3ull;
		h[k] = x ^ (x >> 29) ^ ((uint64_t)k << 56);
	}
	memcpy(out, h, 20);
}

/* A new section holding one data block; its header, or NULL. */
static Elf64_Shdr *add_section(Elf *e, const void *buf, size_t size, size_t align,
			       Elf_Type type, uint32_t name, uint32_t sh_type,
			       uint64_t flags, uint64_t addr)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;
	Elf64_Shdr *sh = d ? elf64_getshdr(scn) : NULL;

	if (!sh)
		return NULL;
	d->d_align = align;
	d->d_off = 0;
	d->d_buf = (void *)buf;
	d->d_type = type;
	d->d_size = size;
	d->d_version = EV_CURRENT;
	sh->sh_name = name;
	sh->sh_type = sh_type;
	sh->sh_flags = flags;
	sh->sh_addr = addr;
	sh->sh_entsize = 0;
	return sh;
}

struct note {
	Elf64_Nhdr h;
	char name[4];
	uint8_t id[20];
};

static int build(Elf *e, uint16_t elf_mach, const char *name, const void *code, uint64_t code_size,
		 const struct pev_jit_elf_extra *x, const struct note *note, char *strsym,
		 const struct pev__jit_buf dbg[3])
{
	bool unw = x && x->unwinding;
	Elf64_Sym sym[2];
	Elf64_Ehdr *eh = elf64_newehdr(e);
	Elf64_Phdr *ph = eh ? elf64_newphdr(e, 1) : NULL;
	Elf64_Shdr *sh;

	if (!ph)
		return -ENOMEM;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_machine = elf_mach;
	eh->e_type = ET_DYN;
	eh->e_entry = PEV_JIT_ELF_TEXT_OFFSET;
	eh->e_version = EV_CURRENT;
	eh->e_shstrndx = unw ? 4 : 2;
	ph->p_type = PT_LOAD;
	ph->p_offset = ph->p_vaddr = ph->p_paddr = PEV_JIT_ELF_TEXT_OFFSET;
	ph->p_filesz = ph->p_memsz = code_size;
	ph->p_flags = PF_X | PF_R;
	ph->p_align = 8;
	if (!add_section(e, code, code_size, 16, ELF_T_BYTE, N_TEXT, SHT_PROGBITS,
			 SHF_EXECINSTR | SHF_ALLOC, PEV_JIT_ELF_TEXT_OFFSET))
		return -ENOMEM;
	if (unw) {
		uint64_t table = x->unwinding_size - x->eh_frame_hdr_size;
		uint64_t base = (PEV_JIT_ELF_TEXT_OFFSET + code_size + 7) & ~7ull;

		if (!add_section(e, x->unwinding, table, 8, ELF_T_BYTE, N_EH, SHT_PROGBITS,
				 SHF_ALLOC, base) ||
		    !add_section(e, x->unwinding + table, x->eh_frame_hdr_size, 4, ELF_T_BYTE,
				 N_EHHDR, SHT_PROGBITS, SHF_ALLOC, base + table))
			return -ENOMEM;
	}
	if (!add_section(e, shstrtab, sizeof(shstrtab), 1, ELF_T_BYTE, N_SHSTR, SHT_STRTAB, 0, 0))
		return -ENOMEM;
	memset(sym, 0, sizeof(sym));
	sym[1].st_name = 1;
	sym[1].st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
	sym[1].st_shndx = 1;
	sym[1].st_value = PEV_JIT_ELF_TEXT_OFFSET;
	sym[1].st_size = code_size;
	sh = add_section(e, sym, sizeof(sym), 8, ELF_T_SYM, N_SYMTAB, SHT_SYMTAB, 0, 0);
	if (!sh)
		return -ENOMEM;
	sh->sh_entsize = sizeof(Elf64_Sym);
	sh->sh_link = unw ? 6 : 4;
	if (!add_section(e, strsym, strlen(name) + 2, 1, ELF_T_BYTE, N_STRTAB, SHT_STRTAB, 0, 0))
		return -ENOMEM;
	sh = add_section(e, note, sizeof(*note), 4, ELF_T_BYTE, N_NOTE, SHT_NOTE, SHF_ALLOC, 0);
	if (!sh)
		return -ENOMEM;
	sh->sh_size = sizeof(*note);
	if (dbg[0].len && (!add_section(e, dbg[0].data, dbg[0].len, 1, ELF_T_BYTE, N_DLINE,
					SHT_PROGBITS, 0, 0) ||
			   !add_section(e, dbg[1].data, dbg[1].len, 1, ELF_T_BYTE, N_DINFO,
					SHT_PROGBITS, 0, 0) ||
			   !add_section(e, dbg[2].data, dbg[2].len, 1, ELF_T_BYTE, N_DABBREV,
					SHT_PROGBITS, 0, 0)))
		return -ENOMEM;
	/* elf_update writes the data blocks out: sym may go after it. */
	errno = 0;
	if (elf_update(e, ELF_C_WRITE) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

PEV_EXPORT int pev_jit_write_elf_extra(const char *path, uint16_t elf_mach,
				       const char *name, uint64_t code_addr,
				       const void *code, uint64_t code_size,
				       const struct pev_jit_elf_extra *x,
				       uint8_t *build_id)
{
	struct pev__jit_buf dbg[3] = { { 0 } };
	struct note note;
	char *strsym;
	Elf *e;
	int fd, err;

	if (!path || !name || (!code && code_size) || code_size > INT32_MAX ||
	    (x && x->unwinding && x->eh_frame_hdr_size > x->unwinding_size) ||
	    (x && x->debug && (!x->hdr || x->debug->id != PEV_JIT_CODE_DEBUG_INFO)))
		return -EINVAL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	memset(&note, 0, sizeof(note));
	note.h.n_namesz = 4;
	note.h.n_descsz = 20;
	note.h.n_type = NT_GNU_BUILD_ID;
	memcpy(note.name, "GNU", 4);
	make_build_id(note.id, name, code_addr, code, code_size);
	strsym = calloc(1, strlen(name) + 2);
	if (!strsym)
		return -ENOMEM;
	strcpy(strsym + 1, name);
	if (x && x->debug && x->debug->u.debug_info.nr_entry &&
	    (err = pev__jit_debug_sections(x->hdr, x->debug, code_addr, dbg)) < 0) {
		free(strsym);
		return err;
	}
	/* A new inode: perf's build-id cache may hold the old file as a
	 * hard link (perf truncates it, spoiling that cache entry). */
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	err = e ? build(e, elf_mach, name, code, code_size, x, &note, strsym, dbg) : -ENOMEM;
	if (e)
		elf_end(e);
	if (close(fd) < 0 && !err)
		err = -errno;
	if (err)
		unlink(path);
	else if (build_id)
		memcpy(build_id, note.id, 20);
out:
	for (int i = 0; i < 3; i++)
		free(dbg[i].data);
	free(strsym);
	return err;
}

PEV_EXPORT int pev_jit_write_elf(const char *path, uint16_t elf_mach,
				 const char *name, uint64_t code_addr,
				 const void *code, uint64_t code_size,
				 uint8_t *build_id)
{
	return pev_jit_write_elf_extra(path, elf_mach, name, code_addr, code, code_size,
				       NULL, build_id);
}
