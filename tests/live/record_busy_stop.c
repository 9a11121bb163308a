// SPDX-License-Identifier: GPL-2.0-only
/* perfev record -a -F max ends on time while the rings never empty: a load
 * forks and execs short processes continuously, so every drain pass finds
 * new data.  The workload's exit (SIGCHLD) and a SIGINT must still end the
 * recording promptly (they used to stay pending forever, the signals being
 * open only inside a ppoll that a busy recorder never reached: only SIGKILL
 * ended it). */
#include <errno.h>
#include <signal.h>
#include <time.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include "record_util.h"

/* Forks and execs /bin/true in a loop until killed. */
static pid_t start_load(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;) {
			pid_t c = fork();

			if (c == 0) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(0);
			}
			if (c > 0)
				waitpid(c, NULL, 0);
		}
	}
	return pid;
}

static pid_t start_record(const char *out, bool workload)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		if (workload)
			execl(t_perfev(), t_perfev(), "record", "-a", "-F", "max", "-o", out,
			      "--", "sleep", "1", (char *)NULL);
		else
			execl(t_perfev(), t_perfev(), "record", "-a", "-F", "max", "-o", out,
			      (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Waits up to `limit` seconds; returns the seconds taken, or -1 after
 * killing it with SIGKILL at the limit. */
static double wait_limit(pid_t pid, double t0, double limit, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return t_now_s() - t0;
		if (t_now_s() - t0 > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return -1;
		}
		usleep(10000);
	}
}

int main(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_CPU_CLOCK };
	int fd = (int)syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);

	if (fd < 0)
		T_SKIP("system-wide cpu-clock not allowed here (%s)", strerror(errno));
	close(fd);

	const char *out = rt_tmp("busy.data");
	pid_t load = start_load();
	int st = 0;

	usleep(200000);
	/* The workload (sleep 1) exits: the recording ends, not 20 s later. */
	double t0 = t_now_s();
	double took = wait_limit(start_record(out, true), t0, 20, &st);

	CHECK_MSG(took >= 0, "record -a -F max -- sleep 1 still running after 20 s (killed)");
	if (took >= 0) {
		CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "record exited with status %#x", st);
		printf("record -a -F max -- sleep 1 under a fork load: %.2f s\n", took);
	}

	/* No workload: SIGINT ends it (perf: at once; 5 s leaves room for a
	 * loaded machine: the final pass and the features), and perfev then
	 * dies of SIGINT as perf does. */
	pid_t rec = start_record(out, false);

	usleep(1500000);
	t0 = t_now_s();
	kill(rec, SIGINT);
	took = wait_limit(rec, t0, 10, &st);
	CHECK_MSG(took >= 0 && took < 5.0, "SIGINT ended record -a -F max after %.2f s (-1: not in 10 s)",
		  took);
	if (took >= 0) {
		CHECK_MSG((WIFSIGNALED(st) && WTERMSIG(st) == SIGINT) ||
			  (WIFEXITED(st) && WEXITSTATUS(st) == 0), "record ended with status %#x", st);
		printf("SIGINT to record -a -F max under a fork load: ended in %.2f s\n", took);
	}
	kill(load, SIGKILL);
	waitpid(load, NULL, 0);
	unlink(out);
	return t_failures ? 1 : 0;
}
