/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: the names of threads no COMM has named yet (profile_comm.c). */
#ifndef PEV_PROFILE_COMM_H
#define PEV_PROFILE_COMM_H

#include "profile/profile_intern.h"

/* The comm of a sample of thread tid: the interned name the machine has
 * (the key), and in *shown what its entries show: the same, or for a
 * thread no COMM has named, that thread's own ":TID" string (renamed by
 * its first COMM).  NULL: no memory. */
const char *pev__pf_sample_comm(struct pev_profile *p, uint32_t pid, uint32_t tid,
				const char **shown);
/* Before the machine sees a COMM or FORK: a COMM renames the thread's
 * ":TID" string (perf's comm__override), a FORK starts a new thread (perf
 * replaces the one it had), whose samples get a new string. */
void pev__pf_comm_record(struct pev_profile *p, const struct pev_record *rec);
void pev__pf_comm_free(struct pev_profile *p);

#endif
