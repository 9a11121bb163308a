// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf's fallback for unprivileged users: the retry with exclude_kernel
 * and the ":u" name.  Apart from util.c because it reads the paranoid
 * sysctl through sys.c, which itself uses util.c's file reader. */
#include <stdio.h>
#include <string.h>

#include <perfev/sys.h>

#include "core/util.h"

PEV_HIDDEN long pev__user_fallback(struct perf_event_attr *a)
{
	long paranoid;

	if (a->exclude_kernel || a->exclude_user ||
	    pev_sysctl_read(PEV_SYSCTL_PARANOID, &paranoid) < 0 || paranoid <= 1)
		return 0;
	a->exclude_kernel = a->exclude_hv = 1;
	return paranoid;
}

PEV_HIDDEN char *pev__user_only_name(const char *name)
{
	const char *sep = strchr(name, '/') || strchr(name, ':') ? "" : ":";
	char *out;

	return asprintf(&out, "%s%su", name, sep) < 0 ? NULL : out;
}
