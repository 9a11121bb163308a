/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: branch mode's key comparisons (profile_branch_cmp.c): perf's
 * flags bits (mispred 0, predicted 1, in_tx 2, abort 3, cycles 4-19) and
 * its cmp functions. */
#ifndef PEV_PROFILE_BRANCH_CMP_H
#define PEV_PROFILE_BRANCH_CMP_H

#include "profile/profile_intern.h"

/* perf's flags bits: mispred 0, predicted 1, in_tx 2,
 * abort 3, cycles 4-19 */
#define BF_MISPRED 1ULL
#define BF_PREDICTED 2ULL
#define BF_IN_TX 4ULL
#define BF_ABORT 8ULL
#define BF_CYCLES(f) ((int)(((f) >> 4) & 0xffff))
/* perf's cmp(left, right) of a branch key (sort.c's sort__*_from_cmp...). */
int64_t pev__pf_branch_cmp(const struct pev_profile *p, const struct pf_entry *l,
			   const struct pf_entry *r, enum pev_sort_key k);
bool pev__pf_is_branch_key(enum pev_sort_key k);

#endif
