// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Time ordering (order.h): records in order of (time, push sequence), so
 * records with equal times keep their file order.
 *
 * A perf.data file holds, round after round, each ring's records in
 * time order one ring after the other: a few sorted runs interleaved.
 * Each record goes to the end of a run whose last time it does not
 * precede (a FIFO: the one with the latest such time, so each ring's
 * records tend to keep to one), and only what fits no run goes to a
 * binary min-heap.  A pop takes the least of the runs' heads and the
 * heap's top.  Keys are unique (the sequence), so the order popped is
 * the one a single heap gives. */
#include <errno.h>
#include <stdlib.h>

#include <perfev/order.h>
#include "core/util.h"

struct node {
	uint64_t time, seq;
	const void *rec;
	void *ctx;
};

#define NRUNS 4

struct run {			/* a ring buffer of nodes in key order */
	struct node *v;
	size_t head, n, cap;	/* cap: 0 or a power of two */
};

struct pev_order {
	struct node *heap;
	size_t n, cap;
	struct run runs[NRUNS];
	size_t nrun;		/* nodes in the runs */
	uint64_t seq;
	uint64_t limit;		/* records up to this time may be popped */
	uint64_t next_flush;	/* the limit the next round sets */
	uint64_t max_time;	/* highest time queued so far */
	uint64_t last_flush;	/* for the out-of-order count */
	uint64_t out_of_order;
};

PEV_EXPORT struct pev_order *pev_order_new(void)
{
	struct pev_order *q = calloc(1, sizeof(*q));

	if (!q)
		errno = ENOMEM;
	return q;
}

PEV_EXPORT void pev_order_free(struct pev_order *q)
{
	if (!q)
		return;
	free(q->heap);
	for (int r = 0; r < NRUNS; r++)
		free(q->runs[r].v);
	free(q);
}

static bool less(const struct node *a, const struct node *b)
{
	return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

static struct node *run_at(const struct run *r, size_t i)
{
	return &r->v[(r->head + i) & (r->cap - 1)];
}

/* The run a node of this time goes to the end of, or NULL. */
static struct run *run_for(struct pev_order *q, uint64_t time)
{
	struct run *best = NULL, *empty = NULL;
	uint64_t bt = 0;

	for (int i = 0; i < NRUNS; i++) {
		struct run *r = &q->runs[i];

		if (!r->n) {
			empty = empty ? empty : r;
			continue;
		}
		uint64_t t = run_at(r, r->n - 1)->time;

		if (t <= time && (!best || t > bt)) {
			best = r;
			bt = t;
		}
	}
	return best ? best : empty;
}

static int run_append(struct run *r, const struct node *nd)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		struct node *v = malloc(cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (size_t i = 0; i < r->n; i++)
			v[i] = *run_at(r, i);
		free(r->v);
		r->v = v;
		r->head = 0;
		r->cap = cap;
	}
	*run_at(r, r->n++) = *nd;
	return 0;
}

static int heap_push(struct pev_order *q, const struct node *nd)
{
	if (pev__grow_array(q->heap, &q->cap, q->n + 1, 256) < 0)
		return -ENOMEM;
	size_t i = q->n++;

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!less(nd, &q->heap[p]))
			break;
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = *nd;
	return 0;
}

PEV_EXPORT int pev_order_push(struct pev_order *q, uint64_t time,
			      const void *rec, void *ctx)
{
	if (time == 0 || time == UINT64_MAX)
		return -ETIME;
	struct node nd = { time, q->seq, rec, ctx };
	struct run *r = run_for(q, time);
	int err = r ? run_append(r, &nd) : heap_push(q, &nd);

	if (err)
		return err;
	q->seq++;
	if (r)
		q->nrun++;
	if (time < q->last_flush)
		q->out_of_order++;
	if (time > q->max_time)
		q->max_time = time;
	return 0;
}

PEV_EXPORT void pev_order_round(struct pev_order *q)
{
	/* perf's OE_FLUSH__ROUND: flush to next_flush, then move next_flush
	 * to the highest time seen, so a round's records wait one round. */
	q->limit = q->next_flush;
	if (q->limit > q->last_flush)
		q->last_flush = q->limit;
	q->next_flush = q->max_time;
}

PEV_EXPORT void pev_order_final(struct pev_order *q)
{
	q->limit = UINT64_MAX;
	q->last_flush = q->max_time;
}

static void heap_pop(struct pev_order *q)
{
	struct node last = q->heap[--q->n];
	size_t i = 0, n = q->n;

	if (!n)
		return;
	/* Bottom-up: the hole goes down to a leaf along the smaller
	 * children, then the last node climbs back from there (it came from
	 * the bottom, so it rarely climbs): one compare a level, not two. */
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && less(&q->heap[c + 1], &q->heap[c]))
			c++;
		q->heap[i] = q->heap[c];
		i = c;
	}
	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!less(&last, &q->heap[p]))
			break;
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = last;
}

PEV_EXPORT bool pev_order_pop(struct pev_order *q, struct pev_order_item *out)
{
	const struct node *min = q->n ? &q->heap[0] : NULL;
	struct run *from = NULL;

	for (int i = 0; q->nrun && i < NRUNS; i++) {
		struct run *r = &q->runs[i];

		if (r->n && (!min || less(run_at(r, 0), min))) {
			min = run_at(r, 0);
			from = r;
		}
	}
	if (!min || min->time > q->limit)
		return false;
	out->time = min->time;
	out->rec = min->rec;
	out->ctx = min->ctx;
	if (from) {
		from->head = (from->head + 1) & (from->cap - 1);
		from->n--;
		q->nrun--;
	} else {
		heap_pop(q);
	}
	return true;
}

PEV_EXPORT size_t pev_order_queued(const struct pev_order *q)
{
	return q->n + q->nrun;
}

PEV_EXPORT uint64_t pev_order_nr_out_of_order(const struct pev_order *q)
{
	return q->out_of_order;
}
