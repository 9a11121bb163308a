// SPDX-License-Identifier: GPL-2.0-only
/* prctl(PR_TASK_PERF_EVENTS_DISABLE/ENABLE) stops and resumes every event
 * attached to this process, exactly. */
#include "count_util.h"

int main(void)
{
	struct perf_event_attr a = tp_attr("syscalls", "sys_enter_getppid");
	struct pev_target *t = pev_target_new_self();
	struct pev_counters *c = new_set(t, false);

	CHECK_EQ_INT(pev_counters_add(c, &a, "getppid", -1), 0);
	CHECK_EQ_INT(pev_counters_add(c, &a, "getppid2", -1), 1);
	open_or_skip(c, &a, 0, -1);
	CHECK_OK(pev_counters_enable(c));
	call_getppid(10);
	CHECK_OK(pev_task_events_disable());
	call_getppid(1000);
	CHECK_OK(pev_counters_read(c));
	CHECK_EQ_U64(total(c, 0), 10);
	CHECK_EQ_U64(total(c, 1), 10);
	CHECK_OK(pev_task_events_enable());
	call_getppid(31);
	CHECK_OK(pev_counters_read(c));
	CHECK_EQ_U64(total(c, 0), 41);
	CHECK_EQ_U64(total(c, 1), 41);
	pev_counters_free(c);
	pev_target_free(t);
	return t_done();
}
