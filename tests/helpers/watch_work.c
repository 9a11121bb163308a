// SPDX-License-Identifier: GPL-2.0-only
/* Workload for the record option tests: writes a global variable a known
 * number of times, for a write watchpoint (mem:ADDR:w).
 *
 *   watch_work -a        print the address of the variable and exit
 *   watch_work [-n N]    write it N times (default 1000)
 *
 * It re-executes itself without address randomization (as setarch -R,
 * but with no other program's writes in between), so the address is the
 * same in every run: a test asks for it first and then watches it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/personality.h>
#include <unistd.h>

volatile uint64_t ww_watched;

__attribute__((noinline)) static void write_watched(long n)
{
	for (long i = 0; i < n; i++)
		ww_watched = (uint64_t)i;
}

int main(int argc, char **argv)
{
	long n = 1000;
	int c, p = personality(0xffffffff);

	if (p != -1 && !(p & ADDR_NO_RANDOMIZE) &&
	    personality((unsigned long)p | ADDR_NO_RANDOMIZE) != -1) {
		execv("/proc/self/exe", argv);
		return 127;
	}

	while ((c = getopt(argc, argv, "an:")) != -1) {
		switch (c) {
		case 'a':
			printf("%p\n", (void *)&ww_watched);
			return 0;
		case 'n':
			n = atol(optarg);
			break;
		default:
			return 2;
		}
	}
	write_watched(n);
	return 0;
}
