// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Regions: a thread's own counters.  Each group is opened on the calling
 * thread (pid 0, cpu -1, no inherit) with PERF_FORMAT_GROUP and read with
 * one read(2) of its leader, or from the control pages without a system
 * call when the kernel allows user-space reads of every event in it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/explain.h>
#include <perfev/sys.h>
#include <perfev/user_page.h>
#include "core/util.h"
#include "region/region_internal.h"

#define RFMT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
	      PERF_FORMAT_TOTAL_TIME_RUNNING)

static void report_open_failure(struct reg_thread *t, int e, const struct perf_event_attr *a,
				int err)
{
	struct reg_event *ev = &pev__reg.ev[e];
	struct pev_explain_ctx ctx = {
		.size = sizeof(ctx), .attr = a, .pid = 0, .cpu = -1, .group_fd = -1,
		.event_name = ev->name,
	};
	char buf[800], key[32];

	t->err[e] = err;
	if (atomic_exchange(&ev->reported, true))
		return;
	pev_explain(err, &ctx, buf, sizeof(buf));
	snprintf(key, sizeof(key), "open:%d", e);
	pev__reg_say_once(key, "%s; the other events go on counting", buf);
}

/* As perf: where kernel.perf_event_paranoid > 1 refuses an event that
 * counts the kernel too, count user space only and call it NAME:u.  The
 * first thread decides for all (under the lock). */
static int user_fallback(struct reg_event *ev, struct perf_event_attr *a, int group_fd, int err)
{
	int fd;

	if (!pev__user_fallback(a))
		return err;
	fd = pev_sys_open(a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return err;
	pthread_mutex_lock(&pev__reg.lock);
	if (!ev->attr.exclude_kernel) {
		char *name = pev__user_only_name(ev->name);

		ev->attr.exclude_kernel = ev->attr.exclude_hv = 1;
		/* The old name is kept: pev_region_event_name may have
		 * handed it out. */
		if (name) {
			ev->old_name = ev->name;
			ev->name = name;
		}
	}
	pthread_mutex_unlock(&pev__reg.lock);
	return fd;
}

static int open_one(int e, int group_fd, struct perf_event_attr *a)
{
	struct reg_event *ev = &pev__reg.ev[e];
	int fd;

	memcpy(a, &ev->attr, sizeof(*a));
	a->size = sizeof(*a);
	/* Leaders start disabled and are enabled with their members: Linux
	 * 6.18 never schedules a member of another software PMU (page-faults
	 * under task-clock) added to a group that is already counting. */
	a->disabled = group_fd < 0;
	a->inherit = 0;
	a->enable_on_exec = 0;
	a->read_format = RFMT;
	if (ev->page)
		pev_user_access_request(&pev__reg.ua, a);
	for (;;) {
		fd = pev_sys_open(a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0 || !ev->page || !pev_user_access_retry(&pev__reg.ua, a, -fd))
			break;
	}
	if (fd == -EACCES || fd == -EPERM)
		fd = user_fallback(ev, a, group_fd, fd);
	return fd;
}

static struct reg_tgroup *new_tgroup(struct reg_thread *t)
{
	struct reg_tgroup *g = &t->tg[t->nr_tg++];

	g->fd = -1;
	g->nr = 0;
	return g;
}

static void close_tgroup(struct reg_thread *t, struct reg_tgroup *g)
{
	for (int k = 0; k < g->nr; k++) {
		int e = g->ev[k];

		if (t->fd[e] >= 0)
			close(t->fd[e]);
		t->fd[e] = -1;
	}
	g->nr = 0;
	g->fd = -1;
}

static void open_group(struct reg_thread *t, const struct reg_group *gr)
{
	struct reg_tgroup *g = new_tgroup(t);
	struct perf_event_attr a;

	for (int k = 0; k < gr->nr; k++) {
		int e = gr->ev[k], fd = open_one(e, g->fd, &a);

		if (fd < 0 && g->fd >= 0 && gr->implicit) {
			/* A member we grouped ourselves: alone, then. */
			struct reg_tgroup *alone = new_tgroup(t);

			fd = open_one(e, -1, &a);
			if (fd >= 0) {
				t->fd[e] = alone->fd = fd;
				alone->ev[alone->nr++] = e;
				continue;
			}
		}
		if (fd < 0 && !gr->implicit) {
			/* perf: a group opens as a whole or not at all. */
			close_tgroup(t, g);
			report_open_failure(t, e, &a, -fd);
			for (int m = 0; m < gr->nr; m++) {
				struct reg_event *o = &pev__reg.ev[gr->ev[m]];
				char key[32];

				if (gr->ev[m] == e)
					continue;
				t->err[gr->ev[m]] = -fd;
				if (atomic_exchange(&o->reported, true))
					continue;
				snprintf(key, sizeof(key), "open:%d", gr->ev[m]);
				pev__reg_say_once(key, "'%s' is not counted: '%s' of its group did not open",
						  o->name, pev__reg.ev[e].name);
			}
			return;
		}
		if (fd < 0) {
			report_open_failure(t, e, &a, -fd);
			continue;
		}
		t->fd[e] = fd;
		if (g->fd < 0)
			g->fd = fd;
		g->ev[g->nr++] = e;
	}
}

static void map_pages(struct reg_thread *t, struct reg_tgroup *g)
{
	g->fast = g->nr > 0;
	for (int k = 0; k < g->nr; k++) {
		int e = g->ev[k];

		if (pev__reg.ev[e].page)
			t->pc[e] = pev_user_page_map(t->fd[e]);
		if (!t->pc[e])
			g->fast = false;
	}
	if (!g->fast) {
		for (int k = 0; k < g->nr; k++) {
			pev_user_page_unmap(t->pc[g->ev[k]]);
			t->pc[g->ev[k]] = NULL;
		}
	}
}

static void calibrate(struct reg_thread *t)
{
	int n = pev__reg.nr_events;
	uint64_t *a = malloc(((size_t)n * 3 + 1) * sizeof(*a));

	for (int e = 0; e < n; e++)
		t->overhead[e] = -1;
	for (int i = 0; a && i < REG_CALIB_PAIRS; i++) {
		/* As begin then end: a read, then the next. */
		pev__reg_read(t, a);
		pev__reg_read(t, t->tmp);
		for (int e = 0; e < n; e++) {
			double d = (double)(t->tmp[e * 3] - a[e * 3]);

			if (t->overhead[e] < 0 || d < t->overhead[e])
				t->overhead[e] = d;
		}
	}
	for (int e = 0; e < n; e++)
		if (t->overhead[e] < 0 || t->fd[e] < 0)
			t->overhead[e] = 0;
	free(a);
}

int pev__reg_thread_open(struct reg_thread *t)
{
	struct reg_global *g = &pev__reg;
	size_t n = (size_t)g->nr_events;

	t->fd = malloc((n + 1) * sizeof(*t->fd));
	t->err = calloc(n + 1, sizeof(*t->err));
	t->pc = calloc(n + 1, sizeof(*t->pc));
	t->overhead = calloc(n + 1, sizeof(*t->overhead));
	t->tmp = calloc(n * 3 + 1, sizeof(*t->tmp));
	t->rbuf = calloc(n + 3, sizeof(*t->rbuf));
	/* Read groups: one per group, plus one per member of our own group
	 * that opens only alone. */
	t->tg = calloc(2 * n + 1, sizeof(*t->tg));
	if (!t->fd || !t->err || !t->pc || !t->overhead || !t->tmp || !t->rbuf || !t->tg)
		goto nomem;
	for (size_t i = 0; i <= n; i++)
		t->fd[i] = -1;
	for (size_t i = 0; i <= 2 * n; i++) {
		t->tg[i].ev = calloc(n + 1, sizeof(int));
		if (!t->tg[i].ev)
			goto nomem;
	}
	for (int i = 0; i < g->nr_groups; i++)
		open_group(t, &g->groups[i]);
	for (int i = 0; i < t->nr_tg; i++) {
		if (t->tg[i].fd >= 0)
			pev_ioc_enable(t->tg[i].fd, true);
		map_pages(t, &t->tg[i]);
	}
	if (g->calibrate)
		calibrate(t);
	return 0;
nomem:
	pev__reg_thread_close(t);
	return -ENOMEM;
}

void pev__reg_thread_close(struct reg_thread *t)
{
	for (int i = 0; t->fd && i < pev__reg.nr_events; i++) {
		if (t->pc && t->pc[i])
			pev_user_page_unmap(t->pc[i]);
		if (t->pc)
			t->pc[i] = NULL;
		if (t->fd[i] >= 0)
			close(t->fd[i]);
		t->fd[i] = -1;
	}
	for (int i = 0; i < t->nr_tg; i++)
		t->tg[i].fd = -1;
	t->dead = true;
}

/* Every event of a group from its control pages; false when one of them
 * is not on a counter now (then read(2) it is). */
static bool read_pages(struct reg_thread *t, const struct reg_tgroup *g, uint64_t *out)
{
	for (int k = 0; k < g->nr; k++) {
		int e = g->ev[k];
		struct pev_user_page_snapshot s;
		struct pev_user_count c;

		if ((pev__reg.hw ? pev_user_page_read_hw(t->pc[e], pev__reg.hw, &s)
				 : pev_user_page_read(t->pc[e], &s)) < 0 ||
		    pev_user_page_count(&s, &c) < 0)
			return false;
		out[e * 3] = c.value;
		/* The page's times are those of the last update; bring them to
		 * now whenever the page can (pev_user_page_count does only when
		 * they differ, all that scaling one read needs), so that a
		 * region inside one time slice has its true times. */
		if (s.tc.cap_user_time && s.cycles_valid) {
			uint64_t d = pev_time_conv_delta(&s.tc, s.cycles);

			c.enabled = s.time_enabled + d;
			c.running = s.time_running + d;
		}
		out[e * 3 + 1] = c.enabled;
		out[e * 3 + 2] = c.running;
	}
	return true;
}

void pev__reg_read(struct reg_thread *t, uint64_t *out)
{
	for (int i = 0; i < t->nr_tg; i++) {
		const struct reg_tgroup *g = &t->tg[i];
		uint64_t *buf = t->rbuf;
		ssize_t want;

		if (g->fd < 0)
			continue;
		if (g->fast && read_pages(t, g, out))
			continue;
		want = (ssize_t)((3 + (size_t)g->nr) * sizeof(uint64_t));
		if (read(g->fd, buf, (size_t)want) != want) {
			/* Not expected; keep the last values (a zero delta). */
			continue;
		}
		for (int k = 0; k < g->nr && k < (int)buf[0]; k++) {
			int e = g->ev[k];

			out[e * 3] = buf[3 + k];
			out[e * 3 + 1] = buf[1];
			out[e * 3 + 2] = buf[2];
		}
	}
}
