// SPDX-License-Identifier: GPL-2.0-only
/* SIGINT and SIGTERM end every command within one second, in every state
 * it can wait in, and leave what perf leaves: stat prints the counts so far
 * (on SIGINT; perf prints nothing on SIGTERM, perfev prints them too),
 * record completes a file that perf reads with as many samples as the
 * summary says.  The signal goes to perfev alone, as `kill PID` sends it
 * (not to a terminal's whole process group): a workload perfev waits for
 * must not keep it alive. */
#include <dirent.h>

#include "fault.h"

enum ready {
	R_CHILD = 1,	/* perfev has a child whose comm is `arg` */
	R_PEFD,		/* perfev has a perf_event fd open */
	R_ERR,		/* its stderr holds `arg` */
	R_DELAY,	/* `arg` ms have passed */
};

struct sig_case {
	const char *name;
	const char *cmd;	/* shell; its last command is `exec @P ...` */
	enum ready ready;
	const char *arg;
	const char *want_int;	/* on stderr after SIGINT, or NULL */
	const char *want_term;	/* on stderr after SIGTERM, or NULL */
	bool file;		/* @D/perf.data must be read by perf */
	bool traced;		/* perfev runs under strace: signal it, not strace */
};

#define SLEEPER "@H/record_work -s -m 30000"
#define NOPIDFD "env ASAN_OPTIONS=detect_leaks=0 strace -f -qq -o /dev/null -e inject=pidfd_open:error=ENOSYS"

static const struct sig_case cases[] = {
	{ "stat waiting on a workload", "exec @P stat -e task-clock -- sleep 30",
	  R_CHILD, "sleep", "Performance counter stats", NULL, false, false },
	{ "stat -I", "exec @P stat -I 200 -e task-clock -- sleep 30",
	  R_ERR, "task-clock", "task-clock", NULL, false, false },
	{ "stat -p PID, no command", SLEEPER " & exec @P stat -e task-clock -p $!",
	  R_PEFD, NULL, "Performance counter stats", NULL, false, false },
	{ "stat -a, no command", "exec @P stat -a -e cpu-clock",
	  R_PEFD, NULL, "Performance counter stats", NULL, false, false },
	{ "record with a workload", "exec @P record -e task-clock -o @D/perf.data -- sleep 30",
	  R_CHILD, "sleep", "Captured and wrote", "Captured and wrote", true, false },
	{ "record -p PID", SLEEPER " & exec @P record -e task-clock -o @D/perf.data -p $!",
	  R_PEFD, NULL, "Captured and wrote", "Captured and wrote", true, false },
	{ "record -a, no command", "exec @P record -a -e cpu-clock -F 1000 -o @D/perf.data",
	  R_PEFD, NULL, "Captured and wrote", "Captured and wrote", true, false },
	{ "record -o - (pipe)", "exec @P record -e task-clock -o - -- sleep 30 >@D/perf.data",
	  R_CHILD, "sleep", "Captured and wrote", "Captured and wrote", true, false },
	/* the same with pidfd_open refused (seccomp, kernel < 5.3, valgrind) */
	{ "stat, no pidfd", "exec " NOPIDFD " @P stat -e task-clock -- sleep 30",
	  R_CHILD, "sleep", "Performance counter stats", NULL, false, true },
	/* the target is not strace's child: strace would wait for it */
	{ "stat -p PID, no pidfd",
	  "w=$(sh -c '" SLEEPER " >/dev/null 2>&1 & echo $!') && exec " NOPIDFD
	  " @P stat -e task-clock -p $w",
	  R_PEFD, NULL, "Performance counter stats", NULL, false, true },
	{ "record, no pidfd",
	  "exec " NOPIDFD " @P record -e task-clock -o @D/perf.data -- sleep 30",
	  R_CHILD, "sleep", "Captured and wrote", "Captured and wrote", true, true },
	{ "script reading a pipe that stays open",
	  "mkfifo @D/ff && ((cat @I/in.pipe; sleep 30) >@D/ff &) && exec @P script -i - <@D/ff",
	  R_DELAY, "400", NULL, NULL, false, false },
};

static pid_t child_with_comm(pid_t pid, const char *comm)
{
	char path[128], buf[4096];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	for (char *sv, *t = strtok_r(buf, " \n", &sv); t; t = strtok_r(NULL, " \n", &sv)) {
		char c[64] = "";
		snprintf(path, sizeof(path), "/proc/%s/comm", t);
		FILE *g = fopen(path, "r");
		if (g) {
			if (fgets(c, sizeof(c), g))
				c[strcspn(c, "\n")] = 0;
			fclose(g);
		}
		if (!strcmp(c, comm))
			return atoi(t);
	}
	return 0;
}

static bool has_perf_fd(pid_t pid)
{
	char path[384], link[128];
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	DIR *d = opendir(path);
	bool yes = false;
	struct dirent *e;

	while (d && !yes && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/%d/fd/%s", (int)pid, e->d_name);
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = 0;
			yes = strstr(link, "perf_event") != NULL;
		}
	}
	if (d)
		closedir(d);
	return yes;
}

static void run_case(const struct sig_case *c, int sig)
{
	char dir[512], cmd[2048], line[4096], ep[600];
	int before = t_failures;
	static int no;
	double t_sig = 0, took = -1;
	size_t len;

	snprintf(dir, sizeof(dir), "%s/s%02d", fx_root, ++no);
	mkdir(dir, 0700);
	fx_subst(c->cmd, dir, cmd, sizeof(cmd));
	snprintf(line, sizeof(line), "cd '%s' && { %s; } 2>'%s/err'", dir, cmd, dir);
	if (!strstr(cmd, ">@D") && !strstr(c->cmd, ">@D"))
		snprintf(line, sizeof(line), "cd '%s' && { %s; } >'%s/out' 2>'%s/err'", dir, cmd,
			 dir, dir);
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		/* a test runner's ignored or blocked signals are not inherited */
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execl("/bin/sh", "sh", "-c", line, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	snprintf(ep, sizeof(ep), "%s/err", dir);
	double t0 = fx_now();
	bool ready = false;
	int st = 0;
	pid_t r = 0, target = c->traced ? 0 : pid;
	while (!ready && fx_now() - t0 < 10) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		if ((r = waitpid(pid, &st, WNOHANG)) == pid)
			break;
		if (!target && !(target = child_with_comm(pid, "perfev")))
			continue;
		switch (c->ready) {
		case R_CHILD: ready = child_with_comm(target, c->arg) != 0; break;
		case R_PEFD: ready = has_perf_fd(target); break;
		case R_ERR: {
			char *e = t_slurp(ep, &len);
			ready = strstr(e, c->arg) != NULL;
			free(e);
			break;
		}
		case R_DELAY: ready = (fx_now() - t0) * 1000 >= atoi(c->arg); break;
		}
	}
	if (r == pid) {
		char *e = t_slurp(ep, &len);
		T_FAIL("%s: ended before the signal: %.300s", c->name, e);
		free(e);
		goto out;
	}
	if (!ready) {
		T_FAIL("%s: never reached its waiting state", c->name);
		kill(-pid, SIGKILL);
		waitpid(pid, &st, 0);
		goto out;
	}
	/* into the wait proper */
	struct timespec ts = { 0, (getenv("SIGDELAY") ? atoi(getenv("SIGDELAY")) : 150) * 1000 * 1000 };
	nanosleep(&ts, NULL);
	kill(target, sig);
	t_sig = fx_now();
	while ((r = waitpid(pid, &st, WNOHANG)) == 0 && fx_now() - t_sig < 6) {
		ts.tv_nsec = 5 * 1000 * 1000;
		nanosleep(&ts, NULL);
	}
	took = fx_now() - t_sig;
	kill(-pid, SIGKILL);	/* the sleepers, a hung perfev */
	if (r == 0) {
		waitpid(pid, &st, 0);
		T_FAIL("%s: HANG: still running %.1f s after %s", c->name, took, strsignal(sig));
		goto out;
	}
	char *err = t_slurp(ep, &len);
	if (took > 1.0)
		T_FAIL("%s: took %.2f s to end after %s (limit 1 s)", c->name, took, strsignal(sig));
	if (WIFSIGNALED(st) && WTERMSIG(st) != sig)
		T_FAIL("%s: CRASH: died of %s after %s: %.300s", c->name, strsignal(WTERMSIG(st)),
		       strsignal(sig), err);
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 128 + sig)
		T_FAIL("%s: exit %d after %s: %.300s", c->name, WEXITSTATUS(st), strsignal(sig), err);
	if (strstr(err, "Sanitizer") || strstr(err, "runtime error:"))
		T_FAIL("%s: sanitizer report: %.600s", c->name, err);
	const char *want = sig == SIGINT ? c->want_int : c->want_term;
	if (want && !strstr(err, want))
		T_FAIL("%s: after %s, stderr lacks \"%s\": %.300s", c->name, strsignal(sig), want, err);
	if (c->file)
		fx_check_data(c->name, dir, "perf.data", err);
	free(err);
out:
	printf("%s %-40s %-8s %5.2fs\n", t_failures == before ? "ok  " : "FAIL", c->name,
	       sig == SIGINT ? "SIGINT" : "SIGTERM", took);
	fflush(stdout);
}

int main(void)
{
	const char *only = getenv("ONLY");

	fx_init();
	if (t_sh("cd %s && %s record -q -e task-clock -o - -- %s/record_work -m 30 >in.pipe",
		 fx_root, fx_perfev, fx_helpers))
		T_FATAL("cannot make the pipe input in %s", fx_root);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (only && !strstr(cases[i].name, only))
			continue;
		run_case(&cases[i], SIGINT);
		run_case(&cases[i], SIGTERM);
	}
	fx_cleanup();
	return t_done();
}
