// SPDX-License-Identifier: GPL-2.0-only
/* System-wide counting per CPU: our N calls show up (>= N, as other
 * processes may call too); with a "common_pid == us" filter on every CPU's
 * fd, calls pinned to one CPU show up exactly on that CPU's reading.  An
 * event with a PMU cpumask is opened only on those CPUs. */
#include <sched.h>
#include "count_util.h"

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		T_FATAL("sched_setaffinity(%d): %s", cpu, strerror(errno));
}

static void filter_all(struct pev_counters *c, size_t ev)
{
	char f[64];
	const struct pev_target *t = pev_counters_target(c);

	snprintf(f, sizeof(f), "common_pid == %d", (int)getpid());
	for (size_t k = 0; k < pev_target_nr_cpus(t); k++) {
		int fd = pev_counters_fd(c, ev, k, 0);
		if (fd >= 0)
			CHECK_OK(pev_ioc_set_filter(fd, f));
	}
}

int main(void)
{
	struct perf_event_attr a = tp_attr("syscalls", "sys_enter_getppid");
	struct pev_target *t = pev_target_new_cpus(NULL);
	cpu_set_t orig;

	CHECK(t != NULL);
	CHECK_EQ_INT(pev_target_kind(t), PEV_TARGET_CPUS);
	CHECK(!pev_target_is_task(t));
	CHECK_EQ_INT(pev_target_nr_threads(t), 1);
	CHECK_EQ_INT(pev_target_thread(t, 0), -1);
	int ncpu = (int)pev_target_nr_cpus(t);
	CHECK_EQ_INT(ncpu, pev_cpus_online(NULL, 0));
	sched_getaffinity(0, sizeof(orig), &orig);

	struct pev_counters *c = new_set(t, false);
	CHECK_EQ_INT(pev_counters_add(c, &a, "all", -1), 0);
	CHECK_EQ_INT(pev_counters_add(c, &a, "ours", -1), 1);
	struct pev_counter_event e = { .size = sizeof(e), .attr = &a, .name = "cpu0-only",
				       .leader = -1, .cpus = "0" };
	CHECK_EQ_INT(pev_counters_add_event(c, &e), 2);
	open_or_skip(c, &a, -1, 0);
	CHECK(pev_counters_attr(c, 0)->inherit == 0);
	filter_all(c, 1);
	filter_all(c, 2);
	for (int k = 1; k < ncpu; k++)
		CHECK_EQ_INT(pev_counters_fd(c, 2, (size_t)k, 0), -1);
	CHECK(pev_counters_fd(c, 2, 0, 0) >= 0);

	int first = pev_target_cpu(t, 0), last = pev_target_cpu(t, (size_t)ncpu - 1);
	CHECK_OK(pev_counters_enable(c));
	pin(first);
	call_getppid(1000);
	if (ncpu > 1) {
		pin(last);
		call_getppid(300);
	}
	CHECK_OK(pev_counters_disable(c));
	sched_setaffinity(0, sizeof(orig), &orig);
	CHECK_OK(pev_counters_read(c));

	uint64_t want = ncpu > 1 ? 1300 : 1000;
	CHECK_MSG(total(c, 0) >= want, "system-wide %" PRIu64 " < %" PRIu64, total(c, 0), want);
	CHECK_EQ_U64(total(c, 1), want);
	struct pev_count v;
	CHECK_OK(pev_counters_per_cpu(c, 1, 0, &v));
	CHECK_EQ_U64(v.val, 1000);
	if (ncpu > 1) {
		CHECK_OK(pev_counters_per_cpu(c, 1, (size_t)ncpu - 1, &v));
		CHECK_EQ_U64(v.val, 300);
		/* The cpumask event saw only CPU 0's share (first is 0 when
		 * CPU 0 is online, as it nearly always is). */
		if (first == 0) {
			CHECK_EQ_U64(total(c, 2), 1000);
			CHECK_OK(pev_counters_per_cpu(c, 2, (size_t)ncpu - 1, &v));
			CHECK_EQ_INT(v.status, PEV_COUNT_NOT_OPENED);
		}
	}
	CHECK_EQ_INT(pev_target_cpu_index(t, last), ncpu - 1);
	CHECK_EQ_INT(pev_target_cpu_index(t, 99999), -1);
	pev_counters_free(c);
	pev_target_free(t);

	/* A single-CPU target; refusals. */
	char one[16];
	snprintf(one, sizeof(one), "%d", last);
	t = pev_target_new_cpus(one);
	CHECK(t != NULL && pev_target_nr_cpus(t) == 1 && pev_target_cpu(t, 0) == last);
	pev_target_free(t);
	errno = 0;
	CHECK(pev_target_new_cpus("8000") == NULL && errno == ENODEV);
	CHECK(pev_target_new_cpus("0-x") == NULL && errno == EINVAL);
	return t_done();
}
