// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat's multiplexing arithmetic (stat_scale_count, the percentage
 * stat_pcnt_running and the human "(NN.NN%)") on hand-computed triples:
 * the value is val * enabled / running truncated to a whole number as
 * perf 6.1's perf_counts_values__scale does; running 0 is not counted. */
#include "testutil.h"

#include "../../cli/stat/stat_human.c"
#include "../../cli/stat/stat_csv.c"
#include "../../cli/stat/stat_json.c"
#include "../../cli/stat/stat_fmt.c"
#include "../../cli/stat/stat_print.c"
#include "../../cli/stat/stat_metric.c"
#include "../../cli/stat/stat_stats.c"

static double scaled(uint64_t val, uint64_t ena, uint64_t run, bool scale, enum stat_val want)
{
	double v = -1;

	CHECK_EQ_INT(stat_scale_count(val, ena, run, scale, &v), want);
	return v;
}

int main(void)
{
	/* 1234567 * 3000000 / 1000000 = 3703701 exactly */
	CHECK(scaled(1234567, 3000000, 1000000, true, STAT_VAL_OK) == 3703701.0);
	/* 7 * 3 / 2 = 10.5 -> 10; 5 * 3 / 2 = 7.5 -> 7 (truncated, not rounded) */
	CHECK(scaled(7, 3, 2, true, STAT_VAL_OK) == 10.0);
	CHECK(scaled(5, 3, 2, true, STAT_VAL_OK) == 7.0);
	/* 1234569 * 3000000 / 1000001 = 3703703.296... -> 3703703 */
	CHECK(scaled(1234569, 3000000, 1000001, true, STAT_VAL_OK) == 3703703.0);
	/* 2^40 * 5 / 4 = 1374389534720 */
	CHECK(scaled(1ull << 40, 5, 4, true, STAT_VAL_OK) == 1374389534720.0);
	/* running == enabled, or more (clock skew): as read */
	CHECK(scaled(12345, 777, 777, true, STAT_VAL_OK) == 12345.0);
	CHECK(scaled(12345, 777, 778, true, STAT_VAL_OK) == 12345.0);
	/* never running: not counted */
	CHECK(scaled(5, 1000, 0, true, STAT_VAL_NOT_COUNTED) == 0.0);
	CHECK(scaled(0, 0, 0, true, STAT_VAL_NOT_COUNTED) == 0.0);
	/* --no-scale: the raw value, still not counted when it never ran */
	CHECK(scaled(7, 3, 2, false, STAT_VAL_OK) == 7.0);
	CHECK(scaled(5, 1000, 0, false, STAT_VAL_NOT_COUNTED) == 5.0);

	/* the percentages: CSV/JSON in integers (100 * 1 / 3 = 33), human
	 * with two decimals (33.33) */
	CHECK(stat_pcnt_running(1000000, 3000000) == 33.0);
	CHECK(stat_pcnt_running(2, 3) == 66.0);
	CHECK(stat_pcnt_running(777, 777) == 100.0);
	CHECK(stat_pcnt_running(0, 1000) == 0.0);

	char *buf = NULL;
	size_t len;
	struct stat_out o = { .kind = STAT_OUT_STD, .unit_width = 4 };
	struct stat_line l = { .value = 10, .unit = "", .name = "e", .run = 2, .ena = 3 };

	o.f = open_memstream(&buf, &len);
	stat_print_line(&o, &l);
	fclose(o.f);
	CHECK_MSG(strstr(buf, "(66.67%)") != NULL, "%s", buf);
	CHECK_MSG(strstr(buf, "                10      e") == buf, "%s", buf);
	free(buf);
	return t_done();
}
