/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: regions, a program measuring parts of its own code.
 *
 *	pev_region_begin("solve");
 *	solve();
 *	pev_region_end("solve");
 *
 * Each thread counts itself: on its first begin a thread opens its own
 * counters (pid 0, cpu -1, no inherit), enabled from then on.  A region's
 * counts are the sums of end - begin over its calls, per thread; regions
 * nest and may overlap (each begin is matched with the innermost open
 * begin of the same name), and repeat (calls are counted).  Every function
 * is safe to call from many threads at once.
 *
 * The events: pev_region_init(spec), else the PERFEV_EVENTS environment
 * variable, else the default: {task-clock,context-switches,page-faults},
 * plus {cycles,instructions,branches,branch-misses} where this machine has
 * a hardware PMU that opens.  A spec is anything `perfev stat -e` takes,
 * groups included.  Each {group} is read with one read(2) (PERF_FORMAT_GROUP);
 * events outside braces that are software events share one group, and
 * every other event outside braces is a group of its own (multiplexed and
 * scaled alone, as perf stat does).
 *
 * Reads: from the control page without a system call (x86 rdpmc, arm64
 * mrs) when the kernel allows it for every event of a group (the page's
 * cap_user_rdpmc and a non-zero index; on arm64 also
 * /proc/sys/kernel/perf_user_access = 1), else one read(2) of the group.
 * Both give the same count.
 *
 * The report: at exit (atexit) or when pev_region_report() is called, a
 * table per region and thread on stderr, or the file that PERFEV_OUTPUT
 * names: "json:FILE", "csv:FILE" or "text:FILE" (FILE "-": standard
 * output), or "none".  Values are scaled for multiplexing as
 * raw * enabled / running over the region's calls, with the running
 * fraction running / enabled.
 *
 * Calibration: when a thread opens its counters it runs 8 empty
 * begin/end pairs and keeps, per event, the least count one pair added
 * (the reads' own cost: task-clock ns, a sys_enter_read tracepoint, ...).
 * That overhead times the calls is subtracted from the scaled value (never
 * below 0), and shown in the report; PERFEV_CALIBRATE=0 turns it off.
 *
 * Nothing fails silently and nothing stops the program: a spec that does
 * not parse, an event that does not open, an end without a begin and a
 * region still open at the report are each reported once on stderr (the
 * calls are still counted). */
#ifndef PERFEV_REGION_H
#define PERFEV_REGION_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Choose the events (NULL: PERFEV_EVENTS, else the default) before any
 * region begins.  0; -EINVAL when the spec does not parse (reported on
 * stderr; regions then count calls only); -EBUSY once the events are set
 * (by an earlier call, or by a thread's first begin).  Calling it is optional: the
 * first begin does the same with NULL. */
PEV_EXPORT int pev_region_init(const char *events);

/* Begin and end one call of region name (a NUL-terminated string that
 * stays valid until the report: a literal is the usual thing).  They
 * never fail: what cannot be done is reported once on stderr. */
PEV_EXPORT void pev_region_begin(const char *name);
PEV_EXPORT void pev_region_end(const char *name);

/* Write the report now, to where PERFEV_OUTPUT says (see above); counting
 * goes on, and the exit report is still written.  0 or -errno (the file
 * could not be written). */
PEV_EXPORT int pev_region_report(void);

/* ---- the counts, read by the program itself ---- */

/* The events counted: how many, and each one's name as perf prints it
 * ("task-clock", "cycles:u") and unit ("msec" for task-clock and
 * cpu-clock, whose values are then in ns, else ""). */
PEV_EXPORT size_t pev_region_nr_events(void);
PEV_EXPORT const char *pev_region_event_name(size_t ev);

/* One event of one region in one thread.  .size = sizeof. */
struct pev_region_count {
	size_t size;
	uint64_t calls;		/* completed begin/end pairs */
	uint64_t raw;		/* sum of end - begin (unscaled) */
	uint64_t enabled;	/* sum of time enabled, ns */
	uint64_t running;	/* sum of time running, ns */
	double scaled;		/* raw * enabled / running (raw when they are
				 * equal, 0 when running is 0), less calls *
				 * overhead (not below 0) */
	double overhead;	/* calibration: what one empty begin/end pair
				 * adds to this event in this thread (for -1,
				 * the calls-weighted mean over threads) */
	double fraction;	/* running / enabled (1 when enabled is 0) */
	int error;		/* 0; else the errno of the open failure (the
				 * event does not count in this thread) */
};

/* The counts of region name in thread tid (0: the calling thread; -1: the
 * sum over every thread), event ev.  0; -ENOENT when that thread has no
 * such region, -ERANGE for a bad ev, -EINVAL for NULL.  With no events
 * (a spec that failed) ev 0 still gives the calls. */
PEV_EXPORT int pev_region_get(const char *name, pid_t tid, size_t ev,
				struct pev_region_count *out);

#ifdef __cplusplus
}
#endif
#endif
