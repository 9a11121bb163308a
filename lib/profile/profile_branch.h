/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: branch mode (profile_branch.c). */
#ifndef PEV_PROFILE_BRANCH_H
#define PEV_PROFILE_BRANCH_H

#include "profile/profile_intern.h"

/* Branch mode: one entry per branch of s (k holds the sample's keys),
 * located at the branch's target as perf locates it. */
int pev__pf_add_branches(struct pev_profile *p, const struct pev_sample *s,
			 uint8_t cpumode, const struct pf_key *k, char level, bool filtered);
void pev__pf_live_free(struct pev_profile *p);
/* perf's hists__findnew_entry on the live entries_in tree (live_on). */
int pev__pf_live_find(struct pev_profile *p, const struct pf_key *k, char level,
		      const struct pev_profile_frame *fr, uint32_t *idx);

#endif
