// SPDX-License-Identifier: GPL-2.0-only
/* Usage errors of every command that takes events or long options:
 * - a malformed or unknown event exits 2 (README "Exit codes") in stat and
 *   record alike, with "did you mean" for a near name (symbolic, hw-cache,
 *   PMU, tracepoint) and at most one pointer to 'perfev list';
 * - unique prefixes of long options are accepted as perf accepts them
 *   (--ev for --event), ambiguous ones refused naming the candidates, and an
 *   exact name wins over a longer one (--cpu vs --cputype). */
#include <stdbool.h>
#include <sys/stat.h>
#include "testutil.h"
#include "cliutil.h"

static char data[] = "/tmp/pev_usage_XXXXXX";

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* Run perfev CMD... with a bad event, in stat and in record. */
static void bad_event(const char *ev, const char *want)
{
	static const char *const cmds[] = { "stat", "record" };

	for (int i = 0; i < 2; i++) {
		struct t_run r;
		if (i == 0)
			T_RUN_PERFEV(&r, "stat", "-e", (char *)ev, "--", "true");
		else
			T_RUN_PERFEV(&r, "record", "-o", data, "-e", (char *)ev, "--", "true");
		printf("%s -e %s: exit %d\n%s", cmds[i], ev, r.exit_code, r.err);
		CHECK_MSG(r.exit_code == 2, "%s -e %s: exit %d, expected 2", cmds[i], ev, r.exit_code);
		CHECK_MSG(count(r.err, "perfev: error:") == 1, "%s -e %s: not one error line",
			  cmds[i], ev);
		CHECK_MSG(count(r.err, "perfev list") <= 1, "%s -e %s: 'perfev list' repeated",
			  cmds[i], ev);
		if (want)
			CHECK_MSG(strstr(r.err, want), "%s -e %s: '%s' missing", cmds[i], ev, want);
		else
			CHECK_MSG(!strstr(r.err, "did you mean"), "%s -e %s: a suggestion for nothing near",
				  cmds[i], ev);
		t_run_free(&r);
	}
}

static void opt_ok(const char *what, struct t_run *r)
{
	printf("%s: exit %d %s", what, r->exit_code, r->err);
	CHECK_MSG(r->exit_code == 0, "%s: exit %d: %s", what, r->exit_code, r->err);
	t_run_free(r);
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

int main(void)
{
	int fd = mkstemp(data);
	if (fd < 0)
		T_FATAL("mkstemp");
	close(fd);

	/* Unknown events: exit 2; a suggestion only when one is near. */
	bad_event("nosuch", NULL);
	bad_event("task-clok", "did you mean 'task-clock'?");
	bad_event("cpu-clock,cylces", "did you mean 'cycles'?");
	bad_event("L1-dcache-lods", "did you mean 'L1-dcache-loads'?");
	bad_event("cpu-clock:zz", NULL);	/* malformed: bad modifier */
	if (exists("/sys/bus/event_source/devices/software"))
		bad_event("sofware/cpu-clock/", "did you mean 'software'?");
	/* Tracepoints: the names come from tracefs, read here. */
	const char *tfs = exists("/sys/kernel/tracing/events/sched/sched_switch") ?
			  "/sys/kernel/tracing" :
			  exists("/sys/kernel/debug/tracing/events/sched/sched_switch") ?
			  "/sys/kernel/debug/tracing" : NULL;
	if (tfs) {
		bad_event("sched:sched_swich", "did you mean 'sched:sched_switch'?");
		bad_event("shed:sched_switch", "did you mean 'sched:sched_switch'?");
	} else {
		printf("no tracefs with sched:sched_switch here: tracepoint suggestions not checked\n");
	}

	/* Long option prefixes. */
	struct t_run r;
	T_RUN_PERFEV(&r, "stat", "--ev", "task-clock", "--", "true");
	CHECK_MSG(strstr(r.err, "task-clock"), "--ev did not select the event: %s", r.err);
	opt_ok("stat --ev", &r);
	T_RUN_PERFEV(&r, "stat", "--ev=task-clock", "-x,", "--", "true");
	CHECK_MSG(strstr(r.err, "task-clock"), "--ev= did not select the event: %s", r.err);
	opt_ok("stat --ev=", &r);
	T_RUN_PERFEV(&r, "record", "--outp", data, "--ev", "task-clock", "--no-inh", "--", "true");
	opt_ok("record --outp --ev --no-inh", &r);
	/* Exact name beats a longer option it prefixes: --cpu vs --cputype,
	 * --data vs --data-page-size. */
	T_RUN_PERFEV(&r, "stat", "--cpu", "0", "-a", "-e", "cpu-clock", "--", "true");
	opt_ok("stat --cpu (exact)", &r);
	T_RUN_PERFEV(&r, "record", "-o", data, "--data", "-e", "task-clock", "--", "true");
	opt_ok("record --data (exact)", &r);
	/* Ambiguous: every candidate named, exit 2. */
	T_RUN_PERFEV(&r, "stat", "--in", "1", "-e", "task-clock", "--", "true");
	printf("stat --in: exit %d %s", r.exit_code, r.err);
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK_MSG(strstr(r.err, "ambiguous option '--in'") && strstr(r.err, "--interval-print") &&
		  strstr(r.err, "--interval-count") && strstr(r.err, "--interval-clear"),
		  "stat --in: candidates not named: %s", r.err);
	t_run_free(&r);
	T_RUN_PERFEV(&r, "stat", "--cp", "0", "-a", "-e", "cpu-clock", "--", "true");
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK_MSG(strstr(r.err, "--cpu,") && strstr(r.err, "--cputype"), "stat --cp: %s", r.err);
	t_run_free(&r);
	T_RUN_PERFEV(&r, "record", "--no-s", "-o", data, "--", "true");
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK_MSG(strstr(r.err, "ambiguous option '--no-s'"), "record --no-s: %s", r.err);
	t_run_free(&r);
	/* Still unknown: nothing starts with it. */
	T_RUN_PERFEV(&r, "stat", "--zzz", "--", "true");
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK_MSG(strstr(r.err, "unknown option '--zzz'"), "stat --zzz: %s", r.err);
	t_run_free(&r);
	/* script and report take prefixes too. */
	T_RUN_PERFEV(&r, "record", "-o", data, "-e", "task-clock", "--", "true");
	t_run_free(&r);
	T_RUN_PERFEV(&r, "script", "--inp", data);
	opt_ok("script --inp", &r);
	unlink(data);
	return t_done();
}
