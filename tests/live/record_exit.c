// SPDX-License-Identifier: GPL-2.0-only
/* The workload's status passes through (exit 3 -> 3, SIGSEGV -> 139), and
 * the file is complete either way; a command that does not exist is an
 * error. */
#include "record_util.h"

int main(void)
{
	const char *out = rt_tmp("exit.data");
	struct t_run r;
	struct rt_stats s;

	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-e", "cpu-clock", "-o", (char *)out,
			      "--", (char *)rt_work(), "-m", "50", "-x", "3"));
	CHECK_EQ_INT(r.exit_code, 3);
	s = rt_read(out);
	CHECK(s.ok && !s.recovered && s.samples > 0 && s.exits >= 1);
	t_run_free(&r);

	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-e", "cpu-clock", "-o", (char *)out,
			      "--", (char *)rt_work(), "-m", "50", "-S"));
	CHECK_EQ_INT(r.exit_code, 139);
	CHECK(WIFEXITED(r.status));	/* perfev itself exits normally */
	s = rt_read(out);
	CHECK(s.ok && !s.recovered && s.samples > 0 && s.exits >= 1);
	t_run_free(&r);

	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-o", (char *)out, "--",
			      "/nonexistent/perfev-cmd"));
	CHECK_EQ_INT(r.exit_code, 127);
	CHECK(strstr(r.err, "/nonexistent/perfev-cmd") != NULL);
	t_run_free(&r);

	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-o", (char *)out));
	CHECK_EQ_INT(r.exit_code, 2);
	t_run_free(&r);
	unlink(out);
	return t_done();
}
