/* SPDX-License-Identifier: GPL-2.0-only */
/* perfev stat: one counting session (cmd_stat.c fills the config). */
#ifndef PEV_CLI_STAT_RUN_H
#define PEV_CLI_STAT_RUN_H

#include <perfev/perfev.h>
#include <perfev/counter.h>
#include <perfev/target.h>

#include "common/tool_events.h"
#include "stat/stat.h"

struct stat_cfg {
	int out_errno;		/* the first failed flush of out.f (-I), or 0 */
	char **argv;		/* the command, or NULL */
	const char *pids, *tids, *cpus, *cgroup;
	bool all_cpus;
	bool scale;		/* scale multiplexed counts (default) */
	bool no_inherit;
	int repeat;		/* -r, >= 1 */
	int interval_ms;	/* -I, 0 for none */
	int interval_count;	/* --interval-count, 0 for no limit */
	int timeout_ms;		/* --timeout, 0 for none */
	int delay_ms;		/* -D: 0 none, -1 never enable */
	bool null_run;		/* -n: no counters */
	bool sync;		/* -S */
	const char *pre, *post;	/* --pre, --post: sh -c around each run */
	bool table;		/* --table (with -r) */
	bool summary;		/* --summary (with -I) */
	bool csv_summary;	/* the "summary" column (not --no-csv-summary) */
	bool interval_clear;	/* --interval-clear */
	int verbose;		/* -v */
	const char *target_desc;/* for the header */
	struct stat_out out;
	struct pev_evlist *evl;
};

/* Count as configured and print.  Returns the exit status perfev should
 * end with: the workload's, 0 for attach modes, 1 on errors (already
 * reported), 127 when the command could not be run.  *signo is set to
 * SIGINT (or SIGTERM) when that signal ended the count: the caller
 * re-raises it after the output is flushed, as perf does. */
int stat_run(struct stat_cfg *cfg, int *signo);

/* The wait of one run (cli/stat_wait.c). */
struct stat_wait {
	struct pev_workload *wl;	/* the command, or NULL */
	const char *argv0;		/* its name, for perf's "CMD: Signal" line */
	const struct pev_target *target;/* -p/-t without a command: its tasks */
	bool pids;			/* those tasks are processes */
	uint64_t t0;
	int interval_ms, interval_count, timeout_ms;
	/* -I: print an interval; true when --interval-count is reached */
	bool (*tick)(void *ctx, uint64_t now);
	void *ctx;
	const uint64_t *last_tick;	/* the last tick (or t0) */
};

/* The signals are common/signals.h's: stat_run installs them around the
 * runs and restores them before printing the end. */
/* pev_workload_new with perfev's signal mask restored in the child. */
struct pev_workload *stat_workload_new(char **argv);
uint64_t stat_now_ns(void);
/* Sleep ms, cut short by SIGINT/SIGTERM or the end of wl (may be NULL). */
void stat_sleep_ms(long ms, struct pev_workload *wl);
/* Wait until the run ends: the workload exits (*code gets its exit code;
 * perf's "CMD: Segmentation fault" line on stderr when a signal ended it),
 * the attached tasks are gone, --timeout, --interval-count, or SIGINT /
 * SIGTERM (forwarded to the workload, which gets 500 ms to end).  A
 * workload still running at the end gets SIGTERM and 500 ms; one that
 * survives is left running with a warning.  Returns 0, or -errno when
 * the workload cannot be waited for (not after EINTR: that is retried). */
int stat_wait_run(const struct stat_wait *w, int *code);

/* perf's tool events (stat/stat_tool.c; their names in
 * common/tool_events.h): values perfev stat supplies in place of a dummy
 * software event's count. */
#define STAT_TOOL_MAX_EDITS 16
struct stat_tool_edit {
	int pos, len;		/* the name in the spec */
	int new_pos, new_len;	/* its replacement in the rewritten spec */
};
struct stat_tool_edits {
	int n;
	struct stat_tool_edit e[STAT_TOOL_MAX_EDITS];
};

/* spec with each tool event name replaced by the dummy event that stands
 * for it (malloc'd; NULL on ENOMEM); ed records the replacements. */
char *stat_tool_rewrite(const char *spec, struct stat_tool_edits *ed);
/* Map a parse error in the rewritten spec back onto the original. */
void stat_tool_error_pos(const struct stat_tool_edits *ed, struct pev_parse_error *err);
/* The tool event a parsed event stands for, or TOOL_EV_NONE. */
enum tool_event stat_tool_of(const char *name, const struct perf_event_attr *a);
/* Give the tool events from index `from` on their unit, "ns".  0 or -1. */
int stat_tool_units(struct pev_evlist *evl, size_t from);

/* Explain why an event could not be opened (cli/stat_explain.c): one
 * line "cannot open 'NAME': reason; remedy" into buf.  Returns true when
 * the reason is only "no hardware PMU here" (perf stays quiet then). */
/* -v: the line (no newline) that says why user-space counter reads are off
 * on this machine (ua, from pev_user_access_probe) and how to turn them
 * on, when one of the n attrs counts on the core PMU; false and "" when
 * there is nothing to say (no such event, reads allowed, no PMU). */
struct pev_user_access;
bool stat_user_access_note(const struct pev_user_access *ua,
			   const struct perf_event_attr *const *attrs, size_t n,
			   char *buf, size_t size);
bool stat_explain_open(int err, const struct perf_event_attr *attr, pid_t pid, int cpu,
		       const char *name, char *buf, size_t size);

#endif
