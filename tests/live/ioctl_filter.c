// SPDX-License-Identifier: GPL-2.0-only
/* PERF_EVENT_IOC_SET_FILTER on a tracepoint filters its hits; a malformed
 * filter is refused; ids are unique per fd; DISABLE/ENABLE/RESET on a raw
 * fd behave as the manual says. */
#include "count_util.h"

static uint64_t value(int fd)
{
	uint64_t v = UINT64_MAX;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		T_FAIL("read: %s", strerror(errno));
	return v;
}

int main(void)
{
	struct perf_event_attr a = tp_attr("syscalls", "sys_enter_getppid");
	char f[64];

	a.disabled = 1;
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	T_SKIP_UNLESS_KERNEL_CAN(fd, &a, 0, -1, "getppid tracepoint");
	CHECK_OK(fd);
	int fd2 = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK_OK(fd2);
	uint64_t id1 = 0, id2 = 0;
	CHECK_OK(pev_ioc_id(fd, &id1));
	CHECK_OK(pev_ioc_id(fd2, &id2));
	CHECK(id1 != 0 && id2 != 0 && id1 != id2);
	close(fd2);

	/* DISABLE / ENABLE / RESET. */
	CHECK_OK(pev_ioc_enable(fd, false));
	call_getppid(20);
	CHECK_OK(pev_ioc_disable(fd, false));
	call_getppid(20);
	CHECK_EQ_U64(value(fd), 20);
	CHECK_OK(pev_ioc_enable(fd, false));
	call_getppid(3);
	CHECK_EQ_U64(value(fd), 23);
	CHECK_OK(pev_ioc_reset(fd, false));
	CHECK_EQ_U64(value(fd), 0);

	/* A filter is set once per event (a second one is EEXIST), so each
	 * filter gets its own fd. */
	int fa = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int fb = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int fc = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int fe = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK(fa >= 0 && fb >= 0 && fc >= 0 && fe >= 0);
	/* One that excludes us: nothing counts. */
	snprintf(f, sizeof(f), "common_pid != %d", (int)getpid());
	CHECK_OK(pev_ioc_set_filter(fa, f));
	/* One that matches us: everything counts. */
	snprintf(f, sizeof(f), "common_pid == %d", (int)getpid());
	CHECK_OK(pev_ioc_set_filter(fb, f));
	CHECK_EQ_INT(pev_ioc_set_filter(fb, f), -EEXIST);
	/* A field of the event itself (__syscall_nr), false for getppid. */
	CHECK_OK(pev_ioc_set_filter(fc, "__syscall_nr == 99999"));
	CHECK_EQ_INT(pev_ioc_set_filter(fe, "no_such_field == 1"), -EINVAL);
	CHECK_OK(pev_ioc_enable(fa, false));
	CHECK_OK(pev_ioc_enable(fb, false));
	CHECK_OK(pev_ioc_enable(fc, false));
	CHECK_OK(pev_ioc_enable(fe, false));
	call_getppid(100);
	CHECK_EQ_U64(value(fa), 0);
	CHECK_EQ_U64(value(fb), 100);
	CHECK_EQ_U64(value(fc), 0);
	CHECK_EQ_U64(value(fe), 100);	/* the refused filter left it unfiltered */
	close(fa);
	close(fb);
	close(fc);
	close(fe);
	close(fd);
	return t_done();
}
