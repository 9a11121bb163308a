/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the counting live tests: tracepoint ids, attr builders. */
#ifndef PEV_COUNT_UTIL_H
#define PEV_COUNT_UTIL_H

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "testutil.h"

/* Calls that libc cannot cache or skip. */
static inline void call_getppid(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static inline void call_getpid(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
}

/* The id of tracepoint "sys/name", mounting tracefs when needed (root);
 * skips the test when tracefs cannot be had. */
static inline uint64_t tp_id(const char *sys, const char *name)
{
	static const char *roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[512], buf[64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", roots[0]);
	if (stat(path, &st) < 0)
		mount("nodev", roots[0], "tracefs", 0, NULL);
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", roots[i], sys, name);
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		ssize_t r = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (r > 0) {
			buf[r] = 0;
			return strtoull(buf, NULL, 10);
		}
	}
	T_SKIP("tracepoint %s:%s not available (no tracefs or no such event)", sys, name);
	return 0;
}

static inline struct perf_event_attr tp_attr(const char *sys, const char *name)
{
	struct perf_event_attr a = { 0 };

	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = tp_id(sys, name);
	a.sample_period = 1;
	return a;
}

static inline struct perf_event_attr sw_attr(uint64_t config)
{
	struct perf_event_attr a = { 0 };

	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	return a;
}

/* A counter set on target with the given events; fails the test if it
 * cannot be made. */
static inline struct pev_counters *new_set(const struct pev_target *t, bool no_inherit)
{
	struct pev_counter_opts o = { .size = sizeof(o), .target = t, .no_inherit = no_inherit };
	struct pev_counters *c = pev_counters_new(&o);

	if (!c)
		T_FATAL("pev_counters_new: %s", strerror(errno));
	return c;
}

/* Open c; when that fails, skip only if the raw probe of probe (an attr the
 * test built) on (pid, cpu) fails too, else fail the test. */
static inline void open_or_skip(struct pev_counters *c, const struct perf_event_attr *probe,
				pid_t pid, int cpu)
{
	int r = pev_counters_open(c);

	T_SKIP_UNLESS_KERNEL_CAN(r, probe, pid, cpu, "opening the counters");
}

static inline uint64_t total(struct pev_counters *c, size_t ev)
{
	struct pev_count v;

	if (pev_counters_total(c, ev, &v) < 0)
		T_FATAL("pev_counters_total(%zu) failed", ev);
	return v.val;
}

#endif
