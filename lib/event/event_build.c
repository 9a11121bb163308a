// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The bottom of the event-spec parser: what every part of it (the grammar
 * in event_parse.c, the PMU, libpfm, tracepoint and uprobe parsers, the
 * suggestions) builds events with: the error recorder, string and number
 * helpers, the event constructors and the cached PMU list.  It calls no
 * other event_*.c file. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_internal.h"
#include "core/util.h"

int pev__perr(struct parse_ctx *c, size_t pos, size_t len, int code, const char *fmt, ...)
{
	va_list ap;

	if (c->err) {
		if (pos > c->len)
			pos = c->len;
		if (len < 1)
			len = 1;
		if (pos + len > c->len + 1)
			len = c->len + 1 - pos;
		c->err->pos = (int)pos;
		c->err->len = (int)len;
		va_start(ap, fmt);
		vsnprintf(c->err->msg, sizeof(c->err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

int pev__set_str(char **dst, const char *s, size_t len)
{
	char *n = malloc(len + 1);

	if (!n)
		return -ENOMEM;
	memcpy(n, s, len);
	n[len] = '\0';
	free(*dst);
	*dst = n;
	return 0;
}

int pev__parse_u64(const char *s, size_t len, uint64_t *out, size_t *bad)
{
	uint64_t v = 0;
	size_t i = 0;
	int base = 10;

	*bad = 0;
	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len) {
		*bad = i;
		return -EINVAL;
	}
	for (; i < len; i++) {
		int d;
		char ch = s[i];
		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if (base == 16 && ch >= 'a' && ch <= 'f')
			d = ch - 'a' + 10;
		else if (base == 16 && ch >= 'A' && ch <= 'F')
			d = ch - 'A' + 10;
		else {
			*bad = i;
			return -EINVAL;
		}
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -ERANGE;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*out = v;
	return 0;
}

char *pev__own(struct parse_ctx *c, const char *s, size_t len)
{
	char *copy = NULL;

	if (pev__grow_array(c->owned, &c->capowned, c->nowned + 1, 4))
		return NULL;
	if (pev__set_str(&copy, s, len))
		return NULL;
	c->owned[c->nowned++] = copy;
	return copy;
}

struct pev_event *pev__new_event(struct parse_ctx *c, size_t pos, uint32_t type,
				 uint64_t config, const char *name, size_t namelen,
				 const char *pmu)
{
	struct pev_event *e;

	if (c->n == c->cap) {
		/* ev and ex are parallel arrays sharing c->cap: grow ev
		 * against a copy, then ex against c->cap to the same size. */
		size_t evcap = c->cap;
		if (pev__grow_array(c->ev, &evcap, c->n + 1, 8) ||
		    pev__grow_array(c->ex, &c->cap, c->n + 1, 8))
			goto nomem;
	}
	e = &c->ev[c->n];
	memset(e, 0, sizeof(*e));
	memset(&c->ex[c->n], 0, sizeof(c->ex[0]));
	e->attr.attr.size = sizeof(struct perf_event_attr);
	e->attr.attr.type = type;
	e->attr.attr.config = config;
	/* perf's event_attr_init(): host-only unless modifiers say otherwise. */
	e->attr.attr.exclude_guest = 1;
	e->scale = 1.0;
	e->index = (int)c->n;
	e->leader = (int)c->n;
	e->group_size = 1;
	if (pev__set_str(&e->name, name, namelen) || pev__set_str(&e->pmu, pmu, strlen(pmu)) ||
	    pev__set_str(&e->unit, "", 0)) {
		free(e->name);
		free(e->pmu);
		free(e->unit);
		goto nomem;
	}
	c->n++;
	return e;
nomem:
	pev__perr(c, pos, 1, ENOMEM, "out of memory");
	return NULL;
}

int pev__new_symbolic_event(struct parse_ctx *c, size_t pos, size_t errlen,
			    const struct pev_symbolic_event *sym, const char *name,
			    size_t namelen, struct pev_event **out)
{
	struct pev_event *e = pev__new_event(c, pos, sym->type, sym->config, name, namelen,
					     sym->type == PERF_TYPE_HARDWARE ? "cpu" : "software");

	if (!e)
		return -ENOMEM;
	if (sym->type == PERF_TYPE_SOFTWARE &&
	    (sym->config == PERF_COUNT_SW_CPU_CLOCK || sym->config == PERF_COUNT_SW_TASK_CLOCK) &&
	    pev__set_str(&e->unit, "msec", 4))
		return pev__perr(c, pos, errlen, ENOMEM, "out of memory");
	*out = e;
	return 0;
}

struct pev_pmu_list *pev__pmus(struct parse_ctx *c, size_t pos, size_t len)
{
	struct pev_evlist *l = c->list;
	const char *root = c->opts.sysfs_root && *c->opts.sysfs_root ? c->opts.sysfs_root : "/sys";

	if (l->pmus && l->pmu_root && !strcmp(l->pmu_root, root))
		return l->pmus;
	pev_pmu_list_free(l->pmus);
	free(l->pmu_root);
	l->pmus = NULL;
	l->pmu_root = strdup(root);
	if (!l->pmu_root) {
		pev__perr(c, pos, len, ENOMEM, "out of memory");
		return NULL;
	}
	l->pmus = pev_pmu_list_load(root);
	if (!l->pmus) {
		int e = errno;
		pev__perr(c, pos, len, e, "cannot read the PMUs in '%s/bus/event_source/devices': %s",
			  root, strerror(e));
	}
	return l->pmus;
}
