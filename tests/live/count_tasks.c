// SPDX-License-Identifier: GPL-2.0-only
/* pid and tid targets on another process with two threads: a pid target
 * counts all its threads (from /proc/PID/task), a tid target only that
 * thread; exact tracepoint counts, per thread too. */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include "count_util.h"

static int go[2], tids[2];

static void *second(void *arg)
{
	char c;
	pid_t tid = (pid_t)syscall(SYS_gettid);

	(void)arg;
	if (write(tids[1], &tid, sizeof(tid)) != sizeof(tid))
		_exit(3);
	/* Wait for the go byte meant for this thread (value 2). */
	if (read(go[0], &c, 1) != 1)
		_exit(3);
	call_getppid(700);
	return NULL;
}

/* A process: main thread makes 300 calls, second thread 700, each after a
 * byte on go.  Reports main tid then second tid. */
static pid_t spawn(void)
{
	pid_t pid;

	CHECK(pipe(go) == 0 && pipe(tids) == 0);
	pid = fork();
	if (pid == 0) {
		pthread_t th;
		pid_t me = (pid_t)syscall(SYS_gettid);
		char c;

		if (write(tids[1], &me, sizeof(me)) != sizeof(me))
			_exit(3);
		pthread_create(&th, NULL, second, NULL);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		call_getppid(300);
		pthread_join(th, NULL);
		_exit(0);
	}
	return pid;
}

static void release(void)
{
	CHECK(write(go[1], "ab", 2) == 2);
}

int main(void)
{
	struct perf_event_attr a = tp_attr("syscalls", "sys_enter_getppid");
	pid_t p = spawn(), t_main, t_second;

	CHECK(read(tids[0], &t_main, sizeof(pid_t)) == sizeof(pid_t));
	CHECK(read(tids[0], &t_second, sizeof(pid_t)) == sizeof(pid_t));
	CHECK_EQ_INT(t_main, p);

	struct pev_target *tp = pev_target_new_pids(&p, 1);
	CHECK(tp != NULL);
	CHECK_EQ_INT(pev_target_nr_threads(tp), 2);
	CHECK_EQ_INT(pev_target_kind(tp), PEV_TARGET_TASKS);
	struct pev_target *tt = pev_target_new_tids(&t_second, 1);
	CHECK(tt != NULL);
	CHECK_EQ_INT(pev_target_nr_threads(tt), 1);

	struct pev_counters *cp = new_set(tp, false), *ct = new_set(tt, false);
	CHECK_EQ_INT(pev_counters_add(cp, &a, "pid", -1), 0);
	CHECK_EQ_INT(pev_counters_add(ct, &a, "tid", -1), 0);
	open_or_skip(cp, &a, p, -1);
	open_or_skip(ct, &a, t_second, -1);
	CHECK_OK(pev_counters_enable(cp));
	CHECK_OK(pev_counters_enable(ct));
	release();
	int st;
	CHECK(waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_OK(pev_counters_read(cp));
	CHECK_OK(pev_counters_read(ct));
	CHECK_EQ_U64(total(cp, 0), 1000);
	CHECK_EQ_U64(total(ct, 0), 700);
	/* Per thread: the slots are in ascending tid order. */
	struct pev_count v;
	for (size_t i = 0; i < 2; i++) {
		pid_t tid = pev_target_thread(tp, i);
		CHECK_OK(pev_counters_per_thread(cp, 0, i, &v));
		CHECK_EQ_U64(v.val, tid == t_main ? 300 : 700);
	}
	CHECK_EQ_INT(pev_counters_per_thread(cp, 0, 2, &v), -EINVAL);
	pev_counters_free(cp);
	pev_counters_free(ct);
	pev_target_free(tp);
	pev_target_free(tt);

	/* Gone processes are refused. */
	errno = 0;
	CHECK(pev_target_new_pids(&p, 1) == NULL && errno == ESRCH);
	CHECK(pev_target_new_tids(&p, 1) == NULL && errno == ESRCH);
	/* Lists: our own process twice gives its threads once. */
	pid_t me[2] = { getpid(), getpid() };
	struct pev_target *ts = pev_target_new_pids(me, 2);
	CHECK(ts != NULL && pev_target_nr_threads(ts) == 1);
	CHECK_EQ_INT(pev_target_cpu(ts, 0), -1);
	pev_target_free(ts);
	return t_done();
}
