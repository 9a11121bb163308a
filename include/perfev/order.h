/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: time ordering of records, the way perf report orders them.
 *
 * perf record drains every ring once per pass and then writes a
 * FINISHED_ROUND.  Nothing older than the highest time seen before the
 * previous round can still arrive, so on each round the queue releases
 * everything up to that time (a two-round window), and at the end
 * everything.  Records are queued as pointers: the caller keeps what they
 * point to alive until they come out.  Not thread-safe. */
#ifndef PERFEV_ORDER_H
#define PERFEV_ORDER_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pev_order;

/* A queued record: its time, the caller's pointer and context. */
struct pev_order_item {
	uint64_t time;
	const void *rec;
	void *ctx;
};

/* A new empty queue; NULL and errno = ENOMEM. */
PEV_EXPORT struct pev_order *pev_order_new(void);
/* Frees the queue (not what the items point to); accepts NULL. */
PEV_EXPORT void pev_order_free(struct pev_order *q);

/* Queues a record.  Returns 0, -ETIME when time is 0 or (u64)-1 (no time:
 * deliver it now, as perf does), or -ENOMEM.  A record older than the last
 * release point is counted as out of order and still queued. */
PEV_EXPORT int pev_order_push(struct pev_order *q, uint64_t time,
			      const void *rec, void *ctx);
/* A FINISHED_ROUND: releases every record up to the highest time queued
 * before the previous round. */
PEV_EXPORT void pev_order_round(struct pev_order *q);
/* End of input: releases everything. */
PEV_EXPORT void pev_order_final(struct pev_order *q);
/* Takes the oldest released record (equal times in push order); false
 * when none is released. */
PEV_EXPORT bool pev_order_pop(struct pev_order *q, struct pev_order_item *out);
/* Records queued and not yet popped. */
PEV_EXPORT size_t pev_order_queued(const struct pev_order *q);
/* Records pushed older than the release point at the time. */
PEV_EXPORT uint64_t pev_order_nr_out_of_order(const struct pev_order *q);

#ifdef __cplusplus
}
#endif
#endif
