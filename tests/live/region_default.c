// SPDX-License-Identifier: GPL-2.0-only
/* The default events (no PERFEV_EVENTS, pev_region_init(NULL)): task-clock,
 * context-switches and page-faults, and only those where the kernel
 * refuses a hardware counter (probed raw).  Each checked against an
 * independent source:
 *  - page-faults: K fresh pages of a new anonymous mapping (no
 *    MAP_POPULATE, MADV_NOHUGEPAGE) written once each inside a region
 *    count exactly K (the code and stack were faulted in beforehand);
 *    getrusage(RUSAGE_THREAD) around the region agrees;
 *  - context-switches: 5 sleeps of 1 ms count at least 5, and no more than
 *    /proc/thread-self/status's switches around the region;
 *  - task-clock (ns): at least the thread CPU time measured just inside the
 *    region, at most the wall time around it (within 1%: the kernel's
 *    task-clock and the thread CPU clock are read from different clocks, and
 *    task-clock was seen 0.15% below the CPU time on this VM). */
#include <sys/mman.h>
#include <sys/resource.h>
#include "region_util.h"

#define K 256

/* One write per page; not instrumented, so that ASan's shadow checks do
 * not fault pages of their own. */
__attribute__((noinline, no_sanitize_address)) static void touch(char *p, size_t pages, long pgsz)
{
	for (size_t i = 0; i < pages; i++)
		((volatile char *)p)[i * (size_t)pgsz] = 1;
}

static char *fresh(size_t pages, long pgsz)
{
	char *p = mmap(NULL, pages * (size_t)pgsz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		T_FATAL("mmap: %s", strerror(errno));
	madvise(p, pages * (size_t)pgsz, MADV_NOHUGEPAGE);
	return p;
}

static long thread_switches(void)
{
	FILE *f = fopen("/proc/thread-self/status", "r");
	char line[256];
	long n = 0, v;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
			n += v;
	if (f)
		fclose(f);
	return n;
}

static uint64_t ns_of(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(void)
{
	long pgsz = sysconf(_SC_PAGESIZE);
	long tc, cs, pf;
	struct rusage ru0, ru1;

	setenv("PERFEV_OUTPUT", "none", 1);
	unsetenv("PERFEV_EVENTS");
	unsetenv("PERFEV_CALIBRATE");
	CHECK_EQ_INT(pev_region_init(NULL), 0);
	tc = rt_event_index("task-clock");
	cs = rt_event_index("context-switches");
	pf = rt_event_index("page-faults");
	CHECK(tc >= 0 && cs >= 0 && pf >= 0);
	if (rt_cycles_errno())
		CHECK_EQ_INT(pev_region_nr_events(), 3);
	else
		CHECK_EQ_INT(pev_region_nr_events(), 7);
	for (size_t i = 0; i < pev_region_nr_events(); i++)
		printf("event %zu: %s\n", i, pev_region_event_name(i));
	if (tc < 0 || cs < 0 || pf < 0)
		return t_done();

	/* Warm up: the counters open, the code and the stack are faulted in. */
	char *warm = fresh(2, pgsz), *p = fresh(K, pgsz);
	for (int i = 0; i < 2; i++) {
		pev_region_begin("pf_warm");
		touch(warm + i * pgsz, 1, pgsz);
		pev_region_end("pf_warm");
	}
	getrusage(RUSAGE_THREAD, &ru0);
	pev_region_begin("pf");
	touch(p, K, pgsz);
	pev_region_end("pf");
	getrusage(RUSAGE_THREAD, &ru1);
	struct pev_region_count c = rt_count("pf", 0, (size_t)pf);
	long ru = (ru1.ru_minflt - ru0.ru_minflt) + (ru1.ru_majflt - ru0.ru_majflt);
	CHECK_MSG(c.raw == K && c.calls == 1, "page-faults: %" PRIu64 " in %" PRIu64
		  " calls, expected %d in 1 (getrusage saw %ld around the region)", c.raw, c.calls, K, ru);
	CHECK_MSG(c.raw <= (uint64_t)ru, "page-faults %" PRIu64 " > %ld seen by getrusage", c.raw, ru);
	CHECK(c.scaled == (double)K && c.fraction == 1.0 && c.overhead == 0.0);
	munmap(warm, 2 * (size_t)pgsz);
	munmap(p, K * (size_t)pgsz);

	/* Context switches. */
	long s0 = thread_switches();
	pev_region_begin("cs");
	for (int i = 0; i < 5; i++)
		t_sleep_ms(1);
	pev_region_end("cs");
	long s1 = thread_switches();
	c = rt_count("cs", 0, (size_t)cs);
	CHECK_MSG(c.raw >= 5 && c.raw <= (uint64_t)(s1 - s0),
		  "context-switches %" PRIu64 ", expected 5 <= it <= %ld (/proc/thread-self/status)",
		  c.raw, s1 - s0);

	/* task-clock, in ns: 20 ms of CPU. */
	uint64_t w0 = ns_of(CLOCK_MONOTONIC);
	pev_region_begin("tc");
	uint64_t c0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
	volatile unsigned long x = 0;
	while (ns_of(CLOCK_THREAD_CPUTIME_ID) - c0 < 20000000)
		x++;
	uint64_t c1 = ns_of(CLOCK_THREAD_CPUTIME_ID);
	pev_region_end("tc");
	uint64_t w1 = ns_of(CLOCK_MONOTONIC);
	c = rt_count("tc", 0, (size_t)tc);
	CHECK_MSG((double)c.raw >= 0.99 * (double)(c1 - c0) && (double)c.raw <= 1.01 * (double)(w1 - w0),
		  "task-clock %" PRIu64 " ns, expected 0.99 x %" PRIu64 " (thread CPU time inside) <= it"
		  " <= 1.01 x %" PRIu64 " (wall time around)", c.raw, c1 - c0, w1 - w0);
	CHECK(c.fraction == 1.0 && c.scaled <= (double)c.raw && c.scaled > 0);
	return t_done();
}
