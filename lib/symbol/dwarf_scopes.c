// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The DWARF unit and scopes that hold an address, searched as binutils'
 * addr2line searches them: the unit by .debug_aranges, else by the units'
 * own ranges; then down the tree of the unit through every scope whose
 * address ranges hold it and every namespace (see dwarf_scopes.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <dwarf.h>

#include "symbol/dwarf_scopes.h"

/* Deeper than any compiler nests scopes; bounds the walk on bad DWARF. */
#define MAX_DEPTH 128

struct scope_vec {
	Dwarf_Die *d;
	size_t n, cap;
	bool nomem;
};

static bool push(struct scope_vec *v, const Dwarf_Die *die)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		Dwarf_Die *d = realloc(v->d, cap * sizeof(*d));

		if (!d) {
			v->nomem = true;
			return false;
		}
		v->d = d;
		v->cap = cap;
	}
	v->d[v->n++] = *die;
	return true;
}

/* Code scopes: a match when their ranges hold pc. */
static bool code_scope(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block:
	case DW_TAG_entry_point:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_with_stmt:
		return true;
	}
	return false;
}

/* Appends to v the chain of parent's descendants that hold pc, outermost
 * first: the first child whose ranges hold it, then its own; a namespace
 * or module without ranges is searched and kept only when something in
 * it holds pc.  True when something was found. */
static bool walk(Dwarf_Die *parent, uint64_t pc, struct scope_vec *v, int depth)
{
	Dwarf_Die child;

	if (depth >= MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (code_scope(tag)) {
			if (dwarf_haspc(&child, pc) != 1)
				continue;
			if (push(v, &child))
				walk(&child, pc, v, depth + 1);
			return true;
		}
		if ((tag == DW_TAG_namespace || tag == DW_TAG_module) &&
		    dwarf_haschildren(&child) == 1) {
			size_t mark = v->n;

			if (dwarf_haspc(&child, pc) == 0 &&
			    (dwarf_hasattr(&child, DW_AT_low_pc) || dwarf_hasattr(&child, DW_AT_ranges)))
				continue;	/* a module with ranges elsewhere */
			if (!push(v, &child))
				return true;
			if (walk(&child, pc, v, depth + 1))
				return true;
			v->n = mark;
		}
	} while (!v->nomem && dwarf_siblingof(&child, &child) == 0);
	return false;
}

int pev__dwarf_scopes(Dwarf_Die *cu, uint64_t pc, Dwarf_Die **scopes)
{
	struct scope_vec v = { 0 };

	*scopes = NULL;
	if (!push(&v, cu))
		return -ENOMEM;
	walk(cu, pc, &v, 0);
	if (v.nomem) {
		free(v.d);
		return -ENOMEM;
	}
	if (v.n == 1) {		/* only the unit: no scope of it holds pc */
		free(v.d);
		return 0;
	}
	/* innermost first */
	for (size_t i = 0, j = v.n - 1; i < j; i++, j--) {
		Dwarf_Die t = v.d[i];

		v.d[i] = v.d[j];
		v.d[j] = t;
	}
	*scopes = v.d;
	return (int)v.n;
}

struct cu_range {
	uint64_t lo, hi;	/* [lo, hi) */
	uint64_t maxhi;		/* the highest hi of this range and those before */
	Dwarf_Off die;		/* the unit's DIE */
};

struct pev__cu_ranges {
	struct cu_range *r;
	size_t n, cap;
};

static int cmp_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	/* the earlier unit first among equal starts */
	return x->die < y->die ? -1 : x->die > y->die;
}

static struct pev__cu_ranges *ranges_build(Dwarf *dw)
{
	struct pev__cu_ranges *x = calloc(1, sizeof(*x));
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (!x)
		return NULL;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die die;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t p = 0;

		if (dwarf_offdie(dw, off + hsize, &die)) {
			while ((p = dwarf_ranges(&die, p, &base, &lo, &hi)) > 0) {
				if (lo >= hi)
					continue;
				if (x->n == x->cap) {
					size_t cap = x->cap ? x->cap * 2 : 64;
					struct cu_range *r = realloc(x->r, cap * sizeof(*r));

					if (!r) {
						pev__cu_ranges_free(x);
						return NULL;
					}
					x->r = r;
					x->cap = cap;
				}
				x->r[x->n++] = (struct cu_range){ lo, hi, 0, off + hsize };
			}
		}
		off = next;
	}
	if (x->n)
		qsort(x->r, x->n, sizeof(*x->r), cmp_range);
	for (size_t i = 0; i < x->n; i++)
		x->r[i].maxhi = i && x->r[i - 1].maxhi > x->r[i].hi ? x->r[i - 1].maxhi : x->r[i].hi;
	return x;
}

Dwarf_Die *pev__dwarf_addrdie(Dwarf *dw, struct pev__cu_ranges **idx, uint64_t pc, Dwarf_Die *cu)
{
	if (!dw)
		return NULL;
	if (dwarf_addrdie(dw, pc, cu))
		return cu;
	if (!*idx && !(*idx = ranges_build(dw)))
		return NULL;

	const struct pev__cu_ranges *x = *idx;
	size_t lo = 0, hi = x->n;

	/* past the last range starting at or below pc, then back over those
	 * while one could still hold pc: the nearest start that holds it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->r[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct cu_range *best = NULL;

	for (size_t i = lo; i-- > 0 && pc < x->r[i].maxhi;)
		if (pc < x->r[i].hi) {
			best = &x->r[i];
			break;
		}
	return best && dwarf_offdie(dw, best->die, cu) ? cu : NULL;
}

void pev__cu_ranges_free(struct pev__cu_ranges *idx)
{
	if (!idx)
		return;
	free(idx->r);
	free(idx);
}
