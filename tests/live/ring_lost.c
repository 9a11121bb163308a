// SPDX-License-Identifier: GPL-2.0-only
/* A 1-page ring, a fast event, no reader: the kernel drops records and,
 * once there is room again, writes PERF_RECORD_LOST with a count > 0. */
#include <perfev/perfev.h>
#include "ring_live.h"

static unsigned drain(struct pev_ring *r, uint64_t *lost)
{
	const struct perf_event_header *h;
	unsigned n = 0;
	if (pev_ring_read_init(r) <= 0)
		return 0;
	while (pev_ring_read_next(r, &h) > 0) {
		CHECK(header_sane(h));
		if (h->type == PERF_RECORD_LOST) {
			uint64_t body[2];	/* {u64 id; u64 lost} */
			CHECK(h->size >= 8 + sizeof(body));
			memcpy(body, h + 1, sizeof(body));
			*lost += body[1];
			n++;
		}
	}
	CHECK_OK(pev_ring_read_done(r));
	return n;
}

int main(void)
{
	struct perf_event_attr a;
	int fd = open_clock(&a, 20000, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD);
	skip_if_cannot_open(fd, &a, 0, -1, "cpu-clock");
	struct pev_ring *r = map_ring(fd, 1, PEV_RING_FORWARD);
	CHECK_EQ_INT(pev_ring_data_pages(r), 1);
	busy_ms(50);	/* ~2500 samples x 48 bytes: far more than 4 KiB */
	uint64_t lost = 0;
	unsigned n = drain(r, &lost);
	busy_ms(5);	/* room again: the kernel reports what it dropped */
	CHECK_OK(pev_ioc_disable(fd, false));
	n += drain(r, &lost);
	printf("%u LOST records, %" PRIu64 " samples lost\n", n, lost);
	CHECK(n >= 1);
	CHECK(lost > 0);
	pev_ring_free(r);
	close(fd);
	return t_done();
}
