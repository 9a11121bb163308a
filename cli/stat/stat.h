/* SPDX-License-Identifier: GPL-2.0-only */
/* perfev stat: what cmd_stat.c and cli/stat_*.c share.  The output layer
 * (stat_human.c, stat_csv.c, stat_json.c), the statistics (stat_stats.c)
 * and the derived metrics (stat_metric.c) are pure: they take plain values
 * and a FILE *, so unit tests compile them directly. */
#ifndef PEV_CLI_STAT_H
#define PEV_CLI_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* ---- running statistics (Welford), for -r ---- */

struct stat_welford {
	double n, mean, m2;
};

void stat_welford_add(struct stat_welford *s, double x);
/* perf's stddev_stats: the standard deviation of the mean,
 * sqrt(m2 / (n - 1) / n); 0 with fewer than two samples. */
double stat_welford_stddev_mean(const struct stat_welford *s);
/* perf's rel_stddev_stats: 100 * stddev / mean, 0 when mean is 0. */
double stat_rel_stddev(double stddev, double mean);
/* Decimals for the "x +- y seconds time elapsed" line (perf's
 * get_precision(sd) + 2), clamped to 0..9. */
int stat_elapsed_precision(double sd);

/* ---- one output line ---- */

enum stat_kind { STAT_OUT_STD, STAT_OUT_CSV, STAT_OUT_JSON };
enum stat_aggr {
	STAT_AGGR_GLOBAL, STAT_AGGR_CPU, STAT_AGGR_THREAD,
	/* --per-socket, --per-die, --per-core, --per-node */
	STAT_AGGR_SOCKET, STAT_AGGR_DIE, STAT_AGGR_CORE, STAT_AGGR_NODE,
};

/* True for the topology modes (a "S0-D0-C1  nr" style prefix). */
static inline bool stat_aggr_topo(enum stat_aggr a)
{
	return a >= STAT_AGGR_SOCKET;
}
enum stat_val { STAT_VAL_OK, STAT_VAL_NOT_COUNTED, STAT_VAL_NOT_SUPPORTED };

/* How the output looks, fixed for a whole run. */
struct stat_out {
	FILE *f;
	enum stat_kind kind;
	const char *sep;	/* CSV separator (-x) */
	enum stat_aggr aggr;
	bool interval;		/* -I: a timestamp column */
	bool big_num;		/* thousands separators (the locale's) */
	bool noise;		/* -r N > 1: the noise column */
	bool cgroup;		/* -G: the cgroup column */
	int unit_width;		/* widest unit, at least 4 */
	const char *ts_label;	/* not interval: CSV's first column ("summary") */
};

/* A derived metric: fmt is perf's ("%8.3f", "%7.2f%%", ...), unit NULL
 * when there is none. */
struct stat_metric {
	const char *fmt;
	double value;
	const char *unit;
};

struct stat_line {
	uint64_t ts_ns;		/* interval mode: time since start */
	int cpu;		/* STAT_AGGR_CPU */
	const char *comm;	/* STAT_AGGR_THREAD */
	int tid;
	/* the topology modes: the unit's ids and how many CPUs it holds */
	int socket, die, core, node, nr;
	enum stat_val status;
	double value;		/* scaled for multiplexing and for display
				 * (msec for the clocks) */
	bool fractional;	/* "%.2f" (a fractional display scale) */
	const char *unit;	/* "" for none */
	const char *name;
	const char *cgroup;
	uint64_t run, ena;
	double noise_pct;	/* shown when out->noise */
	struct stat_metric metric;
};

/* Print one counter line in the chosen format (stat_print.c). */
void stat_print_line(const struct stat_out *o, const struct stat_line *l);

/* ---- what the back-ends share (stat_fmt.c; it calls none of them) */

/* Thousands grouping: format v with "%.0f"/"%.2f" and the locale's
 * separators when group is set.  Returns buf. */
char *stat_format_count(char *buf, size_t size, double v, bool fractional, bool group);
/* The topology modes' unit name as perf prints it: "S0", "S0-D0",
 * "S0-D0-C1", "N0".  Returns buf. */
char *stat_aggr_name(char *buf, size_t size, enum stat_aggr a, const struct stat_line *l);
/* perf's "pcnt-running": 100 * run / ena in integer arithmetic (as perf
 * 6.1 computes it), 100 when run == ena. */
double stat_pcnt_running(uint64_t run, uint64_t ena);

/* The three back-ends (stat_human.c, stat_csv.c, stat_json.c); each calls
 * stat_fmt.c only, never another back-end. */
void stat_human_line(const struct stat_out *o, const struct stat_line *l);
void stat_csv_line(const struct stat_out *o, const struct stat_line *l);
void stat_json_line(const struct stat_out *o, const struct stat_line *l);

/* Human output only: "\n Performance counter stats for 'CMD':\n\n"
 * (target is already quoted as perf does, e.g. "'true'", "process id
 * '12'", "'system wide'"), with " (N runs)" when runs > 1. */
void stat_human_header(FILE *f, const char *target, int runs);
/* Interval mode: "#           time ..." column heading. */
void stat_human_interval_header(FILE *f, enum stat_aggr aggr);

/* The footer: elapsed (mean) and, with runs > 1, its stddev of the mean;
 * user and sys times when show_rusage. */
struct stat_footer {
	int runs;
	double elapsed;		/* seconds (mean) */
	double elapsed_sd;	/* stddev of the mean, runs > 1 */
	bool show_rusage;
	double user, sys;	/* seconds */
	bool null_run;		/* -n: no counter lines above */
	const double *run_s;	/* --table: each run's elapsed seconds, runs of them */
};
void stat_human_footer(FILE *f, const struct stat_footer *ft);
/* --table: perf's "# Table of individual measurements" (each run's time,
 * its difference from the mean avg, a bar of '#') and the "# Final
 * result:" heading, prec decimals. */
void stat_human_run_table(FILE *f, const double *run_s, int runs, double avg, int prec);

/* A counter's value as perf 6.1 prints it: with scale (the default),
 * val * ena / run truncated to a whole number when run < ena (perf's
 * perf_counts_values__scale), val otherwise; STAT_VAL_NOT_COUNTED when run
 * is 0 (*v then 0 with scale, val without), else STAT_VAL_OK.  Pure. */
enum stat_val stat_scale_count(uint64_t val, uint64_t ena, uint64_t run, bool scale, double *v);

/* ---- topology units (stat_aggr.c) ---- */

/* One unit of a topology mode: its ids (-1 for those the mode does not
 * group by) and how many of the counted CPUs it holds. */
struct stat_unit {
	int socket, die, core, node, nr;
};

struct pev_cpu_topology;
/* Group n CPUs (their topology in topo[]) into units for mode a: units[]
 * (room for n) in perf's order, unit_of[i] the unit of CPU i.  Returns
 * the number of units, -EINVAL when a is not a topology mode.  Pure. */
int stat_units_from_topology(enum stat_aggr a, const struct pev_cpu_topology *topo, size_t n,
			     struct stat_unit *units, int *unit_of);
/* The same for CPU numbers, reading their topology from sysfs; -errno
 * when a CPU's topology cannot be read. */
int stat_units_build(enum stat_aggr a, const int *cpus, size_t n, struct stat_unit *units,
		     int *unit_of);

/* ---- derived metrics (stat_metric.c) ---- */

/* What the metric code needs to know about an event. */
enum stat_ev_kind {
	STAT_EV_OTHER,
	STAT_EV_CLOCK,		/* task-clock, cpu-clock (ns) */
	STAT_EV_CYCLES,
	STAT_EV_INSTRUCTIONS,
	STAT_EV_BRANCHES,
	STAT_EV_BRANCH_MISSES,
	STAT_EV_CACHE_REFS,
	STAT_EV_CACHE_MISSES,
	STAT_EV_STALLED_FRONT,
	STAT_EV_STALLED_BACK,
	/* the hardware cache events of -d/-dd: reads and read misses */
	STAT_EV_L1D_LOADS, STAT_EV_L1D_MISSES,
	STAT_EV_L1I_LOADS, STAT_EV_L1I_MISSES,
	STAT_EV_LL_LOADS, STAT_EV_LL_MISSES,
	STAT_EV_DTLB_LOADS, STAT_EV_DTLB_MISSES,
	STAT_EV_ITLB_LOADS, STAT_EV_ITLB_MISSES,
	STAT_EV__COUNT
};

/* Classify an attr (type, config) the way perf's shadow stats do.  Only
 * plain events (no modifiers that change what is counted matter here:
 * perf matches cycles:u with cycles too). */
enum stat_ev_kind stat_ev_classify(uint32_t type, uint64_t config);

/* The counts of one aggregation unit (global, a CPU or a thread) that
 * metrics divide by: a negative value means "not counted". */
struct stat_shadow {
	double v[STAT_EV__COUNT];
	double wall_ns;		/* elapsed (or interval) time */
};

void stat_shadow_init(struct stat_shadow *s, double wall_ns);
/* Record an event's (scaled, raw-unit) value: the first event of a kind
 * wins. */
void stat_shadow_add(struct stat_shadow *s, enum stat_ev_kind k, double v);

/* The metric perf prints beside an event of kind k with raw value v. */
struct stat_metric stat_metric_for(const struct stat_shadow *s, enum stat_ev_kind k,
				   double v);

/* Print m->value with m->fmt into buf (snprintf's return). */
int stat_metric_format(char *buf, size_t size, const struct stat_metric *m);

#endif
