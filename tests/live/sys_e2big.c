// SPDX-License-Identifier: GPL-2.0-only
/* perf_event_open attr size negotiation (issue: E2BIG). */
#include <unistd.h>
#include <perfev/perfev.h>
#include "testutil.h"

static void base(struct perf_event_attr *a)
{
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_TASK_CLOCK;
	a->disabled = 1;
}

int main(void)
{
	/* 8 KiB attr, all zero past the real struct: the kernel refuses sizes
	 * over a page with E2BIG and writes back its own size; we retry. */
	static union { struct perf_event_attr a; unsigned char b[8192]; } big;
	base(&big.a);
	big.a.size = sizeof(big);
	int fd = pev_sys_open(&big.a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && t_probe_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1) < 0)
		T_SKIP("the kernel refuses a raw perf_event_open of task-clock");
	CHECK_MSG(fd >= 0, "oversized zero-tailed attr refused: %s", strerror(-fd));
	CHECK(big.a.size >= PERF_ATTR_SIZE_VER7 && big.a.size <= 4096);
	if (fd >= 0)
		close(fd);

	/* Same, but with a non-zero byte beyond the kernel's size: refused,
	 * and our size restored so the caller can name the offset. */
	memset(&big, 0, sizeof(big));
	base(&big.a);
	big.a.size = sizeof(big);
	big.b[5000] = 1;
	fd = pev_sys_open(&big.a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK_EQ_INT(fd, -E2BIG);
	CHECK_EQ_INT(big.a.size, sizeof(big));
	CHECK_EQ_INT(pev_attr_first_unknown(&big, sizeof(big), 136), 5000);

	/* A size below VER0 is E2BIG with no retry possible. */
	struct perf_event_attr small = { 0 };
	base(&small);
	small.size = 32;
	fd = pev_sys_open(&small, 0, -1, -1, 0);
	CHECK_EQ_INT(fd, -E2BIG);

	/* size 0 means "ours". */
	struct perf_event_attr z = { 0 };
	base(&z);
	fd = pev_sys_open(&z, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK_MSG(fd >= 0, "size 0: %s", strerror(-fd));
	CHECK_EQ_INT(z.size, sizeof(z));
	if (fd >= 0) {
		CHECK_OK(pev_ioc_enable(fd, false));
		uint64_t id = 0;
		CHECK_OK(pev_ioc_id(fd, &id));
		CHECK(id != 0);
		close(fd);
	}
	return t_done();
}
