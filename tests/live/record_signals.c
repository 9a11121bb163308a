// SPDX-License-Identifier: GPL-2.0-only
/* Nothing is lost: SIGINT or SIGTERM to perfev mid-recording, and SIGKILL
 * to the workload, all leave a complete file (read by our reader without
 * recovery, and by perf report when perf is installed). */
#include <signal.h>
#include <time.h>
#include "record_util.h"

static pid_t start(const char *out, const char *msecs)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execl(t_perfev(), t_perfev(), "record", "-e", "cpu-clock", "-F", "1000",
		      "-g", "-o", out, "--", rt_work(), "-m", msecs, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static pid_t child_of(pid_t pid)
{
	char path[64];
	long c = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%ld", &c) != 1)
			c = 0;
		fclose(f);
	}
	return (pid_t)c;
}

/* CPU time (ms) the task has used so far, from /proc/PID/stat. */
static long cpu_ms(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long ut = 0, stime = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);

	fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')');	/* comm may hold spaces */

	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			 &ut, &stime) != 2)
		return -1;
	return (long)((ut + stime) * 1000 / (unsigned long)sysconf(_SC_CLK_TCK));
}

/* Waits until the workload under perfev `pid` has run `ms` of CPU time
 * (so the sample count does not depend on how loaded the machine is);
 * returns the workload's pid, or 0 after 20 s. */
static pid_t wait_cpu(pid_t pid, long ms)
{
	pid_t c = 0;

	for (int k = 0; k < 2000; k++) {
		if (!c)
			c = child_of(pid);
		if (c && cpu_ms(c) >= ms)
			return c;
		t_sleep_ms(10);
	}
	return 0;
}

/* perf report reads the file without a warning or an error. */
static void perf_reads(const char *out)
{
	char cmd[1024];
	struct t_run r;

	if (access("/usr/bin/perf", X_OK))
		return;
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf report --stdio -i %s", out);
	CHECK_OK(t_run_argv((char *const[]){ "sh", "-c", cmd, NULL }, NULL, &r));
	CHECK_MSG(r.exit_code == 0 && !strstr(r.err, "WARNING") && !strstr(r.err, "rror"),
		  "perf report: exit %d: %s", r.exit_code, r.err);
	CHECK(strstr(r.out, "rw_spin") != NULL);
	t_run_free(&r);
}

static void check_file(const char *out, const char *what)
{
	struct rt_stats s = rt_read(out);

	CHECK_MSG(s.ok && !s.recovered, "%s: %s", what, s.err);
	CHECK_MSG(s.samples >= 100 && s.comm_exec >= 1 && s.mmap2_work >= 1,
		  "%s: %llu samples", what, (unsigned long long)s.samples);
	perf_reads(out);
}

int main(void)
{
	const char *out = rt_tmp("sig.data");
	int st;

	/* perf dies of the signal after finishing the file. */
	int sigs[2] = { SIGINT, SIGTERM };

	for (int i = 0; i < 2; i++) {
		pid_t pid = start(out, "5000");

		CHECK(wait_cpu(pid, 300) > 0);
		CHECK_OK(kill(pid, sigs[i]));
		CHECK_EQ_INT(waitpid(pid, &st, 0), pid);
		CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i], "status %#x", st);
		check_file(out, strsignal(sigs[i]));
	}

	/* The workload killed: its status (128 + 9) passes through. */
	pid_t pid = start(out, "5000"), c = wait_cpu(pid, 300);

	CHECK(c > 0);
	CHECK_OK(kill(c, SIGKILL));
	CHECK_EQ_INT(waitpid(pid, &st, 0), pid);
	CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 137, "status %#x", st);
	check_file(out, "SIGKILL");
	unlink(out);
	return t_done();
}
