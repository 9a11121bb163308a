/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the region tests (tests/live/region_*.c): the probes that
 * decide a skip, a function of this binary to put a uprobe on, children of
 * the test binary run with a given environment, and count lookups. */
#ifndef PEV_REGION_UTIL_H
#define PEV_REGION_UTIL_H

#include <limits.h>
#include <perfev/region.h>
#include "count_util.h"
#include "cliutil.h"

#define RT_TP_SPEC "syscalls:sys_enter_getppid"
#define RT_UPROBE_SPEC "uprobe:/proc/self/exe:rt_probe_fn"

/* The uprobe's target: never inlined, never folded away. */
__attribute__((noinline, used)) void rt_probe_fn(void);
__attribute__((noinline, used)) void rt_probe_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static inline void rt_call_probe(long n)
{
	for (long i = 0; i < n; i++)
		rt_probe_fn();
}

static inline pid_t rt_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Skip unless the kernel counts syscalls:sys_enter_getppid for this thread
 * (tracefs read here, mounted when needed; a raw perf_event_open). */
static inline void rt_need_tracepoint(void)
{
	struct perf_event_attr a = tp_attr("syscalls", "sys_enter_getppid");
	int r = t_probe_attr(&a, 0, -1);

	if (r < 0)
		T_SKIP("the kernel does not open %s here: %s", RT_TP_SPEC, strerror(-r));
}

/* The file offset of fn in this binary, from /proc/self/maps. */
static inline uint64_t rt_maps_offset(void *fn)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t a = (uint64_t)(uintptr_t)fn, off = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, fo;

		if (sscanf(line, "%llx-%llx %*s %llx", &lo, &hi, &fo) == 3 && a >= lo && a < hi) {
			off = a - lo + fo;
			break;
		}
	}
	if (f)
		fclose(f);
	return off;
}

/* Skip unless the kernel opens a uprobe on rt_probe_fn for this thread
 * (the uprobe PMU's type from sysfs, the offset from /proc/self/maps, a
 * raw perf_event_open). */
static inline void rt_need_uprobe(void)
{
	static char exe[PATH_MAX];
	struct perf_event_attr a = { .size = sizeof(a), .exclude_kernel = 1 };
	long type;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (t_read_long("/sys/bus/event_source/devices/uprobe/type", &type) < 0)
		T_SKIP("no uprobe PMU in /sys/bus/event_source/devices");
	if (n <= 0)
		T_FATAL("readlink /proc/self/exe: %s", strerror(errno));
	exe[n] = 0;
	a.type = (uint32_t)type;
	a.config1 = (uint64_t)(uintptr_t)exe;
	a.config2 = rt_maps_offset((void *)rt_probe_fn);
	int r = t_probe_attr(&a, 0, -1);
	if (r < 0)
		T_SKIP("the kernel does not open a uprobe on %s here: %s", exe, strerror(-r));
}

/* The errno with which the kernel refuses a hardware cycles counter on
 * this thread, or 0 when it opens it (a PMU is there).  User-only, as
 * perf falls back to when perf_event_paranoid keeps the kernel out. */
static inline int rt_cycles_errno(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_HARDWARE,
				     .config = PERF_COUNT_HW_CPU_CYCLES,
				     .exclude_kernel = 1, .exclude_hv = 1 };

	return -t_probe_attr(&a, 0, -1);
}

/* pev_region_get that must succeed. */
static inline struct pev_region_count rt_count(const char *name, pid_t tid, size_t ev)
{
	struct pev_region_count c;
	int r;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	r = pev_region_get(name, tid, ev, &c);
	if (r < 0)
		T_FAIL("pev_region_get(\"%s\", %d, %zu): %s", name, (int)tid, ev, strerror(-r));
	return c;
}

/* Check one count: calls, and raw and scaled both exactly want (an event
 * whose reads cost nothing: calibration finds 0), running fraction 1. */
#define RT_CHECK_EXACT(name, tid, ev, want_calls, want) do { \
	struct pev_region_count _c = rt_count((name), (tid), (ev)); \
	CHECK_MSG(_c.calls == (uint64_t)(want_calls) && _c.raw == (uint64_t)(want) && \
		  _c.scaled == (double)(want) && _c.fraction == 1.0 && _c.error == 0 && \
		  _c.overhead == 0.0, \
		  "region \"%s\" tid %d ev %zu: calls %" PRIu64 " raw %" PRIu64 " scaled %.1f " \
		  "fraction %g overhead %g error %d, expected calls %" PRIu64 " raw = scaled = %" \
		  PRIu64 ", fraction 1, overhead 0, error 0", (name), (int)(tid), (size_t)(ev), \
		  _c.calls, _c.raw, _c.scaled, _c.fraction, _c.overhead, _c.error, \
		  (uint64_t)(want_calls), (uint64_t)(want)); \
	} while (0)

/* The index of the event named name, or -1. */
static inline long rt_event_index(const char *name)
{
	for (size_t i = 0; i < pev_region_nr_events(); i++) {
		const char *n = pev_region_event_name(i);

		if (n && !strcmp(n, name))
			return (long)i;
	}
	return -1;
}

/* Run this test binary again as "exe mode" with the region variables
 * cleared and then set as env says ("NAME=value" strings, NULL-ended);
 * stdout and stderr are captured in r. */
static inline void rt_run_child(const char *mode, const char *const env[], struct t_run *r)
{
	char exe[PATH_MAX];
	const char *argv[32];
	int n = 0;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (len <= 0)
		T_FATAL("readlink /proc/self/exe: %s", strerror(errno));
	exe[len] = 0;
	argv[n++] = "env";
	for (const char *v = "PERFEV_EVENTS\0PERFEV_OUTPUT\0PERFEV_CALIBRATE\0"; *v; v += strlen(v) + 1) {
		argv[n++] = "-u";
		argv[n++] = v;
	}
	for (size_t i = 0; env && env[i] && n < 28; i++)
		argv[n++] = env[i];
	argv[n++] = exe;
	argv[n++] = mode;
	argv[n] = NULL;
	if (t_run_argv((char *const *)argv, NULL, r) < 0)
		T_FATAL("cannot run %s %s", exe, mode);
}

/* How many lines of text contain needle. */
static inline int rt_lines_with(const char *text, const char *needle)
{
	int n = 0;

	for (const char *l = text; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);

		if (memmem(l, len, needle, strlen(needle)))
			n++;
		l += len + (e ? 1 : 0);
	}
	return n;
}

/* How many lines text has. */
static inline int rt_lines(const char *text)
{
	int n = 0;

	for (const char *p = text; p && *p; p++)
		if (*p == '\n' || !p[1])
			n++;
	return n;
}

#endif
