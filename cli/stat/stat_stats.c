// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat: running statistics for -r (Welford's method, as perf's
 * update_stats), and the noise figure perf prints. */
#include <math.h>

#include "stat/stat.h"

void stat_welford_add(struct stat_welford *s, double x)
{
	/* Welford: numerically stable; no sum of squares that could cancel. */
	s->n += 1;
	double delta = x - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (x - s->mean);
}

double stat_welford_stddev_mean(const struct stat_welford *s)
{
	if (s->n < 2)
		return 0;
	double variance = s->m2 / (s->n - 1);
	return sqrt(variance / s->n);
}

double stat_rel_stddev(double stddev, double mean)
{
	return mean ? 100.0 * stddev / mean : 0;
}

int stat_elapsed_precision(double sd)
{
	/* perf: two more digits than the first significant one of sd. */
	if (sd > 1)
		return 2;
	if (!(sd > 0))
		return 9;
	long p = lround(ceil(-log10(sd))) + 2;
	return p < 0 ? 0 : p > 9 ? 9 : (int)p;
}

enum stat_val stat_scale_count(uint64_t val, uint64_t ena, uint64_t run, bool scale, double *v)
{
	*v = (double)val;
	if (!run) {
		if (scale)
			*v = 0;
		return STAT_VAL_NOT_COUNTED;
	}
	/* perf_counts_values__scale: the product in double, the quotient
	 * truncated to u64 (7.5 prints as 7, and per-CPU values summed by
	 * the topology modes are whole numbers). */
	if (scale && run < ena)
		*v = (double)(uint64_t)((double)val * (double)ena / (double)run);
	return STAT_VAL_OK;
}
