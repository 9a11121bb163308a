// SPDX-License-Identifier: GPL-2.0-only
/* Workload for the --off-cpu tests: sleeps of known lengths inside known
 * functions, built with frame pointers, the sleep a raw nanosleep system
 * call made from the function itself (so that the user call chain starts
 * in it, whatever the C library does with its frame pointer).
 *
 *   offcpu_work        oc_sleep_200ms: 5 sleeps of 200 ms (1 s off CPU)
 *   offcpu_work -t [N] two threads: oc_wait_a 4N x 100 ms (0.4 s) and
 *                      oc_wait_b 3N x 200 ms (0.6 s); N = 1 by default
 *
 * It prints "slept <tid> <function> <ns>" per function, the time its own
 * clock saw in the system calls. */
#pragma GCC optimize("no-omit-frame-pointer", "no-optimize-sibling-calls")
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int rounds = 1;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* nanosleep(ms), the system call issued right here. */
static inline __attribute__((always_inline)) void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
#if defined(__x86_64__)
	long ret;

	do {
		__asm__ volatile("syscall" : "=a"(ret)
				 : "0"((long)SYS_nanosleep), "D"(&ts), "S"(&ts)
				 : "rcx", "r11", "memory");
	} while (ret == -4);	/* EINTR: the rest is in ts */
#else
	while (syscall(SYS_nanosleep, &ts, &ts) < 0)
		;
#endif
}

static void report(const char *fn, uint64_t ns)
{
	printf("slept %ld %s %llu\n", (long)syscall(SYS_gettid), fn, (unsigned long long)ns);
	fflush(stdout);
}

__attribute__((noinline)) void oc_sleep_200ms(int times)
{
	uint64_t t = 0;

	for (int i = 0; i < times; i++) {
		uint64_t t0 = now_ns();

		nap(200);
		t += now_ns() - t0;
	}
	report(__func__, t);
}

__attribute__((noinline)) void oc_wait_a(void)
{
	uint64_t t = 0;

	for (int i = 0; i < 4 * rounds; i++) {
		uint64_t t0 = now_ns();

		nap(100);
		t += now_ns() - t0;
	}
	report(__func__, t);
}

__attribute__((noinline)) void oc_wait_b(void)
{
	uint64_t t = 0;

	for (int i = 0; i < 3 * rounds; i++) {
		uint64_t t0 = now_ns();

		nap(200);
		t += now_ns() - t0;
	}
	report(__func__, t);
}

static void *thread_a(void *arg)
{
	(void)arg;
	oc_wait_a();
	return NULL;
}

static void *thread_b(void *arg)
{
	(void)arg;
	oc_wait_b();
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "-t")) {
		pthread_t a, b;

		if (argc > 2)
			rounds = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
		if (pthread_create(&a, NULL, thread_a, NULL) ||
		    pthread_create(&b, NULL, thread_b, NULL))
			return 1;
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		return 0;
	}
	oc_sleep_200ms(5);
	return 0;
}
