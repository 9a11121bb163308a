// SPDX-License-Identifier: GPL-2.0-only
/* report --tasks / --mmaps: the machine's threads as a tree, as perf 6.1's
 * tasks_print: threads in perf's order (256 tables by tid % 256, each by tid),
 * each linked under its parent (ppid), the roots in the order their
 * first thread came; with --mmaps each task's process maps. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "report.h"

struct task {
	struct pev_machine_thread t;
	char *comm;
	struct task *parent;
	struct task **kids;
	size_t nkids, capkids;
	bool listed;
};

struct tasks { struct task *v; size_t nr, cap; };

static int collect(const struct pev_machine_thread *t, void *arg)
{
	struct tasks *ts = arg;

	if (ts->nr == ts->cap) {
		size_t cap = ts->cap ? ts->cap * 2 : 64;
		struct task *v = realloc(ts->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ts->v = v;
		ts->cap = cap;
	}
	struct task *k = &ts->v[ts->nr];

	memset(k, 0, sizeof(*k));
	k->t = *t;
	k->comm = strdup(t->comm);
	if (!k->comm)
		return -ENOMEM;
	ts->nr++;
	return 0;
}

static int by_perf_order(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	uint32_t bx = x->t.tid % 256, by = y->t.tid % 256;

	if (bx != by)
		return bx < by ? -1 : 1;
	/* perf's rb tree compares tids as int */
	return (int32_t)x->t.tid < (int32_t)y->t.tid ? -1 : (int32_t)x->t.tid > (int32_t)y->t.tid;
}

static struct task *find(struct tasks *ts, int32_t tid)
{
	for (size_t i = 0; i < ts->nr; i++)
		if ((int32_t)ts->v[i].t.tid == tid)
			return &ts->v[i];
	return NULL;
}

static int add_kid(struct task *p, struct task *k)
{
	if (p->nkids == p->capkids) {
		size_t cap = p->capkids ? p->capkids * 2 : 4;
		struct task **v = realloc(p->kids, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->kids = v;
		p->capkids = cap;
	}
	p->kids[p->nkids++] = k;
	return 0;
}

struct map_print { int indent; };

static int print_map(const struct pev_machine_map *mp, void *arg)
{
	const struct map_print *mpp = arg;

	printf("%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n",
	       mpp->indent, "", mp->start, mp->end,
	       mp->prot & PROT_READ ? 'r' : '-', mp->prot & PROT_WRITE ? 'w' : '-',
	       mp->prot & PROT_EXEC ? 'x' : '-', mp->flags & MAP_SHARED ? 's' : 'p',
	       mp->pgoff, mp->ino, mp->name);
	return 0;
}

static void print_level(struct report *r, const struct task *k, int level)
{
	struct map_print mpp;

	mpp.indent = printf("  %8d %8d %8d |%*s", (int)k->t.pid, (int)k->t.tid,
			    (int)k->t.ppid, level, "");
	printf("%s\n", k->comm);
	if (r->mmaps)
		pev_machine_maps(r->machine, k->t.pid, print_map, &mpp);
	for (size_t i = 0; i < k->nkids; i++)
		print_level(r, k->kids[i], level + 1);
}

int report_print_tasks(struct report *r)
{
	struct tasks ts = { 0 };
	struct task **roots = NULL;
	size_t nroots = 0;
	int ret = -ENOMEM;

	if (!r->machine)
		return -EINVAL;
	if (pev_machine_threads(r->machine, collect, &ts) < 0)
		goto out;
	qsort(ts.v, ts.nr, sizeof(*ts.v), by_perf_order);
	roots = calloc(ts.nr + 1, sizeof(*roots));
	if (!roots)
		goto out;
	/* perf's tasks_list: walk up from each unlisted task, linking each
	 * under its parent, until a task without one (a root) or one already
	 * listed */
	for (size_t i = 0; i < ts.nr; i++) {
		struct task *k = &ts.v[i];

		while (!k->listed) {
			k->listed = true;
			if (k->t.ppid == -1) {
				roots[nroots++] = k;
				break;
			}
			struct task *p = find(&ts, k->t.ppid);

			if (!p) {
				ret = -ENOENT;
				goto out;
			}
			if (add_kid(p, k) < 0)
				goto out;
			k = p;
		}
	}
	printf("# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	for (size_t i = 0; i < nroots; i++)
		print_level(r, roots[i], 0);
	ret = 0;
out:
	for (size_t i = 0; i < ts.nr; i++) {
		free(ts.v[i].comm);
		free(ts.v[i].kids);
	}
	free(ts.v);
	free(roots);
	return ret;
}
