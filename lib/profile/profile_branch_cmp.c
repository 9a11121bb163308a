// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Branch mode's key comparisons, perf's own (sort.c), including their
 * argument order; used by the live entries_in tree (profile_branch.c) and
 * the output order (profile_order.c). */
#include <string.h>

#include "profile/profile_branch_cmp.h"

bool pev__pf_is_branch_key(enum pev_sort_key k)
{
	return k >= PEV_SORT_DSO_FROM && k <= PEV_SORT_ADDR_TO;
}

static int64_t cmp_null(const void *l, const void *r)
{
	return !l && !r ? 0 : !l ? -1 : 1;
}

/* perf's _sort__dso_cmp(l, r): by short name, a missing DSO ... */
static int64_t dso_cmp(const struct pev_dso *l, const struct pev_dso *r)
{
	char bl[32], br[32];
	int c;

	if (!l || !r)
		return cmp_null(r, l);
	c = strcmp(pev_profile_dso_shown(l, bl, sizeof(bl)),
		   pev_profile_dso_shown(r, br, sizeof(br)));
	return c < 0 ? -1 : c > 0;
}

/* perf's _sort__sym_cmp(l, r), with perf's starts ls, rs */
static int64_t sym_cmp(const struct pev_symbol *l, uint64_t ls,
		       const struct pev_symbol *r, uint64_t rs)
{
	if (!l || !r)
		return cmp_null(l, r);
	if (l == r)
		return 0;
	if (ls != rs)
		return (int64_t)(rs - ls);
	return (int64_t)((rs + (r->end - r->start)) - (ls + (l->end - l->start)));
}

static int64_t str_cmp(const char *l, const char *r)
{
	int c = strcmp(l ? l : "", r ? r : "");

	return c < 0 ? -1 : c > 0;
}

int64_t pev__pf_branch_cmp(const struct pev_profile *p, const struct pf_entry *le,
			   const struct pf_entry *re, enum pev_sort_key k)
{
	const struct pf_key *l = &le->key, *r = &re->key;

	(void)p;
	switch (k) {
	case PEV_SORT_DSO_FROM:
		return dso_cmp(l->dso_from, r->dso_from);
	case PEV_SORT_DSO_TO:
		return dso_cmp(l->dso_to, r->dso_to);
	case PEV_SORT_SYM_FROM:
		if (!l->sym_from && !r->sym_from)
			return (int64_t)(r->addr_from - l->addr_from);
		return sym_cmp(l->sym_from, l->pstart_from, r->sym_from, r->pstart_from);
	case PEV_SORT_SYM_TO:
		if (!l->sym_to && !r->sym_to)
			return (int64_t)(r->addr_to - l->addr_to);
		return sym_cmp(l->sym_to, l->pstart_to, r->sym_to, r->pstart_to);
	case PEV_SORT_ADDR_FROM: {
		int64_t c = dso_cmp(l->dso_from, r->dso_from);

		return c ? c : (int64_t)(r->addr_from - l->addr_from);
	}
	case PEV_SORT_ADDR_TO: {
		int64_t c = dso_cmp(l->dso_to, r->dso_to);

		return c ? c : (int64_t)(r->addr_to - l->addr_to);
	}
	/* perf's mispredict, in_tx and abort compare with != (0 or 1) */
	case PEV_SORT_MISPREDICT:
		return (l->bflags & (BF_MISPRED | BF_PREDICTED)) !=
		       (r->bflags & (BF_MISPRED | BF_PREDICTED));
	case PEV_SORT_IN_TX:
		return (l->bflags & BF_IN_TX) != (r->bflags & BF_IN_TX);
	case PEV_SORT_ABORT:
		return (l->bflags & BF_ABORT) != (r->bflags & BF_ABORT);
	case PEV_SORT_CYCLES:
		return BF_CYCLES(l->bflags) - BF_CYCLES(r->bflags);
	/* perf's srcline_from/to: strcmp(right, left) */
	case PEV_SORT_SRCLINE_FROM:
		return str_cmp(r->srcline_from, l->srcline_from);
	case PEV_SORT_SRCLINE_TO:
		return str_cmp(r->srcline_to, l->srcline_to);
	default:
		return 0;
	}
}
