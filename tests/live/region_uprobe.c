// SPDX-License-Identifier: GPL-2.0-only
/* A uprobe through the region API, exactly: rt_probe_fn() called N times
 * inside a region counts N (spec uprobe:/proc/self/exe:rt_probe_fn),
 * calls outside add 0, repeats add up; a uretprobe counts the returns. */
#include "region_util.h"

int main(void)
{
	setenv("PERFEV_OUTPUT", "none", 1);
	unsetenv("PERFEV_CALIBRATE");
	rt_need_uprobe();
	CHECK_EQ_INT(pev_region_init(RT_UPROBE_SPEC ",uretprobe:/proc/self/exe:rt_probe_fn"), 0);
	CHECK_EQ_INT(pev_region_nr_events(), 2);

	rt_call_probe(11);
	pev_region_begin("up_in");
	rt_call_probe(4321);
	pev_region_end("up_in");
	rt_call_probe(99);
	RT_CHECK_EXACT("up_in", 0, 0, 1, 4321);
	RT_CHECK_EXACT("up_in", 0, 1, 1, 4321);

	for (int i = 0; i < 4; i++) {
		pev_region_begin("up_in");
		rt_call_probe(10);
		pev_region_end("up_in");
		rt_call_probe(1);
	}
	RT_CHECK_EXACT("up_in", 0, 0, 5, 4361);
	RT_CHECK_EXACT("up_in", 0, 1, 5, 4361);

	pev_region_begin("up_empty");
	pev_region_end("up_empty");
	RT_CHECK_EXACT("up_empty", 0, 0, 1, 0);
	RT_CHECK_EXACT("up_in", -1, 0, 5, 4361);
	return t_done();
}
