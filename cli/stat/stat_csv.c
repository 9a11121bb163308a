// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat -x SEP: perf 6.1's CSV field order,
 *   [time,][aggr,]value,unit,event,[cgroup,][noise%,]run,pcnt,metric,metric-unit
 * (perf 6.1 puts the -r noise before the run time, as here). */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "stat/stat.h"

void stat_csv_line(const struct stat_out *o, const struct stat_line *l)
{
	FILE *f = o->f;
	const char *s = o->sep;
	char num[64];

	if (o->interval)
		fprintf(f, "%6" PRIu64 ".%09" PRIu64 "%s", l->ts_ns / 1000000000u,
			l->ts_ns % 1000000000u, s);
	else if (o->ts_label)
		fprintf(f, "%16s%s", o->ts_label, s);
	if (o->aggr == STAT_AGGR_CPU)
		fprintf(f, "CPU%d%s", l->cpu, s);
	else if (o->aggr == STAT_AGGR_THREAD)
		fprintf(f, "%s-%d%s", l->comm ? l->comm : "", l->tid, s);
	else if (stat_aggr_topo(o->aggr)) {
		char id[64];
		fprintf(f, "%s%s%d%s", stat_aggr_name(id, sizeof(id), o->aggr, l), s, l->nr, s);
	}
	if (l->status == STAT_VAL_OK)
		stat_format_count(num, sizeof(num), l->value, l->fractional, false);
	else
		strcpy(num, l->status == STAT_VAL_NOT_COUNTED ? "<not counted>" : "<not supported>");
	fprintf(f, "%s%s%s%s%s", num, s, l->unit ? l->unit : "", s, l->name);
	if (o->cgroup)
		fprintf(f, "%s%s", s, l->cgroup ? l->cgroup : "");
	if (o->noise)
		fprintf(f, "%s%.2f%%", s, l->noise_pct);
	fprintf(f, "%s%" PRIu64 "%s%.2f", s, l->run, s, stat_pcnt_running(l->run, l->ena));
	const struct stat_metric *m = &l->metric;
	if (l->status != STAT_VAL_OK || !m->unit || !m->fmt) {
		fprintf(f, "%s%s\n", s, s);
		return;
	}
	/* The number alone: perf strips the padding and a trailing '%'. */
	char buf[64];
	stat_metric_format(buf, sizeof(buf), m);
	char *v = buf, *e;
	while (*v == ' ')
		v++;
	for (e = v; isdigit((unsigned char)*e) || *e == '.' || (*e == '-' && e == v); e++)
		;
	*e = '\0';
	fprintf(f, "%s%s%s%s\n", s, v, s, m->unit);
}
