// SPDX-License-Identifier: GPL-2.0-only
/* Test helper: call clock_gettime() (served by the vDSO, no system call)
 * in a loop for argv[1] milliseconds (default 300). */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 300;
	struct timespec t0, t;
	volatile long sum = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 1000; i++) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			sum += t.tv_nsec;
		}
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	return 0;
}
