// SPDX-License-Identifier: GPL-2.0-only
/* The calling thread's tracepoint hits, exactly: getppid() N times reads
 * N; disable stops counting, enable resumes, reset zeroes; the delta view;
 * PERF_FORMAT_LOST reads with lost == 0 where the kernel has it. */
#include "count_util.h"

int main(void)
{
	struct perf_event_attr a = tp_attr("syscalls", "sys_enter_getppid");
	struct pev_target *t = pev_target_new_self();
	struct pev_count v;

	CHECK(t != NULL);
	CHECK_EQ_INT(pev_target_kind(t), PEV_TARGET_SELF);
	CHECK(pev_target_is_task(t));
	struct pev_counters *c = new_set(t, false);
	CHECK_EQ_INT(pev_counters_add(c, &a, "syscalls:sys_enter_getppid", -1), 0);
	open_or_skip(c, &a, 0, -1);
	CHECK_EQ_INT(pev_counters_status(c, 0, NULL), PEV_COUNT_OK);

	/* Opened disabled: nothing counts before enable. */
	call_getppid(50);
	CHECK_OK(pev_counters_read(c));
	CHECK_OK(pev_counters_total(c, 0, &v));
	CHECK_EQ_U64(v.val, 0);
	CHECK_EQ_INT(v.status, PEV_COUNT_NOT_COUNTED);

	CHECK_OK(pev_counters_enable(c));
	call_getppid(1000);
	CHECK_OK(pev_counters_disable(c));
	CHECK_OK(pev_counters_read(c));
	CHECK_OK(pev_counters_total(c, 0, &v));
	CHECK_EQ_U64(v.val, 1000);
	CHECK_EQ_INT(v.status, PEV_COUNT_OK);
	CHECK(v.ena > 0 && v.run == v.ena);
	double s;
	CHECK_EQ_INT(pev_count_scale(&v, &s), 0);
	CHECK(s == 1000.0);

	/* Disabled: more calls do not count. */
	call_getppid(300);
	CHECK_OK(pev_counters_read(c));
	CHECK_EQ_U64(total(c, 0), 1000);
	CHECK_OK(pev_counters_get(c, 0, -1, -1, PEV_VIEW_DELTA, &v));
	CHECK_EQ_U64(v.val, 0);

	/* Enabled again: resumes; delta shows only the new calls. */
	CHECK_OK(pev_counters_enable(c));
	call_getppid(77);
	CHECK_OK(pev_counters_read(c));
	CHECK_EQ_U64(total(c, 0), 1077);
	CHECK_OK(pev_counters_get(c, 0, -1, -1, PEV_VIEW_DELTA, &v));
	CHECK_EQ_U64(v.val, 77);
	CHECK_OK(pev_counters_get(c, 0, 0, 0, PEV_VIEW_TOTAL, &v));
	CHECK_EQ_U64(v.val, 1077);

	/* Reset zeroes. */
	CHECK_OK(pev_counters_reset(c));
	call_getppid(5);
	CHECK_OK(pev_counters_read(c));
	CHECK_EQ_U64(total(c, 0), 5);

	/* LOST: asked for when the kernel has it (6.0+), and nothing lost. */
	const struct perf_event_attr *oa = pev_counters_attr(c, 0);
	CHECK(oa->read_format & PERF_FORMAT_ID);
	CHECK(oa->inherit == 1);
	CHECK(oa->disabled == 1);
	if (oa->read_format & PERF_FORMAT_LOST) {
		CHECK_OK(pev_counters_total(c, 0, &v));
		CHECK_EQ_U64(v.lost, 0);
		/* And the raw read has the LOST word where the manual says. */
		uint64_t buf[8];
		int fd = pev_counters_fd(c, 0, 0, 0);
		CHECK_EQ_INT(read(fd, buf, sizeof(buf)), 40);
		CHECK_EQ_U64(buf[0], 5);
		CHECK_EQ_U64(buf[4], 0);
		uint64_t id = 0;
		CHECK_OK(pev_ioc_id(fd, &id));
		CHECK_EQ_U64(buf[3], id);
	} else {
		printf("note: this kernel has no PERF_FORMAT_LOST\n");
	}

	/* Out-of-range queries. */
	CHECK_EQ_INT(pev_counters_get(c, 1, -1, -1, PEV_VIEW_TOTAL, &v), -EINVAL);
	CHECK_EQ_INT(pev_counters_get(c, 0, 1, -1, PEV_VIEW_TOTAL, &v), -EINVAL);
	CHECK_EQ_INT(pev_counters_fd(c, 0, 0, 1), -1);
	CHECK_EQ_INT(pev_counters_add(c, &a, "late", -1), -EBUSY);
	pev_counters_free(c);
	pev_target_free(t);
	return t_done();
}
