// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* libperfev: what binutils' addr2line (which perf 6.1 runs for srclines)
 * answers for an address its DWARF lookup does not place: the function
 * symbol nearest at or below it in its section, and the name of the file
 * symbol (STT_FILE) before that symbol in the symbol table, with line 0
 * ("name:?"; "??:?" without a file symbol; "??:0", a failure, when no
 * symbol is found).  Rules observed with binutils 2.40 (its symbol search
 * for error reports) and checked against addr2line's answers. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/symbols_internal.h"

/* A symbol addr2line may take for a function. */
struct a2l_sym {
	uint64_t start, size;	/* size 0 counts as 1 */
	uint32_t shndx;
	uint32_t order;		/* position in the symbol table */
	bool func;		/* STT_FUNC, STT_GNU_IFUNC */
	bool notype;
	const char *file;	/* the file name addr2line reports, or NULL */
	const char *name;	/* in names */
};

struct pev_a2l_syms {
	size_t nr_secs;
	struct { uint64_t addr, size; uint32_t idx; } *secs;
	size_t nr_syms;
	struct a2l_sym *syms;	/* by (shndx, start, order) */
	size_t nr_files;
	char **files;
	char *names;		/* the symbols' names, one after another */
};

static int by_place(const void *a, const void *b)
{
	const struct a2l_sym *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The symbols of one table; false when it holds none. */
static bool read_table(struct pev_a2l_syms *a, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	enum { NOTHING, SYMBOL, FILE_AFTER_SYMBOL } state = NOTHING;
	const char *file = NULL;

	if (!d || n < 2)
		return false;
	Elf_Data *str = elf_getdata(elf_getscn(e, sh->sh_link), NULL);

	a->syms = calloc(n, sizeof(*a->syms));
	a->files = calloc(n, sizeof(*a->files));
	/* a copy of the string table: the names outlive the ELF handle */
	a->names = str && str->d_size ? malloc(str->d_size + 1) : NULL;
	if (!a->syms || !a->files || !a->names)
		return false;
	memcpy(a->names, str->d_buf, str->d_size);
	a->names[str->d_size] = 0;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s))
			continue;
		int type = GELF_ST_TYPE(s.st_info), bind = GELF_ST_BIND(s.st_info);

		if (type == STT_FILE) {
			name = elf_strptr(e, sh->sh_link, s.st_name);
			a->files[a->nr_files] = strdup(name ? name : "");
			file = a->files[a->nr_files];
			if (file)
				a->nr_files++;
			if (state == SYMBOL)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING)
			state = SYMBOL;
		if (type == STT_SECTION || type == STT_OBJECT || type == STT_COMMON ||
		    type == STT_TLS || s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		/* zero-size hidden local labels without a type (annobin's)
		 * are no functions */
		if (!s.st_size && bind == STB_LOCAL && type == STT_NOTYPE &&
		    GELF_ST_VISIBILITY(s.st_other) == STV_HIDDEN)
			continue;
		struct a2l_sym *y = &a->syms[a->nr_syms++];

		y->start = s.st_value;
		y->size = s.st_size ? s.st_size : 1;
		y->shndx = s.st_shndx;
		y->order = (uint32_t)i;
		y->func = type == STT_FUNC || type == STT_GNU_IFUNC;
		y->notype = type == STT_NOTYPE;
		y->name = s.st_name < str->d_size ? a->names + s.st_name : "";
		/* a global symbol after a second file symbol: no file name */
		y->file = file && (bind == STB_LOCAL || state != FILE_AFTER_SYMBOL) ? file : NULL;
	}
	qsort(a->syms, a->nr_syms, sizeof(*a->syms), by_place);
	return true;
}

void pev__a2l_syms_free(struct pev_a2l_syms *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr_files; i++)
		free(a->files[i]);
	free(a->files);
	free(a->syms);
	free(a->names);
	free(a->secs);
	free(a);
}

struct pev_a2l_syms *pev__a2l_syms_load(const char *path)
{
	struct pev_a2l_syms *a = calloc(1, sizeof(*a));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr sh, symtab_sh, dynsym_sh;
	size_t nscn = 0;
	Elf *e;

	if (!a || fd < 0) {
		if (fd >= 0)
			close(fd);
		return a;
	}
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && elf_getshdrnum(e, &nscn) == 0 &&
	    (a->secs = calloc(nscn ? nscn : 1, sizeof(*a->secs)))) {
		while ((scn = elf_nextscn(e, scn))) {
			if (!gelf_getshdr(scn, &sh))
				continue;
			if ((sh.sh_flags & SHF_ALLOC) && sh.sh_size) {
				a->secs[a->nr_secs].addr = sh.sh_addr;
				a->secs[a->nr_secs].size = sh.sh_size;
				a->secs[a->nr_secs].idx = (uint32_t)elf_ndxscn(scn);
				a->nr_secs++;
			}
			if (sh.sh_type == SHT_SYMTAB) {
				symtab = scn;
				symtab_sh = sh;
			} else if (sh.sh_type == SHT_DYNSYM) {
				dynsym = scn;
				dynsym_sh = sh;
			}
		}
		/* addr2line reads the dynamic symbols when there are no others */
		if (!(symtab && read_table(a, e, symtab, &symtab_sh)) && dynsym) {
			for (size_t i = 0; i < a->nr_files; i++)
				free(a->files[i]);
			free(a->files);
			free(a->syms);
			free(a->names);
			a->files = NULL;
			a->syms = NULL;
			a->names = NULL;
			a->nr_files = a->nr_syms = 0;
			read_table(a, e, dynsym, &dynsym_sh);
		}
	}
	elf_end(e);
	close(fd);
	return a;
}

/* Whether y fits addr better than the best so far (binutils' order:
 * the nearest start; at one start, one that reaches addr, then a
 * function, then a typed symbol, then the smaller). */
static bool better(const struct a2l_sym *best, const struct a2l_sym *y, uint64_t addr)
{
	if (!best)
		return true;
	if (best->start + best->size <= addr)
		return y->size > best->size;
	if (y->start + y->size <= addr)
		return false;
	if (best->func != y->func)
		return y->func;
	if (best->notype != y->notype)
		return best->notype;
	return y->size < best->size;
}

/* The symbol addr2line takes for the function at addr, or NULL. */
static const struct a2l_sym *best_sym(const struct pev_a2l_syms *a, uint64_t addr)
{
	uint32_t idx = 0;
	bool in_sec = false;

	if (!a)
		return NULL;
	for (size_t i = 0; i < a->nr_secs && !in_sec; i++)
		if (addr >= a->secs[i].addr && addr - a->secs[i].addr < a->secs[i].size) {
			idx = a->secs[i].idx;
			in_sec = true;
		}
	if (!in_sec)
		return NULL;
	/* the first symbol of the section past addr */
	size_t lo = 0, hi = a->nr_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct a2l_sym *y = &a->syms[mid];

		if (y->shndx < idx || (y->shndx == idx && y->start <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || a->syms[lo - 1].shndx != idx)
		return NULL;
	uint64_t start = a->syms[lo - 1].start;
	const struct a2l_sym *best = NULL;

	while (lo > 0 && a->syms[lo - 1].shndx == idx && a->syms[lo - 1].start == start)
		lo--;
	for (; lo < a->nr_syms && a->syms[lo].shndx == idx && a->syms[lo].start == start; lo++)
		if (better(best, &a->syms[lo], addr))
			best = &a->syms[lo];
	return best;
}

int pev__a2l_syms_find(const struct pev_a2l_syms *a, uint64_t addr, const char **file)
{
	const struct a2l_sym *y = best_sym(a, addr);

	if (!y)
		return 0;
	*file = y->file;
	return 1;
}

int pev__a2l_syms_func(const struct pev_a2l_syms *a, uint64_t addr, const char **name,
		       uint64_t *start)
{
	const struct a2l_sym *y = best_sym(a, addr);

	if (!y)
		return 0;
	*name = y->name;
	*start = y->start;
	return 1;
}
