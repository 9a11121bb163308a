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
 * The names are binutils 2.40's (bfd/dwarf2.c), whose addr2line perf
 * keeps running, one per DSO, for the whole session:
 *  - the function of the address is the subprogram or inlined instance
 *    of its unit with the smallest single address range (after binutils
 *    merged the touching ranges of each) that holds it, the later DIE of
 *    two as small; not the innermost scope: an instance whose range list
 *    has a larger piece there loses to a function around it;
 *  - then the functions it was inlined in, up to the first subprogram;
 *  - each named by its linkage name, else its DW_AT_name (through its
 *    abstract origin and specifications); a DW_AT_name is a linkage name
 *    only in the languages binutils does not demangle (C, Fortran, ...);
 *  - the first function, when it has no linkage name (g++ writes none
 *    for a template instance only ever inlined), is named by the ELF
 *    symbol holding the address instead, once: binutils then marks it
 *    named, keeping the symbol's name for it only when the symbol starts
 *    where its first range does.  So the same inlined instance prints as
 *    the outer function at the first address asked (perf shows the
 *    frame's own symbol, no inline frame) and by its DW_AT_name at the
 *    next ones; the answers depend on the order of the questions, which
 *    are perf's (each address of a DSO once, samples in order);
 *  - a range list in DWARF 5's indexed form (DW_FORM_rnglistx: clang's)
 *    gives binutils 2.40 no range, so clang's inlined instances with
 *    several ranges never hold an address.
 * The names are demangled as symbols are.  The answer is cached per
 * (DSO, address); the DWARF of each DSO is opened once. */
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

/* A function of a unit as binutils' funcinfo: a subprogram, entry point
 * or inlined instance. */
struct bu_func {
	Dwarf_Off die;		/* in .debug_info */
	int caller;		/* the function it sits in (index), -1: none */
	bool inlined;		/* DW_TAG_inlined_subroutine */
	bool named;		/* name and linkage looked up */
	bool linkage;		/* binutils' is_linkage */
	const char *name;	/* the Dwarf's or the symbols' string, or NULL */
	uint64_t low;		/* the low end of its first range */
};

struct bu_range {
	uint64_t lo, hi;	/* [lo, hi) */
	uint64_t maxhi;		/* the highest hi of this range and those before */
	uint32_t func;
};

struct bu_unit {
	Dwarf_Off off;		/* the unit DIE's */
	struct bu_func *f;
	size_t nf, cf;
	struct bu_range *r;	/* sorted by lo */
	size_t nr, cr;
};

struct dw_file {
	struct pev_dso *dso;
	int fd;
	Dwarf *dw;		/* NULL: no DWARF */
	struct pev__cu_ranges *cus;	/* units by their own ranges */
	struct bu_unit *units;
	size_t nr_units, cap_units;
	struct pev_a2l_syms *syms;	/* loaded on the first unnamed function */
	char *path;
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
	memset(f, 0, sizeof(*f));
	f->dso = dso;
	f->path = path ? strdup(path) : NULL;
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

/* binutils 2.40's mangle_style() == 0 for the language of die's unit: a
 * DW_AT_name there is a linkage name. */
static bool plain_names(Dwarf_Die *die)
{
	Dwarf_Die cu;
	Dwarf_Word lang;
	Dwarf_Attribute a;

	if (!dwarf_diecu(die, &cu, NULL, NULL) ||
	    dwarf_formudata(dwarf_attr(&cu, DW_AT_language, &a), &lang) != 0)
		return false;
	switch (lang) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_Cobol74: case DW_LANG_Cobol85:
	case DW_LANG_Fortran77: case DW_LANG_Pascal83: case DW_LANG_PLI: case DW_LANG_C99:
	case DW_LANG_UPC: case DW_LANG_C11: case DW_LANG_Mips_Assembler:
	case 0x8765:	/* DW_LANG_Upc */
		return true;
	}
	return false;
}

struct name_walk {
	const char *name;
	bool linkage;
	bool plain;	/* plain_names() of the DIE being read */
	bool origin;	/* reading an abstract origin or specification */
	int depth;
};

static void name_die(Dwarf_Die *die, struct name_walk *w);

static int name_attr(Dwarf_Attribute *a, void *arg)
{
	struct name_walk *w = arg;
	const char *str;
	Dwarf_Die ref;

	switch (dwarf_whatattr(a)) {
	case DW_AT_abstract_origin:
		/* find_abstract_instance follows specifications only */
		if (w->origin)
			break;
		/* fallthrough */
	case DW_AT_specification:
		if (dwarf_formref_die(a, &ref)) {
			bool origin = w->origin, plain = w->plain;

			w->origin = true;
			name_die(&ref, w);
			w->origin = origin;
			w->plain = plain;
		}
		break;
	case DW_AT_name:
		if (!w->name && (str = dwarf_formstring(a))) {
			w->name = str;
			if (w->plain)
				w->linkage = true;
		}
		break;
	case DW_AT_linkage_name:
	case DW_AT_MIPS_linkage_name:
		if ((str = dwarf_formstring(a))) {
			w->name = str;
			w->linkage = true;
		}
		break;
	}
	return DWARF_CB_OK;
}

/* binutils' name of a function DIE: its attributes in order, with those
 * of the abstract origin or specification it refers to (and theirs, up
 * to 100 deep) where it does; a linkage name replaces what came before,
 * a DW_AT_name counts when nothing came before. */
static void name_die(Dwarf_Die *die, struct name_walk *w)
{
	if (w->depth >= 100)
		return;
	w->depth++;
	w->plain = plain_names(die);
	dwarf_getattrs(die, name_attr, w, 0);
	w->depth--;
}

static void func_name(struct dw_file *f, struct bu_func *fn)
{
	struct name_walk w = { 0 };
	Dwarf_Die die;

	if (fn->named)
		return;
	fn->named = true;
	if (dwarf_offdie(f->dw, fn->die, &die))
		name_die(&die, &w);
	fn->name = w.name;
	fn->linkage = w.linkage;
}

/* binutils' arange_add on one function's list (r[0] is the first): an
 * empty range is dropped, one that touches a range of the list extends
 * it, another goes in after the first. */
static void arange_add(uint64_t (*r)[2], size_t *n, size_t cap, uint64_t lo, uint64_t hi)
{
	if (lo == hi)
		return;
	if (!*n || !r[0][1]) {
		r[0][0] = lo;
		r[0][1] = hi;
		*n = *n ? *n : 1;
		return;
	}
	for (size_t i = 0; i < *n; i++) {
		if (lo == r[i][1]) {
			r[i][1] = hi;
			return;
		}
		if (hi == r[i][0]) {
			r[i][0] = lo;
			return;
		}
	}
	if (*n == cap)
		return;
	memmove(&r[2], &r[1], (*n - 1) * sizeof(r[0]));
	r[1][0] = lo;
	r[1][1] = hi;
	(*n)++;
}

#define MAX_RANGES 256		/* of one function; more are dropped */

/* The ranges of a function DIE into its unit (DW_AT_ranges first, then
 * low_pc/high_pc, as binutils adds them). */
static int func_ranges(struct bu_unit *u, Dwarf_Die *die, uint32_t idx, uint64_t *low)
{
	uint64_t r[MAX_RANGES][2];
	size_t n = 0;
	Dwarf_Attribute a;
	Dwarf_Addr base, lo, hi;

	if (dwarf_attr(die, DW_AT_ranges, &a) && dwarf_whatform(&a) != DW_FORM_rnglistx) {
		ptrdiff_t p = 0;

		while ((p = dwarf_ranges(die, p, &base, &lo, &hi)) > 0)
			arange_add(r, &n, MAX_RANGES, lo, hi);
	}
	if (dwarf_hasattr(die, DW_AT_low_pc) && dwarf_hasattr(die, DW_AT_high_pc) &&
	    dwarf_lowpc(die, &lo) == 0 && dwarf_highpc(die, &hi) == 0 && hi > lo)
		arange_add(r, &n, MAX_RANGES, lo, hi);
	*low = n ? r[0][0] : 0;
	for (size_t i = 0; i < n; i++) {
		if (r[i][0] >= r[i][1])
			continue;
		if (u->nr == u->cr) {
			size_t cap = u->cr ? u->cr * 2 : 256;
			struct bu_range *x = realloc(u->r, cap * sizeof(*x));

			if (!x)
				return -ENOMEM;
			u->r = x;
			u->cr = cap;
		}
		u->r[u->nr++] = (struct bu_range){ r[i][0], r[i][1], 0, idx };
	}
	return 0;
}

static bool func_tag(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_entry_point ||
	       tag == DW_TAG_inlined_subroutine;
}

/* Every function DIE under parent, in DIE order; caller: the function
 * they sit in (binutils' nested_funcs), -1 none. */
static int unit_walk(struct bu_unit *u, Dwarf_Die *parent, int caller, int depth)
{
	Dwarf_Die child;

	if (depth >= 128 || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child), inner = caller;

		if (func_tag(tag)) {
			if (u->nf == u->cf) {
				size_t cap = u->cf ? u->cf * 2 : 256;
				struct bu_func *x = realloc(u->f, cap * sizeof(*x));

				if (!x)
					return -ENOMEM;
				u->f = x;
				u->cf = cap;
			}
			inner = (int)u->nf;
			struct bu_func *fn = &u->f[u->nf++];

			memset(fn, 0, sizeof(*fn));
			fn->die = dwarf_dieoffset(&child);
			fn->inlined = tag == DW_TAG_inlined_subroutine;
			fn->caller = fn->inlined ? caller : -1;
			if (func_ranges(u, &child, (uint32_t)inner, &fn->low) < 0)
				return -ENOMEM;
		}
		if (dwarf_haschildren(&child) == 1 && unit_walk(u, &child, inner, depth + 1) < 0)
			return -ENOMEM;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct bu_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

/* The functions of unit cu (read on the first address in it). */
static struct bu_unit *unit_get(struct dw_file *f, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);

	for (size_t i = 0; i < f->nr_units; i++)
		if (f->units[i].off == off)
			return &f->units[i];
	if (f->nr_units == f->cap_units) {
		size_t cap = f->cap_units ? f->cap_units * 2 : 8;
		struct bu_unit *x = realloc(f->units, cap * sizeof(*x));

		if (!x)
			return NULL;
		f->units = x;
		f->cap_units = cap;
	}
	struct bu_unit *u = &f->units[f->nr_units];

	memset(u, 0, sizeof(*u));
	u->off = off;
	if (unit_walk(u, cu, -1, 0) < 0) {
		free(u->f);
		free(u->r);
		return NULL;
	}
	f->nr_units++;
	if (u->nr)
		qsort(u->r, u->nr, sizeof(*u->r), cmp_range);
	for (size_t i = 0; i < u->nr; i++)
		u->r[i].maxhi = i && u->r[i - 1].maxhi > u->r[i].hi ? u->r[i - 1].maxhi : u->r[i].hi;
	return u;
}

/* binutils' lookup_address_in_function_table: the function with the
 * smallest range holding pc, the later of two as small; -1 none. */
static int best_fit(const struct bu_unit *u, uint64_t pc)
{
	size_t lo = 0, hi = u->nr;
	int best = -1;
	uint64_t len = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u->r[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && pc < u->r[i].maxhi;) {
		const struct bu_range *r = &u->r[i];

		if (pc >= r->hi)
			continue;
		if (best < 0 || r->hi - r->lo < len ||
		    (r->hi - r->lo == len && (int)r->func > best)) {
			best = (int)r->func;
			len = r->hi - r->lo;
		}
	}
	return best;
}

/* Looks vaddr up as binutils' addr2line -i does and appends the names to
 * in->names: the function of the address, then those it was inlined in,
 * up to a subprogram. */
static int lookup(struct inline_state *in, struct dw_file *f, uint64_t vaddr,
		  uint32_t *nr, bool demangle)
{
	Dwarf_Die cu, die, inner;
	struct bu_unit *u;
	int b, r;

	*nr = 0;
	if (!f->dw || !pev__dwarf_addrdie(f->dw, &f->cus, vaddr, &cu))
		return 0;
	if (!(u = unit_get(f, &cu)))
		return -ENOMEM;
	if ((b = best_fit(u, vaddr)) < 0)
		return 0;
	struct bu_func *fn = &u->f[b];
	const char *name;

	func_name(f, fn);
	name = fn->name;
	if (!fn->linkage) {
		/* the ELF symbol's name, this once (see the top) */
		const char *sym;
		uint64_t start;

		if (!f->syms && f->path && !(f->syms = pev__a2l_syms_load(f->path)))
			return -ENOMEM;
		if (f->syms && pev__a2l_syms_func(f->syms, vaddr, &sym, &start)) {
			name = sym;
			if (start == fn->low)
				fn->name = sym;
		}
		fn->linkage = true;
	}
	if ((r = name_add(in, name ? name : "??", NULL, 0, demangle)) < 0)
		return r;
	(*nr)++;
	if (!dwarf_offdie(f->dw, fn->die, &inner))
		return 0;
	for (int i = fn->inlined ? fn->caller : -1; i >= 0 && *nr < MAX_INLINE_NEST;) {
		struct bu_func *c = &u->f[i];
		unsigned cline = 0;
		const char *cfile = call_site(&inner, &cline);

		func_name(f, c);
		if ((r = name_add(in, c->name ? c->name : "??", cfile, cline, demangle)) < 0)
			return r;
		(*nr)++;
		if (!dwarf_offdie(f->dw, c->die, &die))
			break;
		inner = die;
		i = c->inlined ? c->caller : -1;
	}
	return 0;
}

/* The cached answer for loc (looked up now when new); NULL when there is
 * none to look up (*err 0) or out of memory (*err -ENOMEM). */
static struct inl_ent *entry_get(struct pev_chain *c, const struct pev_addr_loc *loc, int *err)
{
	struct inline_state *in = c->in;

	*err = 0;
	if (!loc->dso || !loc->sym || loc->kernel)
		return NULL;
	*err = -ENOMEM;
	if (!in) {
		in = calloc(1, sizeof(*in));
		if (!in)
			return NULL;
		c->in = in;
	}
	if (in->tab_used * 2 >= in->tab_size && tab_grow(in) < 0)
		return NULL;
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
			return NULL;
		e->first = (uint32_t)in->nr_names;
		if (lookup(in, f, vaddr, &nr, pev__dso_demangle(loc->dso)) < 0)
			return NULL;
		e->dso = loc->dso;
		e->vaddr = vaddr;
		e->nr = nr;
		e->used = true;
		in->tab_used++;
	}
	*err = 0;
	return e;
}

int pev__chain_inline_warm(struct pev_chain *c, const struct pev_addr_loc *loc)
{
	int err;

	entry_get(c, loc, &err);
	return err;
}

int pev__chain_add_inlines(struct pev_chain *c, const struct pev_addr_loc *loc,
		      uint64_t ip, uint8_t cpumode, bool unwound)
{
	int err;
	struct inl_ent *e = entry_get(c, loc, &err);
	struct inline_state *in = c->in;

	if (!e)
		return err;
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
		for (size_t u = 0; u < in->files[i].nr_units; u++) {
			free(in->files[i].units[u].f);
			free(in->files[i].units[u].r);
		}
		free(in->files[i].units);
		pev__a2l_syms_free(in->files[i].syms);
		free(in->files[i].path);
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
