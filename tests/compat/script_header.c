// SPDX-License-Identifier: GPL-2.0-only
/* perfev script --header prints the file header as perf script 6.1
 * --header does, byte for byte (the lines up to the first sample): on
 * files recorded by perf here with a plain period, system-wide (build
 * ids), a tracepoint with callchains, zstd compression and -k mono
 * (TRACING_DATA, COMPRESSED, CLOCKID, CLOCK_DATA), an event group
 * (GROUP_DESC), user registers, and a pipe stream on stdin. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];

/* The header lines: everything before the first line not starting with
 * '#'. */
static void same_header(const char *what, const char *input_args)
{
	char pa[128], pb[128];
	size_t la, lb;
	int ra = t_sh("%s script --header %s 2>/dev/null | sed '/^[^#]/,$d' > %s/a.txt", t_perfev(),
		      input_args, dir);
	int rb = t_sh("%s script --header %s 2>/dev/null | sed '/^[^#]/,$d' > %s/b.txt", PERF,
		      input_args, dir);

	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK(ra == 0 && rb == 0);
	CHECK_MSG(lb > 100 && b && !strncmp(b, "# ========\n# captured on", 24),
		  "%s: perf printed no header", what);
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start)) {
		T_FAIL("%s: header differs at line %zu:\n  perfev: %.200s\n  perf:   %.200s", what,
		       line, a ? a + start : "", b + start);
	} else {
		printf("%s: %zu bytes identical\n", what, la);
	}
	free(a);
	free(b);
}

static void record(const char *name, const char *args)
{
	CHECK_MSG(t_sh("cd %s && %s record -q -o %s.data %s > /dev/null 2>&1", dir, PERF, name, args) == 0,
		  "perf record %s failed", args);
}

int main(void)
{
	char in[256];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("%s record -q -e cpu-clock -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record cannot sample cpu-clock here");
	strcpy(dir, "/tmp/perfev-header-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");

	record("plain", "-e task-clock -c 100000 -- perf bench sched messaging -t -g 1 -l 20");
	record("wide", "-a -e task-clock -c 200000 -- perf bench sched messaging -t -g 1 -l 20");
	record("group", "-e '{task-clock,cpu-clock}:u' -- perf bench sched messaging -g 1 -l 20");
	record("regs", "--user-regs=ip,sp -e task-clock -- perf bench sched messaging -g 1 -l 20");
	/* tracepoints need tracefs: probed independently */
	bool tp = !access("/sys/kernel/tracing/events/sched/sched_switch", R_OK) ||
		  !access("/sys/kernel/debug/tracing/events/sched/sched_switch", R_OK);

	if (tp)
		record("tp", "-z -k mono -g -e sched:sched_switch -e task-clock -c 10000 -- perf bench sched messaging -g 1 -l 20");
	else
		printf("no tracefs with sched:sched_switch: the tracepoint file is not recorded\n");
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e task-clock -o - -- perf bench sched messaging -g 1 -l 20 > pipe.data 2>/dev/null",
			  dir, PERF), 0);

	const char *files[] = { "plain", "wide", "group", "regs", tp ? "tp" : NULL };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (!files[i])
			continue;
		snprintf(in, sizeof(in), "-i %s/%s.data", dir, files[i]);
		same_header(files[i], in);
	}
	snprintf(in, sizeof(in), "-i - < %s/pipe.data", dir);
	same_header("pipe on stdin", in);
	/* -I: the topology, caches and memory nodes in full */
	snprintf(in, sizeof(in), "-I -i %s/wide.data", dir);
	same_header("wide -I", in);
	snprintf(in, sizeof(in), "-I -i - < %s/pipe.data", dir);
	same_header("pipe on stdin -I", in);
	t_sh("rm -rf %s", dir);
	return t_done();
}
