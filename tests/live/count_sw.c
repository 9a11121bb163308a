// SPDX-License-Identifier: GPL-2.0-only
/* Software events: page-faults over N fresh pages, task-clock over a busy
 * loop measured with CLOCK_THREAD_CPUTIME_ID. */
#include <sys/mman.h>
#include <time.h>
#include "count_util.h"

static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(void)
{
	struct perf_event_attr pf = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr tc = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct pev_target *t = pev_target_new_self();
	struct pev_counters *c = new_set(t, false);
	const long n = 500;
	long page = sysconf(_SC_PAGESIZE);

	CHECK_EQ_INT(pev_counters_add(c, &pf, "page-faults", -1), 0);
	CHECK_EQ_INT(pev_counters_add(c, &tc, "task-clock", -1), 1);
	open_or_skip(c, &tc, 0, -1);

	char *m = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(m != MAP_FAILED);
	CHECK_OK(pev_counters_enable(c));
	for (long i = 0; i < n; i++)
		((volatile char *)m)[i * page] = 1;
	CHECK_OK(pev_counters_disable(c));
	CHECK_OK(pev_counters_read(c));
	uint64_t faults = total(c, 0);
	CHECK_MSG(faults >= (uint64_t)n && faults < (uint64_t)n + 200,
		  "page-faults %" PRIu64 " for %ld fresh pages", faults, n);
	munmap(m, (size_t)(n * page));

	/* task-clock agrees with the thread CPU clock within 10%. */
	CHECK_OK(pev_counters_reset(c));
	uint64_t t0 = thread_ns();
	CHECK_OK(pev_counters_enable(c));
	volatile uint64_t x = 0;
	while (thread_ns() - t0 < 200000000ull)
		for (int i = 0; i < 10000; i++)
			x += (uint64_t)i;
	CHECK_OK(pev_counters_disable(c));
	uint64_t spent = thread_ns() - t0;
	CHECK_OK(pev_counters_read(c));
	uint64_t clk = total(c, 1);
	CHECK_MSG(clk > spent * 9 / 10 && clk < spent * 11 / 10,
		  "task-clock %" PRIu64 " ns vs thread cpu time %" PRIu64 " ns", clk, spent);
	pev_counters_free(c);
	pev_target_free(t);
	return t_done();
}
