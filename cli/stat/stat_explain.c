// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat: why an event could not be opened, in one line, from the
 * library's explanation (errno + attr + system settings). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <perfev/arch.h>
#include <perfev/explain.h>
#include "stat/stat_run.h"

bool stat_explain_open(int err, const struct perf_event_attr *attr, pid_t pid, int cpu,
		       const char *name, char *buf, size_t size)
{
	struct pev_explain_ctx ctx = {
		.size = sizeof(ctx), .attr = attr, .pid = pid, .cpu = cpu, .group_fd = -1,
		.event_name = name,
	};
	struct pev_explanation ex;

	if (pev_explain_detail(err, &ctx, &ex) < 0) {
		snprintf(buf, size, "cannot open '%s': %s", name, strerror(err < 0 ? -err : err));
		return false;
	}
	if (ex.remedy[0])
		snprintf(buf, size, "cannot open '%s': %s; %s", name, ex.reason, ex.remedy);
	else
		snprintf(buf, size, "cannot open '%s': %s", name, ex.reason);
	return ex.kind == PEV_EXPLAIN_NO_HW_PMU;
}

bool stat_user_access_note(const struct pev_user_access *ua,
			   const struct perf_event_attr *const *attrs, size_t n,
			   char *buf, size_t size)
{
	char why[512];
	bool hw = false;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < n && !hw; i++)
		hw = attrs[i] && pev_user_access_applies(ua, attrs[i]);
	if (!hw || pev_user_access_explain(ua, why, sizeof(why)) <= 0)
		return false;
	snprintf(buf, size, "perfev: note: %s", why);
	return true;
}
