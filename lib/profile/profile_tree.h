/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: the call trees (profile_tree.c). */
#ifndef PEV_PROFILE_TREE_H
#define PEV_PROFILE_TREE_H

#include "profile/profile_intern.h"

/* perf's callchain_merge: tree src's totals added into *dst. */
int pev__pf_tree_merge(struct pev_profile *p, uint32_t *dst, uint32_t src);
int pev__pf_tree_insert(struct pev_profile *p, uint32_t *root, const uint32_t *fids,
		   uint32_t n, uint64_t period, uint64_t count);

#endif
