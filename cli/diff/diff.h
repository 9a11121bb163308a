/* SPDX-License-Identifier: GPL-2.0-only */
/* perfev diff: shared state of cmd_diff.c (options, loading) and
 * diff_out.c (pairing, computing, printing). */
#ifndef PEV_CLI_DIFF_H
#define PEV_CLI_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "report/report.h"

#define DIFF_MAX_FILES 32

/* perf 6.1's -c/--compute methods */
enum diff_compute { D_DELTA, D_RATIO, D_WDIFF, D_DELTA_ABS };

struct diff {
	/* options */
	enum diff_compute compute;
	int64_t w1, w2;			/* wdiff:w1,w2 */
	bool period, formula, baseline_only, quiet, stdio, force;
	int order;			/* -o: the file whose values sort first (0: none) */
	bool relative;			/* --percentage relative */
	const char *sep;		/* -t: columns separated by this */

	/* the files: [0] the baseline, loaded with the same options */
	struct report files[DIFF_MAX_FILES];
	const char *paths[DIFF_MAX_FILES];
	int nfiles;
	FILE *out;
};

/* An entry of a file as perf diff's hists have it: the profile's entries
 * equal on the diff's keys merged (perf's collapse), with the values of
 * the first of them in perf's tree and the sum of their periods. */
struct dent {
	const struct pev_profile_entry *e;
	uint64_t period;
};

struct diff_row {
	const struct pev_profile_entry *e;	/* the row's keys */
	struct report *r;			/* the file e is from */
	uint64_t period;			/* the baseline's (0: dummy) */
	bool dummy;
	const struct dent *pair[DIFF_MAX_FILES];
	double delta[DIFF_MAX_FILES], ratio[DIFF_MAX_FILES];
	int64_t wdiff[DIFF_MAX_FILES];
};

struct diff_table {
	struct diff_row **rows;
	size_t n, cap;
	long ev[DIFF_MAX_FILES];		/* each file's event, -1: none */
	uint64_t total[DIFF_MAX_FILES];		/* as read */
	uint64_t base_total;			/* of the rows kept */
	struct dent *dents[DIFF_MAX_FILES];	/* each file's, merged */
};

/* diff_out.c: pairs the entries of every event of the baseline with
 * those of the other files and prints perf 6.1's table; 0 or -ENOMEM. */
int diff_print(struct diff *d);
/* diff_table.c: the table of one event, its rows paired, computed and
 * sorted */
void diff_print_table(struct diff *d, struct diff_table *t);

#endif
