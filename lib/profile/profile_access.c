// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile's accessors: its totals and the comm of an entry's thread
 * (perfev/profile.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profile/profile_intern.h"

PEV_EXPORT int pev_profile_seed_dso(struct pev_profile *p, struct pev_dso *dso)
{
	if (!p || !dso)
		return -EINVAL;
	return pev__pf_dso_order(p, dso) == UINT32_MAX ? -ENOMEM : 0;
}

PEV_EXPORT uint64_t pev_profile_lost_samples(const struct pev_profile *p)
{
	return p ? p->lost_samples : 0;
}

PEV_EXPORT size_t pev_profile_nr_events(const struct pev_profile *p)
{
	return p ? p->nevents : 0;
}

PEV_EXPORT const struct pev_profile_stats *
pev_profile_stats(const struct pev_profile *p, size_t event)
{
	return p && event < p->nevents ? &p->stats[event] : NULL;
}

PEV_EXPORT const char *pev_profile_entry_thread_comm(const struct pev_profile *p,
						     const struct pev_profile_entry *e)
{
	return pev_machine_comm(p->m, (uint32_t)e->pid, (uint32_t)e->tid);
}
