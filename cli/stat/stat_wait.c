// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat: waiting for the end of a run.
 *
 * The signals are common/signals.c's: SIGINT, SIGTERM and SIGCHLD stay
 * blocked except inside ppoll(), so none slips in between a check and the
 * wait.  The workload (our child) is watched through SIGCHLD and waitpid(WNOHANG): that needs no pidfd_open,
 * which seccomp profiles, kernels before 5.3 and valgrind refuse.  Tasks
 * attached with -p are watched through pidfds when pidfd_open works, and
 * otherwise (and for -t threads) looked up every 100 ms. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/signals.h"
#include "stat/stat_run.h"

/* A signal the workload does not die of, or a workload that ignores
 * SIGTERM, cannot keep perfev waiting longer than this. */
#define GRACE_NS 500000000u
#define TASK_CHECK_MS 100
/* A workload is also looked at this often: a SIGCHLD whose waitpid failed
 * (EINTR) or that never came cannot leave perfev waiting. */
#define WORKLOAD_CHECK_MS 1000

struct pev_workload *stat_workload_new(char **argv)
{
	/* In the child, before its exec: the mask perfev was started with. */
	struct pev_workload_opts o = { .size = sizeof(o), .child_setup = signals_child_setup };

	return pev_workload_new(argv, &o);
}

uint64_t stat_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ppoll for at most ns (UINT64_MAX: no limit) with the signals open. */
static int wait_fds(struct pollfd *pfd, int n, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	sigset_t open;

	signals_wait_mask(&open, true);
	return ppoll(pfd, (nfds_t)n, ns == UINT64_MAX ? NULL : &ts, &open);
}

void stat_sleep_ms(long ms, struct pev_workload *wl)
{
	uint64_t end = stat_now_ns() + (uint64_t)ms * 1000000u;
	int st;

	for (uint64_t now; !signals_stop() && (now = stat_now_ns()) < end;) {
		if (wl && pev_workload_poll(wl, &st) != 0)
			return;
		wait_fds(NULL, 0, end - now);
	}
}

static int pidfd_open_(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* The task (a thread id too: /proc/TID exists for every thread) exists
 * and has not exited (a zombie has). */
static bool task_alive(pid_t tid)
{
	char path[64], buf[512];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)	/* gone, or no /proc: ask kill() */
		return kill(tid, 0) == 0 || errno == EPERM;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');	/* comm may hold ')' */
	return !p || (p[1] != ' ' || (p[2] != 'Z' && p[2] != 'X'));
}

/* The workload has ended: its exit code into *code, and perf's line
 * ("CMD: Segmentation fault") when a signal ended it. */
static void workload_ended(const struct stat_wait *w, int st, int *code)
{
	*code = pev_wait_status_code(st);
	if (WIFSIGNALED(st)) {
		fflush(stdout);
		fprintf(stderr, "%s: %s\n", w->argv0, strsignal(WTERMSIG(st)));
	}
}

/* The run is over but the workload still runs (--timeout, --interval-count,
 * or a signal it survived): SIGTERM, as perf, and a bounded wait (none
 * after a signal: its grace is spent). */
static void end_workload(const struct stat_wait *w, bool signaled, int *code)
{
	uint64_t until = stat_now_ns() + (signaled ? 0 : GRACE_NS);
	int st;

	if (!signaled)
		pev_workload_kill(w->wl, SIGTERM);
	for (;;) {
		if (pev_workload_poll(w->wl, &st) > 0) {
			workload_ended(w, st, code);
			return;
		}
		uint64_t now = stat_now_ns();
		if (now >= until || (signals_stop() && !signaled))
			break;
		wait_fds(NULL, 0, until - now);
	}
	cli_warn("'%s' (pid %d) did not end after SIG%s; it is left running", w->argv0,
		 (int)pev_workload_pid(w->wl), signaled ? (signals_stop() == SIGTERM ? "TERM" : "INT")
		 : "TERM");
	*code = 0;
}

int stat_wait_run(const struct stat_wait *w, int *code)
{
	struct pollfd pfd[64];
	int npfd = 0, alive = 0, st;
	uint64_t deadline = w->timeout_ms ? w->t0 + (uint64_t)w->timeout_ms * 1000000u : 0;
	uint64_t grace = 0;	/* the workload got our signal: wait this long */
	bool check_tasks = false, ended = false;
	int ret = 0;

	*code = 0;
	if (!w->wl && w->target) {
		/* Attached tasks: count until they all exit (or a signal). */
		for (size_t i = 0; i < pev_target_nr_threads(w->target); i++) {
			pid_t tid = pev_target_thread(w->target, i);
			int fd = w->pids && npfd < 64 ? pidfd_open_(tid) : -1;
			if (fd < 0) {
				check_tasks = true;
				continue;
			}
			pfd[npfd].fd = fd;
			pfd[npfd++].events = POLLIN;
			alive++;
		}
	}
	for (;;) {
		uint64_t now = stat_now_ns(), wait_ns = UINT64_MAX;

		int wr = w->wl ? pev_workload_poll(w->wl, &st) : 0;
		if (wr > 0) {
			workload_ended(w, st, code);
			ended = true;
			break;
		}
		if (wr < 0 && wr != -EINTR) {
			ret = wr;	/* ECHILD: not ours to wait for any more */
			break;
		}
		if (signals_stop()) {
			/* perf: the workload gets the SIGINT too (from the
			 * terminal; forward it when it came to us alone), and
			 * we print what was counted once it has gone. */
			if (!w->wl)
				break;
			if (!grace) {
				pev_workload_kill(w->wl, signals_stop());
				grace = now + GRACE_NS;
			} else if (now >= grace) {
				break;
			}
			wait_ns = grace - now;
		}
		if (w->interval_ms && !signals_stop()) {
			uint64_t next = *w->last_tick + (uint64_t)w->interval_ms * 1000000u;
			if (now >= next) {
				if (w->tick(w->ctx, now))
					break;
				continue;
			}
			wait_ns = next - now < wait_ns ? next - now : wait_ns;
		}
		if (deadline) {
			if (now >= deadline)
				break;
			wait_ns = deadline - now < wait_ns ? deadline - now : wait_ns;
		}
		if (check_tasks && wait_ns > TASK_CHECK_MS * 1000000u)
			wait_ns = TASK_CHECK_MS * 1000000u;
		if (w->wl && wait_ns > (wr < 0 ? 10 : WORKLOAD_CHECK_MS) * 1000000ull)
			wait_ns = (wr < 0 ? 10 : WORKLOAD_CHECK_MS) * 1000000ull;
		int r = wait_fds(pfd, npfd, wait_ns);
		if (r > 0) {
			for (int i = 0; i < npfd; i++)
				if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLIN | POLLHUP))) {
					close(pfd[i].fd);
					pfd[i].fd = -1;
					alive--;
				}
			if (alive == 0 && !check_tasks)
				break;
		}
		if (check_tasks) {
			bool any = alive > 0;
			for (size_t i = 0; i < pev_target_nr_threads(w->target) && !any; i++)
				any = task_alive(pev_target_thread(w->target, i));
			if (!any)
				break;
		}
	}
	for (int i = 0; i < npfd; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	if (w->wl && !ended && !ret)
		end_workload(w, grace != 0, code);
	return ret;
}
