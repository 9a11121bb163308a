// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Reading a counter set: one read() per group leader when the group is
 * read with PERF_FORMAT_GROUP (values matched to members by id), else one
 * per fd. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/counter.h>
#include "count/counter_priv.h"

static int read_fd(int fd, void *buf, size_t size)
{
	ssize_t r;

	do
		r = read(fd, buf, size);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : (int)r;
}

/* Read a group leader's fd with GROUP and spread the values over the
 * members of slot (k, t).  buf holds at least the group's layout. */
static int read_group(struct pev_counters *c, size_t lead, size_t k, size_t t,
		      uint64_t *buf, size_t bufsize, struct pev_read_value *vals)
{
	const struct pev__cev *ev = &c->ev[lead];
	uint64_t rf = ev->attr.attr.read_format, ena, run;
	int r = read_fd(c->fd[pev__slot(c, lead, k, t)], buf, bufsize);
	int n;

	if (r < 0)
		return r;
	n = pev_read_parse(buf, (size_t)r, rf, vals, (size_t)ev->nr_members, &ena, &run);
	if (n < 0)
		return n;
	for (size_t m = lead; m < c->nr; m++) {
		size_t s = pev__slot(c, m, k, t);

		if (c->ev[m].leader != (int)lead || c->fd[s] < 0)
			continue;
		for (int i = 0; i < n; i++) {
			if (vals[i].id != c->id[s])
				continue;
			c->now[s] = (struct pev__slot_val){ vals[i].value, ena, run,
							    vals[i].lost };
			break;
		}
	}
	return 0;
}

static int read_single(struct pev_counters *c, size_t e, size_t s)
{
	uint64_t buf[8], ena, run;
	struct pev_read_value v;
	uint64_t rf = c->ev[e].attr.attr.read_format & ~(uint64_t)PERF_FORMAT_GROUP;
	int r = read_fd(c->fd[s], buf, sizeof(buf));

	if (r < 0)
		return r;
	/* A member of a GROUP-read group has no GROUP bit itself. */
	r = pev_read_parse(buf, (size_t)r, rf, &v, 1, &ena, &run);
	if (r < 0)
		return r;
	c->now[s] = (struct pev__slot_val){ v.value, ena, run, v.lost };
	return 0;
}

PEV_EXPORT int pev_counters_read(struct pev_counters *c)
{
	size_t maxm = 1, n;
	uint64_t *buf;
	struct pev_read_value *vals;
	int ret = 0;

	if (!c)
		return -EINVAL;
	if (!c->is_open)
		return -EBADF;
	for (size_t e = 0; e < c->nr; e++)
		if ((size_t)c->ev[e].nr_members > maxm)
			maxm = (size_t)c->ev[e].nr_members;
	n = pev_read_size(PEV_READ_FORMAT_ALL, maxm);
	buf = malloc(n);
	vals = calloc(maxm, sizeof(*vals));
	if (!buf || !vals) {
		free(buf);
		free(vals);
		return -ENOMEM;
	}
	memcpy(c->prev, c->now, c->nr * c->ncpu * c->nthr * sizeof(*c->now));
	for (size_t e = 0; e < c->nr && !ret; e++) {
		const struct pev__cev *ev = &c->ev[e];
		bool group_read = c->ev[ev->leader].attr.attr.read_format & PERF_FORMAT_GROUP;

		if (group_read && ev->leader != (int)e)
			continue;	/* read with its leader */
		for (size_t k = 0; k < c->ncpu && !ret; k++)
			for (size_t t = 0; t < c->nthr && !ret; t++) {
				size_t s = pev__slot(c, e, k, t);

				if (c->fd[s] < 0)
					continue;
				ret = group_read ? read_group(c, e, k, t, buf, n, vals)
						 : read_single(c, e, s);
			}
	}
	free(buf);
	free(vals);
	c->read_once = true;
	return ret;
}
