// SPDX-License-Identifier: GPL-2.0-only
/* perf's tool events for perfev stat: duration_time (the run's wall time),
 * user_time and system_time (the workload's CPU time, from rusage), all in
 * ns.  perf opens a dummy software event for each and prints its own
 * value in its place; so do we: the name becomes
 * software/config=9,name=NAME/ (PERF_COUNT_SW_DUMMY) before the event
 * parser sees it, and stat_run.c replaces the count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/tool_events.h"
#include "stat/stat_run.h"

static enum tool_event tool_of_token(const char *s, size_t len)
{
	for (int t = TOOL_EV_NONE + 1; t < TOOL_EV_N; t++)
		if (strlen(tool_event_name((enum tool_event)t)) == len && !strncmp(s, tool_event_name((enum tool_event)t), len))
			return (enum tool_event)t;
	return TOOL_EV_NONE;
}

char *stat_tool_rewrite(const char *spec, struct stat_tool_edits *ed)
{
	size_t n = strlen(spec), cap = n + 1, len = 0;
	char *out = malloc(cap);
	bool in_terms = false;	/* between the slashes of pmu/terms/ */

	ed->n = 0;
	for (size_t i = 0; out && i <= n;) {
		size_t j = i;

		while (j < n && (in_terms || !strchr(",{}", spec[j]))) {
			if (spec[j] == '/')
				in_terms = !in_terms;
			j++;
		}
		enum tool_event t = tool_of_token(spec + i, j - i);
		char rep[64];
		const char *tok = spec + i;
		size_t tl = j - i;

		if (t != TOOL_EV_NONE && ed->n < STAT_TOOL_MAX_EDITS) {
			tl = (size_t)snprintf(rep, sizeof(rep), "software/config=9,name=%s/",
					      tool_event_name((enum tool_event)t));
			tok = rep;
			ed->e[ed->n++] = (struct stat_tool_edit){ (int)i, (int)(j - i), (int)len,
								   (int)tl };
		}
		if (len + tl + 2 > cap) {
			char *nb = realloc(out, cap = (len + tl + 2) * 2);
			if (!nb) {
				free(out);
				return NULL;
			}
			out = nb;
		}
		memcpy(out + len, tok, tl);
		len += tl;
		if (j < n)
			out[len++] = spec[j];
		i = j + 1;
	}
	if (out)
		out[len] = '\0';
	return out;
}

void stat_tool_error_pos(const struct stat_tool_edits *ed, struct pev_parse_error *err)
{
	int shift = 0;

	for (int k = 0; k < ed->n; k++) {
		const struct stat_tool_edit *e = &ed->e[k];
		if (err->pos < e->new_pos)
			break;
		if (err->pos < e->new_pos + e->new_len) {
			err->pos = e->pos;	/* inside a replacement: its name */
			err->len = e->len;
			return;
		}
		shift = e->pos + e->len - (e->new_pos + e->new_len);
	}
	err->pos += shift;
}

enum tool_event stat_tool_of(const char *name, const struct perf_event_attr *a)
{
	if (!name || !a || a->type != PERF_TYPE_SOFTWARE || a->config != PERF_COUNT_SW_DUMMY)
		return TOOL_EV_NONE;
	return tool_of_token(name, strlen(name));
}

int stat_tool_units(struct pev_evlist *evl, size_t from)
{
	for (size_t i = from; i < pev_evlist_count(evl); i++) {
		struct pev_event *e = pev_evlist_event(evl, i);
		if (stat_tool_of(e->name, &e->attr.attr) == TOOL_EV_NONE)
			continue;
		char *u = strdup("ns");
		if (!u)
			return -1;
		free(e->unit);
		e->unit = u;
	}
	return 0;
}
