/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: the entries by key (profile_entry.c). */
#ifndef PEV_PROFILE_ENTRY_H
#define PEV_PROFILE_ENTRY_H

#include "profile/profile_intern.h"

int pev__pf_entry_find(struct pev_profile *p, const struct pf_key *k, char level,
		  const struct pev_profile_frame *fr, uint32_t *idx);
/* A new entry even when one has key k (perf's trees can hold several). */
int pev__pf_entry_new(struct pev_profile *p, const struct pf_key *k, char level,
		      const struct pev_profile_frame *fr, uint32_t *idx);

#endif
