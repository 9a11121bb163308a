// SPDX-License-Identifier: GPL-2.0-only
/* PERF_EVENT_IOC_REFRESH allows exactly K overflows, then disables;
 * PERF_EVENT_IOC_PERIOD moves the overflow point.  Observed with a write
 * watchpoint (exact hits) as a sampling event. */
#include <linux/hw_breakpoint.h>
#include "count_util.h"

static volatile int watched;

static void write_n(int n)
{
	for (int i = 0; i < n; i++)
		watched = i;
}

static int open_bp(uint64_t period)
{
	struct perf_event_attr a = { 0 };

	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uintptr_t)&watched;
	a.bp_len = HW_BREAKPOINT_LEN_4;
	a.sample_period = period;
	a.disabled = 1;
	a.exclude_kernel = 1;
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	T_SKIP_UNLESS_KERNEL_CAN(fd, &a, 0, -1, "hardware breakpoint");
	return fd;
}

static uint64_t value(int fd)
{
	uint64_t v = UINT64_MAX;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		T_FAIL("read: %s", strerror(errno));
	return v;
}

int main(void)
{
	int fd = open_bp(1);

	CHECK_OK(fd);

	/* Disabled: nothing. */
	write_n(10);
	CHECK_EQ_U64(value(fd), 0);
	/* REFRESH 7 on period 1: seven overflows, then the event stops. */
	CHECK_OK(pev_ioc_refresh(fd, 7));
	write_n(50);
	CHECK_EQ_U64(value(fd), 7);
	/* REFRESH 0 is refused by the wrapper (the kernel would too). */
	CHECK_EQ_INT(pev_ioc_refresh(fd, 0), -EINVAL);
	/* Each scenario below uses a fresh fd: on Linux 6.18 a second REFRESH
	 * after the limit disabled a breakpoint or tracepoint re-enables it
	 * (time_enabled runs again) but it never counts again, because the
	 * PMU's add() keeps the PERF_HES_STOPPED state of the overflow stop. */
	close(fd);

	/* PERIOD 5, then one overflow allowed: the event stops after 5 hits. */
	fd = open_bp(1);
	CHECK_OK(fd);
	CHECK_OK(pev_ioc_period(fd, 5));
	CHECK_OK(pev_ioc_refresh(fd, 1));
	write_n(40);
	CHECK_EQ_U64(value(fd), 5);
	close(fd);
	/* PERIOD 12 with two overflows: 24 hits. */
	fd = open_bp(1);
	CHECK_OK(fd);
	CHECK_OK(pev_ioc_period(fd, 12));
	CHECK_OK(pev_ioc_refresh(fd, 2));
	write_n(100);
	CHECK_EQ_U64(value(fd), 24);
	CHECK_EQ_INT(pev_ioc_period(fd, 0), -EINVAL);
	close(fd);

	/* REFRESH on a counting (non-sampling) event is refused. */
	fd = open_bp(0);
	CHECK_OK(fd);
	CHECK_EQ_INT(pev_ioc_refresh(fd, 1), -EINVAL);
	close(fd);
	return t_done();
}
