// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* /tmp/perf-PID.map files, read as perf 6.1's dso__load_perf_map reads
 * them, and looked up as its symbols__find looks them up.
 *
 * perf keeps these symbols in a red-black tree keyed by start address
 * (equal starts go right), never merges duplicates nor fixes sizes, and
 * searches it with:
 *	ip < start                          -> left
 *	ip > end, or ip == end != start     -> right
 *	else                                -> found (end = start + size)
 * So when entries overlap (a JIT reusing code space), which one an
 * address gets depends on the tree's shape, which depends on the file
 * order.  We build the same tree with the symbol tables' rbtree
 * (symbols_tree.c), so the answer is perf's. */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/jit.h>
#include "symbol/symbols_internal.h"
#include "symbol/jit_internal.h"
#include "core/util.h"

#define NIL PEV_RB_NIL

struct pev__perfmap {
	struct pev_symbol *syms;	/* file order */
	size_t nr, cap;
	char *names;			/* every name, NUL-separated */
	size_t names_len, names_cap;
	struct pev_rbnode *tree;	/* perf's rbtree, as for symbol tables */
	uint32_t root;
	uint32_t *by_addr;		/* indexes sorted by (start, file order) */
};

void pev__perfmap_free(struct pev__perfmap *pm)
{
	if (!pm)
		return;
	free(pm->syms);
	free(pm->names);
	free(pm->tree);
	free(pm->by_addr);
	free(pm);
}

const struct pev_symbol *pev__perfmap_lookup(const struct pev__perfmap *pm,
					     uint64_t ip)
{
	uint32_t n = pm->root;

	while (n != NIL) {
		const struct pev_symbol *s = &pm->syms[n];

		if (ip < s->start)
			n = pm->tree[n].left;
		else if (ip > s->end || (ip == s->end && ip != s->start))
			n = pm->tree[n].right;
		else
			return s;
	}
	return NULL;
}

size_t pev__perfmap_count(const struct pev__perfmap *pm)
{
	return pm->nr;
}

const struct pev_symbol *pev__perfmap_symbol(const struct pev__perfmap *pm,
					     size_t i)
{
	return i < pm->nr ? &pm->syms[pm->by_addr[i]] : NULL;
}

static int add_entry(struct pev__perfmap *pm, uint64_t start, uint64_t size,
		     const char *name)
{
	size_t nl = strlen(name) + 1;

	if (pm->nr >= NIL - 1)
		return -ENOMEM;
	if (pev__grow_array(pm->syms, &pm->cap, pm->nr + 1, 256) < 0)
		return -ENOMEM;
	if (pev__grow_array(pm->names, &pm->names_cap, pm->names_len + nl, 4096) < 0)
		return -ENOMEM;
	memcpy(pm->names + pm->names_len, name, nl);
	struct pev_symbol *s = &pm->syms[pm->nr++];

	memset(s, 0, sizeof(*s));
	s->start = start;
	s->end = size ? start + size : start;	/* wraps as perf's u64 does */
	s->name = (const char *)(uintptr_t)pm->names_len;	/* fixed later */
	s->binding = STB_GLOBAL;
	s->type = STT_FUNC;
	pm->names_len += nl;
	return 0;
}

/* perf's hex2u64: strtoull(ptr, &end, 16), the number of chars used. */
static size_t hex2u64(const char *ptr, uint64_t *val)
{
	char *end;

	*val = strtoull(ptr, &end, 16);
	return (size_t)(end - ptr);
}

/* One line of len bytes (with its newline when it has one), in a
 * NUL-terminated copy; perf's loop body. */
static int parse_line(struct pev__perfmap *pm, char *line, size_t line_len)
{
	uint64_t start, size;
	size_t len;

	line[--line_len] = '\0';
	len = hex2u64(line, &start);
	len++;
	if (len + 2 >= line_len)
		return 0;
	len += hex2u64(line + len, &size);
	len++;
	if (len + 2 >= line_len)
		return 0;
	return add_entry(pm, start, size, line + len);
}

static int cmp_idx(const void *a, const void *b, void *arg)
{
	const struct pev__perfmap *pm = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (pm->syms[x].start != pm->syms[y].start)
		return pm->syms[x].start < pm->syms[y].start ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int build(struct pev__perfmap *pm)
{
	size_t n = pm->nr ? pm->nr : 1;

	pm->tree = malloc(n * sizeof(*pm->tree));
	pm->by_addr = malloc(n * sizeof(uint32_t));
	if (!pm->tree || !pm->by_addr)
		return -ENOMEM;
	pm->root = NIL;
	for (size_t i = 0; i < pm->nr; i++) {
		pm->syms[i].name = pm->names + (uintptr_t)pm->syms[i].name;
		/* perf's __symbols__insert: equal starts go right */
		pev__rb_insert(pm->tree, &pm->root, (uint32_t)i, pm->syms);
		pm->by_addr[i] = (uint32_t)i;
	}
	qsort_r(pm->by_addr, pm->nr, sizeof(uint32_t), cmp_idx, pm);
	return 0;
}

struct pev__perfmap *pev__perfmap_parse(const char *text, size_t len)
{
	struct pev__perfmap *pm = calloc(1, sizeof(*pm));
	char *line = NULL;
	size_t line_cap = 0, pos = 0;

	if (!pm)
		goto nomem;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) + 1 : len - pos;

		if (pev__grow_array(line, &line_cap, n + 1, 256) < 0)
			goto nomem;
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n;
		if (parse_line(pm, line, n) < 0)
			goto nomem;
	}
	free(line);
	line = NULL;
	if (build(pm) < 0)
		goto nomem;
	return pm;
nomem:
	free(line);
	pev__perfmap_free(pm);
	errno = ENOMEM;
	return NULL;
}
