/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: the parent, trace and memory keys (profile_keys.c). */
#ifndef PEV_PROFILE_KEYS_H
#define PEV_PROFILE_KEYS_H

#include "profile/profile_intern.h"

/* compiles the parent regex (-EINVAL: invalid) */
int pev__pf_parent_init(struct pev_profile *p);
/* opts.ignore_callees compiled: 0, or -EINVAL */
int pev__pf_ignore_init(struct pev_profile *p);
/* The frame of ids (a chain, leaf first) where --ignore-callees leaves
 * the sample: the last match in perf's walk; -1 for none. */
long pev__pf_ignore_at(const struct pev_profile *p, const uint32_t *ids, uint32_t n);
/* The parent of chain c (its frames leaf first), interned; 0 or -ENOMEM. */
int pev__pf_chain_parent(struct pev_profile *p, struct pf_chain *c);
/* The trace key of sample s into k (interned); 0 or -ENOMEM. */
int pev__pf_trace_key(struct pev_profile *p, uint32_t ev, const struct pev_sample *s,
		      struct pf_key *k);
/* The memory keys of sample s into k, and what its entry shows (m);
 * 0 or -ENOMEM. */
struct pf_mem {
	uint64_t data_src, daddr, sym_off;
	bool shared;		/* perf's [s] */
	const struct pev_profile_frame *dframe;
};
int pev__pf_mem_keys(struct pev_profile *p, const struct pev_sample *s, uint8_t cpumode,
		     struct pf_key *k, struct pf_mem *m);

#endif
