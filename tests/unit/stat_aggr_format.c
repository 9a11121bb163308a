// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat's topology modes and newer outputs, on synthetic data: the
 * unit prefixes perf 6.1 prints (human, CSV, JSON, -I heading, lines
 * copied from perf on this VM with the digits of a second socket made
 * up), the grouping of CPUs into sorted units, the --table rows, the -n
 * footer, the CSV "summary" column and the -d cache-miss metrics. */
#include "testutil.h"

#include <perfev/topology.h>
#include "../../cli/stat/stat_human.c"
#include "../../cli/stat/stat_csv.c"
#include "../../cli/stat/stat_json.c"
#include "../../cli/stat/stat_fmt.c"
#include "../../cli/stat/stat_print.c"
#include "../../cli/stat/stat_metric.c"
#include "../../cli/stat/stat_stats.c"
#include "../../cli/stat/stat_aggr.c"

/* stat_aggr.c calls pev_cpu_topology only from stat_units_build, which
 * this test does not use; the library provides it. */

static char *render(const struct stat_out *tmpl, const struct stat_line *l)
{
	static char *buf;
	size_t len;
	struct stat_out o = *tmpl;

	free(buf);
	o.f = open_memstream(&buf, &len);
	stat_print_line(&o, l);
	fclose(o.f);
	return buf;
}

#define CPUS(v) ((struct stat_metric){ "%8.3f", (v), "CPUs utilized" })

static struct stat_line clock_line(void)
{
	return (struct stat_line){ .value = 207.59, .fractional = true, .unit = "msec",
				   .name = "cpu-clock", .run = 207590000, .ena = 207590000,
				   .metric = CPUS(2.0), .socket = 0, .die = 0, .core = 1,
				   .node = 0, .nr = 2 };
}

static void test_prefixes(void)
{
	struct stat_out o = { .kind = STAT_OUT_STD, .unit_width = 4 };
	struct stat_line l = clock_line();
	const char *tail = "             207.59 msec cpu-clock                        #    2.000 "
			   "CPUs utilized          \n";
	char want[256];

	o.aggr = STAT_AGGR_SOCKET;
	snprintf(want, sizeof(want), "S0        2%s", tail);
	CHECK_STR(render(&o, &l), want);
	o.aggr = STAT_AGGR_DIE;
	snprintf(want, sizeof(want), "S0-D0           2%s", tail);
	CHECK_STR(render(&o, &l), want);
	o.aggr = STAT_AGGR_CORE;
	snprintf(want, sizeof(want), "S0-D0-C1           2%s", tail);
	CHECK_STR(render(&o, &l), want);
	o.aggr = STAT_AGGR_NODE;
	l.node = 12;
	l.nr = 128;
	snprintf(want, sizeof(want), "N12     128%s", tail);
	CHECK_STR(render(&o, &l), want);

	/* CSV: "S0-D0-C1,2," first, after the -I time */
	o = (struct stat_out){ .kind = STAT_OUT_CSV, .sep = ",", .aggr = STAT_AGGR_CORE,
			       .unit_width = 4 };
	l = clock_line();
	CHECK_STR(render(&o, &l), "S0-D0-C1,2,207.59,msec,cpu-clock,207590000,100.00,2.000,"
		  "CPUs utilized\n");
	o.interval = true;
	l.ts_ns = 100212239;
	CHECK_STR(render(&o, &l), "     0.100212239,S0-D0-C1,2,207.59,msec,cpu-clock,207590000,"
		  "100.00,2.000,CPUs utilized\n");
	/* --summary: the label in the time column */
	o.interval = false;
	o.ts_label = "summary";
	o.aggr = STAT_AGGR_SOCKET;
	CHECK_STR(render(&o, &l), "         summary,S0,2,207.59,msec,cpu-clock,207590000,100.00,"
		  "2.000,CPUs utilized\n");

	/* JSON: the mode's key and "aggregate-number" */
	o = (struct stat_out){ .kind = STAT_OUT_JSON, .aggr = STAT_AGGR_DIE, .unit_width = 4 };
	l = clock_line();
	l.value = 204.952794;
	l.metric.value = 2.000174;
	CHECK_STR(render(&o, &l), "{\"die\" : \"S0-D0\", \"aggregate-number\" : 2, "
		  "\"counter-value\" : \"204.952794\", \"unit\" : \"msec\", \"event\" : "
		  "\"cpu-clock\", \"event-runtime\" : 207590000, \"pcnt-running\" : 100.00, "
		  "\"metric-value\" : 2.000174, \"metric-unit\" : \"CPUs utilized\"}\n");
	o.aggr = STAT_AGGR_NODE;
	CHECK(strncmp(render(&o, &l), "{\"node\" : \"N0\", \"aggregate-number\" : 2, ", 40) == 0);
}

static void test_headings(void)
{
	static const struct { enum stat_aggr a; const char *h; } hs[] = {
		{ STAT_AGGR_SOCKET, "#           time socket cpus             counts unit events\n" },
		{ STAT_AGGR_DIE, "#           time die          cpus             counts unit events\n" },
		{ STAT_AGGR_CORE, "#           time core            cpus             counts unit events\n" },
		{ STAT_AGGR_NODE, "#           time node   cpus             counts unit events\n" },
	};
	for (size_t i = 0; i < 4; i++) {
		char *buf = NULL;
		size_t len;
		FILE *f = open_memstream(&buf, &len);
		stat_human_interval_header(f, hs[i].a);
		fclose(f);
		CHECK_STR(buf, hs[i].h);
		free(buf);
	}
}

static void test_units(void)
{
	/* two sockets, two cores each, SMT pairs; nodes per socket; given
	 * in an unsorted CPU order */
	struct pev_cpu_topology t[] = {
		{ 4, 1, 0, 0, 1 }, { 0, 0, 0, 0, 0 }, { 1, 0, 0, 1, 0 }, { 5, 1, 0, 1, 1 },
		{ 2, 0, 0, 0, 0 }, { 6, 1, 0, 0, 1 }, { 3, 0, 0, 1, 0 }, { 7, 1, 0, 1, 1 },
	};
	struct stat_unit u[8];
	int of[8];

	CHECK_EQ_INT(stat_units_from_topology(STAT_AGGR_SOCKET, t, 8, u, of), 2);
	CHECK_EQ_INT(u[0].socket, 0);
	CHECK_EQ_INT(u[0].nr, 4);
	CHECK_EQ_INT(u[1].socket, 1);
	CHECK_EQ_INT(u[1].nr, 4);
	CHECK_EQ_INT(u[0].core, -1);
	CHECK_EQ_INT(of[0], 1);
	CHECK_EQ_INT(of[1], 0);

	CHECK_EQ_INT(stat_units_from_topology(STAT_AGGR_CORE, t, 8, u, of), 4);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_INT(u[i].socket, i / 2);
		CHECK_EQ_INT(u[i].core, i % 2);
		CHECK_EQ_INT(u[i].nr, 2);
	}
	CHECK_EQ_INT(of[0], 2);	/* cpu 4: S1 C0 */
	CHECK_EQ_INT(of[3], 3);	/* cpu 5: S1 C1 */
	CHECK_EQ_INT(of[6], 1);	/* cpu 3: S0 C1 */

	CHECK_EQ_INT(stat_units_from_topology(STAT_AGGR_NODE, t, 8, u, of), 2);
	CHECK_EQ_INT(u[1].node, 1);
	CHECK_EQ_INT(u[1].socket, -1);
	CHECK_EQ_INT(stat_units_from_topology(STAT_AGGR_DIE, t, 3, u, of), 2);
	CHECK_EQ_INT(u[0].nr, 2);
	CHECK_EQ_INT(u[1].nr, 1);
	CHECK_EQ_INT(stat_units_from_topology(STAT_AGGR_CPU, t, 8, u, of), -EINVAL);
}

static void test_table_and_null(void)
{
	/* the run table as perf 6.1 printed it for three runs of 'true' (its
	 * differences came from the unrounded times: -0.00259 there) */
	double runs[] = { 0.00102, 0.00209, 0.00774 };
	double avg = (runs[0] + runs[1] + runs[2]) / 3;
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	stat_human_run_table(f, runs, 3, avg, 5);
	fclose(f);
	CHECK_STR(buf, "           # Table of individual measurements:\n"
		  "           0.00102 (-0.00260) ###################################################\n"
		  "           0.00209 (-0.00153) ###############\n"
		  "           0.00774 (+0.00412) ###########\n"
		  "\n           # Final result:\n");
	free(buf);

	struct stat_footer ft = { .runs = 1, .elapsed = 0.001151250, .show_rusage = true,
				  .user = 0.001265, .null_run = true };
	buf = NULL;
	f = open_memstream(&buf, &len);
	stat_human_footer(f, &ft);
	fclose(f);
	CHECK_STR(buf, "       0.001151250 seconds time elapsed\n\n"
		  "       0.001265000 seconds user\n       0.000000000 seconds sys\n\n\n");
	free(buf);
}

static void test_cache_metrics(void)
{
	struct stat_shadow sh;
	stat_shadow_init(&sh, 1e9);
	/* L1-dcache-loads, L1-dcache-load-misses, LLC-load-misses, dTLB
	 * prefetches (no metric) */
	enum stat_ev_kind ld = stat_ev_classify(PERF_TYPE_HW_CACHE, 0x0);
	enum stat_ev_kind ms = stat_ev_classify(PERF_TYPE_HW_CACHE, 0x10000);
	CHECK_EQ_INT(ld, STAT_EV_L1D_LOADS);
	CHECK_EQ_INT(ms, STAT_EV_L1D_MISSES);
	CHECK_EQ_INT(stat_ev_classify(PERF_TYPE_HW_CACHE, 0x10002), STAT_EV_LL_MISSES);
	CHECK_EQ_INT(stat_ev_classify(PERF_TYPE_HW_CACHE, 0x10004), STAT_EV_ITLB_MISSES);
	CHECK_EQ_INT(stat_ev_classify(PERF_TYPE_HW_CACHE, 0x00200), STAT_EV_OTHER);
	CHECK_EQ_INT(stat_ev_classify(PERF_TYPE_HW_CACHE, 0x10007), STAT_EV_OTHER);
	stat_shadow_add(&sh, ld, 4000);
	struct stat_metric m = stat_metric_for(&sh, ms, 100);
	char buf[64];
	stat_metric_format(buf, sizeof(buf), &m);
	CHECK_STR(buf, "   2.50%");
	CHECK_STR(m.unit, "of all L1-dcache accesses");
	/* no LLC-loads counted: no metric, as perf */
	m = stat_metric_for(&sh, STAT_EV_LL_MISSES, 5);
	CHECK(m.unit == NULL);
}

int main(void)
{
	test_prefixes();
	test_headings();
	test_units();
	test_table_and_null();
	test_cache_metrics();
	return t_done();
}
