// SPDX-License-Identifier: GPL-2.0-only
/* Two events on one ring (SET_OUTPUT): both deliver, told apart by
 * PERF_SAMPLE_IDENTIFIER; a mismatched event is refused with a reason. */
#include <perfev/perfev.h>
#include "ring_live.h"

int main(void)
{
	struct perf_event_attr a, b;
	int fa = open_clock(&a, 200000, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP);
	skip_if_cannot_open(fa, &a, 0, -1, "cpu-clock");
	memset(&b, 0, sizeof(b));
	b = a;
	b.config = PERF_COUNT_SW_TASK_CLOCK;
	int fb = pev_sys_open(&b, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK(fb >= 0);
	struct pev_ring *r = map_ring(fa, 8, PEV_RING_FORWARD);
	CHECK_OK(pev_ring_add_fd(r, fb));
	uint64_t ida = 0, idb = 0;
	CHECK_OK(pev_ioc_id(fa, &ida));
	CHECK_OK(pev_ioc_id(fb, &idb));
	CHECK(ida != idb);

	/* A write_backward event cannot share a forward ring. */
	struct perf_event_attr c = a;
	c.write_backward = 1;
	int fc = pev_sys_open(&c, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK(fc >= 0);
	CHECK_EQ_INT(pev_ring_add_fd(r, fc), -EINVAL);
	CHECK(strstr(pev_ring_reason(r), "write_backward") != NULL);
	close(fc);

	busy_ms(30);
	CHECK_OK(pev_ioc_disable(fa, false));
	CHECK_OK(pev_ioc_disable(fb, false));
	unsigned na = 0, nb = 0, unknown = 0;
	const struct perf_event_header *h;
	CHECK(pev_ring_read_init(r) > 0);
	while (pev_ring_read_next(r, &h) > 0) {
		CHECK(header_sane(h));
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		uint64_t id;
		CHECK_EQ_INT(h->size, 8 + 16);
		memcpy(&id, h + 1, 8);	/* IDENTIFIER comes first */
		if (id == ida)
			na++;
		else if (id == idb)
			nb++;
		else
			unknown++;
	}
	CHECK_OK(pev_ring_read_done(r));
	printf("cpu-clock %u samples, task-clock %u samples\n", na, nb);
	CHECK(na >= 30 && nb >= 30);
	CHECK_EQ_INT(unknown, 0);
	pev_ring_free(r);
	close(fb);
	close(fa);
	return t_done();
}
