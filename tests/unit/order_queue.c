// SPDX-License-Identifier: GPL-2.0-only
/* Time ordering by FINISHED_ROUND windows: the queue alone, and the
 * reader's time-ordered iteration over records from two "rings". */
#include "../testutil.h"
#include "data_util.h"

static void pop_all(struct pev_order *q, uint64_t *out, size_t *n)
{
	struct pev_order_item it;

	while (pev_order_pop(q, &it))
		out[(*n)++] = it.time;
}

static void test_queue(void)
{
	struct pev_order *q = pev_order_new();
	uint64_t got[32];
	size_t n = 0;
	int tag[8];

	CHECK(q != NULL);
	CHECK_EQ_INT(pev_order_push(q, 0, tag, NULL), -ETIME);
	CHECK_EQ_INT(pev_order_push(q, UINT64_MAX, tag, NULL), -ETIME);
	/* round 1: ring A 10 20, ring B 15 */
	CHECK_OK(pev_order_push(q, 10, tag + 0, NULL));
	CHECK_OK(pev_order_push(q, 20, tag + 1, NULL));
	CHECK_OK(pev_order_push(q, 15, tag + 2, NULL));
	pev_order_round(q);
	pop_all(q, got, &n);
	CHECK_EQ_U64(n, 0);		/* the first round releases nothing */
	/* round 2: A 30, B 25 35 */
	CHECK_OK(pev_order_push(q, 30, tag + 3, NULL));
	CHECK_OK(pev_order_push(q, 25, tag + 4, NULL));
	CHECK_OK(pev_order_push(q, 35, tag + 5, NULL));
	pev_order_round(q);
	pop_all(q, got, &n);	/* up to round 1's max, 20 */
	CHECK_EQ_U64(n, 3);
	CHECK_EQ_U64(got[0], 10);
	CHECK_EQ_U64(got[1], 15);
	CHECK_EQ_U64(got[2], 20);
	CHECK_EQ_U64(pev_order_queued(q), 3);
	/* older than what was released: counted, still delivered */
	CHECK_OK(pev_order_push(q, 12, tag + 6, NULL));
	CHECK_EQ_U64(pev_order_nr_out_of_order(q), 1);
	CHECK_OK(pev_order_push(q, 25, tag + 7, NULL));	/* tie: push order */
	pev_order_final(q);
	struct pev_order_item it;
	uint64_t want[] = { 12, 25, 25, 30, 35 };
	const void *want_rec[] = { tag + 6, tag + 4, tag + 7, tag + 3, tag + 5 };

	for (size_t i = 0; i < 5; i++) {
		CHECK(pev_order_pop(q, &it));
		CHECK_EQ_U64(it.time, want[i]);
		CHECK(it.rec == want_rec[i]);
	}
	CHECK(!pev_order_pop(q, &it));
	pev_order_free(q);
	pev_order_free(NULL);
}

/* Many records through the heap: sorted output. */
static void test_many(void)
{
	struct pev_order *q = pev_order_new();
	struct pev_order_item it;
	uint64_t last = 0, seed = 1;
	size_t n = 0;

	for (int i = 0; i < 5000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		CHECK_OK(pev_order_push(q, 1 + (seed >> 40), NULL, NULL));
	}
	pev_order_final(q);
	while (pev_order_pop(q, &it)) {
		CHECK(it.time >= last);
		last = it.time;
		n++;
	}
	CHECK_EQ_U64(n, 5000);
	pev_order_free(q);
}

/* Through the reader: two rings interleaved across rounds, a COMM with
 * time 0 delivered at once, an out-of-order sample counted, and the same
 * from COMPRESSED records (views into decompressed buffers kept alive). */
static void test_reader(int level)
{
	struct perf_event_attr a;
	uint64_t id = 7;
	unsigned char buf[256] __attribute__((aligned(8)));
	int fd = du_memfd();
	struct pev_data_writer_opts o = { .size = sizeof(o), .compress_level = level };
	struct pev_data_writer *w = pev_data_writer_new(fd, &o);
	static const uint64_t rounds[3][4] = {
		{ 10, 20, 15, 0 }, { 30, 25, 35, 0 }, { 12, 40, 0, 0 },
	};

	du_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	CHECK_OK(pev_data_writer_add_attr(w, &a, &id, 1, "cpu-clock"));
	CHECK_OK(pev_data_writer_start(w));
	for (int r = 0; r < 3; r++) {
		for (int i = 0; rounds[r][i]; i++) {
			size_t n = du_sample(buf, 7, rounds[r][i], 1, 1,
					     rounds[r][i], 0, 1);

			CHECK_OK(pev_data_writer_write(w, buf, n));
		}
		if (r == 1) {	/* a COMM without time, in the middle */
			size_t n = du_comm(buf, &a, 7, 1, 1, "late", 0);

			CHECK_OK(pev_data_writer_write(w, buf, n));
		}
		CHECK_OK(pev_data_writer_finished_round(w));
	}
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);

	char err[256];
	struct pev_data *d = pev_data_open_fd(fd, NULL, err, sizeof(err));
	struct pev_data_event ev;
	/* 0 = FINISHED_ROUND, 1 = COMM, else a sample's time.  12 arrives
	 * after 20 was released: out of order, and below the release point
	 * so it comes out at once. */
	uint64_t want[] = { 0, 1, 0, 10, 15, 20, 12, 0, 25, 30, 35, 40 };
	size_t k = 0;
	int r;

	if (!d)
		T_FATAL("open: %s", err);
	while ((r = pev_data_next_ordered(d, &ev)) > 0) {
		uint64_t v = ev.rec.type == PEV_RECORD_FINISHED_ROUND ? 0 :
			ev.rec.type == PERF_RECORD_COMM ? 1 : ev.rec.u.sample.time;

		CHECK_EQ_INT(ev.decode_error, 0);
		if (k < sizeof(want) / 8)
			CHECK_EQ_U64(v, want[k]);
		if (v > 1)
			CHECK_EQ_U64(ev.rec.u.sample.ip, v);
		k++;
	}
	CHECK_EQ_INT(r, 0);
	CHECK_EQ_U64(k, sizeof(want) / 8);
	CHECK_EQ_U64(pev_data_nr_out_of_order(d), 1);
	pev_data_close(d);
	close(fd);
}

int main(void)
{
	test_queue();
	test_many();
	test_reader(0);
	test_reader(1);
	return t_done();
}
