/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: counting.  A pev_counters set holds events (standalone or in
 * groups), opens each on every slot of a target (threads × CPUs), enables,
 * disables and resets them as a whole, reads them, and hands back values
 * per event, per (event, CPU), per (event, thread), totals or deltas since
 * the previous read, with perf's multiplexing scaling.
 *
 * The library owns these attr fields of every event it opens:
 *   disabled        1 on group leaders (members follow their leader), so
 *                   nothing counts before pev_counters_enable() or exec
 *   enable_on_exec  1 on leaders when the target is a workload
 *   inherit         1 when the target counts tasks, unless opts.no_inherit
 *   read_format     TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID, plus
 *                   GROUP on leaders of groups with members (unless this
 *                   kernel refuses GROUP with inherit: then each fd is read
 *                   alone), plus LOST where the kernel supports it
 * All other fields are opened as given.
 *
 * A set is not thread-safe: one thread uses it at a time. */
#ifndef PERFEV_COUNTER_H
#define PERFEV_COUNTER_H

#include <perfev/common.h>
#include <perfev/target.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif
/* Every read_format bit this library knows. */
#define PEV_READ_FORMAT_ALL (PERF_FORMAT_TOTAL_TIME_ENABLED | \
	PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_GROUP | \
	PERF_FORMAT_LOST)

/* ---- the read() layout (pure, bounds-checked) ---- */

/* One counter's value from a read() buffer. */
struct pev_read_value {
	uint64_t value;
	uint64_t id;		/* 0 unless PERF_FORMAT_ID */
	uint64_t lost;		/* 0 unless PERF_FORMAT_LOST */
};

/* Bytes that read() returns for read_format with nr values (nr is 1
 * without PERF_FORMAT_GROUP); 0 when read_format has unknown bits. */
PEV_EXPORT size_t pev_read_size(uint64_t read_format, size_t nr);

/* Parse a buffer read() from a counter opened with read_format:
 *   non-group: {value, [enabled], [running], [id], [lost]}
 *   group:     {nr, [enabled], [running], {value, [id], [lost]}[nr]}
 * len is what read() returned; bytes past the layout are ignored.
 * Fills vals[0..n) (up to max), *enabled and *running (0 when absent;
 * either pointer may be NULL) and returns n (>= 1).  -EINVAL for unknown
 * read_format bits or NULL buf/vals, -EBADMSG for a buffer too short for
 * its layout (or a group with nr 0), -ENOSPC when nr > max. */
PEV_EXPORT int pev_read_parse(const void *buf, size_t len, uint64_t read_format,
			      struct pev_read_value *vals, size_t max,
			      uint64_t *enabled, uint64_t *running);

/* ---- values ---- */

enum pev_count_status {
	PEV_COUNT_OK,			/* counted (maybe multiplexed) */
	PEV_COUNT_NOT_COUNTED,		/* opened, but never ran (running 0):
					 * perf's "<not counted>" */
	PEV_COUNT_NOT_SUPPORTED,	/* the kernel refused to open it (or a
					 * member of its group): perf's
					 * "<not supported>"; see .error */
	PEV_COUNT_NOT_OPENED,		/* not opened on this slot (the PMU's
					 * cpumask excludes the CPU), or the
					 * set was not opened yet */
};

/* A reading, summed over the slots asked for. */
struct pev_count {
	uint64_t val;		/* raw count */
	uint64_t ena;		/* time enabled, ns */
	uint64_t run;		/* time running, ns */
	uint64_t lost;		/* lost samples (PERF_FORMAT_LOST), else 0 */
	enum pev_count_status status;
	int error;		/* errno of the open failure for
				 * NOT_SUPPORTED, else 0 */
};

/* perf_counts_values__scale: the value scaled for multiplexing as a
 * double, val * ena / run.  Returns 0 when no scaling was needed (run ==
 * ena, *scaled = val), 1 when it was scaled (run < ena), -1 when the event
 * did not run (run == 0, *scaled = 0; perf's "<not counted>"). */
PEV_EXPORT int pev_count_scale(const struct pev_count *c, double *scaled);

/* The running fraction run / ena (perf's "(xx.xx%)"), 1.0 when ena is 0
 * and run is 0 (nothing to scale), 0.0 when only run is 0. */
PEV_EXPORT double pev_count_running_fraction(const struct pev_count *c);

/* Interval delta now − prev for val, ena, run and lost; status and error
 * are taken from now.  A field that went backwards (a reset) gives now's
 * value.  out may alias now. */
PEV_EXPORT void pev_count_delta(const struct pev_count *now,
				const struct pev_count *prev,
				struct pev_count *out);

/* ---- the counter set ---- */

struct pev_counters;
struct pev_evlist;

/* Options for pev_counters_new; .size = sizeof(struct pev_counter_opts). */
struct pev_counter_opts {
	size_t size;
	const struct pev_target *target; /* required; must outlive the set */
	bool no_inherit;	/* inherit=0 for task targets (perf stat -i) */
	bool no_group_read;	/* never use PERF_FORMAT_GROUP: read each fd */
	bool no_lost;		/* do not ask for PERF_FORMAT_LOST */
	pev_log_fn log;		/* optional: why an event was not opened */
	void *log_user;
	/* As perf: when kernel.perf_event_paranoid > 1 refuses an event that
	 * counts kernel and user space (EACCES/EPERM), count user space only
	 * (exclude_kernel, exclude_hv) and name it NAME:u.  Off by default. */
	bool user_fallback;
};

/* A new, empty set.  NULL and errno (-EINVAL without a target). */
PEV_EXPORT struct pev_counters *pev_counters_new(const struct pev_counter_opts *opts);

/* Close every fd and free.  Accepts NULL. */
PEV_EXPORT void pev_counters_free(struct pev_counters *c);

/* One event to add; .size = sizeof(struct pev_counter_event). */
struct pev_counter_event {
	size_t size;
	const struct perf_event_attr *attr; /* copied: attr->size bytes (0 means
					     * sizeof(struct perf_event_attr)),
					     * at most sizeof(struct pev_attr) */
	const char *name;	/* copied; NULL: "event<N>" */
	int leader;		/* index of an earlier event that leads its
				 * group, or -1 (or its own index) to stand
				 * alone or lead */
	const char *cpus;	/* PMU cpumask ("0"); on CPU targets the
				 * event is opened only on these CPUs.  NULL:
				 * every CPU of the target */
	double scale;		/* sysfs .scale; 0 means 1.0 */
	const char *unit;	/* sysfs .unit; NULL means "" */
};

/* Add one event before pev_counters_open().  Returns its index (>= 0),
 * -EINVAL for a bad leader or attr size, -EBUSY when the set is open. */
PEV_EXPORT int pev_counters_add_event(struct pev_counters *c,
				      const struct pev_counter_event *ev);

/* Shorthand for add_event with no cpumask, scale 1 and no unit. */
PEV_EXPORT int pev_counters_add(struct pev_counters *c,
				const struct perf_event_attr *attr,
				const char *name, int leader);

/* Add every event of a parsed list (groups, cpumasks, scales and units
 * kept).  Returns the index of the first added event, or -errno. */
PEV_EXPORT int pev_counters_add_evlist(struct pev_counters *c,
				       struct pev_evlist *list);

/* Open every event on every slot of the target.  An event the kernel
 * refuses is marked PEV_COUNT_NOT_SUPPORTED with its errno (a group fails
 * as a whole) and the others go on, as perf stat does; a thread that
 * exited since the target was made is dropped.  Returns how many events
 * opened (> 0), or the first -errno when none did (or -EINVAL when the set
 * is empty).  Call once. */
PEV_EXPORT int pev_counters_open(struct pev_counters *c);

/* Group-wide ioctls on every opened leader (PERF_IOC_FLAG_GROUP).
 * 0 or the first -errno. */
PEV_EXPORT int pev_counters_enable(struct pev_counters *c);
PEV_EXPORT int pev_counters_disable(struct pev_counters *c);
PEV_EXPORT int pev_counters_reset(struct pev_counters *c);

/* Read every opened fd (one read per group leader when GROUP is used).
 * The previous reading is kept for the delta view.  0 or -errno. */
PEV_EXPORT int pev_counters_read(struct pev_counters *c);

/* Number of events, and what is known of each.  NULL / -1 / 0 when out of
 * range.  Strings live as long as the set. */
PEV_EXPORT size_t pev_counters_count(const struct pev_counters *c);
PEV_EXPORT const char *pev_counters_name(const struct pev_counters *c, size_t ev);
PEV_EXPORT const char *pev_counters_unit(const struct pev_counters *c, size_t ev);
PEV_EXPORT double pev_counters_scale(const struct pev_counters *c, size_t ev);
PEV_EXPORT int pev_counters_leader(const struct pev_counters *c, size_t ev);
/* The attr as opened (library-owned fields filled in), or NULL. */
PEV_EXPORT const struct perf_event_attr *pev_counters_attr(const struct pev_counters *c,
							   size_t ev);
/* PEV_COUNT_OK once opened on at least one slot, NOT_SUPPORTED (and
 * *error, may be NULL) when refused, NOT_OPENED before open. */
PEV_EXPORT enum pev_count_status pev_counters_status(const struct pev_counters *c,
						     size_t ev, int *error);

/* The slots: as the target's (pev_target_nr_cpus / nr_threads). */
PEV_EXPORT const struct pev_target *pev_counters_target(const struct pev_counters *c);

/* The fd of an event on one slot, or -1 (for ioctls such as SET_FILTER). */
PEV_EXPORT int pev_counters_fd(const struct pev_counters *c, size_t ev,
			       size_t cpu_idx, size_t thread_idx);
/* Its kernel id (PERF_EVENT_IOC_ID), or 0. */
PEV_EXPORT uint64_t pev_counters_id(const struct pev_counters *c, size_t ev,
				    size_t cpu_idx, size_t thread_idx);

/* Which reading pev_counters_get returns. */
enum pev_count_view {
	PEV_VIEW_TOTAL,		/* the latest read */
	PEV_VIEW_DELTA,		/* latest − previous read (pev_count_delta) */
};

/* Values of event ev summed over CPU slots (cpu_idx -1) or one slot, and
 * over thread slots (thread_idx -1) or one.  Status: NOT_SUPPORTED when
 * the event was refused, NOT_OPENED when no asked slot is open, else
 * NOT_COUNTED when the summed run is 0, else OK.  0 or -EINVAL (index out
 * of range). */
PEV_EXPORT int pev_counters_get(const struct pev_counters *c, size_t ev,
				int cpu_idx, int thread_idx,
				enum pev_count_view view, struct pev_count *out);

/* Shorthands for pev_counters_get with the total view. */
PEV_EXPORT int pev_counters_total(const struct pev_counters *c, size_t ev,
				  struct pev_count *out);
PEV_EXPORT int pev_counters_per_cpu(const struct pev_counters *c, size_t ev,
				    size_t cpu_idx, struct pev_count *out);
PEV_EXPORT int pev_counters_per_thread(const struct pev_counters *c, size_t ev,
				       size_t thread_idx, struct pev_count *out);

#ifdef __cplusplus
}
#endif
#endif
