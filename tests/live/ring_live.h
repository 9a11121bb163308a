/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared bits of the ring live tests. */
#ifndef RING_LIVE_H
#define RING_LIVE_H

#include <time.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "testutil.h"

/* A cpu-clock sampling event on this thread, enabled, user space only. */
static inline int open_clock(struct perf_event_attr *a, uint64_t period_ns, uint64_t sample_type)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = period_ns;
	a->sample_type = sample_type;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	return pev_sys_open(a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* fd came from pev_sys_open(attr, pid, cpu): when it failed, skip only if a
 * raw perf_event_open of the same attr fails too, else fail the test. */
static inline void skip_if_cannot_open(int fd, const struct perf_event_attr *attr, pid_t pid,
				       int cpu, const char *what)
{
	T_SKIP_UNLESS_KERNEL_CAN(fd, attr, pid, cpu, what);
}

static inline uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spin for ms of this thread's CPU time. */
static inline void busy_ms(unsigned ms)
{
	uint64_t end = thread_cpu_ns() + (uint64_t)ms * 1000000u;
	volatile uint64_t x = 0;
	while (thread_cpu_ns() < end)
		for (int i = 0; i < 200000; i++)
			x += (uint64_t)i;
}

static inline struct pev_ring *map_ring(int fd, unsigned pages, enum pev_ring_mode mode)
{
	struct pev_ring_opts o = { .size = sizeof(o), .data_pages = pages, .mode = mode };
	struct pev_ring_report rep = { .size = sizeof(rep) };
	struct pev_ring *r = pev_ring_new(fd, &o, &rep);
	if (!r)
		T_FATAL("pev_ring_new: %s (%s)", strerror(errno), rep.reason);
	return r;
}

/* Is this header something the kernel writes? */
static inline int header_sane(const struct perf_event_header *h)
{
	return h->size >= 8 && h->size % 8 == 0 && h->type >= PERF_RECORD_MMAP &&
	       h->type <= 22;
}

#endif
