// SPDX-License-Identifier: GPL-2.0-only
/* perf stat's behaviour when the kernel refuses an event: that event (and
 * its whole group) is "not supported" with the kernel's errno, and the
 * others open and count. */
#include "count_util.h"

static int log_calls;
static void logger(int level, const char *msg, void *user)
{
	(void)user;
	if (level <= 1 && strstr(msg, "bogus"))
		log_calls++;
}

int main(void)
{
	struct perf_event_attr ok = tp_attr("syscalls", "sys_enter_getppid");
	/* No software event has this config: refused on every kernel. */
	struct perf_event_attr bad = sw_attr(1000);
	struct pev_target *t = pev_target_new_self();
	struct pev_counter_opts o = { .size = sizeof(o), .target = t, .log = logger };
	struct pev_counters *c = pev_counters_new(&o);
	struct pev_count v;
	int err = 0;

	CHECK(c != NULL);
	CHECK_EQ_INT(pev_counters_add(c, &bad, "bogus", -1), 0);
	CHECK_EQ_INT(pev_counters_add(c, &ok, "good", -1), 1);
	CHECK_EQ_INT(pev_counters_add(c, &ok, "leader", -1), 2);
	CHECK_EQ_INT(pev_counters_add(c, &bad, "bogus-member", 2), 3);
	CHECK_EQ_INT(pev_counters_status(c, 1, NULL), PEV_COUNT_NOT_OPENED);
	int r = pev_counters_open(c);
	if (r < 0 && t_probe_attr(&ok, 0, -1) < 0)
		T_SKIP("the kernel refuses a raw perf_event_open of the getppid tracepoint");
	CHECK_EQ_INT(r, 1);
	CHECK_EQ_INT(pev_counters_status(c, 0, &err), PEV_COUNT_NOT_SUPPORTED);
	CHECK_EQ_INT(err, ENOENT);
	CHECK_EQ_INT(pev_counters_status(c, 2, &err), PEV_COUNT_NOT_SUPPORTED);
	CHECK_EQ_INT(err, ENOENT);
	CHECK_EQ_INT(pev_counters_status(c, 3, NULL), PEV_COUNT_NOT_SUPPORTED);
	CHECK_EQ_INT(pev_counters_status(c, 1, NULL), PEV_COUNT_OK);
	CHECK_EQ_INT(pev_counters_fd(c, 2, 0, 0), -1);
	CHECK(log_calls >= 2);

	CHECK_OK(pev_counters_enable(c));
	call_getppid(123);
	CHECK_OK(pev_counters_disable(c));
	CHECK_OK(pev_counters_read(c));
	CHECK_EQ_U64(total(c, 1), 123);
	CHECK_OK(pev_counters_total(c, 0, &v));
	CHECK_EQ_INT(v.status, PEV_COUNT_NOT_SUPPORTED);
	CHECK_EQ_INT(v.error, ENOENT);
	CHECK_EQ_U64(v.val, 0);
	pev_counters_free(c);

	/* Nothing opens: the first errno comes back. */
	c = new_set(t, false);
	CHECK_EQ_INT(pev_counters_add(c, &bad, "bogus", -1), 0);
	CHECK_EQ_INT(pev_counters_open(c), -ENOENT);
	CHECK_EQ_INT(pev_counters_open(c), -EBUSY);
	pev_counters_free(c);

	/* An empty set, a set without target. */
	c = new_set(t, false);
	CHECK_EQ_INT(pev_counters_open(c), -EINVAL);
	CHECK_EQ_INT(pev_counters_read(c), -EBADF);
	pev_counters_free(c);
	struct pev_counter_opts none = { .size = sizeof(none) };
	errno = 0;
	CHECK(pev_counters_new(&none) == NULL && errno == EINVAL);
	pev_counters_free(NULL);
	pev_target_free(t);
	return t_done();
}
