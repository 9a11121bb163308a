/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal layout of struct pev_filter: filter.c (lists, CPUs, matching)
 * and filter_time.c (--time). */
#ifndef PEV_PROFILE_FILTER_INTERNAL_H
#define PEV_PROFILE_FILTER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfev/filter.h>

struct pev_filter_strs {
	char **v;		/* sorted, strcmp order */
	size_t nr, cap;
	bool has_hex;		/* an entry starts with 0x (symbol addresses) */
};

struct pev_filter_ints {
	int32_t *v;		/* sorted; NULL: no such filter */
	size_t nr;
};

struct pev_filter_range {
	uint64_t start, end;	/* ns; 0: open end */
};

/* A percent range before the file's span is known: [lo, hi] fractions. */
struct pev_filter_pct {
	double lo, hi;
};

struct pev_filter {
	struct pev_filter_strs comm, dso, sym;
	struct pev_filter_ints pid, tid;
	uint64_t *cpus;		/* bitmap of PEV_FILTER_MAX_CPUS; NULL: any */
	struct pev_filter_range *ranges;
	size_t nr_ranges;
	struct pev_filter_pct *pct;	/* percent ranges, until resolved */
	size_t nr_pct;
	bool time_set;		/* --time given */
	unsigned needs;
};

/* Parses --time into f->ranges (absolute) or f->pct (percent). */
int pev_filter_time_parse(struct pev_filter *f, const char *s, char *err, size_t errlen);

#endif
