// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The counter set: its events, group-wide ioctls, and the views of its
 * readings.  Opening lives in counter_open.c, reading in counter_read.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/counter.h>
#include <perfev/sys.h>
#include "count/counter_priv.h"
#include "core/util.h"

PEV_EXPORT struct pev_counters *pev_counters_new(const struct pev_counter_opts *opts)
{
	struct pev_counters *c;

	if (!opts || opts->size < offsetof(struct pev_counter_opts, target) +
				  sizeof(opts->target) || !opts->target) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	/* Copy what the caller's (maybe older, smaller) struct has. */
	memcpy(&c->opts, opts, opts->size < sizeof(c->opts) ? opts->size : sizeof(c->opts));
	c->opts.size = sizeof(c->opts);
	c->target = opts->target;
	return c;
}

PEV_EXPORT void pev_counters_free(struct pev_counters *c)
{
	if (!c)
		return;
	if (c->fd) {
		size_t n = c->nr * c->ncpu * c->nthr;

		for (size_t i = 0; i < n; i++)
			if (c->fd[i] >= 0)
				close(c->fd[i]);
	}
	for (size_t i = 0; i < c->nr; i++) {
		free(c->ev[i].name);
		free(c->ev[i].unit);
		free(c->ev[i].cpus);
	}
	free(c->ev);
	free(c->fd);
	free(c->id);
	free(c->now);
	free(c->prev);
	free(c);
}

PEV_EXPORT int pev_counters_add_event(struct pev_counters *c,
				      const struct pev_counter_event *e)
{
	struct pev__cev *ev;
	size_t size;
	int idx, leader;

	if (!c || !e || e->size < offsetof(struct pev_counter_event, leader) +
				  sizeof(e->leader) || !e->attr)
		return -EINVAL;
	if (c->is_open)
		return -EBUSY;
	if (c->nr >= 0x7fffffff)
		return -ENOSPC;
	idx = (int)c->nr;
	leader = e->leader < 0 ? idx : e->leader;
	if (leader > idx || (leader < idx && c->ev[leader].leader != leader))
		return -EINVAL;
	size = e->attr->size ? e->attr->size : sizeof(struct perf_event_attr);
	if (size < PERF_ATTR_SIZE_VER0 || size > sizeof(struct pev_attr))
		return -EINVAL;
	if (pev__grow_array(c->ev, &c->cap, c->nr + 1, 8))
		return -ENOMEM;
	ev = &c->ev[idx];
	memset(ev, 0, sizeof(*ev));
	memcpy(&ev->attr, e->attr, size);
	ev->attr.attr.size = (uint32_t)size;
	ev->leader = leader;
	ev->nr_members = 1;
	ev->status = PEV_COUNT_NOT_OPENED;

	const char *name = e->name;
	const char *unit = NULL, *cpus = NULL;
	char def[32];

	if (e->size >= offsetof(struct pev_counter_event, cpus) + sizeof(e->cpus))
		cpus = e->cpus;
	if (e->size >= offsetof(struct pev_counter_event, scale) + sizeof(e->scale))
		ev->scale = e->scale;
	if (e->size >= offsetof(struct pev_counter_event, unit) + sizeof(e->unit))
		unit = e->unit;
	if (ev->scale == 0)
		ev->scale = 1.0;
	if (!name) {
		snprintf(def, sizeof(def), "event%d", idx);
		name = def;
	}
	ev->name = strdup(name);
	ev->unit = strdup(unit ? unit : "");
	if (!ev->name || !ev->unit)
		goto nomem;
	if (cpus) {
		int n = pev_cpulist_parse(cpus, NULL, 0);

		if (n < 0) {
			free(ev->name);
			free(ev->unit);
			return n;
		}
		ev->cpus = calloc((size_t)n, sizeof(int));
		if (!ev->cpus)
			goto nomem;
		ev->nr_cpus = pev_cpulist_parse(cpus, ev->cpus, (size_t)n);
	}
	if (leader != idx)
		c->ev[leader].nr_members++;
	c->nr++;
	return idx;

nomem:
	free(ev->name);
	free(ev->unit);
	free(ev->cpus);
	return -ENOMEM;
}

void pev__counters_truncate(struct pev_counters *c, size_t n)
{
	while (c->nr > n) {
		struct pev__cev *ev = &c->ev[--c->nr];

		if (ev->leader != (int)c->nr)
			c->ev[ev->leader].nr_members--;
		free(ev->name);
		free(ev->unit);
		free(ev->cpus);
	}
}

PEV_EXPORT int pev_counters_add(struct pev_counters *c,
				const struct perf_event_attr *attr,
				const char *name, int leader)
{
	struct pev_counter_event e = {
		.size = sizeof(e), .attr = attr, .name = name, .leader = leader,
	};

	return pev_counters_add_event(c, &e);
}

/* Apply a group ioctl to every open leader fd. */
static int for_leaders(struct pev_counters *c, int (*fn)(int, bool))
{
	int ret = 0;

	if (!c)
		return -EINVAL;
	for (size_t e = 0; c->is_open && e < c->nr; e++) {
		if (c->ev[e].leader != (int)e)
			continue;
		for (size_t k = 0; k < c->ncpu; k++)
			for (size_t t = 0; t < c->nthr; t++) {
				int fd = c->fd[pev__slot(c, e, k, t)];
				int r = fd >= 0 ? fn(fd, true) : 0;

				if (r < 0 && !ret)
					ret = r;
			}
	}
	return ret;
}

PEV_EXPORT int pev_counters_enable(struct pev_counters *c)
{
	return for_leaders(c, pev_ioc_enable);
}

PEV_EXPORT int pev_counters_disable(struct pev_counters *c)
{
	return for_leaders(c, pev_ioc_disable);
}

PEV_EXPORT int pev_counters_reset(struct pev_counters *c)
{
	return for_leaders(c, pev_ioc_reset);
}

PEV_EXPORT size_t pev_counters_count(const struct pev_counters *c)
{
	return c ? c->nr : 0;
}

PEV_EXPORT const char *pev_counters_name(const struct pev_counters *c, size_t ev)
{
	return c && ev < c->nr ? c->ev[ev].name : NULL;
}

PEV_EXPORT const char *pev_counters_unit(const struct pev_counters *c, size_t ev)
{
	return c && ev < c->nr ? c->ev[ev].unit : NULL;
}

PEV_EXPORT double pev_counters_scale(const struct pev_counters *c, size_t ev)
{
	return c && ev < c->nr ? c->ev[ev].scale : 0;
}

PEV_EXPORT int pev_counters_leader(const struct pev_counters *c, size_t ev)
{
	return c && ev < c->nr ? c->ev[ev].leader : -1;
}

PEV_EXPORT const struct perf_event_attr *pev_counters_attr(const struct pev_counters *c,
							   size_t ev)
{
	return c && ev < c->nr ? &c->ev[ev].attr.attr : NULL;
}

PEV_EXPORT enum pev_count_status pev_counters_status(const struct pev_counters *c,
						     size_t ev, int *error)
{
	if (error)
		*error = c && ev < c->nr ? c->ev[ev].error : 0;
	if (!c || ev >= c->nr)
		return PEV_COUNT_NOT_OPENED;
	return c->ev[ev].status;
}

PEV_EXPORT const struct pev_target *pev_counters_target(const struct pev_counters *c)
{
	return c ? c->target : NULL;
}

PEV_EXPORT int pev_counters_fd(const struct pev_counters *c, size_t ev,
			       size_t cpu_idx, size_t thread_idx)
{
	if (!c || !c->is_open || ev >= c->nr || cpu_idx >= c->ncpu ||
	    thread_idx >= c->nthr)
		return -1;
	return c->fd[pev__slot(c, ev, cpu_idx, thread_idx)];
}

PEV_EXPORT uint64_t pev_counters_id(const struct pev_counters *c, size_t ev,
				    size_t cpu_idx, size_t thread_idx)
{
	if (!c || !c->is_open || ev >= c->nr || cpu_idx >= c->ncpu ||
	    thread_idx >= c->nthr)
		return 0;
	return c->id[pev__slot(c, ev, cpu_idx, thread_idx)];
}

PEV_EXPORT int pev_counters_get(const struct pev_counters *c, size_t ev,
				int cpu_idx, int thread_idx,
				enum pev_count_view view, struct pev_count *out)
{
	size_t k0, k1, t0, t1;
	bool any = false;

	if (!c || !out || ev >= c->nr || cpu_idx < -1 || thread_idx < -1 ||
	    (view != PEV_VIEW_TOTAL && view != PEV_VIEW_DELTA))
		return -EINVAL;
	if (c->is_open && ((cpu_idx >= 0 && (size_t)cpu_idx >= c->ncpu) ||
			   (thread_idx >= 0 && (size_t)thread_idx >= c->nthr)))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (c->ev[ev].status == PEV_COUNT_NOT_SUPPORTED) {
		out->status = PEV_COUNT_NOT_SUPPORTED;
		out->error = c->ev[ev].error;
		return 0;
	}
	out->status = PEV_COUNT_NOT_OPENED;
	if (!c->is_open)
		return 0;
	k0 = cpu_idx < 0 ? 0 : (size_t)cpu_idx;
	k1 = cpu_idx < 0 ? c->ncpu : k0 + 1;
	t0 = thread_idx < 0 ? 0 : (size_t)thread_idx;
	t1 = thread_idx < 0 ? c->nthr : t0 + 1;
	for (size_t k = k0; k < k1; k++)
		for (size_t t = t0; t < t1; t++) {
			size_t s = pev__slot(c, ev, k, t);
			struct pev__slot_val v = c->now[s];

			if (c->fd[s] < 0)
				continue;
			any = true;
			if (view == PEV_VIEW_DELTA) {
				struct pev_count n = { v.val, v.ena, v.run, v.lost, 0, 0 };
				struct pev_count p = { c->prev[s].val, c->prev[s].ena,
						       c->prev[s].run, c->prev[s].lost, 0, 0 };
				pev_count_delta(&n, &p, &n);
				v = (struct pev__slot_val){ n.val, n.ena, n.run, n.lost };
			}
			out->val += v.val;
			out->ena += v.ena;
			out->run += v.run;
			out->lost += v.lost;
		}
	if (any)
		out->status = out->run ? PEV_COUNT_OK : PEV_COUNT_NOT_COUNTED;
	return 0;
}

PEV_EXPORT int pev_counters_total(const struct pev_counters *c, size_t ev,
				  struct pev_count *out)
{
	return pev_counters_get(c, ev, -1, -1, PEV_VIEW_TOTAL, out);
}

PEV_EXPORT int pev_counters_per_cpu(const struct pev_counters *c, size_t ev,
				    size_t cpu_idx, struct pev_count *out)
{
	if (cpu_idx > 0x7fffffff)
		return -EINVAL;
	return pev_counters_get(c, ev, (int)cpu_idx, -1, PEV_VIEW_TOTAL, out);
}

PEV_EXPORT int pev_counters_per_thread(const struct pev_counters *c, size_t ev,
				       size_t thread_idx, struct pev_count *out)
{
	if (thread_idx > 0x7fffffff)
		return -EINVAL;
	return pev_counters_get(c, ev, -1, (int)thread_idx, PEV_VIEW_TOTAL, out);
}
