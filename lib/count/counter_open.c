// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Opening a counter set on its target: each group on every (CPU, thread)
 * slot, with perf stat's fall-backs — a refused event is marked and the
 * others go on; a thread that exited is dropped; PERF_FORMAT_LOST and
 * GROUP-with-inherit are dropped when this kernel refuses them. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/counter.h>
#include <perfev/sys.h>
#include "core/util.h"
#include "count/counter_priv.h"

static void logf_(struct pev_counters *c, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void logf_(struct pev_counters *c, int level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!c->opts.log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->opts.log(level, msg, c->opts.log_user);
}

static const char *errstr(int err)
{
	const char *s = strerrordesc_np(err);

	return s ? s : "unknown error";
}

/* Fill in the attr fields the library owns (see counter.h). */
static void prepare_attrs(struct pev_counters *c)
{
	bool task = pev_target_is_task(c->target);
	bool exec = pev_target_kind(c->target) == PEV_TARGET_WORKLOAD;

	for (size_t i = 0; i < c->nr; i++) {
		struct pev__cev *ev = &c->ev[i];
		struct perf_event_attr *a = &ev->attr.attr;
		bool leader = ev->leader == (int)i;

		a->disabled = leader;
		a->enable_on_exec = leader && exec;
		a->inherit = task && !c->opts.no_inherit;
		a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
		if (!c->opts.no_lost)
			a->read_format |= PERF_FORMAT_LOST;
		if (leader && ev->nr_members > 1 && !c->opts.no_group_read)
			a->read_format |= PERF_FORMAT_GROUP;
	}
}

static void drop_format(struct pev_counters *c, uint64_t bit, bool only_inherit)
{
	for (size_t i = 0; i < c->nr; i++) {
		struct perf_event_attr *a = &c->ev[i].attr.attr;

		if (!only_inherit || a->inherit)
			a->read_format &= ~bit;
	}
}

/* perf's fallback for unprivileged users (evsel__fallback): above
 * paranoid 1 only user space may be counted, so an event refused for
 * counting the kernel too is opened with exclude_kernel and exclude_hv and
 * renamed as perf renames it ("task-clock:u", "cpu/e/u").  An event that
 * excludes user space is left refused, as perf leaves it.  Returns the new
 * fd, or err when the fallback does not apply or fails too. */
static int user_fallback(struct pev_counters *c, struct pev__cev *ev, pid_t pid,
			 int cpu, int group_fd, unsigned long flags, int err)
{
	struct perf_event_attr *a = &ev->attr.attr;
	long paranoid = pev__user_fallback(a);
	char *name;
	int fd;

	if (!paranoid)
		return err;
	fd = pev_sys_open(a, pid, cpu, group_fd, flags);
	if (fd < 0) {
		a->exclude_kernel = a->exclude_hv = 0;
		return err;
	}
	if ((name = pev__user_only_name(ev->name))) {
		free(ev->name);
		ev->name = name;
	}
	logf_(c, 1, "kernel.perf_event_paranoid=%ld, trying to fall back to excluding "
	      "kernel and hypervisor  samples", paranoid);
	return fd;
}

/* Open one event on one slot; on EINVAL, learn whether a read_format bit
 * we asked for is what this kernel refuses, and retry without it. */
static int open_one(struct pev_counters *c, struct pev__cev *ev, pid_t pid,
		    int cpu, int group_fd)
{
	struct perf_event_attr *a = &ev->attr.attr;
	unsigned long flags = PERF_FLAG_FD_CLOEXEC | pev_target_open_flags(c->target);
	int fd = pev_sys_open(a, pid, cpu, group_fd, flags);

	if (fd == -EINVAL && (a->read_format & PERF_FORMAT_LOST) && !c->lost_known) {
		a->read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		fd = pev_sys_open(a, pid, cpu, group_fd, flags);
		if (fd >= 0) {
			c->lost_known = true;
			c->lost_ok = false;
			drop_format(c, PERF_FORMAT_LOST, false);
			logf_(c, 2, "this kernel has no PERF_FORMAT_LOST; reading without it");
		} else {
			a->read_format |= PERF_FORMAT_LOST;
		}
	}
	if (fd == -EINVAL && (a->read_format & PERF_FORMAT_GROUP) && a->inherit &&
	    !c->group_inherit_known) {
		a->read_format &= ~(uint64_t)PERF_FORMAT_GROUP;
		fd = pev_sys_open(a, pid, cpu, group_fd, flags);
		if (fd >= 0) {
			c->group_inherit_known = true;
			c->group_inherit_ok = false;
			drop_format(c, PERF_FORMAT_GROUP, true);
			logf_(c, 2, "this kernel refuses PERF_FORMAT_GROUP with inherit; reading each counter");
		} else {
			a->read_format |= PERF_FORMAT_GROUP;
		}
	}
	/* As perf does: PMUs that cannot tell guest from host (msr, uncore)
	 * refuse exclude_guest/exclude_host, which the parser sets by
	 * default; count without them.  The event keeps the cleared bits
	 * for its other slots. */
	if (fd == -EINVAL && (a->exclude_guest || a->exclude_host)) {
		unsigned eg = a->exclude_guest, eh = a->exclude_host;

		a->exclude_guest = a->exclude_host = 0;
		fd = pev_sys_open(a, pid, cpu, group_fd, flags);
		if (fd >= 0) {
			logf_(c, 2, "'%s' opened without exclude_guest/exclude_host", ev->name);
		} else {
			a->exclude_guest = eg;
			a->exclude_host = eh;
		}
	}
	if ((fd == -EACCES || fd == -EPERM) && c->opts.user_fallback)
		fd = user_fallback(c, ev, pid, cpu, group_fd, flags, fd);
	if (fd >= 0) {
		if (a->read_format & PERF_FORMAT_LOST)
			c->lost_known = c->lost_ok = true;
		if ((a->read_format & PERF_FORMAT_GROUP) && a->inherit)
			c->group_inherit_known = c->group_inherit_ok = true;
	}
	return fd;
}

static void close_group_slot(struct pev_counters *c, size_t lead, size_t k, size_t t)
{
	for (size_t m = lead; m < c->nr; m++) {
		size_t s;

		if (c->ev[m].leader != (int)lead)
			continue;
		s = pev__slot(c, m, k, t);
		if (c->fd[s] >= 0)
			close(c->fd[s]);
		c->fd[s] = -1;
		c->id[s] = 0;
	}
}

static bool cpu_allowed(const struct pev__cev *ev, int cpu)
{
	if (!ev->cpus || cpu < 0)
		return true;
	for (int i = 0; i < ev->nr_cpus; i++)
		if (ev->cpus[i] == cpu)
			return true;
	return false;
}

/* Mark the group led by lead as refused with err, closing its fds. */
static void fail_group(struct pev_counters *c, size_t lead, int err, const char *why)
{
	for (size_t k = 0; k < c->ncpu; k++)
		for (size_t t = 0; t < c->nthr; t++)
			close_group_slot(c, lead, k, t);
	for (size_t m = lead; m < c->nr; m++) {
		if (c->ev[m].leader != (int)lead)
			continue;
		c->ev[m].status = PEV_COUNT_NOT_SUPPORTED;
		c->ev[m].error = err;
		c->ev[m].opened = false;
	}
	logf_(c, 1, "cannot open '%s': %s", why, errstr(err));
}

/* Open the group led by lead on every slot.  dead[t] marks thread slots
 * whose thread has gone (ESRCH), shared by all groups. */
static void open_group(struct pev_counters *c, size_t lead, bool *dead)
{
	const struct pev_target *tg = c->target;
	bool task = pev_target_is_task(tg);
	bool any = false;

	for (size_t k = 0; k < c->ncpu; k++) {
		int cpu = pev_target_cpu(tg, k);

		if (!cpu_allowed(&c->ev[lead], cpu))
			continue;
		for (size_t t = 0; t < c->nthr; t++) {
			pid_t pid = pev_target_thread(tg, t);
			int leader_fd = -1, err = 0;
			size_t bad = lead;

			if (dead[t])
				continue;
			for (size_t m = lead; m < c->nr && !err; m++) {
				struct pev__cev *ev = &c->ev[m];
				size_t s = pev__slot(c, m, k, t);
				int fd;

				if (ev->leader != (int)lead)
					continue;
				fd = open_one(c, ev, pid, cpu, leader_fd);
				if (fd < 0) {
					err = -fd;
					bad = m;
					break;
				}
				c->fd[s] = fd;
				if (m == lead)
					leader_fd = fd;
				err = -pev_ioc_id(fd, &c->id[s]);
				bad = m;
			}
			if (!err) {
				any = true;
				continue;
			}
			close_group_slot(c, lead, k, t);
			if (err == ESRCH && task) {
				/* The thread exited since the target was made:
				 * perf drops it and counts the rest. */
				dead[t] = true;
				logf_(c, 2, "thread %d has exited; not counting it", (int)pid);
				continue;
			}
			fail_group(c, lead, err, c->ev[bad].name);
			return;
		}
	}
	if (!any) {
		int err = ESRCH;

		/* No slot at all: either every thread went, or the PMU's
		 * cpumask misses every CPU of the target. */
		if (c->ev[lead].cpus)
			err = ENODEV;
		fail_group(c, lead, err, c->ev[lead].name);
		return;
	}
	for (size_t m = lead; m < c->nr; m++)
		if (c->ev[m].leader == (int)lead) {
			c->ev[m].status = PEV_COUNT_OK;
			c->ev[m].opened = true;
		}
}

PEV_EXPORT int pev_counters_open(struct pev_counters *c)
{
	size_t n;
	bool *dead;
	int opened = 0, first_err = 0;

	if (!c || !c->nr)
		return -EINVAL;
	if (c->is_open)
		return -EBUSY;
	c->ncpu = pev_target_nr_cpus(c->target);
	c->nthr = pev_target_nr_threads(c->target);
	n = c->nr * c->ncpu * c->nthr;
	c->fd = malloc(n * sizeof(*c->fd));
	c->id = calloc(n, sizeof(*c->id));
	c->now = calloc(n, sizeof(*c->now));
	c->prev = calloc(n, sizeof(*c->prev));
	dead = calloc(c->nthr, sizeof(*dead));
	if (!c->fd || !c->id || !c->now || !c->prev || !dead) {
		free(dead);
		free(c->fd);
		free(c->id);
		free(c->now);
		free(c->prev);
		c->fd = NULL;
		c->id = NULL;
		c->now = c->prev = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		c->fd[i] = -1;
	c->is_open = true;
	prepare_attrs(c);
	for (size_t e = 0; e < c->nr; e++)
		if (c->ev[e].leader == (int)e)
			open_group(c, e, dead);
	free(dead);
	for (size_t e = 0; e < c->nr; e++) {
		if (c->ev[e].status == PEV_COUNT_OK)
			opened++;
		else if (!first_err)
			first_err = c->ev[e].error;
	}
	return opened ? opened : -(first_err ? first_err : EINVAL);
}
