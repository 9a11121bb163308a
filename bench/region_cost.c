// SPDX-License-Identifier: GPL-2.0-only
/* The cost of self-monitoring reads, in one process: read(2) of one
 * counter, one group read of three software counters, the control page's
 * time extrapolation, rdpmc (bare and through the library) where a PMU
 * allows it, and a region begin/end pair of the region API.  Rounds
 * alternate between the measurements; each figure is the median over
 * rounds of ns per operation.  bench/region.sh runs it.
 *
 *   region_cost [ITERS [ROUNDS]]   the per-operation costs
 *   region_cost --first [THREADS]  the median cost of a thread's first
 *                                  begin/end (its counters' open, plus the
 *                                  calibration unless PERFEV_CALIBRATE=0) */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <perfev/region.h>
#include <perfev/user_page.h>

#define MAXR 64

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int open_sw(unsigned long cfg, int group, uint64_t fmt, int type)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = cfg;
	a.disabled = group < 0;
	a.exclude_kernel = type == PERF_TYPE_HARDWARE;
	a.exclude_hv = type == PERF_TYPE_HARDWARE;
	a.read_format = fmt;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The manual's rdpmc loop, written out: what a hand-written reader costs. */
#if defined(__x86_64__)
static uint64_t bare_rdpmc(volatile struct perf_event_mmap_page *pc)
{
	uint32_t seq, idx, lo, hi;
	int64_t count;

	do {
		seq = pc->lock;
		__asm__ __volatile__("" ::: "memory");
		idx = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			uint64_t v;
			int w = pc->pmc_width;

			__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx - 1));
			v = (uint64_t)hi << 32 | lo;
			v <<= 64 - w;
			count += (int64_t)v >> (64 - w);
		}
		__asm__ __volatile__("" ::: "memory");
	} while (pc->lock != seq);
	return (uint64_t)count;
}
#endif

enum { M_READ1, M_GROUP, M_PAGE, M_PAIR, M_RDPMC_LIB, M_RDPMC_BARE, M__N };
static const char *label[M__N] = {
	"read() of one counter",
	"group read (3 software counters)",
	"control page: seqlock read",
	"region begin/end pair (default events)",
	"rdpmc through the library",
	"bare rdpmc sequence (the manual's loop)",
};

static void *first_thread(void *arg)
{
	double *out = arg, t0 = now_ns();

	pev_region_begin("first");
	pev_region_end("first");
	*out = now_ns() - t0;
	return NULL;
}

static int first_mode(int threads)
{
	double v[MAXR];

	if (threads > MAXR)
		threads = MAXR;
	setenv("PERFEV_OUTPUT", "none", 0);
	pev_region_init(NULL);
	for (int i = 0; i < threads; i++) {
		pthread_t t;

		pthread_create(&t, NULL, first_thread, &v[i]);
		pthread_join(t, NULL);
	}
	printf("first begin/end of a thread: %.0f ns (median of %d threads)\n",
	       median(v, threads), threads);
	return 0;
}

int main(int argc, char **argv)
{
	long iters = 20000;
	int rounds = 15, fd1, lead, m1, m2, hw = -1;
	uint64_t buf[8];
	struct perf_event_mmap_page *pc = NULL, *hpc = NULL;
	struct pev_user_page_snapshot s;
	double res[M__N][MAXR];
	bool have[M__N] = { true, true, false, true, false, false };
	const char *why_page = NULL, *why_rdpmc = NULL;
	volatile uint64_t sink = 0;

	if (argc > 1 && !strcmp(argv[1], "--first"))
		return first_mode(argc > 2 ? atoi(argv[2]) : 15);
	if (argc > 1)
		iters = atol(argv[1]);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (rounds > MAXR)
		rounds = MAXR;
	fd1 = open_sw(PERF_COUNT_SW_TASK_CLOCK, -1, PERF_FORMAT_TOTAL_TIME_ENABLED |
		      PERF_FORMAT_TOTAL_TIME_RUNNING, PERF_TYPE_SOFTWARE);
	uint64_t gf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
		      PERF_FORMAT_TOTAL_TIME_RUNNING;
	lead = open_sw(PERF_COUNT_SW_TASK_CLOCK, -1, gf, PERF_TYPE_SOFTWARE);
	m1 = open_sw(PERF_COUNT_SW_CONTEXT_SWITCHES, lead, gf, PERF_TYPE_SOFTWARE);
	m2 = open_sw(PERF_COUNT_SW_PAGE_FAULTS, lead, gf, PERF_TYPE_SOFTWARE);
	if (fd1 < 0 || lead < 0 || m1 < 0 || m2 < 0) {
		fprintf(stderr, "region_cost: cannot open software counters: %s\n", strerror(errno));
		return 1;
	}
	ioctl(fd1, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	pc = pev_user_page_map(lead);
	if (pc && pev_user_page_read(pc, &s) == 0) {
		have[M_PAGE] = true;
		if (s.tc.cap_user_time)
			label[M_PAGE] = "control page: seqlock + time extrapolation";
		else
			printf("(the control page has no cap_user_time here: its read is the "
			       "seqlock loop alone, no time extrapolation)\n");
	} else {
		why_page = "the control page does not map";
	}
	hw = open_sw(PERF_COUNT_HW_CPU_CYCLES, -1, PERF_FORMAT_TOTAL_TIME_ENABLED |
		     PERF_FORMAT_TOTAL_TIME_RUNNING, PERF_TYPE_HARDWARE);
	if (hw < 0) {
		why_rdpmc = "no hardware counter opens here (no PMU)";
	} else {
		ioctl(hw, PERF_EVENT_IOC_ENABLE, 0);
		hpc = pev_user_page_map(hw);
		if (!hpc || pev_user_page_read(hpc, &s) < 0 || !s.cap_user_rdpmc || !s.index)
			why_rdpmc = "the kernel does not allow rdpmc for this event (cap_user_rdpmc 0)";
		else
			have[M_RDPMC_LIB] = true;
#if defined(__x86_64__)
		have[M_RDPMC_BARE] = have[M_RDPMC_LIB];
#endif
	}
	setenv("PERFEV_OUTPUT", "none", 0);
	pev_region_init(NULL);
	pev_region_begin("warm");
	pev_region_end("warm");

	for (int r = 0; r < rounds; r++) {
		for (int m = 0; m < M__N; m++) {
			double t0;

			if (!have[m])
				continue;
			t0 = now_ns();
			for (long i = 0; i < iters; i++) {
				switch (m) {
				case M_READ1:
					if (read(fd1, buf, 24) != 24)
						abort();
					break;
				case M_GROUP:
					if (read(lead, buf, 48) != 48)
						abort();
					break;
				case M_PAGE: {
					struct pev_user_page_snapshot ps;

					pev_user_page_read(pc, &ps);
					sink += ps.time_enabled + pev_time_conv_delta(&ps.tc, ps.cycles);
					break;
				}
				case M_PAIR:
					pev_region_begin("pair");
					pev_region_end("pair");
					break;
				case M_RDPMC_LIB: {
					struct pev_user_page_snapshot ps;
					struct pev_user_count c;

					pev_user_page_read(hpc, &ps);
					pev_user_page_count(&ps, &c);
					sink += c.value;
					break;
				}
#if defined(__x86_64__)
				case M_RDPMC_BARE:
					sink += bare_rdpmc(hpc);
					break;
#endif
				default:
					break;
				}
			}
			res[m][r] = (now_ns() - t0) / (double)iters;
		}
	}
	printf("%-46s %10s\n", "operation", "ns/op");
	double med[M__N] = { 0 };
	for (int m = 0; m < M__N; m++) {
		if (!have[m]) {
			printf("%-46s %10s  (%s)\n", label[m], "-",
			       m == M_PAGE ? why_page : why_rdpmc ? why_rdpmc :
			       "not built for this architecture");
			continue;
		}
		med[m] = median(res[m], rounds);
		printf("%-46s %10.1f\n", label[m], med[m]);
	}
	printf("begin/end pair / two group reads: %.3f (target <= 1.2)\n",
	       med[M_PAIR] / (2 * med[M_GROUP]));
	if (have[M_RDPMC_LIB] && have[M_RDPMC_BARE])
		printf("library rdpmc read / bare rdpmc sequence: %.3f (target <= 1.2)\n",
		       med[M_RDPMC_LIB] / med[M_RDPMC_BARE]);
	(void)sink;
	return 0;
}
