// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The DWARF unit that holds an address, searched as binutils' addr2line
 * searches it: by .debug_aranges, else by the units' own ranges (see
 * dwarf_scopes.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <dwarf.h>

#include "symbol/dwarf_scopes.h"

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
