// SPDX-License-Identifier: GPL-2.0-only
/* Regions are per thread: 8 threads, started together, each run region
 * "work" 3 times with its own known number of getppid() calls and
 * rt_probe_fn() calls (and some outside it).  Each thread's counts are
 * exact, read by the thread itself (tid 0) and, after it exited, by the
 * main thread with its tid; the sum over threads (tid -1) is exact; the
 * main thread, which ran no "work", has none. */
#include <pthread.h>
#include "region_util.h"

#define NT 8
#define REPS 3

struct worker {
	int i;
	pid_t tid;
	pthread_barrier_t *bar;
	struct pev_region_count own_tp, own_up;
};

static long tp_hits(int i) { return 100 * (i + 1); }
static long up_hits(int i) { return 10 * (i + 1) + i; }

static void *worker(void *arg)
{
	struct worker *w = arg;

	w->tid = rt_gettid();
	pthread_barrier_wait(w->bar);
	for (int r = 0; r < REPS; r++) {
		pev_region_begin("work");
		call_getppid(tp_hits(w->i));
		rt_call_probe(up_hits(w->i));
		pev_region_end("work");
		call_getppid(7);
		rt_call_probe(7);
	}
	w->own_tp = rt_count("work", 0, 0);
	w->own_up = rt_count("work", 0, 1);
	return NULL;
}

int main(void)
{
	pthread_t th[NT];
	struct worker w[NT];
	pthread_barrier_t bar;
	struct pev_region_count c = { .size = sizeof(c) };
	long tp_sum = 0, up_sum = 0;

	setenv("PERFEV_OUTPUT", "none", 1);
	unsetenv("PERFEV_CALIBRATE");
	rt_need_tracepoint();
	rt_need_uprobe();
	CHECK_EQ_INT(pev_region_init(RT_TP_SPEC "," RT_UPROBE_SPEC), 0);
	pthread_barrier_init(&bar, NULL, NT);
	for (int i = 0; i < NT; i++) {
		w[i] = (struct worker){ .i = i, .bar = &bar };
		if (pthread_create(&th[i], NULL, worker, &w[i]))
			T_FATAL("pthread_create: %s", strerror(errno));
	}
	call_getppid(1000);	/* the main thread, outside any region */
	for (int i = 0; i < NT; i++)
		pthread_join(th[i], NULL);

	for (int i = 0; i < NT; i++) {
		CHECK_MSG(w[i].own_tp.calls == REPS && w[i].own_tp.raw == (uint64_t)(REPS * tp_hits(i)),
			  "thread %d read itself: calls %" PRIu64 " tp %" PRIu64 ", expected %d %ld",
			  i, w[i].own_tp.calls, w[i].own_tp.raw, REPS, REPS * tp_hits(i));
		CHECK_MSG(w[i].own_up.raw == (uint64_t)(REPS * up_hits(i)),
			  "thread %d read itself: uprobe %" PRIu64 ", expected %ld",
			  i, w[i].own_up.raw, REPS * up_hits(i));
		RT_CHECK_EXACT("work", w[i].tid, 0, REPS, REPS * tp_hits(i));
		RT_CHECK_EXACT("work", w[i].tid, 1, REPS, REPS * up_hits(i));
		tp_sum += REPS * tp_hits(i);
		up_sum += REPS * up_hits(i);
	}
	RT_CHECK_EXACT("work", -1, 0, NT * REPS, tp_sum);
	RT_CHECK_EXACT("work", -1, 1, NT * REPS, up_sum);
	CHECK_EQ_INT(pev_region_get("work", 0, 0, &c), -ENOENT);
	pthread_barrier_destroy(&bar);
	return t_done();
}
