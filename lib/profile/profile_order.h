/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: the output order and the red-black tree (profile_order.c). */
#ifndef PEV_PROFILE_ORDER_H
#define PEV_PROFILE_ORDER_H

#include "profile/profile_intern.h"

/* perf's output order of the entries o[0..*np) of one event (*np
 * shrinks when entries merge in the collapsed tree); 0 or -ENOMEM. */
int pev__pf_output_order(struct pev_profile *p, uint32_t *o, uint32_t *np, bool replayed);
/* A red-black tree over positions 1..n (0: none), as lib/rbtree.c
 * balances it. */
struct pf_rbt {
	uint32_t *l, *r, *up;
	uint8_t *red;
	uint32_t root, n, cap;
};
/* Adds position n + 1 as the left or right child of parent (0: the root
 * of an empty tree) and rebalances; its position or -ENOMEM. */
int pev__pf_rbt_add(struct pf_rbt *t, uint32_t parent, bool left);
void pev__pf_rbt_release(struct pf_rbt *t);
/* perf's _sort__sym_cmp of two symbols, each maybe an inline frame's
 * (its interned name, else NULL), as pev__pf_key_collapse orders them. */
int pev__pf_sym_cmp(const struct pev_symbol *sa, const char *ia,
		    const struct pev_symbol *sb, const char *ib);
/* perf's cmp(b, a) of key k (the order of its collapsed tree). */
int pev__pf_key_collapse(const struct pf_entry *a, const struct pf_entry *b,
			 enum pev_sort_key k);

#endif
