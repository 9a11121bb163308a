// SPDX-License-Identifier: GPL-2.0-only
/* A parsed event list goes into a counter set with its groups, names,
 * units and scales; counts are exact for the tracepoints; a list added
 * after other events keeps its leaders right; a failing add leaves the set
 * as it was. */
#include "count_util.h"

int main(void)
{
	struct pev_evlist *l = pev_evlist_new();
	struct pev_parse_error err;
	struct perf_event_attr a = tp_attr("syscalls", "sys_enter_getppid");
	int r;

	tp_id("syscalls", "sys_enter_getpid");	/* skips when tracefs lacks it */
	CHECK(l != NULL);
	r = pev_evlist_parse(l, "task-clock,{syscalls:sys_enter_getppid,syscalls:sys_enter_getpid}",
			     NULL, &err);
	CHECK_MSG(r == 0, "parse: %s", err.msg);
	CHECK_EQ_INT(pev_evlist_count(l), 3);

	struct pev_target *t = pev_target_new_self();
	struct pev_counters *c = new_set(t, true);
	CHECK_EQ_INT(pev_counters_add(c, &a, "first", -1), 0);
	CHECK_EQ_INT(pev_counters_add_evlist(c, l), 1);
	CHECK_EQ_INT(pev_counters_count(c), 4);
	CHECK_STR(pev_counters_name(c, 1), "task-clock");
	CHECK_STR(pev_counters_unit(c, 1), "msec");
	CHECK_STR(pev_counters_name(c, 2), "syscalls:sys_enter_getppid");
	CHECK_EQ_INT(pev_counters_leader(c, 1), 1);
	CHECK_EQ_INT(pev_counters_leader(c, 2), 2);
	CHECK_EQ_INT(pev_counters_leader(c, 3), 2);
	CHECK(pev_counters_scale(c, 2) == 1.0);
	open_or_skip(c, &a, 0, -1);
	CHECK(pev_counters_attr(c, 2)->read_format & PERF_FORMAT_GROUP);
	CHECK_OK(pev_counters_enable(c));
	call_getppid(64);
	call_getpid(16);
	CHECK_OK(pev_counters_disable(c));
	CHECK_OK(pev_counters_read(c));
	CHECK_EQ_U64(total(c, 0), 64);
	CHECK(total(c, 1) > 0);
	CHECK_EQ_U64(total(c, 2), 64);
	CHECK_EQ_U64(total(c, 3), 16);
	CHECK_EQ_INT(pev_counters_add_evlist(c, l), -EBUSY);
	pev_counters_free(c);

	/* A failing add: the third event of the list gets an attr size the
	 * set refuses, after the first two were added. */
	c = new_set(t, true);
	CHECK_EQ_INT(pev_counters_add(c, &a, "first", -1), 0);
	struct pev_event *e = pev_evlist_event(l, 2);
	uint32_t saved = e->attr.attr.size;
	e->attr.attr.size = 8;	/* below PERF_ATTR_SIZE_VER0 */
	CHECK_EQ_INT(pev_counters_add_evlist(c, l), -EINVAL);
	e->attr.attr.size = saved;
	CHECK_EQ_INT(pev_counters_count(c), 1);
	/* The group leader's member count was rolled back too: the group
	 * added again is a group of 2 and reads as one. */
	CHECK_EQ_INT(pev_counters_add_evlist(c, l), 1);
	open_or_skip(c, &a, 0, -1);
	CHECK_OK(pev_counters_enable(c));
	call_getpid(5);
	CHECK_OK(pev_counters_disable(c));
	CHECK_OK(pev_counters_read(c));
	CHECK_EQ_U64(total(c, 3), 5);
	uint64_t buf[16];
	CHECK_EQ_INT(read(pev_counters_fd(c, 2, 0, 0), buf, sizeof(buf)),
		     (int)pev_read_size(pev_counters_attr(c, 2)->read_format, 2));
	pev_counters_free(c);
	pev_target_free(t);
	pev_evlist_free(l);
	return t_done();
}
