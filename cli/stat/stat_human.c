// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat: the human-readable layout, column for column as perf 6.1
 * prints it (stat-display.c): an 18-wide count, the unit, the event name
 * padded to 32 (25 when it was not counted), a 35-wide metric, then the
 * noise and the running share. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stat/stat.h"

#define COUNTS_LEN 18
#define EVNAME_LEN 32
#define EVNAME_LEN_BAD 25
#define METRIC_LEN 35

static void human_prefix(const struct stat_out *o, const struct stat_line *l)
{
	if (o->interval)
		fprintf(o->f, "%6" PRIu64 ".%09" PRIu64 " ", l->ts_ns / 1000000000u,
			l->ts_ns % 1000000000u);
	if (o->aggr == STAT_AGGR_CPU)
		fprintf(o->f, "CPU%-7d ", l->cpu);
	else if (o->aggr == STAT_AGGR_THREAD)
		fprintf(o->f, "%16s-%-8d ", l->comm ? l->comm : "", l->tid);
	else if (stat_aggr_topo(o->aggr)) {
		/* perf: the last id left-aligned in 5 (socket, node) or 8
		 * (die, core), then the CPU count in 4. */
		switch (o->aggr) {
		case STAT_AGGR_SOCKET:
			fprintf(o->f, "S%-5d %4d ", l->socket, l->nr);
			break;
		case STAT_AGGR_DIE:
			fprintf(o->f, "S%d-D%-8d %4d ", l->socket, l->die, l->nr);
			break;
		case STAT_AGGR_CORE:
			fprintf(o->f, "S%d-D%d-C%-8d %4d ", l->socket, l->die, l->core, l->nr);
			break;
		default:
			fprintf(o->f, "N%-5d %4d ", l->node, l->nr);
			break;
		}
	}
}

static void human_metric(FILE *f, const struct stat_metric *m)
{
	char num[64];

	if (!m->unit || !m->fmt) {
		fprintf(f, "%*s", METRIC_LEN, "");
		return;
	}
	int n = stat_metric_format(num, sizeof(num), m);
	int w = METRIC_LEN - 3 - n - 1;
	fprintf(f, " # %s %-*s", num, w > 0 ? w : 0, m->unit);
}

void stat_human_line(const struct stat_out *o, const struct stat_line *l)
{
	FILE *f = o->f;
	char num[64];
	bool ok = l->status == STAT_VAL_OK;

	human_prefix(o, l);
	if (ok)
		stat_format_count(num, sizeof(num), l->value, l->fractional, o->big_num);
	else
		strcpy(num, l->status == STAT_VAL_NOT_COUNTED ? "<not counted>" : "<not supported>");
	fprintf(f, "%*s %-*s %-*s", COUNTS_LEN, num, o->unit_width, l->unit ? l->unit : "",
		ok ? EVNAME_LEN : EVNAME_LEN_BAD, l->name);
	if (o->cgroup)
		fprintf(f, " %s", l->cgroup ? l->cgroup : "");
	if (ok)
		human_metric(f, &l->metric);
	else
		fprintf(f, "%*s", METRIC_LEN, "");
	if (o->noise && l->noise_pct)
		fprintf(f, "  ( +-%6.2f%% )", l->noise_pct);
	if (l->run != l->ena)
		fprintf(f, "  (%.2f%%)", 100.0 * (double)l->run / (double)l->ena);
	fputc('\n', f);
}

void stat_human_header(FILE *f, const char *target, int runs)
{
	fprintf(f, "\n Performance counter stats for %s", target);
	if (runs > 1)
		fprintf(f, " (%d runs)", runs);
	fputs(":\n\n", f);
}

void stat_human_interval_header(FILE *f, enum stat_aggr aggr)
{
	switch (aggr) {
	case STAT_AGGR_CPU:
		fputs("#           time CPU                    counts unit events\n", f);
		break;
	case STAT_AGGR_THREAD:
		fputs("#           time             comm-pid                  counts unit events\n", f);
		break;
	case STAT_AGGR_SOCKET:
		fputs("#           time socket cpus             counts unit events\n", f);
		break;
	case STAT_AGGR_DIE:
		fputs("#           time die          cpus             counts unit events\n", f);
		break;
	case STAT_AGGR_CORE:
		fputs("#           time core            cpus             counts unit events\n", f);
		break;
	case STAT_AGGR_NODE:
		fputs("#           time node   cpus             counts unit events\n", f);
		break;
	default:
		fputs("#           time             counts unit events\n", f);
		break;
	}
}

void stat_human_run_table(FILE *f, const double *run_s, int runs, double avg, int prec)
{
	char tmp[64];
	int indent = 0;

	/* the headings line up with the first digit of the mean */
	snprintf(tmp, sizeof(tmp), " %17.*f", prec, avg);
	while (tmp[indent] == ' ')
		indent++;
	fprintf(f, "%*s# Table of individual measurements:\n", indent, "");
	for (int i = 0; i < runs; i++) {
		double r = run_s[i];
		/* perf: one '#' plus one per 5% of deviation from the mean */
		int n = 1 + abs((int)(100.0 * (r - avg) / r) / 5);
		fprintf(f, " %17.*f (%+.*f) ", prec, r, prec, r - avg);
		for (int h = 0; h < n; h++)
			fputc('#', f);
		fputc('\n', f);
	}
	fprintf(f, "\n%*s# Final result:\n", indent, "");
}

void stat_human_footer(FILE *f, const struct stat_footer *ft)
{
	if (!ft->null_run)	/* perf: no gap after an empty -n report */
		fputc('\n', f);
	if (ft->runs <= 1) {
		fprintf(f, " %17.9f seconds time elapsed", ft->elapsed);
		if (ft->show_rusage) {
			fputs("\n\n", f);
			fprintf(f, " %17.9f seconds user\n", ft->user);
			fprintf(f, " %17.9f seconds sys\n", ft->sys);
		}
	} else {
		int p = stat_elapsed_precision(ft->elapsed_sd);
		double pct = stat_rel_stddev(ft->elapsed_sd, ft->elapsed);

		if (ft->run_s)
			stat_human_run_table(f, ft->run_s, ft->runs, ft->elapsed, p);

		fprintf(f, " %17.*f +- %.*f seconds time elapsed", p, ft->elapsed, p, ft->elapsed_sd);
		if (pct)
			fprintf(f, "  ( +-%6.2f%% )", pct);
	}
	fputs("\n\n", f);
}
