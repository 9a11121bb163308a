/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: cgroup names and namespaces (profile_cgroup.c). */
#ifndef PEV_PROFILE_CGROUP_H
#define PEV_PROFILE_CGROUP_H

#include "profile/profile_intern.h"

int pev__pf_cgroup_record(struct pev_profile *p, const struct pev_record *rec);
void pev__pf_cgroup_ns(const struct pev_profile *p, uint32_t tid, uint64_t *dev,
		       uint64_t *ino);
void pev__pf_cgroup_free(struct pev_profile *p);

#endif
