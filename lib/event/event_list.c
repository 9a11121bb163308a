// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The evlist object: parsed events, the strings their attrs point to, and
 * a cache of the sysfs PMUs; parse calls append atomically. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_internal.h"
#include "core/util.h"

int pev__parse_spec(struct parse_ctx *c);

PEV_EXPORT struct pev_evlist *pev_evlist_new(void)
{
	return calloc(1, sizeof(struct pev_evlist));
}

static void event_release(struct pev_event *e)
{
	free(e->name);
	free(e->pmu);
	free(e->unit);
	free(e->cpus);
}

PEV_EXPORT void pev_evlist_free(struct pev_evlist *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->n; i++)
		event_release(&list->ev[i]);
	free(list->ev);
	for (size_t i = 0; i < list->nowned; i++)
		free(list->owned[i]);
	free(list->owned);
	free(list->pmu_root);
	pev_pmu_list_free(list->pmus);
	free(list);
}

PEV_EXPORT size_t pev_evlist_count(const struct pev_evlist *list)
{
	return list ? list->n : 0;
}

PEV_EXPORT struct pev_event *pev_evlist_event(struct pev_evlist *list, size_t i)
{
	return list && i < list->n ? &list->ev[i] : NULL;
}

static void ctx_release(struct parse_ctx *c, bool keep)
{
	if (!keep) {
		for (size_t i = 0; i < c->n; i++)
			event_release(&c->ev[i]);
		for (size_t i = 0; i < c->nowned; i++)
			free(c->owned[i]);
	}
	free(c->ev);
	free(c->ex);
	free(c->owned);
}

static int commit(struct parse_ctx *c)
{
	struct pev_evlist *l = c->list;
	size_t base = l->n;

	if (pev__grow_array(l->ev, &l->cap, l->n + c->n, 8) ||
	    pev__grow_array(l->owned, &l->capowned, l->nowned + c->nowned, 4))
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		struct pev_event *e = &c->ev[i];
		e->index += (int)base;
		e->leader += (int)base;
		if (pev_attr_config3(&e->attr)[0] && e->attr.attr.size < PERF_ATTR_SIZE_VER8)
			e->attr.attr.size = PERF_ATTR_SIZE_VER8;
		l->ev[l->n++] = *e;
	}
	if (c->nowned) {
		memcpy(l->owned + l->nowned, c->owned, c->nowned * sizeof(*c->owned));
		l->nowned += c->nowned;
	}
	return 0;
}

PEV_EXPORT int pev_evlist_parse(struct pev_evlist *list, const char *spec,
				const struct pev_parse_opts *opts,
				struct pev_parse_error *err)
{
	struct parse_ctx c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.err = err;
	if (err)
		memset(err, 0, sizeof(*err));
	if (!list || !spec) {
		if (err) {
			err->len = 1;
			snprintf(err->msg, sizeof(err->msg), "no event list or spec given");
		}
		return -EINVAL;
	}
	c.spec = spec;
	c.len = strnlen(spec, PEV_SPEC_MAX + 1);
	c.list = list;
	if (opts) {
		size_t sz = opts->size < sizeof(c.opts) ? opts->size : sizeof(c.opts);
		memcpy(&c.opts, opts, sz);
	}
	c.opts.size = sizeof(c.opts);
	if (c.len > PEV_SPEC_MAX)
		return pev__perr(&c, 0, 1, E2BIG, "event spec too long (over %d bytes)", PEV_SPEC_MAX);
	ret = pev__parse_spec(&c);
	if (ret == 0 && (ret = commit(&c)) < 0)
		pev__perr(&c, 0, c.len, ENOMEM, "out of memory");
	ctx_release(&c, ret == 0);
	return ret;
}

PEV_EXPORT int pev_parse_error_format(const struct pev_parse_error *err,
				      const char *spec, char *buf, size_t size)
{
	static const char head[] = "event syntax error: '";
	size_t slen, pos, len, from = 0, to;
	const char *pre = "", *post = "";

	if (!err || !spec)
		return snprintf(buf, size, "event syntax error");
	slen = strlen(spec);
	pos = err->pos < 0 ? 0 : (size_t)err->pos;
	len = err->len < 1 ? 1 : (size_t)err->len;
	if (pos > slen)
		pos = slen;
	/* Show at most ~100 bytes of a long spec, around the bad token. */
	to = slen;
	if (slen > 100) {
		from = pos > 40 ? pos - 40 : 0;
		to = from + 100 < slen ? from + 100 : slen;
		if (from)
			pre = "...";
		if (to < slen)
			post = "...";
	}
	size_t col = strlen(head) + strlen(pre) + (pos - from);
	size_t under = len;
	if (pos + under > to + 1)
		under = to + 1 > pos ? to + 1 - pos : 1;
	if (under > 100)
		under = 100;
	char caret[128];
	caret[0] = '^';
	for (size_t i = 1; i < under && i < sizeof(caret) - 1; i++)
		caret[i] = '~';
	caret[under < sizeof(caret) - 1 ? under : sizeof(caret) - 1] = '\0';
	return snprintf(buf, size, "%s%s%.*s%s'\n%*s%s %s", head, pre, (int)(to - from), spec + from,
			post, (int)col, "", caret, err->msg);
}
