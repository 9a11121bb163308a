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

	if (!f->dw || (!dwarf_addrdie(f->dw, addr, &cu) && !cu_by_lines(f, addr, &cu)))
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
