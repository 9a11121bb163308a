// SPDX-License-Identifier: GPL-2.0-only
/* perfev record and its end (issue 10):
 * - `record -p PID -- CMD` records PID (only) for as long as CMD runs, as
 *   perf does (it was refused); perf script reads the file;
 * - "Woken up N times" counts the returns of the poll, as perf's does, so
 *   a run that waited for data says N > 0 (it said 0 with -a);
 * - SIGINT and SIGTERM end it within one second even when the workload
 *   ignores them (perfev waited for the workload forever), the file
 *   complete and perfev dying of the signal. */
#include <signal.h>
#include <time.h>
#include "record_util.h"

static pid_t spinner(void)
{
	pid_t pid = fork();

	if (pid == 0)
		for (volatile unsigned long x = 0;; x++)
			;
	return pid;
}

static long woken(const char *err)
{
	const char *p = strstr(err, "Woken up ");
	return p ? atol(p + 9) : -1;
}

static bool have_perf(void)
{
	return access("/usr/bin/perf", X_OK) == 0;
}

int main(void)
{
	char *out = (char *)rt_tmp("wait.data");
	char pidbuf[32], cmd[1024];
	struct t_run r;

	/* -p PID -- sleep 0.3: samples of PID only, ended with the command */
	pid_t sp = spinner();
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)sp);
	double t0 = t_now_s();
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-e", "cpu-clock", "-F", "1000", "-o", out, "-p",
			      pidbuf, "--", "sleep", "0.3"));
	double t = t_now_s() - t0;
	kill(sp, SIGKILL);
	waitpid(sp, NULL, 0);
	CHECK_MSG(r.exit_code == 0, "record -p PID -- sleep: exit %d: %s", r.exit_code, r.err);
	CHECK_MSG(t >= 0.3 && t < 3, "record -p PID -- sleep 0.3 took %.2f s", t);
	struct rt_stats s = rt_read(out);
	CHECK_MSG(s.ok && s.samples > 0, "%s: %llu samples", s.err,
		  (unsigned long long)s.samples);
	t_run_free(&r);
	if (have_perf()) {
		snprintf(cmd, sizeof(cmd), "/usr/bin/perf script -F pid -i %s", out);
		CHECK_OK(t_run_argv((char *const[]){ "sh", "-c", cmd, NULL }, NULL, &r));
		CHECK_MSG(r.exit_code == 0, "perf script: %s", r.err);
		long lines = 0, other = 0;
		for (char *p = r.out; *p; ) {
			char *nl = strchr(p, '\n');
			if (nl)
				*nl = '\0';
			if (*p) {
				lines++;
				if (atol(p) != (long)sp)
					other++;
			}
			if (!nl)
				break;
			p = nl + 1;
		}
		CHECK_MSG(lines > 0 && other == 0, "perf script: %ld samples, %ld not of %d",
			  lines, other, (int)sp);
		t_run_free(&r);
	}

	/* wakeups: a run that waited for its rings' data (so few samples
	 * that only the end of the workload wakes the poll; perf says 1) */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-e", "cpu-clock", "-F", "10", "-a", "-o", out, "--",
			      "sleep", "0.3"));
	CHECK_MSG(r.exit_code == 0 && woken(r.err) > 0, "-a: exit %d: %s", r.exit_code, r.err);
	t_run_free(&r);

	/* A workload that ignores SIGINT and SIGTERM does not keep perfev
	 * (it is left running, named in a warning). */
	int sigs[2] = { SIGINT, SIGTERM };
	for (int i = 0; i < 2; i++) {
		int st, errfd[2];

		CHECK_OK(pipe(errfd));
		pid_t pid = fork();
		if (pid == 0) {
			dup2(errfd[1], 2);
			close(errfd[0]);
			execl(t_perfev(), t_perfev(), "record", "-e", "cpu-clock", "-o", out, "--",
			      "sh", "-c", "trap '' INT TERM; exec sleep 5", (char *)NULL);
			_exit(127);
		}
		close(errfd[1]);
		t_sleep_ms(400);
		kill(pid, sigs[i]);
		t0 = t_now_s();
		while (waitpid(pid, &st, WNOHANG) == 0 && t_now_s() - t0 < 8)
			t_sleep_ms(5);
		t = t_now_s() - t0;
		char err[4096];
		ssize_t n = read(errfd[0], err, sizeof(err) - 1);
		err[n > 0 ? n : 0] = '\0';
		close(errfd[0]);
		CHECK_MSG(t < 1.0, "%s: record took %.2f s", strsignal(sigs[i]), t);
		CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i], "%s: status %#x",
			  strsignal(sigs[i]), st);
		CHECK_MSG(strstr(err, "is left running") && strstr(err, "Captured and wrote"),
			  "%s: %s", strsignal(sigs[i]), err);
		const char *p = strstr(err, "(pid ");
		if (p)
			kill((pid_t)atoi(p + 5), SIGKILL);
		s = rt_read(out);
		CHECK_MSG(s.ok && !s.recovered, "%s: %s", strsignal(sigs[i]), s.err);
	}
	unlink(out);
	return t_done();
}
