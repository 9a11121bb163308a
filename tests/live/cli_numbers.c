// SPDX-License-Identifier: GPL-2.0-only
/* Numeric options take a whole number and nothing after it: '-r 3x',
 * '--repeat=2y', '-I 10ms', 'script --max-stack 5k', 'record -c 5k' are usage errors (exit 2) naming the
 * option and the text; '-r 0x3' (strtol base 0, as perf's parse-options)
 * is 3 runs. */
#include "testutil.h"
#include "cliutil.h"

static void refused(const char *want, char *const argv[])
{
	struct t_run r;

	CHECK_OK(t_run_argv(argv, NULL, &r));
	CHECK_MSG(r.exit_code == 2, "%s %s %s: exit %d", argv[1], argv[2], argv[3], r.exit_code);
	CHECK_MSG(strstr(r.err, want) != NULL, "'%s' not in: %s", want, r.err);
	t_run_free(&r);
}

int main(void)
{
	char *pv = (char *)t_perfev();
	struct t_run r;

	refused("option '--repeat' needs a number, not '3x'",
		(char *[]){ pv, "stat", "-r", "3x", "true", NULL });
	refused("option '--repeat' needs a number, not '2y'",
		(char *[]){ pv, "stat", "--repeat=2y", "true", NULL });
	refused("option '--interval-print' needs a number, not '10ms'",
		(char *[]){ pv, "stat", "-I", "10ms", "-e", "task-clock", "true", NULL });
	refused("option '--max-stack' needs a number, not '5k'",
		(char *[]){ pv, "script", "--max-stack", "5k", "-i", "/dev/null", NULL });
	/* -c has its own parser (record_opts.c): the same rule, its own words */
	refused("invalid period '5k' for '-c'",
		(char *[]){ pv, "record", "-c", "5k", "-o", "/dev/null", "true", NULL });
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-r", "0x3", "-x,", "-e", "task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_MSG(strstr(r.err, "task-clock") != NULL, "%s", r.err);
	t_run_free(&r);
	return t_done();
}
