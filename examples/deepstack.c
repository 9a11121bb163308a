// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* A CPU-bound workload with deep call stacks of known functions, for
 * bench/record-overhead.sh: a fixed amount of work (so wall time measures
 * the overhead of whoever samples it), done at the bottom of a recursion
 * through four named functions, built with frame pointers so that -g
 * callchains are complete.
 *
 *   deepstack [-n ROUNDS] [-d DEPTH]     (default 3500 rounds, depth 48) */
#pragma GCC optimize("no-omit-frame-pointer", "no-optimize-sibling-calls")
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static unsigned long ds_a(unsigned long v, int d);

__attribute__((noinline)) static unsigned long ds_leaf(unsigned long v)
{
	volatile unsigned long x = v;

	for (int i = 0; i < 250000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noinline)) static unsigned long ds_d(unsigned long v, int d)
{
	return d <= 0 ? ds_leaf(v) : ds_a(v ^ 4, d - 1) + 1;
}

__attribute__((noinline)) static unsigned long ds_c(unsigned long v, int d)
{
	return ds_d(v ^ 3, d - 1) + 1;
}

__attribute__((noinline)) static unsigned long ds_b(unsigned long v, int d)
{
	return ds_c(v ^ 2, d - 1) + 1;
}

__attribute__((noinline)) static unsigned long ds_a(unsigned long v, int d)
{
	return ds_b(v ^ 1, d - 1) + 1;
}

int main(int argc, char **argv)
{
	long rounds = 3500;
	int depth = 48, c;
	unsigned long sum = 0;

	while ((c = getopt(argc, argv, "n:d:")) != -1) {
		switch (c) {
		case 'n': rounds = atol(optarg); break;
		case 'd': depth = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: deepstack [-n rounds] [-d depth]\n");
			return 2;
		}
	}
	for (long i = 0; i < rounds; i++)
		sum += ds_a((unsigned long)i, depth);
	return (int)(sum & 0);
}
