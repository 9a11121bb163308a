// SPDX-License-Identifier: GPL-2.0-only
/* A tracepoint through the region API, exactly: getppid() N times inside a
 * region counts N, calls outside any region (or in another region) add 0,
 * repeated calls add up and `calls` is exact; the region reads themselves
 * make no getppid, so calibration finds 0 and scaled == raw.  And the
 * query errors of pev_region_get / pev_region_init. */
#include "region_util.h"

int main(void)
{
	struct pev_region_count c = { .size = sizeof(c) };

	setenv("PERFEV_OUTPUT", "none", 1);
	unsetenv("PERFEV_CALIBRATE");
	rt_need_tracepoint();
	CHECK_EQ_INT(pev_region_init(RT_TP_SPEC), 0);
	CHECK_EQ_INT(pev_region_nr_events(), 1);
	CHECK_STR(pev_region_event_name(0), RT_TP_SPEC);
	CHECK(pev_region_event_name(1) == NULL);
	CHECK_EQ_INT(pev_region_get("tp_in", 0, 0, &c), -ENOENT);

	/* Outside any region, before and after: nothing. */
	call_getppid(37);
	pev_region_begin("tp_in");
	call_getppid(1000);
	pev_region_end("tp_in");
	call_getppid(500);
	RT_CHECK_EXACT("tp_in", 0, 0, 1, 1000);
	c = rt_count("tp_in", 0, 0);
	CHECK(c.enabled > 0 && c.running == c.enabled);

	/* Another region's hits are its own. */
	pev_region_begin("tp_other");
	call_getppid(20);
	pev_region_end("tp_other");
	RT_CHECK_EXACT("tp_other", 0, 0, 1, 20);
	RT_CHECK_EXACT("tp_in", 0, 0, 1, 1000);

	/* Repeats add up, outside calls in between add nothing. */
	for (int i = 0; i < 9; i++) {
		pev_region_begin("tp_in");
		call_getppid(26);
		pev_region_end("tp_in");
		call_getppid(3);
	}
	RT_CHECK_EXACT("tp_in", 0, 0, 10, 1234);

	/* An empty region: 0, however many calls. */
	for (int i = 0; i < 100; i++) {
		pev_region_begin("tp_empty");
		pev_region_end("tp_empty");
	}
	RT_CHECK_EXACT("tp_empty", 0, 0, 100, 0);

	/* One thread: tid 0, its own tid and -1 (all threads) agree. */
	RT_CHECK_EXACT("tp_in", rt_gettid(), 0, 10, 1234);
	RT_CHECK_EXACT("tp_in", -1, 0, 10, 1234);

	/* The errors the header lists. */
	CHECK_EQ_INT(pev_region_get("tp_nowhere", 0, 0, &c), -ENOENT);
	CHECK_EQ_INT(pev_region_get("tp_in", 1, 0, &c), -ENOENT);	/* init has none */
	CHECK_EQ_INT(pev_region_get("tp_in", 0, 1, &c), -ERANGE);
	CHECK_EQ_INT(pev_region_get(NULL, 0, 0, &c), -EINVAL);
	CHECK_EQ_INT(pev_region_get("tp_in", 0, 0, NULL), -EINVAL);
	CHECK_EQ_INT(pev_region_init(RT_TP_SPEC), -EBUSY);
	CHECK_EQ_INT(pev_region_init(NULL), -EBUSY);
	RT_CHECK_EXACT("tp_in", 0, 0, 10, 1234);
	CHECK_EQ_INT(pev_region_report(), 0);
	return t_done();
}
