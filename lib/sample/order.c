/* Time ordering (order.h): a binary min-heap on (time, push sequence), so
 * records with equal times keep their file order. */
#include <errno.h>
#include <stdlib.h>

#include <perfev/order.h>
#include "core/util.h"

struct node {
	uint64_t time, seq;
	const void *rec;
	void *ctx;
};

struct pev_order {
	struct node *heap;
	size_t n, cap;
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
	free(q);
}

static bool less(const struct node *a, const struct node *b)
{
	return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

PEV_EXPORT int pev_order_push(struct pev_order *q, uint64_t time,
			      const void *rec, void *ctx)
{
	if (time == 0 || time == UINT64_MAX)
		return -ETIME;
	if (pev__grow_array(q->heap, &q->cap, q->n + 1, 256) < 0)
		return -ENOMEM;
	if (time < q->last_flush)
		q->out_of_order++;
	if (time > q->max_time)
		q->max_time = time;
	size_t i = q->n++;
	struct node nd = { time, q->seq++, rec, ctx };

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!less(&nd, &q->heap[p]))
			break;
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = nd;
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

PEV_EXPORT bool pev_order_pop(struct pev_order *q, struct pev_order_item *out)
{
	if (!q->n || q->heap[0].time > q->limit)
		return false;
	out->time = q->heap[0].time;
	out->rec = q->heap[0].rec;
	out->ctx = q->heap[0].ctx;
	struct node last = q->heap[--q->n];
	size_t i = 0, n = q->n;

	if (!n)
		return true;
	/* Bottom-up: the hole goes down to a leaf along the smaller
	 * children, then the last node climbs back from there (it came from
	 * the bottom, so it rarely climbs): one compare a level, not two.
	 * Keys are unique (seq), so the order popped is the same. */
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
	return true;
}

PEV_EXPORT size_t pev_order_queued(const struct pev_order *q)
{
	return q->n;
}

PEV_EXPORT uint64_t pev_order_nr_out_of_order(const struct pev_order *q)
{
	return q->out_of_order;
}
