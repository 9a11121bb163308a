/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Regions: shared state of region.c (set-up, begin/end), region_read.c
 * (per-thread counters, reads, calibration) and region_report.c (the
 * report and pev_region_get). */
#ifndef PEV_REGION_INTERNAL_H
#define PEV_REGION_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <perfev/region.h>
#include <perfev/arch.h>
#include <perfev/user_page.h>

#define REG_CALIB_PAIRS 8
#define REG_CHUNK 32		/* regions per chunk of a thread's table */

/* One event of the spec, shared by every thread. */
struct reg_event {
	struct perf_event_attr attr;	/* as every thread opens it */
	char *name;			/* as perf prints it ("task-clock:u") */
	char *old_name;			/* before a :u fallback renamed it */
	char *unit;			/* "msec" or a sysfs unit, or "" */
	char *path;			/* uprobe_path / kprobe_func that
					 * attr.config1 points to (ours), or NULL */
	double scale;			/* sysfs .scale, 1.0 otherwise */
	int group;			/* index in reg_global.groups */
	bool swctx;			/* never multiplexed (software context) */
	bool page;			/* map the control page (core PMU) */
	atomic_bool reported;		/* its open failure was reported */
};

/* Events read together: one read(2) of the leader. */
struct reg_group {
	int *ev;			/* event indices, leader first */
	int nr;
	bool implicit;			/* software events outside braces,
					 * grouped by us: a member that fails
					 * is opened on its own instead */
};

/* One region of one thread.  The counts are written only by the owner
 * thread, between increments of the thread's seq; readers retry. */
struct reg_region {
	const char *name;
	uint64_t calls;
	uint64_t *sum;			/* [nr_events][3]: value, enabled, running */
};

struct reg_chunk {
	struct reg_chunk *next;
	struct reg_region r[REG_CHUNK];
};

/* An open begin, waiting for its end. */
struct reg_open {
	struct reg_region *reg;
	uint64_t *snap;			/* [nr_events][3] at begin */
};

/* What a thread opened for one group. */
struct reg_tgroup {
	int fd;				/* the leader's; -1: not open */
	int nr;				/* events read by this fd */
	int *ev;			/* which events, in read order */
	bool fast;			/* every event has a page to read */
};

struct reg_thread {
	struct reg_thread *next;	/* every thread, under reg_global.lock */
	pid_t tid;
	char comm[17];
	bool dead;			/* exited: fds closed, counts kept */
	atomic_uint seq;		/* odd while the counts change */
	int *fd;			/* per event, -1 when not open */
	int *err;			/* per event: errno of its open, or 0 */
	struct perf_event_mmap_page **pc; /* per event, or NULL */
	struct reg_tgroup *tg;
	int nr_tg;
	double *overhead;		/* per event, calibration */
	uint64_t *tmp;			/* [nr_events][3] scratch */
	uint64_t *rbuf;			/* a group read: 3 + nr_events */
	/* the regions: chunks (never moved) and a cache from name pointer to
	 * region (owner only) */
	struct reg_chunk *chunks;
	int nr_regions;
	const char **hkey;
	struct reg_region **hval;
	size_t hcap;
	/* the open begins */
	struct reg_open *stack;
	size_t depth, cap;
};

struct reg_global {
	pthread_mutex_t lock;
	atomic_int state;		/* 0 none, 1 set up */
	bool started;			/* a thread began: events fixed */
	struct reg_event *ev;
	int nr_events;
	struct reg_group *groups;
	int nr_groups;
	bool calibrate;
	struct pev_user_access ua;
	const struct pev_user_page_hw *hw; /* page reads: NULL = this CPU's
					    * instructions (tests: emulated) */
	struct reg_thread *threads;
	struct reg_thread *forked;	/* the parent's, in a forked child */
	pthread_key_t key;
	/* names already reported once (end without begin) */
	char **said;
	size_t nr_said;
};

extern struct reg_global pev__reg;

/* region_read.c */
int pev__reg_thread_open(struct reg_thread *t);
void pev__reg_thread_close(struct reg_thread *t);
/* Read every event into out[nr_events][3]; events not open read 0. */
void pev__reg_read(struct reg_thread *t, uint64_t *out);

/* region_util.c */
extern pthread_mutex_t pev__reg_say_lock;
void pev__reg_say_once(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pev__reg_comm(pid_t tid, char *buf, size_t size);

/* region_report.c */
void pev__reg_exit_report(void);

#endif
