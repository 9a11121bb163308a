// SPDX-License-Identifier: GPL-2.0-only
/* The names of perf's tool events: see tool_events.h. */
#include <stddef.h>

#include "common/tool_events.h"

static const char *const tool_names[TOOL_EV_N] = {
	[TOOL_EV_DURATION] = "duration_time",
	[TOOL_EV_USER] = "user_time",
	[TOOL_EV_SYSTEM] = "system_time",
};

static const char *const tool_desc[TOOL_EV_N] = {
	[TOOL_EV_DURATION] = "wall-clock time of the count, in ns (perfev stat)",
	[TOOL_EV_USER] = "user CPU time of the workload, in ns (perfev stat)",
	[TOOL_EV_SYSTEM] = "system CPU time of the workload, in ns (perfev stat)",
};

const char *tool_event_name(enum tool_event t)
{
	return t > TOOL_EV_NONE && t < TOOL_EV_N ? tool_names[t] : NULL;
}

const char *tool_event_desc(enum tool_event t)
{
	return t > TOOL_EV_NONE && t < TOOL_EV_N ? tool_desc[t] : NULL;
}
