// SPDX-License-Identifier: GPL-2.0-only
/* The events this machine offers (event_list.h): perf's symbolic events,
 * tool events, PMU aliases, tracepoints and syntax lines. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/perfev.h>
#include "common/cli.h"
#include "common/event_list.h"
#include "common/tool_events.h"

static bool matches(const struct listing *l, const char *name, const char *alias)
{
	if (!l->glob)
		return true;
	if (l->substring)
		return strstr(name, l->glob) || (alias && strstr(alias, l->glob));
	return !fnmatch(l->glob, name, 0) || (alias && !fnmatch(l->glob, alias, 0));
}

static int add(struct listing *l, const char *name, const char *alias, const char *type,
	       const char *unit, const char *desc, const char *encoding, bool avail, bool syntax)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 256;
		struct entry *ne = realloc(l->e, nc * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		l->e = ne;
		l->cap = nc;
	}
	struct entry *e = &l->e[l->n];
	e->name = strdup(name);
	e->encoding = strdup(encoding ? encoding : "");
	if (!e->name || !e->encoding) {
		free(e->name);
		free(e->encoding);
		return -ENOMEM;
	}
	e->alias = alias;
	e->type = type;
	e->unit = unit;
	e->desc = desc;
	e->avail = avail;
	e->syntax = syntax;
	l->n++;
	return 0;
}

/* One quick open, counting the calling thread in user space only (which
 * perf_event_paranoid 2 allows), tells whether this machine has it. */
static bool can_open(const struct perf_event_attr *src, bool cpu_wide)
{
	/* User space of this thread first (paranoid 2 allows it); PMUs such
	 * as msr refuse any exclude_* bit, so then try without them, and
	 * CPU-wide for uncore-like PMUs. */
	for (int attempt = 0; attempt < (cpu_wide ? 3 : 2); attempt++) {
		struct perf_event_attr a = *src;
		int fd;

		a.size = sizeof(a);
		a.disabled = 1;
		a.exclude_kernel = a.exclude_hv = attempt == 0;
		a.exclude_guest = 0;
		fd = pev_sys_open(&a, attempt < 2 ? 0 : -1, attempt < 2 ? -1 : 0, -1,
				  PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			return true;
		}
		if (fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV)
			continue;
	}
	return false;
}

/* perf's tool events, after the software ones as perf lists them
 * (perfev stat supplies their values). */
static int add_tools(struct listing *l)
{
	for (int t = TOOL_EV_NONE + 1; t < TOOL_EV_N; t++) {
		const char *name = tool_event_name((enum tool_event)t);
		if (matches(l, name, NULL) &&
		    add(l, name, NULL, "Tool event", "tool", tool_event_desc((enum tool_event)t), NULL,
			true, false))
			return -ENOMEM;
	}
	return 0;
}

static int add_symbolic(struct listing *l, enum pev_event_class cls)
{
	static const char *const types[] = { "Hardware event", "Software event", "Hardware cache event" };
	size_t first = l->n;
	const struct pev_symbolic_event *s;

	for (size_t i = 0; (s = pev_symbolic_event(i)); i++) {
		char enc[64];
		struct perf_event_attr a;

		if (s->cls != cls || !matches(l, s->name, s->alias))
			continue;
		memset(&a, 0, sizeof(a));
		a.type = s->type;
		a.config = s->config;
		snprintf(enc, sizeof(enc), "type=%u,config=%#llx", s->type, (unsigned long long)s->config);
		if (add(l, s->name, s->alias, types[cls], cls == PEV_CLASS_SW ? "software" : "cpu",
			s->desc, enc, !l->no_probe && can_open(&a, false), false))
			return -ENOMEM;
	}
	if (cls == PEV_CLASS_CACHE) {
		/* perf list sorts cache events by name */
		for (size_t i = first + 1; i < l->n; i++)
			for (size_t j = i; j > first && strcmp(l->e[j - 1].name, l->e[j].name) > 0; j--) {
				struct entry t = l->e[j];
				l->e[j] = l->e[j - 1];
				l->e[j - 1] = t;
			}
	}
	return 0;
}

static int add_pmu_aliases(struct listing *l, struct pev_pmu_list *pmus)
{
	for (size_t i = 0; i < pev_pmu_list_count(pmus); i++) {
		const struct pev_pmu *p = pev_pmu_list_get(pmus, i);
		for (size_t j = 0; j < p->nr_aliases; j++) {
			const struct pev_pmu_alias *a = &p->aliases[j];
			char name[600], enc[1400];
			struct pev_evlist *ev;
			bool avail = false;

			snprintf(name, sizeof(name), "%s/%s/", p->name, a->name);
			if (!matches(l, name, a->name))
				continue;
			snprintf(enc, sizeof(enc), "%s/%s/", p->name, a->terms);
			/* Encode through the parser, then try it once. */
			ev = l->no_probe ? NULL : pev_evlist_new();
			struct pev_parse_opts o = { .size = sizeof(o), .no_pfm = true };
			if (ev && pev_evlist_parse(ev, name, &o, NULL) == 0 && pev_evlist_count(ev) == 1)
				avail = can_open(&pev_evlist_event(ev, 0)->attr.attr, true);
			pev_evlist_free(ev);
			if (add(l, name, NULL, "Kernel PMU event", p->name, a->unit[0] ? a->unit : NULL,
				enc, avail, false))
				return -ENOMEM;
		}
	}
	return 0;
}

struct tp_ctx {
	struct listing *l;
	int err;
};

static int tp_cb(const char *sys, const char *name, void *user)
{
	struct tp_ctx *t = user;
	char full[600];

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	if (!matches(t->l, full, NULL))
		return 0;
	if (add(t->l, full, NULL, "Tracepoint event", "tracepoint", NULL, NULL, true, false)) {
		t->err = -ENOMEM;
		return 1;
	}
	return 0;
}

int event_list_collect(struct listing *l, struct pev_pmu_list **pmusp, bool hw, bool sw,
		       bool cache, bool pmu, bool tp, bool syntax)
{
	struct pev_pmu_list *pmus = *pmusp = pev_pmu_list_load(NULL);
	/* The PMUs' events are left out: say so, as for tracepoints below. */
	if (!pmus && (pmu || syntax))
		cli_warn("cannot read the PMUs in /sys/bus/event_source/devices: %s; their events are not listed",
			 strerror(errno));
	const struct pev_pmu *bad = NULL;
	size_t nbad = 0;
	for (size_t i = 0; pmu && pmus && i < pev_pmu_list_count(pmus); i++) {
		const struct pev_pmu *p = pev_pmu_list_get(pmus, i);

		if (p->error && !nbad++)
			bad = p;
	}
	if (nbad)
		cli_warn("cannot read PMU '%s'%s: %s; their events may be missing from the list",
			 bad->name, nbad > 1 ? " and others" : "", bad->error);
	if ((hw && add_symbolic(l, PEV_CLASS_HW)) || (sw && add_symbolic(l, PEV_CLASS_SW)) ||
	    (sw && add_tools(l)) ||
	    (cache && add_symbolic(l, PEV_CLASS_CACHE)) || (pmu && pmus && add_pmu_aliases(l, pmus)))
		return -ENOMEM;
	if (syntax) {
		if (add(l, "rNNN", NULL, "Raw hardware event descriptor", "cpu", NULL, NULL, true, true) ||
		    add(l, "cpu/t1=v1[,t2=v2,t3 ...]/modifier", NULL, "Raw hardware event descriptor",
			"cpu", NULL, NULL, true, true) ||
		    add(l, "mem:<addr>[/len][:access]", NULL, "Hardware breakpoint", "breakpoint", NULL,
			NULL, true, true) ||
		    add(l, "uprobe:<path>:<symbol>[+off]", NULL, "User probe", "uprobe", NULL, NULL,
			pev_pmu_list_find(pmus, "uprobe") != NULL, true))
			return -ENOMEM;
	}
	if (tp) {
		char tfs[256];
		int r = pev_tracefs_find(tfs, sizeof(tfs), true);
		if (r < 0) {
			cli_warn("cannot list tracepoints: tracefs is not mounted (%s); run as root or mount it at /sys/kernel/tracing",
				 strerror(-r));
		} else {
			struct tp_ctx t = { l, 0 };
			r = pev_tracepoint_foreach(tfs, NULL, NULL, tp_cb, &t);
			if (t.err)
				return -ENOMEM;
			if (r < 0)
				cli_warn("cannot list tracepoints in '%s': %s", tfs, strerror(-r));
		}
	}
	return 0;
}

void event_list_release(struct listing *l, struct pev_pmu_list *pmus)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->e[i].name);
		free(l->e[i].encoding);
	}
	free(l->e);
	pev_pmu_list_free(pmus);
}

void event_list_names(FILE *out)
{
	struct listing l = { .no_probe = true };
	struct pev_pmu_list *pmus = NULL;

	if (!event_list_collect(&l, &pmus, true, true, true, true, true, false))
		for (size_t i = 0; i < l.n; i++)
			fprintf(out, "%s\n%s%s", l.e[i].name, l.e[i].alias ? l.e[i].alias : "",
				l.e[i].alias ? "\n" : "");
	event_list_release(&l, pmus);
}
