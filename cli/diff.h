/* perfev diff: shared state of cmd_diff.c (options, loading) and
 * diff_out.c (pairing, computing, printing). */
#ifndef PEV_CLI_DIFF_H
#define PEV_CLI_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "report.h"

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

	/* the files: [0] the baseline, loaded with the same options */
	struct report files[DIFF_MAX_FILES];
	const char *paths[DIFF_MAX_FILES];
	int nfiles;
	FILE *out;
};

/* diff_out.c: pairs the entries of every event of the baseline with
 * those of the other files and prints perf 6.1's table; 0 or -ENOMEM. */
int diff_print(struct diff *d);

#endif
