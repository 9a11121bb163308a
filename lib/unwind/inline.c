// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Inline frames from DWARF, as perf 6.1 adds them to unwound frames.
 *
 * perf asks addr2line -i for the address (in the file its symbols came
 * from) and replaces the frame by one frame per function addr2line names,
 * innermost first: each is the frame's symbol when the name is the
 * symbol's, else a made-up symbol of that name at the same start, marked
 * inlined ("NAME+OFF (inlined)", no DSO).  So a function DWARF names
 * otherwise than the symbol table (__libc_start_main_impl for
 * __libc_start_main) prints as inlined too.  Without DWARF for the
 * address, the frame stays as it is.
 *
 * Here: the innermost scopes of the address (pev__dwarf_scopes, which
 * unlike libdw's dwarf_getscopes finds Rust's functions inside their
 * namespaces) up to the first subprogram, named by their linkage name, else their name (through
 * abstract origins, as addr2line), demangled as symbols are.  The answer
 * is cached per (DSO, address); the DWARF of each DSO is opened once. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include <perfev/callchain.h>

#include "symbol/dwarf_scopes.h"
#include "symbol/symbols_internal.h"
#include "unwind/unwind_internal.h"

#define MAX_INLINE_NEST 32	/* binutils' addr2line-driven limit in perf */

struct dw_file {
	struct pev_dso *dso;
	int fd;
	Dwarf *dw;		/* NULL: no DWARF */
	struct pev__cu_ranges *cus;	/* units by their own ranges */
};

struct inl_ent {		/* a cached answer */
	struct pev_dso *dso;
	uint64_t vaddr;
	uint32_t first, nr;	/* names[first .. first + nr) */
	bool used;
};

struct inline_state {
	struct dw_file *files;
	size_t nr_files, cap_files;
	struct inl_ent *tab;	/* open addressing, power of two */
	size_t tab_size, tab_used;
	char **names;		/* owned, in answer order */
	/* Per name: where the function before it (inner) was inlined in
	 * it (DW_AT_call_file, owned by the Dwarf, and DW_AT_call_line);
	 * NULL for the innermost. */
	const char **call_files;
	unsigned *call_lines;
	size_t nr_names, cap_names;
};

static struct dw_file *dw_get(struct inline_state *in, struct pev_dso *dso)
{
	for (size_t i = 0; i < in->nr_files; i++)
		if (in->files[i].dso == dso)
			return &in->files[i];
	if (in->nr_files == in->cap_files) {
		size_t cap = in->cap_files ? in->cap_files * 2 : 16;
		struct dw_file *n = realloc(in->files, cap * sizeof(*n));

		if (!n)
			return NULL;
		in->files = n;
		in->cap_files = cap;
	}
	struct dw_file *f = &in->files[in->nr_files++];
	const char *path = pev_dso_symbol_source(dso);

	if (!path)
		path = pev_dso_name(dso);
	f->dso = dso;
	f->dw = NULL;
	f->cus = NULL;
	f->fd = path && path[0] == '/' ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (f->fd >= 0) {
		f->dw = dwarf_begin(f->fd, DWARF_C_READ);
		if (!f->dw) {
			close(f->fd);
			f->fd = -1;
		}
	}
	return f;
}

static size_t hash(const struct pev_dso *dso, uint64_t vaddr, size_t size)
{
	uint64_t h = (vaddr ^ ((uint64_t)(uintptr_t)dso * 0x9e3779b97f4a7c15ull)) *
		     0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 20) & (size - 1);
}

static int tab_grow(struct inline_state *in)
{
	size_t size = in->tab_size ? in->tab_size * 2 : 1024;
	struct inl_ent *t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < in->tab_size; i++) {
		struct inl_ent *e = &in->tab[i];

		if (!e->used)
			continue;
		size_t h = hash(e->dso, e->vaddr, size);

		while (t[h].used)
			h = (h + 1) & (size - 1);
		t[h] = *e;
	}
	free(in->tab);
	in->tab = t;
	in->tab_size = size;
	return 0;
}

static int name_add(struct inline_state *in, const char *name, const char *call_file,
		    unsigned call_line, bool demangle)
{
	if (in->nr_names == in->cap_names) {
		size_t cap = in->cap_names ? in->cap_names * 2 : 256;
		char **n = realloc(in->names, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		in->names = n;
		const char **cf = realloc(in->call_files, cap * sizeof(*cf));

		if (!cf)
			return -ENOMEM;
		in->call_files = cf;
		unsigned *cl = realloc(in->call_lines, cap * sizeof(*cl));

		if (!cl)
			return -ENOMEM;
		in->call_lines = cl;
		in->cap_names = cap;
	}
	char *d = demangle ? pev_demangle(name) : NULL;

	if (!d)
		d = strdup(name);
	if (!d)
		return -ENOMEM;
	in->call_files[in->nr_names] = call_file;
	in->call_lines[in->nr_names] = call_line;
	in->names[in->nr_names++] = d;
	return 0;
}

/* Where an inlined instance was called from: the file (as its CU's line
 * table names it) and line; NULL when DWARF does not say. */
static const char *call_site(Dwarf_Die *die, unsigned *line)
{
	Dwarf_Attribute a;
	Dwarf_Word file, ln;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;

	*line = 0;
	if (dwarf_tag(die) != DW_TAG_inlined_subroutine ||
	    dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &a), &file) != 0 ||
	    dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &a), &ln) != 0 ||
	    !dwarf_diecu(die, &cu, NULL, NULL) ||
	    dwarf_getsrcfiles(&cu, &files, &nfiles) != 0 || file >= nfiles)
		return NULL;
	*line = (unsigned)ln;
	return dwarf_filesrc(files, file, NULL, NULL);
}

static const char *scope_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n;

	n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
	return n;
}

/* gas describes an assembler function with one childless subprogram per
 * symbol alias, all over the same range; addr2line (which perf runs)
 * names the last of them.  *die becomes the last of the siblings that
 * follow it and cover vaddr too. */
static void last_alias(Dwarf_Die *die, uint64_t vaddr)
{
	Dwarf_Die cur = *die, next;

	while (dwarf_siblingof(&cur, &next) == 0 &&
	       dwarf_tag(&next) == DW_TAG_subprogram &&
	       dwarf_haspc(&next, vaddr) == 1) {
		*die = next;
		cur = next;
	}
}

/* Looks vaddr up in f's DWARF and appends the names to in->names: the
 * innermost function scope, then the functions holding it (their
 * concrete instances, as addr2line names them), up to the subprogram. */
static int lookup(struct inline_state *in, struct dw_file *f, uint64_t vaddr,
		  uint32_t *nr, bool demangle)
{
	Dwarf_Die cu, *chain = NULL, *inner = NULL;
	int m, i, r = 0;

	*nr = 0;
	if (!f->dw || !pev__dwarf_addrdie(f->dw, &f->cus, vaddr, &cu))
		return 0;
	m = pev__dwarf_scopes(&cu, vaddr, &chain);
	if (m < 0)
		return m;
	for (i = 0; i < m; i++) {
		int tag = dwarf_tag(&chain[i]);

		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram) {
			if (tag == DW_TAG_subprogram && !dwarf_haschildren(&chain[i]))
				last_alias(&chain[i], vaddr);
			break;
		}
	}
	for (; i < m && *nr < MAX_INLINE_NEST; i++) {
		int tag = dwarf_tag(&chain[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		const char *name = scope_name(&chain[i]), *cfile = NULL;
		unsigned cline = 0;

		if (inner)
			cfile = call_site(inner, &cline);
		inner = &chain[i];
		r = name_add(in, name ? name : "??", cfile, cline, demangle);
		if (r < 0)
			break;
		(*nr)++;
		if (tag == DW_TAG_subprogram)
			break;
	}
	free(chain);
	return r;
}

int pev__chain_add_inlines(struct pev_chain *c, const struct pev_addr_loc *loc,
		      uint64_t ip, uint8_t cpumode, bool unwound)
{
	struct inline_state *in = c->in;

	if (!loc->dso || !loc->sym || loc->kernel)
		return 0;
	if (!in) {
		in = calloc(1, sizeof(*in));
		if (!in)
			return -ENOMEM;
		c->in = in;
	}
	if (in->tab_used * 2 >= in->tab_size && tab_grow(in) < 0)
		return -ENOMEM;
	uint64_t vaddr = pev_dso_offset_to_vaddr(loc->dso, loc->map_ip);
	size_t h = hash(loc->dso, vaddr, in->tab_size);
	struct inl_ent *e;

	for (;;) {
		e = &in->tab[h];
		if (!e->used || (e->dso == loc->dso && e->vaddr == vaddr))
			break;
		h = (h + 1) & (in->tab_size - 1);
	}
	if (!e->used) {
		struct dw_file *f = dw_get(in, loc->dso);
		uint32_t nr;

		if (!f)
			return -ENOMEM;
		e->first = (uint32_t)in->nr_names;
		if (lookup(in, f, vaddr, &nr, pev__dso_demangle(loc->dso)) < 0)
			return -ENOMEM;
		e->dso = loc->dso;
		e->vaddr = vaddr;
		e->nr = nr;
		e->used = true;
		in->tab_used++;
	}
	if (!e->nr)
		return 0;
	for (uint32_t i = 0; i < e->nr; i++) {
		const char *name = in->names[e->first + i];
		struct pev_frame *fr = pev__chain_push(c);

		if (!fr)
			return -ENOMEM;
		fr->ip = ip;
		fr->cpumode = cpumode;
		fr->loc = *loc;
		fr->unwound = unwound;
		fr->inline_name = strcmp(name, loc->sym->name) ? name : NULL;
		fr->call_file = in->call_files[e->first + i];
		fr->call_line = in->call_lines[e->first + i];
	}
	return 1;
}

void pev__chain_inline_release(struct pev_chain *c)
{
	struct inline_state *in = c->in;

	if (!in)
		return;
	for (size_t i = 0; i < in->nr_files; i++) {
		if (in->files[i].dw)
			dwarf_end(in->files[i].dw);
		pev__cu_ranges_free(in->files[i].cus);
		if (in->files[i].fd >= 0)
			close(in->files[i].fd);
	}
	for (size_t i = 0; i < in->nr_names; i++)
		free(in->names[i]);
	free(in->names);
	free(in->call_files);
	free(in->call_lines);
	free(in->files);
	free(in->tab);
	free(in);
	c->in = NULL;
}
