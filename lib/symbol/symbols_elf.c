// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* ELF symbol tables and headers through libelf. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/symbols.h>
#include "symbol/symbols_internal.h"

static pthread_once_t elf_once = PTHREAD_ONCE_INIT;

static void elf_init(void)
{
	elf_version(EV_CURRENT);
}

static Elf *elf_open(const char *path, const void *buf, size_t len, int *fd)
{
	Elf *e;

	pthread_once(&elf_once, elf_init);
	*fd = -1;
	if (buf) {
		e = elf_memory((char *)buf, len);
	} else {
		*fd = open(path, O_RDONLY | O_CLOEXEC);
		if (*fd < 0)
			return NULL;
		e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	}
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		errno = ENOEXEC;
		return NULL;
	}
	return e;
}

static void elf_close(Elf *e, int fd)
{
	elf_end(e);
	if (fd >= 0)
		close(fd);
}

/* perf's elf_sym__filter: a named, defined function or data object
 * (perf keeps both in one tree since 4.17; the objects never match a
 * code address but shape the tree and end size-0 symbols before them). */
static bool sym_is_function_or_object(const GElf_Sym *s)
{
	int t = GELF_ST_TYPE(s->st_info);

	return (t == STT_FUNC || t == STT_GNU_IFUNC || t == STT_OBJECT) &&
	       s->st_name != 0 && s->st_shndx != SHN_UNDEF;
}

/* perf's elf_sym__is_label: a named NOTYPE symbol (an assembler label
 * such as ld.so's _start) that is defined, not absolute, and visible;
 * kept when its section is a text or data section. */
static bool sym_is_label(const GElf_Sym *s)
{
	int vis = GELF_ST_VISIBILITY(s->st_other);

	return GELF_ST_TYPE(s->st_info) == STT_NOTYPE && s->st_name != 0 &&
	       s->st_shndx != SHN_UNDEF && s->st_shndx != SHN_ABS &&
	       vis != STV_HIDDEN && vis != STV_INTERNAL;
}

/* perf's elf_sec__filter: the section's name says text or data. */
static bool section_is_text_or_data(Elf *e, size_t shstrndx, size_t idx)
{
	Elf_Scn *scn = elf_getscn(e, idx);
	GElf_Shdr sh;
	const char *name;

	if (!scn || !gelf_getshdr(scn, &sh))
		return false;
	name = elf_strptr(e, shstrndx, sh.sh_name);
	return name && (strstr(name, "text") || strstr(name, "data"));
}

static bool section_is_alloc(Elf *e, size_t idx)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (idx >= SHN_LORESERVE)
		return true;
	scn = elf_getscn(e, idx);
	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC);
}

static int load_section(Elf *e, Elf_Scn *scn, struct pev_symtab *st, bool demangle)
{
	GElf_Shdr sh;
	Elf_Data *data;
	size_t shstrndx = 0;
	bool have_shstr = elf_getshdrstrndx(e, &shstrndx) == 0;

	if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return 0;
	data = elf_getdata(scn, NULL);
	if (!data)
		return 0;
	size_t n = sh.sh_size / sh.sh_entsize;

	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(data, (int)i, &s))
			continue;
		if (!sym_is_function_or_object(&s) &&
		    !(sym_is_label(&s) && have_shstr && s.st_shndx < SHN_LORESERVE &&
		      section_is_text_or_data(e, shstrndx, s.st_shndx)))
			continue;
		/* perf skips absolute symbols and those of sections that are
		 * not loaded (.gnu.warning.*). */
		if (s.st_shndx == SHN_ABS || !section_is_alloc(e, s.st_shndx))
			continue;
		name = elf_strptr(e, sh.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		char *dm = demangle ? pev_demangle(name) : NULL;
		int err = pev_symtab_add(st, s.st_value, s.st_size, dm ? dm : name, NULL,
					 (uint8_t)GELF_ST_BIND(s.st_info),
					 (uint8_t)GELF_ST_TYPE(s.st_info));

		free(dm);
		if (err < 0)
			return err;
	}
	return 0;
}

static Elf_Scn *find_section(Elf *e, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn))) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type && sh.sh_size)
			return scn;
	}
	return NULL;
}

static Elf_Scn *find_named(Elf *e, const char *want, GElf_Shdr *out)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, out))
			continue;
		name = elf_strptr(e, shstrndx, out->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/* PLT stub sizes as perf 6.1 assumes them: fixed for ARM and AArch64,
 * else the .plt section's entry size for the header and every stub. */
static bool plt_sizes(Elf *e, const GElf_Shdr *plt, uint64_t *hdr,
		      uint64_t *ent)
{
	GElf_Ehdr eh;

	if (!gelf_getehdr(e, &eh))
		return false;
	switch (eh.e_machine) {
	case EM_ARM:
		*hdr = 20;
		*ent = 12;
		break;
	case EM_AARCH64:
		*hdr = 32;
		*ent = 16;
		break;
	default:
		*hdr = *ent = plt->sh_entsize;
		break;
	}
	return *ent != 0;
}

/* perf 6.1's dso__synthesize_plt_symbols: stub i of .plt (after its
 * header) belongs to relocation i of .rela.plt (or .rel.plt, which must
 * name .dynsym) and is called "<demangled symbol>@plt".  perf 6.1 knows
 * neither .plt.sec nor .plt.got: addresses there fall to whatever symbol
 * covers them, as in perf. */
static int add_plt(Elf *e, struct pev_symtab *st, bool demangle)
{
	GElf_Shdr plt, rel, dyn;
	Elf_Scn *rs = find_named(e, ".rela.plt", &rel), *ds;
	uint64_t hdr, ent;

	if (!rs)
		rs = find_named(e, ".rel.plt", &rel);
	if (!rs || !rel.sh_entsize || (rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL))
		return 0;
	ds = find_section(e, SHT_DYNSYM);
	if (!ds || elf_ndxscn(ds) != rel.sh_link || !gelf_getshdr(ds, &dyn))
		return 0;
	if (!find_named(e, ".plt", &plt) || !plt_sizes(e, &plt, &hdr, &ent))
		return 0;
	Elf_Data *rd = elf_getdata(rs, NULL), *dd = elf_getdata(ds, NULL);

	if (!rd || !dd)
		return 0;
	size_t n = rel.sh_size / rel.sh_entsize;
	uint64_t addr = plt.sh_addr + hdr;

	for (size_t i = 0; i < n; i++, addr += ent) {
		GElf_Rela r;
		GElf_Rel rl;
		GElf_Sym sym;
		const char *name = "";
		char buf[1024];
		size_t si;

		if (rel.sh_type == SHT_RELA) {
			if (!gelf_getrela(rd, (int)i, &r))
				continue;
			si = GELF_R_SYM(r.r_info);
		} else {
			if (!gelf_getrel(rd, (int)i, &rl))
				continue;
			si = GELF_R_SYM(rl.r_info);
		}
		if (gelf_getsym(dd, (int)si, &sym)) {
			const char *nm = elf_strptr(e, dyn.sh_link, sym.st_name);

			if (nm)
				name = nm;
		}
		char *dm = demangle ? pev_demangle(name) : NULL;

		snprintf(buf, sizeof(buf), "%s@plt", dm ? dm : name);
		free(dm);
		int err = pev_symtab_add(st, addr, ent, buf, NULL, STB_GLOBAL, STT_FUNC);

		if (err < 0)
			return err;
	}
	return 0;
}

static int symtab_add_plt(struct pev_symtab *st, const char *path, bool demangle)
{
	int fd, err;
	Elf *e = elf_open(path, NULL, 0, &fd);

	if (!e)
		return -errno;
	err = add_plt(e, st, demangle);
	elf_close(e, fd);
	return err;
}

int pev__symtab_add_plt(struct pev_symtab *st, const char *path)
{
	return symtab_add_plt(st, path, true);
}

static struct pev_symtab *load_elf2(const char *path, const void *buf, size_t len,
				    const char *plt_path, bool demangle);

static struct pev_symtab *load_elf(const char *path, const void *buf, size_t len)
{
	return load_elf2(path, buf, len, NULL, true);
}

struct pev_symtab *pev__symtab_load_elf_plt(const char *path, const char *plt_path,
					    bool demangle)
{
	return load_elf2(path, NULL, 0, plt_path, demangle);
}

static struct pev_symtab *load_elf2(const char *path, const void *buf, size_t len,
				    const char *plt_path, bool demangle)
{
	int fd, err;
	Elf *e = elf_open(path, buf, len, &fd);

	if (!e)
		return NULL;
	/* perf 6.1 reads .symtab, then .dynsym (fixing ends and duplicates
	 * after each), then adds the PLT, but only when the tables gave it
	 * some symbol (dso__load's "ret > 0": a stripped executable whose
	 * .dynsym only imports keeps its stubs unnamed). */
	Elf_Scn *scn = find_section(e, SHT_SYMTAB), *dscn = find_section(e, SHT_DYNSYM);

	if (!scn && !dscn) {
		elf_close(e, fd);
		errno = ENODATA;
		return NULL;
	}
	struct pev_symtab *st = pev_symtab_new();

	if (!st) {
		elf_close(e, fd);
		return NULL;
	}
	err = scn ? load_section(e, scn, st, demangle) : 0;
	pev__symtab_mark_loaded(st);
	if (!err && dscn)
		err = load_section(e, dscn, st, demangle);
	pev__symtab_mark_loaded(st);
	if (!err && plt_path && pev_symtab_count(st))
		symtab_add_plt(st, plt_path, demangle);	/* best effort */
	if (!err)
		err = pev_symtab_finish(st);
	elf_close(e, fd);
	if (err < 0) {
		pev_symtab_free(st);
		errno = -err;
		return NULL;
	}
	return st;
}

PEV_EXPORT struct pev_symtab *pev_symtab_load_elf(const char *path)
{
	if (!path) {
		errno = EINVAL;
		return NULL;
	}
	return load_elf(path, NULL, 0);
}

struct pev_symtab *pev__symtab_load_elf_mem(const void *buf, size_t len)
{
	return load_elf(NULL, buf, len);
}

static void read_build_id(Elf *e, struct pev_elf_info *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;

		if (!d)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + name_off, "GNU", 4)) {
				size_t n = nh.n_descsz < 20 ? nh.n_descsz : 20;

				memcpy(out->build_id, (char *)d->d_buf + desc_off, n);
				out->build_id_size = (int)n;
				return;
			}
		}
	}
}

static void read_debuglink(Elf *e, struct pev_elf_info *out)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".gnu_debuglink"))
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);

		if (!d || !d->d_size)
			return;
		size_t n = strnlen(d->d_buf, d->d_size);

		if (n && n < sizeof(out->debuglink)) {
			memcpy(out->debuglink, d->d_buf, n);
			out->debuglink[n] = 0;
		}
		return;
	}
}

int pev__elf_info_read(const char *path, const void *buf, size_t len,
		      struct pev_elf_info *out)
{
	int fd;
	size_t nph;
	Elf *e;

	memset(out, 0, sizeof(*out));
	e = elf_open(path, buf, len, &fd);
	if (!e)
		return -errno;
	out->is_elf = true;
	if (elf_getphdrnum(e, &nph) == 0) {
		for (size_t i = 0; i < nph && out->nr_loads < PEV_ELF_MAX_LOADS; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			out->loads[out->nr_loads].offset = ph.p_offset;
			out->loads[out->nr_loads].filesz = ph.p_filesz;
			out->loads[out->nr_loads].memsz = ph.p_memsz;
			out->loads[out->nr_loads].vaddr = ph.p_vaddr;
			out->nr_loads++;
		}
	}
	out->has_symtab = find_section(e, SHT_SYMTAB) != NULL;
	out->has_dynsym = find_section(e, SHT_DYNSYM) != NULL;
	read_build_id(e, out);
	read_debuglink(e, out);
	GElf_Shdr text;

	if (find_named(e, ".text", &text) && text.sh_type != SHT_NOBITS)
		out->text_offset = text.sh_addr - text.sh_offset;
	elf_close(e, fd);
	return 0;
}

uint64_t pev_elf_offset_to_vaddr(const struct pev_elf_info *info, uint64_t off)
{
	for (size_t i = 0; i < info->nr_loads; i++) {
		uint64_t o = info->loads[i].offset;

		if (off >= o && off < o + info->loads[i].filesz)
			return off - o + info->loads[i].vaddr;
	}
	/* Past the file's bytes: the .bss that shares the segment's last
	 * file page (ld.so zeroes it there). perf places every symbol by
	 * the segment whose memory (p_memsz) holds it, so it finds those. */
	for (size_t i = 0; i < info->nr_loads; i++) {
		uint64_t o = info->loads[i].offset;

		if (off >= o && off < o + info->loads[i].memsz)
			return off - o + info->loads[i].vaddr;
	}
	return off;
}
