/* SPDX-License-Identifier: GPL-2.0-only */
/* perf's tool events: counts perfev computes itself instead of reading a
 * counter.  perfev stat supplies their values (stat/stat_tool.c), perfev
 * list shows them; both read the names here. */
#ifndef PEV_CLI_TOOL_EVENTS_H
#define PEV_CLI_TOOL_EVENTS_H

enum tool_event {
	TOOL_EV_NONE,
	TOOL_EV_DURATION,	/* duration_time: the run's wall time */
	TOOL_EV_USER,		/* user_time: the workload's user CPU time */
	TOOL_EV_SYSTEM,		/* system_time: its system CPU time */
	TOOL_EV_N
};

/* The name ("duration_time") and perfev list's description of t (NULL
 * for TOOL_EV_NONE). */
const char *tool_event_name(enum tool_event t);
const char *tool_event_desc(enum tool_event t);

#endif
