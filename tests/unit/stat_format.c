// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat's output layer against lines real perf 6.1 printed on this
 * machine (human, CSV, JSON; global, interval, -A, --per-thread, -r), and
 * the derived metrics on synthetic hardware counts (this VM has no PMU). */
#include "testutil.h"

#include "../../cli/stat/stat_human.c"
#include "../../cli/stat/stat_csv.c"
#include "../../cli/stat/stat_json.c"
#include "../../cli/stat/stat_fmt.c"
#include "../../cli/stat/stat_print.c"
#include "../../cli/stat/stat_metric.c"
#include "../../cli/stat/stat_stats.c"

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

static struct stat_line line(double v, bool frac, const char *unit, const char *name,
			     uint64_t run, struct stat_metric m)
{
	return (struct stat_line){ .value = v, .fractional = frac, .unit = unit, .name = name,
				   .run = run, .ena = run, .metric = m };
}

#define CPUS(v) ((struct stat_metric){ "%8.3f", (v), "CPUs utilized" })
#define NOM ((struct stat_metric){ NULL, 0, NULL })

static void test_human(void)
{
	struct stat_out o = { .kind = STAT_OUT_STD, .unit_width = 4 };
	struct stat_line l = line(0.82, true, "msec", "task-clock", 1, CPUS(0.413));

	CHECK_STR(render(&o, &l), "              0.82 msec task-clock                       "
		  "#    0.413 CPUs utilized          \n");
	l = line(1, false, "", "context-switches", 1, stat_metric_for(&(struct stat_shadow){
		.v = { [STAT_EV_CLOCK] = 821000 } }, STAT_EV_OTHER, 1));
	CHECK_STR(render(&o, &l), "                 1      context-switches                 "
		  "#    1.218 K/sec                  \n");
	l = line(0, false, "", "cycles", 0, NOM);
	l.status = STAT_VAL_NOT_SUPPORTED;
	CHECK_STR(render(&o, &l), "   <not supported>      cycles                        "
		  "                              \n");
	l = line(50, false, "", "page-faults", 5, NOM);
	CHECK_STR(render(&o, &l), "                50      page-faults                   "
		  "                                     \n");
	/* -r: the noise after the metric */
	o.noise = true;
	l = line(0.53, true, "msec", "task-clock", 1, CPUS(0.440));
	l.noise_pct = 11.66;
	CHECK_STR(render(&o, &l), "              0.53 msec task-clock                       "
		  "#    0.440 CPUs utilized            ( +- 11.66% )\n");
	l.noise_pct = 0;	/* perf prints no "( +- 0.00% )" */
	CHECK_STR(render(&o, &l), "              0.53 msec task-clock                       "
		  "#    0.440 CPUs utilized          \n");
	o.noise = false;
	/* multiplexed: the running share last */
	l = line(1000, false, "", "instructions", 50, NOM);
	l.ena = 200;
	CHECK_STR(render(&o, &l), "              1000      instructions                  "
		  "                                       (25.00%)\n");
	/* interval */
	o.interval = true;
	l = line(1.06, true, "msec", "task-clock", 1, CPUS(0.011));
	l.ts_ns = 100278809;
	CHECK_STR(render(&o, &l), "     0.100278809               1.06 msec task-clock       "
		  "                #    0.011 CPUs utilized          \n");
	l.status = STAT_VAL_NOT_COUNTED;
	l.ts_ns = 200597960;
	l.run = l.ena = 0;
	CHECK_STR(render(&o, &l), "     0.200597960      <not counted> msec task-clock      "
		  "                                            \n");
	/* -A */
	o.interval = false;
	o.aggr = STAT_AGGR_CPU;
	l = line(52.06, true, "msec", "task-clock", 1, CPUS(1.001));
	CHECK_STR(render(&o, &l), "CPU0                    52.06 msec task-clock          "
		  "             #    1.001 CPUs utilized          \n");
	/* --per-thread */
	o.aggr = STAT_AGGR_THREAD;
	l = line(26.51, true, "msec", "task-clock", 1, CPUS(0.259));
	l.comm = "thr2";
	l.tid = 6920;
	CHECK_STR(render(&o, &l), "            thr2-6920                  26.51 msec task-clock"
		  "                       #    0.259 CPUs utilized          \n");
	/* thousands separators when the locale has them */
	char b[64];
	CHECK_STR(stat_format_count(b, sizeof(b), 147029, false, false), "147029");
	CHECK_STR(stat_format_count(b, sizeof(b), 0.004, true, false), "0.00");
}

static void test_csv(void)
{
	struct stat_out o = { .kind = STAT_OUT_CSV, .sep = ",", .unit_width = 4 };
	struct stat_line l = line(0.77, true, "msec", "task-clock", 770508, CPUS(0.538));

	CHECK_STR(render(&o, &l), "0.77,msec,task-clock,770508,100.00,0.538,CPUs utilized\n");
	l = line(0, false, "", "cycles", 0, NOM);
	l.status = STAT_VAL_NOT_SUPPORTED;
	CHECK_STR(render(&o, &l), "<not supported>,,cycles,0,100.00,,\n");
	l = line(48, false, "", "page-faults", 823627, NOM);
	CHECK_STR(render(&o, &l), "48,,page-faults,823627,100.00,,\n");
	o.noise = true;
	l = line(0.57, true, "msec", "task-clock", 571629, CPUS(0.507));
	l.noise_pct = 4.01;
	CHECK_STR(render(&o, &l), "0.57,msec,task-clock,4.01%,571629,100.00,0.507,CPUs utilized\n");
	o.noise = false;
	o.interval = true;
	l = line(1.09, true, "msec", "task-clock", 1092862, CPUS(0.011));
	l.ts_ns = 100387623;
	CHECK_STR(render(&o, &l), "     0.100387623,1.09,msec,task-clock,1092862,100.00,0.011,CPUs utilized\n");
	o.interval = false;
	o.aggr = STAT_AGGR_CPU;
	l = line(80, false, "", "page-faults", 52208453, (struct stat_metric){ "%8.3f", 1.532, "K/sec" });
	CHECK_STR(render(&o, &l), "CPU0,80,,page-faults,52208453,100.00,1.532,K/sec\n");
	o.aggr = STAT_AGGR_THREAD;
	l = line(27.79, true, "msec", "task-clock", 27789647, CPUS(0.271));
	l.comm = "thr2";
	l.tid = 6922;
	CHECK_STR(render(&o, &l), "thr2-6922,27.79,msec,task-clock,27789647,100.00,0.271,CPUs utilized\n");
	/* a percentage metric loses its '%'; multiplexing: integer percent */
	o.aggr = STAT_AGGR_GLOBAL;
	o.sep = ";";
	l = line(5, false, "", "branch-misses", 2, (struct stat_metric){ "%7.2f%%", 2.5, "of all branches" });
	l.ena = 3;
	CHECK_STR(render(&o, &l), "5;;branch-misses;2;66.00;2.50;of all branches\n");
}

static void test_json(void)
{
	struct stat_out o = { .kind = STAT_OUT_JSON, .unit_width = 4 };
	struct stat_line l = line(0.701213, true, "msec", "task-clock", 701213, CPUS(0.517005));

	CHECK_STR(render(&o, &l), "{\"counter-value\" : \"0.701213\", \"unit\" : \"msec\", \"event\" : "
		  "\"task-clock\", \"event-runtime\" : 701213, \"pcnt-running\" : 100.00, "
		  "\"metric-value\" : 0.517005, \"metric-unit\" : \"CPUs utilized\"}\n");
	l = line(0, false, "", "cycles", 0, NOM);
	l.status = STAT_VAL_NOT_SUPPORTED;
	CHECK_STR(render(&o, &l), "{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : "
		  "\"cycles\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00, "
		  "\"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n");
	o.interval = true;
	o.noise = true;
	o.aggr = STAT_AGGR_CPU;
	l = line(80, false, "", "page-faults", 52390326, (struct stat_metric){ "%8.3f", 1.527017, "K/sec" });
	l.ts_ns = 100226701;
	l.noise_pct = 5.64;
	CHECK_STR(render(&o, &l), "{\"interval\" : 0.100226701, \"cpu\" : \"0\", \"counter-value\" : "
		  "\"80.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", \"variance\" : 5.64, "
		  "\"event-runtime\" : 52390326, \"pcnt-running\" : 100.00, \"metric-value\" : "
		  "1.527017, \"metric-unit\" : \"K/sec\"}\n");
	o = (struct stat_out){ .kind = STAT_OUT_JSON, .aggr = STAT_AGGR_THREAD };
	l = line(1, false, "", "a\"b", 1, NOM);
	l.comm = "x\\y";
	l.tid = 7;
	CHECK_STR(render(&o, &l), "{\"thread\" : \"x\\\\y-7\", \"counter-value\" : \"1.000000\", "
		  "\"unit\" : \"\", \"event\" : \"a\\\"b\", \"event-runtime\" : 1, \"pcnt-running\" : "
		  "100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n");
}

static char *footer(const struct stat_footer *ft)
{
	static char *buf;
	size_t len;
	free(buf);
	FILE *f = open_memstream(&buf, &len);
	stat_human_footer(f, ft);
	fclose(f);
	return buf;
}

static void test_header_footer(void)
{
	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	stat_human_header(f, "'true'", 3);
	fclose(f);
	CHECK_STR(buf, "\n Performance counter stats for 'true' (3 runs):\n\n");
	free(buf);

	CHECK_STR(footer(&(struct stat_footer){ .runs = 1, .elapsed = 0.001990095, .show_rusage = true,
						.user = 0.001763, .sys = 0 }),
		  "\n       0.001990095 seconds time elapsed\n\n       0.001763000 seconds user\n"
		  "       0.000000000 seconds sys\n\n\n");
	CHECK_STR(footer(&(struct stat_footer){ .runs = 1, .elapsed = 0.052031943 }),
		  "\n       0.052031943 seconds time elapsed\n\n");
	CHECK_STR(footer(&(struct stat_footer){ .runs = 3, .elapsed = 0.001211, .elapsed_sd = 0.000190 }),
		  "\n          0.001211 +- 0.000190 seconds time elapsed  ( +- 15.69% )\n\n");
}

static void test_metrics(void)
{
	struct stat_shadow s;
	struct stat_metric m;
	char b[64];

	stat_shadow_init(&s, 2e9);	/* 2 s elapsed */
	stat_shadow_add(&s, STAT_EV_CLOCK, 1e9);	/* 1 s of task time */
	stat_shadow_add(&s, STAT_EV_CLOCK, 5);		/* the first clock wins */
	stat_shadow_add(&s, STAT_EV_CYCLES, 3e9);
	stat_shadow_add(&s, STAT_EV_INSTRUCTIONS, 4.5e9);
	stat_shadow_add(&s, STAT_EV_BRANCHES, 1000);
	stat_shadow_add(&s, STAT_EV_BRANCH_MISSES, 25);

	m = stat_metric_for(&s, STAT_EV_CLOCK, 1e9);
	CHECK_STR(m.unit, "CPUs utilized");
	stat_metric_format(b, sizeof(b), &m);
	CHECK_STR(b, "   0.500");
	m = stat_metric_for(&s, STAT_EV_CYCLES, 3e9);
	CHECK_STR(m.unit, "GHz");
	stat_metric_format(b, sizeof(b), &m);
	CHECK_STR(b, "   3.000");
	m = stat_metric_for(&s, STAT_EV_INSTRUCTIONS, 4.5e9);
	CHECK_STR(m.unit, "insn per cycle");
	stat_metric_format(b, sizeof(b), &m);
	CHECK_STR(b, "   1.50 ");
	m = stat_metric_for(&s, STAT_EV_BRANCH_MISSES, 25);
	CHECK_STR(m.unit, "of all branches");
	stat_metric_format(b, sizeof(b), &m);
	CHECK_STR(b, "   2.50%");
	m = stat_metric_for(&s, STAT_EV_STALLED_FRONT, 750e6);
	CHECK_STR(m.unit, "frontend cycles idle");
	stat_metric_format(b, sizeof(b), &m);
	CHECK_STR(b, "  25.00%");
	m = stat_metric_for(&s, STAT_EV_STALLED_BACK, 300e6);
	CHECK_STR(m.unit, "backend cycles idle");
	/* branches: a rate; 1000 per second of task time */
	m = stat_metric_for(&s, STAT_EV_BRANCHES, 1000);
	CHECK_STR(m.unit, "/sec");
	m = stat_metric_for(&s, STAT_EV_OTHER, 1500);
	CHECK_STR(m.unit, "K/sec");
	m = stat_metric_for(&s, STAT_EV_OTHER, 2.5e6);
	CHECK_STR(m.unit, "M/sec");
	m = stat_metric_for(&s, STAT_EV_OTHER, 7e9);
	CHECK_STR(m.unit, "G/sec");
	stat_metric_format(b, sizeof(b), &m);
	CHECK_STR(b, "   7.000");

	/* a full human line for the hardware metrics */
	struct stat_out o = { .kind = STAT_OUT_STD, .unit_width = 4 };
	struct stat_line l = line(4500000000.0, false, "", "instructions", 1,
				  stat_metric_for(&s, STAT_EV_INSTRUCTIONS, 4.5e9));
	CHECK_STR(render(&o, &l), "        4500000000      instructions                     "
		  "#    1.50  insn per cycle         \n");
	l = line(25, false, "", "branch-misses", 1, stat_metric_for(&s, STAT_EV_BRANCH_MISSES, 25));
	CHECK_STR(render(&o, &l), "                25      branch-misses                    "
		  "#    2.50% of all branches        \n");

	/* missing bases: no metric, as perf */
	stat_shadow_init(&s, 1e9);
	CHECK(stat_metric_for(&s, STAT_EV_OTHER, 5).unit == NULL);
	CHECK(stat_metric_for(&s, STAT_EV_CYCLES, 5).unit == NULL);
	CHECK(stat_metric_for(&s, STAT_EV_INSTRUCTIONS, 5).unit == NULL);
	CHECK(stat_metric_for(&s, STAT_EV_BRANCH_MISSES, 5).unit == NULL);
	stat_shadow_add(&s, STAT_EV_CLOCK, 0);	/* counted, but zero */
	m = stat_metric_for(&s, STAT_EV_OTHER, 0);
	CHECK_STR(m.unit, "/sec");
	CHECK(m.value == 0);
	CHECK(stat_metric_for(&s, STAT_EV_CYCLES, 5).unit == NULL);

	CHECK_EQ_INT(stat_ev_classify(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK), STAT_EV_CLOCK);
	CHECK_EQ_INT(stat_ev_classify(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK), STAT_EV_CLOCK);
	CHECK_EQ_INT(stat_ev_classify(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS), STAT_EV_OTHER);
	CHECK_EQ_INT(stat_ev_classify(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS), STAT_EV_INSTRUCTIONS);
	CHECK_EQ_INT(stat_ev_classify(PERF_TYPE_HARDWARE, (8ULL << 32) | PERF_COUNT_HW_CPU_CYCLES),
		     STAT_EV_CYCLES);
	CHECK_EQ_INT(stat_ev_classify(PERF_TYPE_TRACEPOINT, 1), STAT_EV_OTHER);
}

static void test_stats(void)
{
	struct stat_welford w = { 0 };

	CHECK(stat_welford_stddev_mean(&w) == 0);
	for (int i = 1; i <= 5; i++)
		stat_welford_add(&w, i);
	CHECK(w.mean == 3);
	CHECK(w.m2 == 10);
	/* sqrt(2.5 / 5) */
	double sd = stat_welford_stddev_mean(&w);
	CHECK(sd > 0.70710 && sd < 0.70711);
	double pct = stat_rel_stddev(sd, w.mean);
	CHECK(pct > 23.570 && pct < 23.571);
	CHECK(stat_rel_stddev(1, 0) == 0);
	/* constant samples: no noise */
	struct stat_welford c = { 0 };
	for (int i = 0; i < 4; i++)
		stat_welford_add(&c, 1000);
	CHECK(stat_welford_stddev_mean(&c) == 0);
	CHECK_EQ_INT(stat_elapsed_precision(0.000190), 6);
	CHECK_EQ_INT(stat_elapsed_precision(0.05), 4);
	CHECK_EQ_INT(stat_elapsed_precision(3), 2);
	CHECK_EQ_INT(stat_elapsed_precision(0), 9);
}

int main(void)
{
	test_human();
	test_csv();
	test_json();
	test_header_footer();
	test_metrics();
	test_stats();
	return t_done();
}
