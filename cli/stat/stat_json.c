// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat -j: one JSON object per line with perf 6.1's keys and key
 * order.  Unlike perf, "metric-unit" is "" (not "(null)") when an event
 * has no metric, and strings are escaped. */
#include <inttypes.h>

#include "stat/stat.h"


static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void stat_json_line(const struct stat_out *o, const struct stat_line *l)
{
	FILE *f = o->f;

	fputc('{', f);
	if (o->interval)
		fprintf(f, "\"interval\" : %" PRIu64 ".%09" PRIu64 ", ", l->ts_ns / 1000000000u,
			l->ts_ns % 1000000000u);
	if (o->aggr == STAT_AGGR_CPU)
		fprintf(f, "\"cpu\" : \"%d\", ", l->cpu);
	else if (o->aggr == STAT_AGGR_THREAD) {
		char id[64];
		snprintf(id, sizeof(id), "%s-%d", l->comm ? l->comm : "", l->tid);
		fputs("\"thread\" : ", f);
		json_str(f, id);
		fputs(", ", f);
	}
	else if (stat_aggr_topo(o->aggr)) {
		static const char *const key[] = {
			[STAT_AGGR_SOCKET] = "socket", [STAT_AGGR_DIE] = "die",
			[STAT_AGGR_CORE] = "core", [STAT_AGGR_NODE] = "node",
		};
		char id[64];
		fprintf(f, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ", key[o->aggr],
			stat_aggr_name(id, sizeof(id), o->aggr, l), l->nr);
	}
	fputs("\"counter-value\" : ", f);
	if (l->status == STAT_VAL_OK)
		fprintf(f, "\"%f\"", l->value);
	else
		fputs(l->status == STAT_VAL_NOT_COUNTED ? "\"<not counted>\"" : "\"<not supported>\"", f);
	fputs(", \"unit\" : ", f);
	json_str(f, l->unit);
	fputs(", \"event\" : ", f);
	json_str(f, l->name);
	if (o->cgroup) {
		fputs(", \"cgroup\" : ", f);
		json_str(f, l->cgroup);
	}
	if (o->noise)
		fprintf(f, ", \"variance\" : %.2f", l->noise_pct);
	fprintf(f, ", \"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f", l->run,
		stat_pcnt_running(l->run, l->ena));
	const struct stat_metric *m = &l->metric;
	bool has = l->status == STAT_VAL_OK && m->unit && m->fmt;
	fprintf(f, ", \"metric-value\" : %f, \"metric-unit\" : ", has ? m->value : 0.0);
	json_str(f, has ? m->unit : "");
	fputs("}\n", f);
}
