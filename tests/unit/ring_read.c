// SPDX-License-Identifier: GPL-2.0-only
/* The forward read protocol on a constructed ring: records wrapping at
 * every byte offset come back contiguous and identical, data_tail moves
 * exactly, lying headers are errors and never over-read, spans. */
#include <perfev/perfev.h>
#include "testutil.h"
#include "ring_fake.h"

/* One record straddling the end of the data area at every byte offset,
 * with free-running positions far from 0 and across the u64 wrap. */
static void wrap_every_offset(uint64_t base)
{
	enum { L = 48 };
	unsigned char rec[L];
	struct fake f;

	fake_init(&f, 256, 1);
	for (uint64_t k = 1; k <= L + 8; k++) {
		uint64_t tail = base - (base & (f.size - 1)) + f.size - k;
		memset(f.data, 0xee, f.size);
		fake_record(rec, PERF_RECORD_SAMPLE, L, k);
		fake_put(&f, tail, rec, L);
		f.pc->data_tail = tail;
		f.pc->data_head = tail + L;
		struct pev_ring *r = fake_ring(&f, PEV_RING_FORWARD);
		CHECK(r != NULL);
		if (!r)
			break;
		const struct perf_event_header *h = NULL;
		CHECK_EQ_INT(pev_ring_read_init(r), L);
		CHECK_EQ_INT(pev_ring_read_next(r, &h), 1);
		CHECK_MSG(h && memcmp(h, rec, L) == 0, "record straddling at k=%" PRIu64 " differs", k);
		CHECK_MSG(h && ((uintptr_t)h & 7) == 0, "record at k=%" PRIu64 " not aligned", k);
		CHECK_EQ_INT(pev_ring_read_next(r, &h), 0);
		CHECK_OK(pev_ring_read_done(r));
		CHECK_EQ_U64(f.pc->data_tail, tail + L);
		CHECK_EQ_INT(pev_ring_read_init(r), 0);
		pev_ring_free(r);
	}
	fake_free(&f);
}

/* Many records of varied sizes, consumed in two batches; tail exact. */
static void batches(void)
{
	struct fake f;
	unsigned char rec[200];
	uint64_t pos = 1000, sizes[20], starts[20];

	fake_init(&f, 1024, 0);	/* layout from the fallback */
	f.pc->data_tail = pos;
	for (int i = 0; i < 20; i++) {
		sizes[i] = 16 + 8 * (uint64_t)(i % 7);
		starts[i] = pos;
		fake_record(rec, PERF_RECORD_SAMPLE, (uint16_t)sizes[i], (uint64_t)i);
		fake_put(&f, pos, rec, sizes[i]);
		pos += sizes[i];
	}
	f.pc->data_head = pos;
	struct pev_ring *r = fake_ring(&f, PEV_RING_FORWARD);
	CHECK(r && pev_ring_data_size(r) == 1024);
	const struct perf_event_header *h;
	CHECK_EQ_INT(pev_ring_read_init(r), (int)(pos - 1000));
	CHECK_EQ_INT(pev_ring_read_init(r), -EBUSY);
	for (int i = 0; i < 5; i++) {
		CHECK_EQ_INT(pev_ring_read_next(r, &h), 1);
		uint64_t seq;
		memcpy(&seq, (const char *)h + 8, 8);
		CHECK_EQ_U64(seq, i);
		CHECK_EQ_U64(h->size, sizes[i]);
	}
	CHECK_OK(pev_ring_read_done(r));
	CHECK_EQ_U64(f.pc->data_tail, starts[5]);
	CHECK_EQ_INT(pev_ring_read_done(r), -EINVAL);
	CHECK_EQ_INT(pev_ring_read_init(r), (int)(pos - starts[5]));
	int n = 5;
	while (pev_ring_read_next(r, &h) > 0) {
		uint64_t seq;
		memcpy(&seq, (const char *)h + 8, 8);
		CHECK_EQ_U64(seq, n);
		n++;
	}
	CHECK_EQ_INT(n, 20);
	CHECK_OK(pev_ring_read_done(r));
	CHECK_EQ_U64(f.pc->data_tail, pos);
	CHECK_EQ_U64(pev_ring_lost_bytes(r), 0);
	pev_ring_free(r);
	fake_free(&f);
}

/* A header that lies: each case is an error, the batch is dropped, tail
 * moves to the head so the ring cannot jam. */
static void lying(uint16_t size, uint64_t pending, const char *what)
{
	struct fake f;
	fake_init(&f, 256, 1);
	struct perf_event_header hd = { .type = PERF_RECORD_SAMPLE, .size = size };
	uint64_t tail = 256 - 4;	/* the header itself straddles */
	fake_put(&f, tail, &hd, sizeof(hd));
	f.pc->data_tail = tail;
	f.pc->data_head = tail + pending;
	struct pev_ring *r = fake_ring(&f, PEV_RING_FORWARD);
	const struct perf_event_header *h = (void *)1;
	CHECK_EQ_INT(pev_ring_read_init(r), (int)pending);
	CHECK_MSG(pev_ring_read_next(r, &h) == -EBADMSG, "%s: not refused", what);
	CHECK(h == NULL);
	CHECK(strlen(pev_ring_reason(r)) > 0);
	CHECK_EQ_INT(pev_ring_read_next(r, &h), 0);
	CHECK_OK(pev_ring_read_done(r));
	CHECK_EQ_U64(f.pc->data_tail, tail + pending);
	CHECK_EQ_U64(pev_ring_lost_bytes(r), pending);
	pev_ring_free(r);
	fake_free(&f);
}

static void spans(void)
{
	struct fake f;
	unsigned char img[512], rec[64];
	uint64_t tail = 3 * 256 + 200, pos = tail;
	size_t n = 0;

	fake_init(&f, 256, 1);
	for (int i = 0; i < 3; i++) {
		fake_record(rec, PERF_RECORD_MMAP2, 40, (uint64_t)i);
		fake_put(&f, pos, rec, 40);
		memcpy(img + n, rec, 40);
		n += 40;
		pos += 40;
	}
	f.pc->data_tail = tail;
	f.pc->data_head = pos;
	struct pev_ring *r = fake_ring(&f, PEV_RING_FORWARD);
	struct pev_ring_span sp[2];
	CHECK_EQ_INT(pev_ring_read_init(r), 120);
	CHECK_EQ_INT(pev_ring_read_spans(r, sp), 2);
	CHECK_EQ_U64(sp[0].size, 56);
	CHECK_EQ_U64(sp[1].size, 64);
	CHECK(memcmp(sp[0].data, img, 56) == 0 && memcmp(sp[1].data, img + 56, 64) == 0);
	CHECK_EQ_INT(pev_ring_read_spans(r, sp), 0);
	CHECK_OK(pev_ring_read_done(r));
	CHECK_EQ_U64(f.pc->data_tail, pos);
	pev_ring_free(r);
	fake_free(&f);
}

/* The kernel ignores data_tail on a read-only forward ring: an overrun is
 * detected and skipped; our tail is never written. */
static void forward_overwrite(void)
{
	struct fake f;
	fake_init(&f, 256, 1);
	f.pc->data_head = 1000;
	struct pev_ring *r = fake_ring(&f, PEV_RING_FORWARD_OVERWRITE);
	CHECK_EQ_INT(pev_ring_read_init(r), -EOVERFLOW);
	CHECK_EQ_U64(pev_ring_lost_bytes(r), 1000);
	CHECK_EQ_U64(f.pc->data_tail, 0);
	unsigned char rec[32];
	fake_record(rec, PERF_RECORD_SAMPLE, 32, 7);
	fake_put(&f, 1000, rec, 32);
	f.pc->data_head = 1032;
	const struct perf_event_header *h;
	CHECK_EQ_INT(pev_ring_read_init(r), 32);
	CHECK_EQ_INT(pev_ring_read_next(r, &h), 1);
	CHECK(memcmp(h, rec, 32) == 0);
	CHECK_OK(pev_ring_read_done(r));
	CHECK_EQ_U64(f.pc->data_tail, 0);
	CHECK_EQ_INT(pev_ring_read_init(r), 0);
	pev_ring_free(r);
	fake_free(&f);
}

static void layouts(void)
{
	struct fake f;
	fake_init(&f, 3 * 4096, 0);	/* not a power of two */
	errno = 0;
	CHECK(fake_ring(&f, PEV_RING_FORWARD) == NULL && errno == EINVAL);
	f.pc->data_offset = FAKE_PAGE;
	f.pc->data_size = 8192;		/* fits, a power of two */
	struct pev_ring *r = fake_ring(&f, PEV_RING_FORWARD);
	CHECK(r && pev_ring_data_size(r) == 8192 && pev_ring_data_pages(r) == 2);
	pev_ring_free(r);
	f.pc->data_size = 16384;	/* larger than the memory */
	CHECK(fake_ring(&f, PEV_RING_FORWARD) == NULL);
	fake_free(&f);

	struct pev_ring_opts o = { .size = sizeof(o), .data_pages = 3 };
	struct pev_ring_report rep = { .size = sizeof(rep) };
	errno = 0;
	CHECK(pev_ring_new(-1, &o, &rep) == NULL);
	CHECK_EQ_INT(errno, EINVAL);
	CHECK_EQ_INT(rep.error, EINVAL);
	CHECK_MSG(strstr(rep.reason, "power-of-two") != NULL, "reason: %s", rep.reason);
	pev_ring_free(NULL);
	CHECK_EQ_INT(pev_ring_read_init(NULL), -EINVAL);
}

int main(void)
{
	wrap_every_offset(0);
	wrap_every_offset(1ull << 40);
	wrap_every_offset(0);
	wrap_every_offset(UINT64_MAX - 100);	/* positions cross 2^64 */
	batches();
	lying(0, 48, "size 0");
	lying(4, 48, "size < 8");
	lying(200, 48, "size > pending");
	lying(65000, 256, "size > data_size");
	lying(8, 4, "fewer than 8 bytes pending");
	spans();
	forward_overwrite();
	layouts();
	return t_done();
}
