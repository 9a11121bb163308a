/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to the counter sources. */
#ifndef PEV_COUNTER_PRIV_H
#define PEV_COUNTER_PRIV_H

#include <perfev/counter.h>

/* One slot's reading: what the kernel last said for one fd. */
struct pev__slot_val {
	uint64_t val, ena, run, lost;
};

struct pev__cev {
	struct pev_attr attr;	/* as opened (library-owned fields set) */
	char *name;
	char *unit;
	double scale;
	int leader;		/* index of the leader (itself when leading) */
	int nr_members;		/* on leaders: group size including itself */
	int *cpus;		/* PMU cpumask as CPU numbers, or NULL: all */
	int nr_cpus;
	enum pev_count_status status;
	int error;
	bool opened;		/* opened on at least one slot */
};

struct pev_counters {
	const struct pev_target *target;
	struct pev_counter_opts opts;
	struct pev__cev *ev;
	size_t nr, cap;
	bool is_open;
	bool read_once;
	size_t ncpu, nthr;	/* slot dimensions */
	/* [ev][cpu][thr], allocated by open */
	int *fd;
	uint64_t *id;
	struct pev__slot_val *now, *prev;
	/* What this kernel allows, learnt on the first open that tells. */
	bool lost_known, lost_ok;
	bool group_inherit_known, group_inherit_ok;
};

static inline size_t pev__slot(const struct pev_counters *c, size_t ev,
			       size_t cpu, size_t thr)
{
	return (ev * c->ncpu + cpu) * c->nthr + thr;
}

/* Drop events from index n on (added, never opened): undo a partial add. */
void pev__counters_truncate(struct pev_counters *c, size_t n);

#endif
