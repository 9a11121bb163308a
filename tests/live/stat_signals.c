// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat and signals (issue 10): SIGINT and SIGTERM end it within one
 * second in every state — waiting for a workload, one that ignores both
 * signals, -I, -r, -p without a command — with the counts printed and
 * perfev dying of that signal, as perf; a workload killed by a signal gets
 * perf's "CMD: Signal" line; and without pidfd_open (strace makes it fail
 * with ENOSYS, as seccomp profiles, old kernels and valgrind do) the end
 * of the workload and of a -p task still end the count, and the signals
 * still work.  Before the fix the count never ended without pidfd_open,
 * and a workload that ignored SIGINT kept perfev waiting. */
#include <signal.h>
#include <time.h>
#include "stat_util.h"

static const char *errpath;

/* argv with stdout on /dev/null and stderr into errpath. */
static pid_t start(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		int err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(null, 1);
		dup2(err, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Wait up to limit seconds for pid; SIGKILL it after that.  Returns the
 * seconds it took (limit + 1 when it had to be killed). */
static double wait_for(pid_t pid, double limit, int *st)
{
	double t0 = t_now_s();

	for (;;) {
		if (waitpid(pid, st, WNOHANG) == pid)
			return t_now_s() - t0;
		if (t_now_s() - t0 > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, st, 0);
			return limit + 1;
		}
		t_sleep_ms(5);
	}
}

static char *err_text(void)
{
	size_t n;
	return t_slurp(errpath, &n);
}

/* Start perfev stat ARGS, send sig after ms, and check that it died of sig
 * within a second, its stderr holding `want` (and `want2` if not NULL). */
static void check_sig(const char *what, char *const argv[], long ms, int sig,
		      const char *want, const char *want2)
{
	int st = 0;
	pid_t pid = start(argv);

	t_sleep_ms(ms);
	CHECK_OK(kill(pid, sig));
	double t = wait_for(pid, 5, &st);
	char *err = err_text();

	CHECK_MSG(t < 1.0, "%s, %s: perfev took %.2f s to end", what, strsignal(sig), t);
	CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == sig, "%s, %s: status %#x", what,
		  strsignal(sig), st);
	CHECK_MSG(strstr(err, want) != NULL, "%s, %s: no '%s' in:\n%s", what, strsignal(sig),
		  want, err);
	CHECK_MSG(!want2 || strstr(err, want2) != NULL, "%s, %s: no '%s' in:\n%s", what,
		  strsignal(sig), want2, err);
	free(err);
}

/* The pid in "(pid N)" of perfev's "left running" warning. */
static pid_t left_running(const char *err)
{
	const char *p = strstr(err, "(pid ");
	return p ? (pid_t)atoi(p + 5) : 0;
}

static pid_t spawn_sleep(const char *secs)
{
	pid_t pid = fork();

	if (pid == 0) {
		execlp("sleep", "sleep", secs, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* strace can make pidfd_open fail (its -e inject is the independent
 * way to take the syscall away). */
static bool have_strace_inject(void)
{
	return t_sh("strace -f -o /dev/null -e trace=pidfd_open -e inject=pidfd_open:error="
		    "ENOSYS true 2>/dev/null") == 0;
}

int main(void)
{
	char *pe = (char *)t_perfev();
	char pidbuf[32];
	int sigs[2] = { SIGINT, SIGTERM };

	/* Per process: two suites running at once must not share it. */
	char ep[64];
	snprintf(ep, sizeof(ep), "/tmp/perfev-stat-signals.%d.err", (int)getpid());
	errpath = strdup(ep);

	for (int i = 0; i < 2; i++) {
		int s = sigs[i];
		char line[64];

		/* the workload gets the signal too and dies of it: perf's line */
		snprintf(line, sizeof(line), "sleep: %s", strsignal(s));
		check_sig("workload", (char *[]){ pe, "stat", "-e", "task-clock", "--", "sleep",
						  "10", NULL }, 300, s,
			  "Performance counter stats for 'sleep 10'", line);

		/* -I: the intervals so far and the last, partial one */
		check_sig("-I", (char *[]){ pe, "stat", "-e", "task-clock", "-I", "100", "--",
					    "sleep", "10", NULL }, 350, s, "#           time",
			  "msec task-clock");

		/* -r: the runs so far */
		check_sig("-r", (char *[]){ pe, "stat", "-e", "task-clock", "-r", "10", "--",
					    "sleep", "0.2", NULL }, 300, s,
			  "Performance counter stats for 'sleep 0.2'", "msec task-clock");

		/* -p without a command: counted until the signal */
		pid_t sl = spawn_sleep("10");
		snprintf(pidbuf, sizeof(pidbuf), "%d", (int)sl);
		check_sig("-p", (char *[]){ pe, "stat", "-e", "task-clock", "-p", pidbuf, NULL },
			  300, s, "Performance counter stats for process id", "task-clock");
		kill(sl, SIGKILL);
		waitpid(sl, NULL, 0);

		/* a workload that ignores both signals does not keep perfev:
		 * it is left running, with a warning naming it */
		check_sig("workload ignoring signals",
			  (char *[]){ pe, "stat", "-e", "task-clock", "--", "sh", "-c",
				      "trap '' INT TERM; exec sleep 10", NULL }, 300, s,
			  "msec task-clock", "is left running");
		char *err = err_text();
		pid_t left = left_running(err);
		CHECK_MSG(left > 0, "no pid in the warning: %s", err);
		if (left > 0)
			kill(left, SIGKILL);
		free(err);
	}

	/* a workload killed by a signal: perf's "CMD: Signal" line on stderr */
	struct t_run r;
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "task-clock", "--", "sh", "-c", "kill -SEGV $$"));
	CHECK_EQ_INT(r.exit_code, 128 + SIGSEGV);
	CHECK_MSG(strstr(r.err, "sh: Segmentation fault\n") != NULL, "stderr: %s", r.err);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-x,", "-e", "task-clock", "-r", "2", "--", "sh",
			      "-c", "kill -TERM $$"));
	const char *p = strstr(r.err, "sh: Terminated\n");
	CHECK_MSG(p && strstr(p + 1, "sh: Terminated\n"), "one line per run: %s", r.err);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "task-clock", "--", "sh", "-c", "exit 3"));
	CHECK_MSG(strstr(r.err, "sh: ") == NULL, "a line for a normal exit: %s", r.err);
	t_run_free(&r);

	/* valgrind 3.19 does not implement pidfd_open: stat must still end */
	/* (valgrind cannot run a sanitizer build at all: then say so) */
	if (t_sh("valgrind --version >/dev/null 2>&1") == 0 &&
	    t_sh("valgrind -q %s version >/dev/null 2>&1", pe) != 0) {
		printf("note: valgrind cannot run %s (a sanitizer build?); its case is not "
		       "run\n", pe);
	} else if (t_sh("valgrind --version >/dev/null 2>&1") == 0) {
		int vst;
		pid_t v = start((char *[]){ "valgrind", "-q", "--error-exitcode=99", pe, "stat",
					    "-e", "task-clock", "--", "true", NULL });
		double vt = wait_for(v, 60, &vst);
		char *verr = err_text();
		CHECK_MSG(vt < 60 && WIFEXITED(vst) && WEXITSTATUS(vst) == 0,
			  "valgrind perfev stat -- true: %.1f s, status %#x: %s", vt, vst, verr);
		free(verr);
	} else {
		printf("note: no valgrind here; its case is not run\n");
	}

	/* No pidfd_open: the end of the workload, of a -p task, and a
	 * signal still end the count. */
	if (!have_strace_inject()) {
		printf("note: strace cannot inject into pidfd_open here; the no-pidfd "
		       "cases are not run\n");
		return t_done();
	}
	t_no_leak_check_under_ptrace();
	int st;
	pid_t pid = start((char *[]){ "strace", "-f", "-o", "/dev/null", "-e",
				      "trace=pidfd_open", "-e", "inject=pidfd_open:error=ENOSYS",
				      pe, "stat", "-e", "task-clock", "--", "true", NULL });
	double t = wait_for(pid, 10, &st);
	char *err = err_text();
	CHECK_MSG(t < 10 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "no pidfd: 'stat -- true' took %.1f s, status %#x", t, st);
	CHECK_MSG(strstr(err, "msec task-clock") != NULL, "no pidfd: %s", err);
	free(err);

	pid_t sl = spawn_sleep("0.5");
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)sl);
	pid = start((char *[]){ "strace", "-f", "-o", "/dev/null", "-e", "trace=pidfd_open",
				"-e", "inject=pidfd_open:error=ENOSYS", pe, "stat", "-e",
				"task-clock", "-p", pidbuf, NULL });
	t = wait_for(pid, 10, &st);	/* sl stays a zombie until reaped below */
	CHECK_MSG(t < 3 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "no pidfd: 'stat -p' of a task that exits took %.1f s, status %#x", t, st);
	waitpid(sl, NULL, 0);

	pid = start((char *[]){ "strace", "-f", "-o", "/dev/null", "-e", "trace=pidfd_open",
				"-e", "inject=pidfd_open:error=ENOSYS", pe, "stat", "-e",
				"task-clock", "--", "sleep", "10", NULL });
	t_sleep_ms(500);
	char path[64];
	long perfev_pid = 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &perfev_pid) != 1)
			perfev_pid = 0;
		fclose(f);
	}
	CHECK_MSG(perfev_pid > 0, "no perfev under strace");
	if (perfev_pid > 0)
		kill((pid_t)perfev_pid, SIGINT);
	t = wait_for(pid, 5, &st);
	CHECK_MSG(t < 1.0, "no pidfd: SIGINT took %.2f s", t);
	unlink(errpath);
	return t_done();
}
