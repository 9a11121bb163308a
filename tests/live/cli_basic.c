// SPDX-License-Identifier: GPL-2.0-only
/* The CLI's shared runner: version, help, typo suggestion, exit codes. */
#include "testutil.h"
#include "cliutil.h"

int main(void)
{
	struct t_run r;

	CHECK_OK(T_RUN_PERFEV(&r, "--version"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK(strstr(r.out, "perfev version 0.1.0") != NULL);
	t_run_free(&r);

	CHECK_OK(T_RUN_PERFEV(&r, "--help"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK(strstr(r.out, "usage: perfev") != NULL);
	t_run_free(&r);

	CHECK_OK(T_RUN_PERFEV(&r, "versoin"));
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK(strstr(r.err, "did you mean 'version'?") != NULL);
	t_run_free(&r);

	CHECK_OK(t_run_argv((char *const[]){ (char *)t_perfev(), NULL }, NULL, &r));
	CHECK_EQ_INT(r.exit_code, 2);
	t_run_free(&r);

	/* Output errors are not silent: writing to a full device fails. */
	int fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		pid_t p = fork();
		if (p == 0) {
			dup2(fd, 1);
			execl(t_perfev(), t_perfev(), "--help", (char *)NULL);
			_exit(127);
		}
		int st;
		waitpid(p, &st, 0);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1);
		close(fd);
	}
	return t_done();
}
