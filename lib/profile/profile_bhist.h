/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: --branch-history (profile_bhist.c). */
#ifndef PEV_PROFILE_BHIST_H
#define PEV_PROFILE_BHIST_H

#include "profile/profile_intern.h"

struct pf_bh_counts {
	uint64_t branch, predicted, abort, cycles, iter, iter_cycles, from;
	bool branch_to;
};
long pev__pf_bh_frames(struct pev_profile *p, const struct pev_sample *s);
int pev__pf_bh_node(struct pev_profile *p, uint32_t node, const struct pf_frame *f,
		    uint64_t count, bool created);

#endif
