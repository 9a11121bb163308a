// SPDX-License-Identifier: GPL-2.0-only
/* Test helper for perf script compatibility and the throughput benchmark:
 * spins for argv[1] milliseconds (default 200) inside a call chain of
 * known functions, `depth` (argv[2], default 12) frames deep, with frame
 * pointers so that `perf record -g` unwinds it.  Threads: argv[3]
 * (default 1) threads run the same loop, so files carry FORK records. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define FP __attribute__((noinline, optimize("no-omit-frame-pointer")))

static volatile uint64_t sink;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

FP void script_deep_leaf(uint64_t end)
{
	/* The clock is read through the PLT; rarely, so that samples almost
	 * never land there (perf 6.1 names a PLT address after _init or
	 * after the PLT entry depending on its symbol tree's shape). */
	while (now_ms() < end)
		for (int i = 0; i < 200000; i++)
			sink += (uint64_t)i * 2654435761u;
}

FP void script_deep_even(int depth, uint64_t end);

FP void script_deep_odd(int depth, uint64_t end)
{
	if (depth <= 0)
		script_deep_leaf(end);
	else
		script_deep_even(depth - 1, end);
	sink++;
}

FP void script_deep_even(int depth, uint64_t end)
{
	if (depth <= 0)
		script_deep_leaf(end);
	else
		script_deep_odd(depth - 1, end);
	sink++;
}

struct arg { int depth; uint64_t end; };

static void *thread_main(void *p)
{
	struct arg *a = p;

	script_deep_odd(a->depth, a->end);
	return NULL;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 200;
	struct arg a = { argc > 2 ? atoi(argv[2]) : 12, 0 };
	int nthreads = argc > 3 ? atoi(argv[3]) : 1;
	pthread_t th[64];

	if (nthreads < 1 || nthreads > 64)
		nthreads = 1;
	a.end = now_ms() + (uint64_t)ms;
	for (int i = 1; i < nthreads; i++)
		pthread_create(&th[i], NULL, thread_main, &a);
	script_deep_odd(a.depth, a.end);
	for (int i = 1; i < nthreads; i++)
		pthread_join(th[i], NULL);
	return 0;
}
