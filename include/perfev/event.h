/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: event specifications ("cpu-clock:u", "{a,b}:S",
 * "sched:sched_switch", "pmu/term=v/", "mem:0x1000:w", "uprobe:/bin/x:f")
 * parsed into ready-to-open attrs.  An evlist is not thread-safe; use one
 * per thread or lock around it. */
#ifndef PERFEV_EVENT_H
#define PERFEV_EVENT_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One parsed event: plain data, owned by its evlist. */
struct pev_event {
	struct pev_attr attr;	/* ready for pev_sys_open(&attr.attr, ...);
				 * attr.attr.size is set; config3 (when a PMU
				 * format needs it) is at pev_attr_config3() */
	char *name;		/* canonical name as perf prints it, with its
				 * modifiers: "cpu-clock", "cycles:u",
				 * "sched:sched_switch", "msr/tsc/" */
	char *pmu;		/* PMU name: "cpu", "software", "tracepoint",
				 * "breakpoint", "uprobe", "msr", ... */
	int index;		/* position in the evlist */
	int leader;		/* index of its group leader (itself when it
				 * leads or stands alone) */
	int group_size;		/* members of its group, on the leader; 1 for
				 * an event outside {}; 0 on members */
	double scale;		/* sysfs alias .scale; 1.0 otherwise */
	char *unit;		/* sysfs alias .unit, or "msec" for task-clock
				 * and cpu-clock as perf prints them; "" if none */
	bool per_pkg;		/* sysfs .per-pkg: count once per package */
	bool snapshot;		/* sysfs .snapshot: a level, not a delta */
	bool sample_read;	/* :S on the group: sample the leader, read
				 * the whole group (PERF_SAMPLE_READ) */
	bool weak_group;	/* :W */
	bool precise_max;	/* :P: use the highest precise_ip that opens */
	char *cpus;		/* the PMU's cpumask ("0" for uncore/msr-like
				 * PMUs), or NULL when any CPU will do */
	uint64_t user_period;	/* period= / -c from the spec, 0 when unset */
};

struct pev_evlist;

/* Options for parsing; .size = sizeof(struct pev_parse_opts).  Zeroed
 * fields mean the defaults. */
struct pev_parse_opts {
	size_t size;
	const char *sysfs_root;	 /* default "/sys" (tests point it at a fake tree) */
	const char *tracefs_root;/* default: found or mounted (see tracefs.h) */
	bool no_pfm;		 /* do not consult libpfm4 for CPU-specific names */
};

/* Where and why a spec failed. */
struct pev_parse_error {
	int pos;		/* byte offset of the bad token in the spec */
	int len;		/* its length (>= 1) */
	char msg[256];		/* what was wrong and what to do, lowercase */
};

/* A new, empty evlist; NULL and errno on failure.  Free with pev_evlist_free. */
PEV_EXPORT struct pev_evlist *pev_evlist_new(void);
PEV_EXPORT void pev_evlist_free(struct pev_evlist *list);

/* Parse a comma-separated spec and append its events (so -e may repeat).
 * opts may be NULL.  0, or -errno with *err filled (err may be NULL):
 * -EINVAL for syntax, -ENOENT for an unknown event or PMU. On failure the
 * list is unchanged. */
PEV_EXPORT int pev_evlist_parse(struct pev_evlist *list, const char *spec,
				const struct pev_parse_opts *opts,
				struct pev_parse_error *err);

/* Number of events, and the i-th (NULL when out of range).  Pointers stay
 * valid until the next parse into the same list or its free. */
PEV_EXPORT size_t pev_evlist_count(const struct pev_evlist *list);
PEV_EXPORT struct pev_event *pev_evlist_event(struct pev_evlist *list, size_t i);

/* Render an error the way the CLI prints it: the spec, a caret line under
 * the bad token, and the message.  Returns the length snprintf would. */
PEV_EXPORT int pev_parse_error_format(const struct pev_parse_error *err,
				      const char *spec, char *buf, size_t size);

/* Symbolic events the parser knows without sysfs: hardware, software and
 * every valid hw-cache combination (as perf list names them). */
enum pev_event_class {
	PEV_CLASS_HW = 0,
	PEV_CLASS_SW,
	PEV_CLASS_CACHE,
};

struct pev_symbolic_event {
	const char *name;	/* "cpu-cycles", "L1-dcache-load-misses" */
	const char *alias;	/* "cycles", or NULL */
	enum pev_event_class cls;
	uint32_t type;		/* PERF_TYPE_HARDWARE / _SOFTWARE / _HW_CACHE */
	uint64_t config;
	const char *desc;	/* one line, lowercase */
};

/* The i-th symbolic event (hardware, then software, then hw-cache), or NULL
 * past the end.  Static data; thread-safe. */
PEV_EXPORT const struct pev_symbolic_event *pev_symbolic_event(size_t i);

/* Encode a CPU-specific event name with libpfm4 (pfm_initialize is called
 * once, lazily).  0 and *out filled (attr.size set), or -errno: -ENODEV
 * when libpfm finds no active PMU on this CPU, -ENOENT when it does not
 * know the name.  Thread-safe. */
PEV_EXPORT int pev_pfm_encode(const char *name, struct pev_attr *out);

#ifdef __cplusplus
}
#endif
#endif
