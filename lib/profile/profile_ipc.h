/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: branch mode's IPC (profile_ipc.c). */
#ifndef PEV_PROFILE_IPC_H
#define PEV_PROFILE_IPC_H

#include "profile/profile_intern.h"

/* one branch's ends, as perf's hist__account_cycles
 * reads them (symbols raw, offsets from their starts) */
struct pf_ipc_end {
	const struct pev_symbol *from_sym, *to_sym;
	const struct pev_dso *from_dso;
	uint64_t from_start;	/* from_sym's start in the map */
	uint64_t from_off, to_off;
	unsigned cycles;
};
int pev__pf_ipc_account(struct pev_profile *p, const struct pf_ipc_end *ends, size_t n,
			bool any_branch);
void pev__pf_ipc_free(struct pev_profile *p);

#endif
