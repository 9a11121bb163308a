// SPDX-License-Identifier: GPL-2.0-only
/* Backward (write_backward) reading on a constructed buffer: records come
 * out oldest first, a torn oldest record is skipped, a zero header ends
 * the data, later batches give only what is new. */
#include <perfev/perfev.h>
#include "testutil.h"
#include "ring_fake.h"

struct bw {
	struct fake f;
	uint64_t head;
	uint64_t seq;
	uint16_t len[4096];		/* by seq */
	unsigned char img[4096][64];
};

/* The kernel's backward write: head -= size, then the record at head. */
static void bw_write(struct bw *b)
{
	uint16_t len = (uint16_t)(16 + 8 * (b->seq % 5));
	fake_record(b->img[b->seq], PERF_RECORD_SAMPLE, len, b->seq);
	b->len[b->seq] = len;
	b->head -= len;
	fake_put(&b->f, b->head, b->img[b->seq], len);
	b->f.pc->data_head = b->head;
	b->seq++;
}

/* Read one batch; expect seqs first..last (oldest first). */
static void expect(struct pev_ring *r, struct bw *b, uint64_t first, uint64_t last)
{
	const struct perf_event_header *h;
	uint64_t want = first, bytes = 0;
	for (uint64_t s = first; s <= last; s++)
		bytes += b->len[s];
	CHECK_EQ_INT(pev_ring_read_init(r), (int)bytes);
	while (pev_ring_read_next(r, &h) > 0) {
		uint64_t seq;
		memcpy(&seq, (const char *)h + 8, 8);
		CHECK_EQ_U64(seq, want);
		CHECK_MSG(seq < b->seq && memcmp(h, b->img[seq], b->len[seq]) == 0,
			  "record %" PRIu64 " differs", seq);
		want++;
	}
	CHECK_EQ_U64(want, last + 1);
	CHECK_OK(pev_ring_read_done(r));
}

int main(void)
{
	static struct bw b;
	fake_init(&b.f, 512, 1);
	struct pev_ring *r = fake_ring(&b.f, PEV_RING_BACKWARD);
	CHECK(r != NULL);
	if (!r)
		return 1;

	/* Empty: head 0, nothing. */
	CHECK_EQ_INT(pev_ring_read_init(r), 0);

	/* A few records, not full: the walk ends at the zero header. */
	for (int i = 0; i < 5; i++)
		bw_write(&b);
	expect(r, &b, 0, 4);
	CHECK_EQ_INT(pev_ring_read_init(r), 0);

	/* Three more: only those. */
	for (int i = 0; i < 3; i++)
		bw_write(&b);
	expect(r, &b, 5, 7);

	/* Wrap the buffer several times: the newest records that fit whole
	 * in one buffer come out; the torn oldest one is skipped. */
	for (int i = 0; i < 100; i++)
		bw_write(&b);
	uint64_t first = b.seq, room = 0;
	while (first > 0 && room + b.len[first - 1] <= b.f.size) {
		room += b.len[first - 1];
		first--;
	}
	CHECK(room < b.f.size || first > 8);
	expect(r, &b, first, b.seq - 1);
	CHECK(pev_ring_lost_bytes(r) > 0);

	/* Partial consumption: take the 2 oldest of 6 new, then the rest. */
	for (int i = 0; i < 6; i++)
		bw_write(&b);
	const struct perf_event_header *h;
	uint64_t base = b.seq - 6, seq;
	CHECK(pev_ring_read_init(r) > 0);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ_INT(pev_ring_read_next(r, &h), 1);
		memcpy(&seq, (const char *)h + 8, 8);
		CHECK_EQ_U64(seq, base + (uint64_t)i);
	}
	CHECK_OK(pev_ring_read_done(r));
	expect(r, &b, base + 2, b.seq - 1);

	/* Spans: memory order from head (newest first), verbatim. */
	bw_write(&b);
	bw_write(&b);
	struct pev_ring_span sp[2];
	CHECK(pev_ring_read_init(r) > 0);
	int n = pev_ring_read_spans(r, sp);
	CHECK(n >= 1);
	size_t tot = 0;
	unsigned char cat[256];
	for (int i = 0; i < n; i++) {
		memcpy(cat + tot, sp[i].data, sp[i].size);
		tot += sp[i].size;
	}
	CHECK_EQ_U64(tot, b.len[b.seq - 1] + b.len[b.seq - 2]);
	CHECK(memcmp(cat, b.img[b.seq - 1], b.len[b.seq - 1]) == 0);
	CHECK_EQ_INT(pev_ring_read_next(r, &h), 0);
	CHECK_OK(pev_ring_read_done(r));
	CHECK_EQ_INT(pev_ring_read_init(r), 0);

	/* A corrupt header (size 3) inside the new data is an error. */
	bw_write(&b);
	struct perf_event_header bad = { .type = 9, .size = 3 };
	fake_put(&b.f, b.head, &bad, sizeof(bad));
	CHECK_EQ_INT(pev_ring_read_init(r), -EBADMSG);
	CHECK_EQ_INT(pev_ring_read_init(r), 0);
	pev_ring_free(r);
	fake_free(&b.f);
	return t_done();
}
