/* perfev stat: one counting session (cmd_stat.c fills the config). */
#ifndef PEV_CLI_STAT_RUN_H
#define PEV_CLI_STAT_RUN_H

#include <perfev/perfev.h>
#include <perfev/counter.h>
#include <perfev/target.h>

#include "stat.h"

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

/* Explain why an event could not be opened (cli/stat_explain.c): one
 * line "cannot open 'NAME': reason; remedy" into buf.  Returns true when
 * the reason is only "no hardware PMU here" (perf stays quiet then). */
bool stat_explain_open(int err, const struct perf_event_attr *attr, pid_t pid, int cpu,
		       const char *name, char *buf, size_t size);

#endif
