// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Count this process's task-clock and page faults around some work, the
 * way `perfev stat` does for a command: a target, a counter set, enable,
 * work, disable, read, print scaled values. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>

int main(void)
{
	struct perf_event_attr attrs[2] = { 0 };
	const char *names[2] = { "task-clock", "page-faults" };
	struct pev_target *t = pev_target_new_self();
	struct pev_counter_opts o = { .size = sizeof(o), .target = t };
	struct pev_counters *c = t ? pev_counters_new(&o) : NULL;
	int r;

	if (!c) {
		fprintf(stderr, "count_self: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < 2; i++) {
		attrs[i].size = sizeof(attrs[i]);
		attrs[i].type = PERF_TYPE_SOFTWARE;
		attrs[i].config = i ? PERF_COUNT_SW_PAGE_FAULTS : PERF_COUNT_SW_TASK_CLOCK;
		pev_counters_add(c, &attrs[i], names[i], -1);
	}
	r = pev_counters_open(c);
	if (r < 0) {
		fprintf(stderr, "count_self: cannot open counters: %s\n", strerror(-r));
		return 1;
	}
	pev_counters_enable(c);
	size_t n = 16 << 20;
	volatile char *p = malloc(n);	/* volatile: keep the work */
	for (size_t i = 0; p && i < n; i += 4096)
		p[i] = 1;
	free((void *)p);
	pev_counters_disable(c);
	pev_counters_read(c);
	for (size_t i = 0; i < pev_counters_count(c); i++) {
		struct pev_count v;
		double s;

		pev_counters_total(c, i, &v);
		if (v.status == PEV_COUNT_NOT_SUPPORTED) {
			printf("%20s  %s (%s)\n", "<not supported>", pev_counters_name(c, i),
			       strerror(v.error));
			continue;
		}
		if (pev_count_scale(&v, &s) < 0) {
			printf("%20s  %s\n", "<not counted>", pev_counters_name(c, i));
			continue;
		}
		printf("%20.0f  %s  (%.2f%%)\n", s, pev_counters_name(c, i),
		       100.0 * pev_count_running_fraction(&v));
	}
	pev_counters_free(c);
	pev_target_free(t);
	return 0;
}
