// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat: exit statuses and error paths — the workload's status,
 * 128+N for a signal, 127 for a missing command, 2 for a bad event (with
 * the parser's caret), 1 when no event opens; and "<not supported>" for
 * hardware events on this PMU-less VM. */
#include "stat_util.h"

int main(void)
{
	struct t_run r;

	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "task-clock", "--", "sh", "-c", "exit 7"));
	CHECK_EQ_INT(r.exit_code, 7);
	CHECK(strstr(r.err, "Performance counter stats for 'sh -c exit 7':") != NULL);
	CHECK(strstr(r.err, " task-clock ") != NULL);
	t_run_free(&r);

	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "task-clock", "--", "sh", "-c", "kill -9 $$"));
	CHECK_EQ_INT(r.exit_code, 137);
	CHECK(strstr(r.err, "task-clock") != NULL);	/* counts still printed */
	t_run_free(&r);

	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "task-clock", "--", "/nonexistent/perfev-cmd"));
	CHECK_EQ_INT(r.exit_code, 127);
	CHECK(strstr(r.err, "cannot run '/nonexistent/perfev-cmd'") != NULL);
	CHECK(strstr(r.err, "Performance counter stats") == NULL);
	t_run_free(&r);

	/* an unknown event: usage error, the spec with a caret under it */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "task-clock,no-such-event", "true"));
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK(strstr(r.err, "no-such-event") != NULL);
	CHECK(strchr(r.err, '^') != NULL);
	t_run_free(&r);

	/* usage errors */
	CHECK_OK(T_RUN_PERFEV(&r, "stat"));
	CHECK_EQ_INT(r.exit_code, 2);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-x,", "-j", "true"));
	CHECK_EQ_INT(r.exit_code, 2);
	t_run_free(&r);
	/* issue 10: a pid that is not a number is a usage error (it exited
	 * 1); --interval-count without -I is refused, as perf does (it was
	 * ignored) */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-p", "abc"));
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK(strstr(r.err, "'abc' is not a list of process ids") != NULL);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "task-clock", "-t", "12x"));
	CHECK_EQ_INT(r.exit_code, 2);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "task-clock", "--interval-count", "2", "true"));
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK(strstr(r.err, "--interval-count") && strstr(r.err, "-I") &&
	      !strstr(r.err, "Performance counter stats"));
	t_run_free(&r);

	/* hardware events: perf's "<not supported>" beside what did count */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "cycles,task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 0);
	bool hw = strstr(r.err, "<not supported>      cycles") == NULL;
	if (hw)
		printf("note: this machine has a hardware PMU; cycles counted\n");
	CHECK(strstr(r.err, "msec task-clock") != NULL);
	t_run_free(&r);

	/* the default set */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "true"));
	CHECK_EQ_INT(r.exit_code, 0);
	const char *names[] = { "task-clock", "context-switches", "cpu-migrations",
				"page-faults", "cycles", "instructions", "branches",
				"branch-misses" };
	for (int i = 0; i < 8; i++)
		CHECK_MSG(strstr(r.err, names[i]) != NULL, "default set lacks %s", names[i]);
	CHECK(strstr(r.err, "seconds time elapsed") != NULL);
	CHECK(strstr(r.err, "seconds user") != NULL);
	t_run_free(&r);

	/* nothing could be opened: exit 1 with the explanation */
	if (!hw) {
		CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "cycles", "true"));
		CHECK_EQ_INT(r.exit_code, 1);
		CHECK(strstr(r.err, "cannot open 'cycles'") != NULL);
		t_run_free(&r);
	}
	return t_done();
}
