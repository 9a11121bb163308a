// SPDX-License-Identifier: GPL-2.0-only
/* Workload for the record tests: a CPU-bound spin under a known chain of
 * functions (rw_main -> rw_level1 -> ... -> rw_level6 -> rw_spin), built
 * with frame pointers so that -g callchains walk through every level.
 *
 *   record_work [-m MSECS] [-t THREADS] [-x STATUS] [-S] [-s]
 *
 * -m: spin this long (default 200 ms) in each thread, counted in the
 * thread's CPU time so that the number of cpu-clock samples does not
 * depend on how loaded the machine is (with -s: wall time); -t: that many
 * threads (default 1); -x: exit with STATUS; -S: die of SIGSEGV at the
 * end; -s: sleep in 1 ms steps instead of spinning (context switches). */
#pragma GCC optimize("no-omit-frame-pointer", "no-optimize-sibling-calls")
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long msecs = 200;
static int sleepy;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(sleepy ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

__attribute__((noinline)) unsigned long rw_spin(unsigned long seed)
{
	volatile unsigned long x = seed;
	double end = now_ms() + (double)msecs;

	while (now_ms() < end) {
		if (sleepy) {
			usleep(1000);
			continue;
		}
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
	}
	return x;
}

#define LEVEL(n, next) \
	__attribute__((noinline)) unsigned long rw_level##n(unsigned long v) \
	{ return next(v + n) + 1; }
LEVEL(6, rw_spin)
LEVEL(5, rw_level6)
LEVEL(4, rw_level5)
LEVEL(3, rw_level4)
LEVEL(2, rw_level3)
LEVEL(1, rw_level2)

static void *thread_main(void *arg)
{
	return (void *)rw_level1((unsigned long)arg);
}

__attribute__((noinline)) int rw_main(int threads)
{
	pthread_t t[64];

	if (threads > 64)
		threads = 64;
	for (int i = 1; i < threads; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)(long)i);
	unsigned long v = rw_level1(0);
	for (int i = 1; i < threads; i++)
		pthread_join(t[i], NULL);
	return (int)(v & 1);
}

int main(int argc, char **argv)
{
	int threads = 1, status = 0, segv = 0, c;

	while ((c = getopt(argc, argv, "m:t:x:Ss")) != -1) {
		switch (c) {
		case 'm': msecs = atol(optarg); break;
		case 't': threads = atoi(optarg); break;
		case 'x': status = atoi(optarg); break;
		case 'S': segv = 1; break;
		case 's': sleepy = 1; break;
		default: return 2;
		}
	}
	rw_main(threads);
	if (segv) {
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	}
	return status;
}
