// SPDX-License-Identifier: GPL-2.0-only
/* Groups: one GROUP read per leader gives every member, in leader order,
 * with the ids PERF_EVENT_IOC_ID gives; the whole group is enabled and
 * disabled by the leader's ioctl with PERF_IOC_FLAG_GROUP; exact counts. */
#include "count_util.h"

int main(void)
{
	struct perf_event_attr ppid = tp_attr("syscalls", "sys_enter_getppid");
	struct perf_event_attr pid = tp_attr("syscalls", "sys_enter_getpid");
	struct perf_event_attr tc = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct pev_target *t = pev_target_new_self();
	/* no_inherit so that GROUP is used whatever the kernel's rule on
	 * inherit + GROUP (count_inherit covers that case). */
	struct pev_counters *c = new_set(t, true);

	CHECK_EQ_INT(pev_counters_add(c, &ppid, "getppid", -1), 0);
	CHECK_EQ_INT(pev_counters_add(c, &pid, "getpid", 0), 1);
	CHECK_EQ_INT(pev_counters_add(c, &tc, "task-clock", 0), 2);
	/* A standalone event after the group; a bad leader is refused. */
	CHECK_EQ_INT(pev_counters_add(c, &ppid, "alone", -1), 3);
	CHECK_EQ_INT(pev_counters_add(c, &ppid, "bad", 1), -EINVAL);
	CHECK_EQ_INT(pev_counters_add(c, &ppid, "bad", 9), -EINVAL);
	open_or_skip(c, &ppid, 0, -1);
	CHECK_EQ_INT(pev_counters_leader(c, 2), 0);
	CHECK_EQ_INT(pev_counters_leader(c, 3), 3);
	CHECK(pev_counters_attr(c, 0)->read_format & PERF_FORMAT_GROUP);
	CHECK(!(pev_counters_attr(c, 1)->read_format & PERF_FORMAT_GROUP));
	CHECK(!(pev_counters_attr(c, 3)->read_format & PERF_FORMAT_GROUP));
	CHECK(pev_counters_attr(c, 0)->disabled == 1);
	CHECK(pev_counters_attr(c, 1)->disabled == 0);

	/* Enabling the leader with the group flag starts every member. */
	int lfd = pev_counters_fd(c, 0, 0, 0);
	CHECK_OK(pev_ioc_enable(lfd, true));
	call_getppid(40);
	call_getpid(60);
	CHECK_OK(pev_ioc_disable(lfd, true));
	call_getppid(5);
	call_getpid(5);

	/* The raw GROUP read: nr, ena, run, {value, id, [lost]}... */
	uint64_t buf[32], rf = pev_counters_attr(c, 0)->read_format;
	int r = (int)read(lfd, buf, sizeof(buf));
	CHECK_EQ_INT(r, (int)pev_read_size(rf, 3));
	struct pev_read_value v[3];
	uint64_t ena, run;
	CHECK_EQ_INT(pev_read_parse(buf, (size_t)r, rf, v, 3, &ena, &run), 3);
	CHECK(ena > 0 && run == ena);
	for (int i = 0; i < 3; i++) {
		uint64_t id = 0;
		CHECK_OK(pev_ioc_id(pev_counters_fd(c, (size_t)i, 0, 0), &id));
		CHECK_EQ_U64(v[i].id, id);
		CHECK_EQ_U64(pev_counters_id(c, (size_t)i, 0, 0), id);
	}
	CHECK_EQ_U64(v[0].value, 40);
	CHECK_EQ_U64(v[1].value, 60);
	CHECK(v[2].value > 0);
	/* Every id differs. */
	uint64_t ida = pev_counters_id(c, 0, 0, 0), idb = pev_counters_id(c, 1, 0, 0);
	uint64_t idc = pev_counters_id(c, 2, 0, 0), idd = pev_counters_id(c, 3, 0, 0);
	CHECK(ida != idb && ida != idc && ida != idd && idb != idc && idb != idd && idc != idd);

	/* Through the set: the same values; the standalone one never ran. */
	CHECK_OK(pev_counters_read(c));
	CHECK_EQ_U64(total(c, 0), 40);
	CHECK_EQ_U64(total(c, 1), 60);
	struct pev_count cnt;
	CHECK_OK(pev_counters_total(c, 3, &cnt));
	CHECK_EQ_INT(cnt.status, PEV_COUNT_NOT_COUNTED);
	CHECK_OK(pev_counters_total(c, 2, &cnt));
	CHECK_EQ_INT(cnt.status, PEV_COUNT_OK);
	CHECK(cnt.ena == ena && cnt.run == run);

	/* The set's enable covers the standalone leader too. */
	CHECK_OK(pev_counters_reset(c));
	CHECK_OK(pev_counters_enable(c));
	call_getppid(9);
	CHECK_OK(pev_counters_disable(c));
	CHECK_OK(pev_counters_read(c));
	CHECK_EQ_U64(total(c, 0), 9);
	CHECK_EQ_U64(total(c, 1), 0);
	CHECK_EQ_U64(total(c, 3), 9);

	pev_counters_free(c);
	pev_target_free(t);
	return t_done();
}
