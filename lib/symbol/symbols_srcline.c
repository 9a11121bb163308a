// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* libperfev: addresses to source lines through DWARF (libdw), with a
 * cache, since a script prints the same few addresses over and over. */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include <perfev/symbols.h>

#include "symbol/dwarf_scopes.h"
#include "symbol/symbols_internal.h"

#define SL_BUCKETS 4096u

/* One ELF file: its DWARF handle (NULL when it has no line tables). */
struct sl_file {
	struct sl_file *next;
	char *path;
	int fd;
	Dwarf *dw;
	/* The units without address ranges (found on the first lookup
	 * dwarf_addrdie does not answer; perf inject --jit's files). */
	bool bare_scanned;
	size_t nr_bare;
	Dwarf_Off *bare;
	struct pev_a2l_syms *a2l;	/* loaded on the first failed lookup */
	struct sl_unit *units;		/* DWARF 5 units seen by file0_rows() */
	struct pev__cu_ranges *cus;	/* units by their own ranges */
};

/* A DWARF 5 unit whose line table names different files at index 0 and
 * 1: the addresses of its rows that binutils gives file 0 (below). */
struct sl_unit {
	struct sl_unit *next;
	Dwarf_Off off;
	size_t nr;
	Dwarf_Addr *addrs;	/* sorted */
};

/* One looked-up address (found or not). */
struct sl_entry {
	struct sl_entry *next;
	const struct sl_file *f;
	uint64_t addr;
	const char *file;	/* interned; NULL when not found */
	unsigned line;
};

/* Interned file names: the line tables give the same few names again
 * and again, and callers may compare them by pointer. */
struct sl_name {
	struct sl_name *next;
	char name[];
};

/* A source file read for pev_srclines_text(), split into lines. */
struct sl_text {
	struct sl_text *next;
	const char *name;	/* interned */
	char *buf;		/* NULL: unreadable */
	size_t len;
	size_t nr_lines;
	size_t *starts;		/* offset of each line */
};

struct pev_srclines {
	struct sl_file *files;
	struct sl_text *texts;
	struct sl_entry *buckets[SL_BUCKETS];
	struct sl_name *names;
	size_t nr_entries;
};

struct pev_srclines *pev_srclines_new(void)
{
	struct pev_srclines *s = calloc(1, sizeof(*s));

	if (!s)
		errno = ENOMEM;
	return s;
}

void pev_srclines_free(struct pev_srclines *s)
{
	if (!s)
		return;
	for (struct sl_file *f = s->files, *n; f; f = n) {
		n = f->next;
		if (f->dw)
			dwarf_end(f->dw);
		if (f->fd >= 0)
			close(f->fd);
		free(f->path);
		free(f->bare);
		pev__a2l_syms_free(f->a2l);
		pev__cu_ranges_free(f->cus);
		for (struct sl_unit *u = f->units, *un; u; u = un) {
			un = u->next;
			free(u->addrs);
			free(u);
		}
		free(f);
	}
	for (size_t i = 0; i < SL_BUCKETS; i++)
		for (struct sl_entry *e = s->buckets[i], *n; e; e = n) {
			n = e->next;
			free(e);
		}
	for (struct sl_text *t = s->texts, *n; t; t = n) {
		n = t->next;
		free(t->buf);
		free(t->starts);
		free(t);
	}
	for (struct sl_name *nm = s->names, *n; nm; nm = n) {
		n = nm->next;
		free(nm);
	}
	free(s);
}

static struct sl_file *get_file(struct pev_srclines *s, const char *path)
{
	struct sl_file *f;

	for (f = s->files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->path = strdup(path);
	if (!f->path) {
		free(f);
		return NULL;
	}
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd >= 0) {
		f->dw = dwarf_begin(f->fd, DWARF_C_READ);
		if (!f->dw) {
			/* No DWARF: nothing to keep open. */
			close(f->fd);
			f->fd = -1;
		}
	}
	f->next = s->files;
	s->files = f;
	return f;
}

static const char *intern(struct pev_srclines *s, const char *name)
{
	for (struct sl_name *n = s->names; n; n = n->next)
		if (!strcmp(n->name, name))
			return n->name;
	size_t len = strlen(name);
	struct sl_name *n = malloc(sizeof(*n) + len + 1);

	if (!n)
		return NULL;
	memcpy(n->name, name, len + 1);
	n->next = s->names;
	s->names = n;
	return n->name;
}

static unsigned hash_addr(const struct sl_file *f, uint64_t addr)
{
	uint64_t h = (addr ^ (uintptr_t)f) * 0x9e3779b97f4a7c15ull;

	return (unsigned)(h >> 40) & (SL_BUCKETS - 1);
}

/* A compilation unit that has no address ranges (DW_AT_low_pc,
 * DW_AT_ranges) and whose line table covers addr: the units perf inject
 * --jit writes, which dwarf_addrdie cannot find but addr2line reads
 * through their line tables.  1 and *cu, or 0. */
static int cu_by_lines(struct sl_file *f, uint64_t addr, Dwarf_Die *cu)
{
	if (!f->bare_scanned) {
		Dwarf_Off off = 0, next;
		size_t hsize;

		f->bare_scanned = true;
		while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
			Dwarf_Die *d = dwarf_offdie(f->dw, off + hsize, cu);
			Dwarf_Off *v;

			if (d && !dwarf_hasattr(d, DW_AT_low_pc) && !dwarf_hasattr(d, DW_AT_ranges) &&
			    (v = realloc(f->bare, (f->nr_bare + 1) * sizeof(*v)))) {
				f->bare = v;
				f->bare[f->nr_bare++] = off + hsize;
			}
			off = next;
		}
	}
	for (size_t i = 0; i < f->nr_bare; i++)
		if (dwarf_offdie(f->dw, f->bare[i], cu) && dwarf_getsrc_die(cu, addr))
			return 1;
	return 0;
}

/* perf 6.1 reads addr2line's "FILE:LINE" up to the first ':', so a file
 * name holding one (node's "node:path") is cut there and its line is
 * read from what follows (0 for "path:123"). */
static void perf_split(struct pev_srclines *s, const char *src, unsigned lineno,
		       struct sl_entry *e)
{
	char *full, *colon;

	if (asprintf(&full, "%s:%u", src, lineno) < 0)
		return;
	colon = strchr(full, ':');
	*colon = 0;
	e->file = intern(s, full);
	if (e->file)
		e->line = (unsigned)strtoul(colon + 1, NULL, 0);
	free(full);
}

static int cmp_addr(const void *a, const void *b)
{
	Dwarf_Addr x = *(const Dwarf_Addr *)a, y = *(const Dwarf_Addr *)b;

	return x < y ? -1 : x > y;
}

/* binutils 2.40 (perf's addr2line) starts each sequence of a DWARF 5
 * line program with the file register at entry 0 where DWARF 5 says 1,
 * so the rows before the sequence's first DW_LNS_set_file name file 0
 * (the unit's own source) when entry 1 is another file (a header that
 * glibc's units start with).  The addresses of those rows in cu. */
static const struct sl_unit *file0_rows(struct sl_file *f, Dwarf_Die *cu,
					const char *f0, const char *f1)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct sl_unit *u;
	Dwarf_Lines *lines;
	size_t n;

	for (u = f->units; u; u = u->next)
		if (u->off == off)
			return u;
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->off = off;
	u->next = f->units;
	f->units = u;
	if (dwarf_getsrclines(cu, &lines, &n) != 0 || !(u->addrs = calloc(n ? n : 1, sizeof(Dwarf_Addr))))
		return u;
	/* gas emits DW_LNS_set_file only when the file changes, so a
	 * sequence's rows before its first other file are those rows.  libdw
	 * sorts a row at a sequence's end address after the end marker: such
	 * a row of another file does not end the next sequence's run. */
	bool initial = true;
	Dwarf_Addr end_at = 0;

	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		const char *src = dwarf_linesrc(l, NULL, NULL);
		bool end = false;
		Dwarf_Addr a;

		if (dwarf_lineaddr(l, &a) != 0)
			continue;
		dwarf_lineendsequence(l, &end);
		if (end) {
			initial = true;
			end_at = a;
			continue;
		}
		if (!src || strcmp(src, f1)) {
			if (!(initial && a == end_at))
				initial = false;
		} else if (initial) {
			u->addrs[u->nr++] = a;
		}
	}
	(void)f0;
	qsort(u->addrs, u->nr, sizeof(*u->addrs), cmp_addr);
	return u;
}

/* The file binutils names for line l of cu (see file0_rows). */
static const char *binutils_file(struct sl_file *f, Dwarf_Die *cu, Dwarf_Line *l,
				 const char *src)
{
	Dwarf_Half version;
	Dwarf_Files *files;
	size_t nfiles;
	const char *f0, *f1;
	const struct sl_unit *u;
	Dwarf_Addr a;

	if (dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) != 0 ||
	    version < 5 || dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || nfiles < 2)
		return src;
	f0 = dwarf_filesrc(files, 0, NULL, NULL);
	f1 = dwarf_filesrc(files, 1, NULL, NULL);
	if (!f0 || !f1 || strcmp(src, f1) || !strcmp(f0, f1) ||
	    !(u = file0_rows(f, cu, f0, f1)) || dwarf_lineaddr(l, &a) != 0 ||
	    !bsearch(&a, u->addrs, u->nr, sizeof(*u->addrs), cmp_addr))
		return src;
	return f0;
}

/* The line-table row for addr: the innermost location, as addr2line's
 * first answer.  An address inside a compilation unit without a row of
 * its own gets file "" and line 0 (addr2line prints ":?"). */
static void resolve(struct pev_srclines *s, struct sl_file *f,
		    uint64_t addr, struct sl_entry *e)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	int lineno = 0;
	const char *src;

	if (!f->dw || (!pev__dwarf_addrdie(f->dw, &f->cus, addr, &cu) && !cu_by_lines(f, addr, &cu)))
		return;
	l = dwarf_getsrc_die(&cu, addr);
	if (!l || dwarf_lineno(l, &lineno) != 0 || lineno < 0) {
		e->file = intern(s, "");
		e->line = 0;
		return;
	}
	src = dwarf_linesrc(l, NULL, NULL);
	if (!src)
		src = "";
	else
		src = binutils_file(f, &cu, l, src);
	if (strchr(src, ':')) {
		perf_split(s, src, (unsigned)lineno, e);
		return;
	}
	/* A name relative to the compilation directory is completed with it,
	 * as addr2line does (srccode opens the file). */
	if (src[0] && src[0] != '/') {
		Dwarf_Attribute at;
		const char *dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));
		char *full;

		if (dir && asprintf(&full, "%s/%s", dir, src) > 0) {
			e->file = intern(s, full);
			free(full);
			if (e->file)
				e->line = (unsigned)lineno;
			return;
		}
	}
	e->file = intern(s, src);
	e->line = (unsigned)lineno;
}

int pev_srclines_lookup(struct pev_srclines *s, const char *path,
			uint64_t vaddr, const char **file, unsigned *line)
{
	if (!s || !path || !file || !line)
		return -EINVAL;
	struct sl_file *f = get_file(s, path);

	if (!f)
		return -ENOMEM;
	unsigned h = hash_addr(f, vaddr);
	struct sl_entry *e;

	for (e = s->buckets[h]; e; e = e->next)
		if (e->f == f && e->addr == vaddr)
			goto found;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->f = f;
	e->addr = vaddr;
	resolve(s, f, vaddr, e);
	e->next = s->buckets[h];
	s->buckets[h] = e;
	s->nr_entries++;
found:
	if (!e->file)
		return 0;
	*file = e->file;
	*line = e->line;
	return 1;
}

int pev_srclines_addr2line(struct pev_srclines *s, const char *path,
			   uint64_t vaddr, const char **file, unsigned *line)
{
	int r = pev_srclines_lookup(s, path, vaddr, file, line);
	/* a unit that holds vaddr without a row for it: addr2line found
	 * something; its file name still comes from the symbols */
	bool in_unit = r == 1 && !(*file)[0] && !*line;
	struct sl_file *f;
	const char *name = NULL;

	if (r < 0 || (r == 1 && !in_unit))
		return r;
	f = get_file(s, path);
	if (!f)
		return -ENOMEM;
	if (!f->a2l && !(f->a2l = pev__a2l_syms_load(path)))
		return -ENOMEM;
	if (!pev__a2l_syms_find(f->a2l, vaddr, &name) && !in_unit)
		return 0;
	*file = intern(s, name ? name : "??");
	*line = 0;
	return *file ? 1 : -ENOMEM;
}

static void split_lines(struct sl_text *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->len; i++)
		n += t->buf[i] == '\n';
	if (t->len && t->buf[t->len - 1] != '\n')
		n++;		/* a last line without its newline */
	t->starts = malloc((n ? n : 1) * sizeof(*t->starts));
	if (!t->starts)
		return;
	size_t k = 0, start = 0;

	for (size_t i = 0; i < t->len && k < n; i++)
		if (t->buf[i] == '\n') {
			t->starts[k++] = start;
			start = i + 1;
		}
	if (k < n)
		t->starts[k++] = start;
	t->nr_lines = k;
}

const char *pev_srclines_text(struct pev_srclines *s, const char *file,
			      unsigned line, size_t *len)
{
	struct sl_text *t;
	const char *name;

	if (!s || !file || !len || !line)
		return NULL;
	name = intern(s, file);
	if (!name)
		return NULL;
	for (t = s->texts; t; t = t->next)
		if (t->name == name)
			break;
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		t->name = name;
		if (pev_read_whole_file(file, &t->buf, &t->len) == 0)
			split_lines(t);
		t->next = s->texts;
		s->texts = t;
	}
	if (!t->buf || !t->starts || line > t->nr_lines)
		return NULL;
	size_t off = t->starts[line - 1];
	const char *nl = memchr(t->buf + off, '\n', t->len - off);

	*len = (nl ? (size_t)(nl - t->buf) : t->len) - off;
	return t->buf + off;
}
