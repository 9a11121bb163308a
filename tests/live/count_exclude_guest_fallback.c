// SPDX-License-Identifier: GPL-2.0-only
/* PMUs that cannot tell guest from host (msr) refuse the exclude_guest
 * bit the parser sets by default; the counter set must retry without it,
 * as perf does, instead of reporting the event as not supported. */
#include <perfev/perfev.h>
#include "testutil.h"

int main(void)
{
	struct pev_evlist *l = pev_evlist_new();
	struct pev_parse_error err;
	if (access("/sys/bus/event_source/devices/msr/events/tsc", R_OK))
		T_SKIP("no msr PMU with a tsc event in /sys/bus/event_source/devices");
	int r = pev_evlist_parse(l, "msr/tsc/", NULL, &err);

	CHECK_OK(r);
	CHECK(pev_evlist_event(l, 0)->attr.attr.exclude_guest == 1);

	struct pev_target *t = pev_target_new_self();
	struct pev_counter_opts o = { .size = sizeof(o), .target = t };
	struct pev_counters *c = pev_counters_new(&o);
	CHECK_OK(pev_counters_add_evlist(c, l));
	r = pev_counters_open(c);
	CHECK_MSG(r > 0, "open: %d", r);
	int e = 0;
	CHECK_EQ_INT(pev_counters_status(c, 0, &e), PEV_COUNT_OK);
	CHECK_OK(pev_counters_enable(c));
	for (volatile int i = 0; i < 100000; i++)
		;
	CHECK_OK(pev_counters_disable(c));
	CHECK_OK(pev_counters_read(c));
	struct pev_count v;
	CHECK_OK(pev_counters_total(c, 0, &v));
	CHECK_MSG(v.val > 1000, "tsc advanced only %" PRIu64, v.val);
	CHECK(pev_counters_attr(c, 0)->exclude_guest == 0);
	pev_counters_free(c);
	pev_target_free(t);
	pev_evlist_free(l);
	return t_done();
}
