// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Regions: a program measuring parts of its own code (perfev/region.h).
 *
 *	build/examples/region [THREADS]
 *	PERFEV_EVENTS='task-clock,page-faults' build/examples/region 4
 *	PERFEV_OUTPUT=json:regions.json build/examples/region
 *
 * Each thread runs a loop of "step" regions, each with a nested "fill"
 * region that touches fresh memory and a nested "sum" region that reads it
 * back.  At exit the library prints a table per region and thread on
 * stderr (or writes PERFEV_OUTPUT); here the program also reads one count
 * itself with pev_region_get. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/region.h>

#define STEPS 20
#define BYTES (1 << 20)

static void *work(void *arg)
{
	volatile unsigned long sum = 0;	/* volatile: keep the work */

	(void)arg;
	for (int i = 0; i < STEPS; i++) {
		pev_region_begin("step");

		pev_region_begin("fill");
		unsigned char *p = malloc(BYTES);
		if (p)
			memset(p, i, BYTES);
		pev_region_end("fill");

		pev_region_begin("sum");
		for (size_t k = 0; p && k < BYTES; k += 64)
			sum += p[k];
		pev_region_end("sum");

		free(p);
		pev_region_end("step");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 1;
	pthread_t tids[64];
	struct pev_region_count c = { .size = sizeof(c) };

	if (nthreads < 1 || nthreads > 64) {
		fprintf(stderr, "usage: region [THREADS (1-64)]\n");
		return 2;
	}
	/* Optional: the first begin does the same with PERFEV_EVENTS. */
	pev_region_init(NULL);
	for (int t = 1; t < nthreads; t++)
		if (pthread_create(&tids[t], NULL, work, NULL)) {
			nthreads = t;
			break;
		}
	work(NULL);
	for (int t = 1; t < nthreads; t++)
		pthread_join(tids[t], NULL);

	/* Event 0 of "step", summed over every thread (tid -1). */
	if (pev_region_nr_events() && pev_region_get("step", -1, 0, &c) == 0)
		printf("step: %llu calls, %s %.0f\n", (unsigned long long)c.calls,
		       pev_region_event_name(0), c.scaled);
	return 0;	/* the report is written at exit */
}
