/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: the replay of perf's lookups (profile_replay.c). */
#ifndef PEV_PROFILE_REPLAY_H
#define PEV_PROFILE_REPLAY_H

#include "profile/profile_intern.h"

/* Logs a kept sample of pair q; 0 or -ENOMEM. */
int pev__pf_log(struct pev_profile *p, uint32_t q, uint64_t period, uint32_t weight);
/* When event ev's entries can make perf's lookups miss, replays them:
 * *o (malloc'd, *n entries) gets the entries in the order of perf's
 * entries_in tree; 0 with *o NULL when no replay is needed; -ENOMEM. */
int pev__pf_replay(struct pev_profile *p, uint32_t ev, uint32_t **o, uint32_t *n);
/* Inserts the trees of one pair's lookups (ents[i] found for item i). */
int pev__pf_pair_trees(struct pev_profile *p, const struct pf_pair *q, const uint32_t *ents,
		       uint64_t period, uint64_t count);

#endif
