// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* "did you mean": the known name closest to a mistyped event, PMU or
 * tracepoint (edit distance), when one is close enough to be a typo. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfev/event.h>
#include <perfev/pmu.h>
#include <perfev/tracefs.h>
#include "event/event_internal.h"

#define NAME_CAP 256

/* Levenshtein distance, case-insensitive; > NAME_CAP names are too long
 * to be typos of anything. */
size_t pev__edit_distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), prev[NAME_CAP + 1], cur[NAME_CAP + 1];

	if (la > NAME_CAP || lb > NAME_CAP)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int same = (a[i - 1] | 0x20) == (b[j - 1] | 0x20);
			size_t sub = prev[j - 1] + !same;
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			size_t m = sub < del ? sub : del;
			cur[j] = m < ins ? m : ins;
		}
		memcpy(prev, cur, (lb + 1) * sizeof(prev[0]));
	}
	return prev[lb];
}

/* The best candidate so far. */
struct best {
	const char *s;
	size_t len;
	size_t d;
	char name[NAME_CAP];
};

static void best_init(struct best *b, const char *s, size_t len)
{
	b->s = s;
	b->len = len;
	/* A typo: at most 2 edits, and fewer than a third of the name. */
	size_t limit = len / 3 + 1;
	b->d = (limit < 3 ? limit : 3);
	b->name[0] = '\0';
}

static void consider(struct best *b, const char *cand)
{
	size_t d = pev__edit_distance(b->s, b->len, cand);

	if (d && d < b->d && strlen(cand) < sizeof(b->name)) {
		b->d = d;
		snprintf(b->name, sizeof(b->name), "%s", cand);
	}
}

static bool best_out(const struct best *b, char *out, size_t size)
{
	if (!b->name[0])
		return false;
	snprintf(out, size, "%s", b->name);
	return true;
}

bool pev__suggest_event(struct parse_ctx *c, const char *s, size_t len, char *out, size_t size)
{
	const struct pev_symbolic_event *e;
	struct best b;

	best_init(&b, s, len);
	for (size_t i = 0; (e = pev_symbolic_event(i)); i++) {
		consider(&b, e->name);
		if (e->alias)
			consider(&b, e->alias);
	}
	consider(&b, "duration_time");
	struct pev_pmu_list *pmus = pev__pmus(c, 0, 1);
	for (size_t i = 0; pmus && i < pev_pmu_list_count(pmus); i++) {
		const struct pev_pmu *p = pev_pmu_list_get(pmus, i);
		for (size_t k = 0; !p->error && k < p->nr_aliases; k++)
			consider(&b, p->aliases[k].name);
	}
	return best_out(&b, out, size);
}

bool pev__suggest_pmu(struct parse_ctx *c, const char *s, size_t len, char *out, size_t size)
{
	struct pev_pmu_list *pmus = pev__pmus(c, 0, 1);
	struct best b;

	best_init(&b, s, len);
	for (size_t i = 0; pmus && i < pev_pmu_list_count(pmus); i++)
		consider(&b, pev_pmu_list_get(pmus, i)->name);
	return best_out(&b, out, size);
}

struct tp_walk {
	struct best *b;
	char full[NAME_CAP];
};

static int tp_cb(const char *sys, const char *name, void *user)
{
	struct tp_walk *w = user;

	snprintf(w->full, sizeof(w->full), "%s:%s", sys, name);
	consider(w->b, w->full);
	return 0;
}

/* s is "sys:name" as typed; tracefs the mount point found for it. */
bool pev__suggest_tracepoint(const char *tracefs, const char *s, size_t len,
			     char *out, size_t size)
{
	struct best b;
	struct tp_walk w = { .b = &b };

	if (!tracefs || !tracefs[0])
		return false;
	best_init(&b, s, len);
	pev_tracepoint_foreach(tracefs, NULL, NULL, tp_cb, &w);
	return best_out(&b, out, size);
}
