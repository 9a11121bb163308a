/* perfev stat: why an event could not be opened, in one line, from the
 * library's explanation (errno + attr + system settings). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <perfev/explain.h>
#include "stat_run.h"

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
