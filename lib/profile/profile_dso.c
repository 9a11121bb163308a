// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* DSO names as the tools print them (perfev/profile.h): stateless, below
 * every other file of lib/profile that shows or orders DSOs. */
#include <stdio.h>
#include <string.h>

#include "profile/profile_intern.h"

PEV_EXPORT const char *pev_profile_dso_short(const struct pev_dso *dso)
{
	const char *n = dso ? pev_dso_name(dso) : NULL;
	const char *b = n && n[0] != '[' ? strrchr(n, '/') : NULL;

	return b ? b + 1 : n;
}

PEV_EXPORT const char *pev_profile_dso_shown(const struct pev_dso *dso, char *b,
					     size_t sz)
{
	const char *n = pev_profile_dso_short(dso);
	int pid, end = 0;

	if (n && sscanf(n, "perf-%d.map%n", &pid, &end) == 1 && end && !n[end] &&
	    !strncmp(pev_dso_name(dso), "/tmp/", 5)) {
		snprintf(b, sz, "[JIT] tid %d", pid);
		return b;
	}
	return n;
}
