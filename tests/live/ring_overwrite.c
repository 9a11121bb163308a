// SPDX-License-Identifier: GPL-2.0-only
/* Overwrite rings, live.  write_backward with pause/resume: records come
 * out oldest first (times rising, newest last), a second read gives only
 * newer records, and a wrapped ring still reads cleanly.  A read-only
 * forward ring: an overrun is detected and reported as lost bytes. */
#include <perfev/perfev.h>
#include "ring_live.h"

/* Read a batch of {u64 time} samples; returns the count, checks order. */
static unsigned read_times(struct pev_ring *r, uint64_t *first, uint64_t *last)
{
	const struct perf_event_header *h;
	unsigned n = 0;
	uint64_t prev = 0;
	*first = *last = 0;
	if (pev_ring_read_init(r) <= 0)
		return 0;
	while (pev_ring_read_next(r, &h) > 0) {
		CHECK_MSG(header_sane(h), "bad header type %u size %u", h->type, h->size);
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		uint64_t t;
		CHECK_EQ_INT(h->size, 16);
		memcpy(&t, h + 1, 8);
		CHECK_MSG(t >= prev, "time went back: %" PRIu64 " after %" PRIu64, t, prev);
		prev = t;
		if (!n)
			*first = t;
		*last = t;
		n++;
	}
	CHECK_OK(pev_ring_read_done(r));
	return n;
}

int main(void)
{
	struct perf_event_attr a;
	uint64_t f1, l1, f2, l2;

	memset(&a, 0, sizeof(a));
	int fd = open_clock(&a, 200000, PERF_SAMPLE_TIME);
	skip_if_cannot_open(fd, &a, 0, -1, "cpu-clock");
	close(fd);
	a.write_backward = 1;
	fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	skip_if_cannot_open(fd, &a, 0, -1, "cpu-clock write_backward");
	struct pev_ring *r = map_ring(fd, 2, PEV_RING_BACKWARD);	/* 8 KiB = 512 samples */

	busy_ms(20);	/* ~100 samples: no wrap */
	unsigned n1 = read_times(r, &f1, &l1);
	CHECK_MSG(n1 >= 50 && n1 <= 120, "%u samples", n1);
	CHECK_EQ_U64(pev_ring_lost_bytes(r), 0);
	busy_ms(10);
	unsigned n2 = read_times(r, &f2, &l2);
	CHECK_MSG(n2 >= 20 && n2 <= 70, "%u samples", n2);
	CHECK_MSG(f2 > l1, "second batch overlaps the first");
	/* Output was resumed: more arrives. */
	busy_ms(5);
	CHECK(pev_ring_read_init(r) > 0);
	CHECK_OK(pev_ring_read_done(r));

	busy_ms(300);	/* ~1500 samples: wraps the ring ~3 times */
	unsigned n3 = read_times(r, &f1, &l1);
	printf("backward: %u, %u, then %u records after wrapping (lost %" PRIu64 " bytes)\n",
	       n1, n2, n3, pev_ring_lost_bytes(r));
	CHECK_MSG(n3 >= 8192 / 16 - 2 && n3 <= 8192 / 16, "%u records in a full 8 KiB ring", n3);
	CHECK(pev_ring_lost_bytes(r) > 0);
	pev_ring_free(r);
	close(fd);

	/* Forward, read-only: the kernel ignores data_tail and overwrites. */
	fd = open_clock(&a, 200000, PERF_SAMPLE_TIME);
	CHECK(fd >= 0);
	r = map_ring(fd, 2, PEV_RING_FORWARD_OVERWRITE);
	busy_ms(10);
	unsigned n4 = read_times(r, &f1, &l1);
	CHECK(n4 >= 20);
	busy_ms(300);
	CHECK_EQ_INT(pev_ring_read_init(r), -EOVERFLOW);
	CHECK(pev_ring_lost_bytes(r) > 8192);
	CHECK(strstr(pev_ring_reason(r), "overran") != NULL);
	busy_ms(5);
	unsigned n5 = read_times(r, &f2, &l2);
	CHECK(n5 >= 5);
	CHECK(f2 > l1);
	pev_ring_free(r);
	close(fd);
	return t_done();
}
