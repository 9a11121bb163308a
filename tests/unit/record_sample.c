/* PERF_RECORD_SAMPLE: every field alone and all together, every
 * read_format layout, callchain segments, branch stacks, registers, user
 * stacks, several events told apart, and malformed samples. */
#include "record_build.h"

#define ALL_SAMPLE_BITS ((1ULL << 25) - 1)
#define REGS_U_MASK ((1ULL << 0) | (1ULL << 3) | (1ULL << 8))
#define REGS_I_MASK ((1ULL << 1) | (1ULL << 2) | (1ULL << 10))

static struct rb b;
static struct pev_record rec;

static uint64_t br_flags(unsigned i)
{
	/* mispred, cycles 100+i, type PERF_BR_CALL, spec 2, priv 1 */
	return 1ULL | ((uint64_t)(100 + i) << 4) | ((uint64_t)PERF_BR_CALL << 20) |
	       (2ULL << 24) | (1ULL << 30);
}

static void put_read(struct rb *w, uint64_t fmt, uint64_t nr)
{
	if (fmt & PERF_FORMAT_GROUP) {
		rb_u64(w, nr);
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) rb_u64(w, 777);
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) rb_u64(w, 666);
		for (uint64_t i = 0; i < nr; i++) {
			rb_u64(w, 1000 + i);
			if (fmt & PERF_FORMAT_ID) rb_u64(w, 500 + i);
			if (fmt & PERF_FORMAT_LOST) rb_u64(w, 10 + i);
		}
		return;
	}
	rb_u64(w, 1000);
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) rb_u64(w, 777);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) rb_u64(w, 666);
	if (fmt & PERF_FORMAT_ID) rb_u64(w, 500);
	if (fmt & PERF_FORMAT_LOST) rb_u64(w, 10);
}

static void check_read(const struct pev_readfmt *r, uint64_t fmt, uint64_t nr)
{
	struct pev_readfmt_entry e;
	uint64_t n = (fmt & PERF_FORMAT_GROUP) ? nr : 1;

	CHECK_EQ_U64(r->format, fmt);
	CHECK_EQ_U64(r->nr, n);
	CHECK_EQ_U64(r->time_enabled, (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) ? 777 : 0);
	CHECK_EQ_U64(r->time_running, (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) ? 666 : 0);
	for (uint64_t i = 0; i < n; i++) {
		CHECK_OK(pev_readfmt_entry(r, i, &e));
		CHECK_EQ_U64(e.value, 1000 + i);
		CHECK_EQ_U64(e.id, (fmt & PERF_FORMAT_ID) ? 500 + i : 0);
		CHECK_EQ_U64(e.lost, (fmt & PERF_FORMAT_LOST) ? 10 + i : 0);
	}
	CHECK_EQ_INT(pev_readfmt_entry(r, n, &e), -ERANGE);
	if (n)
		CHECK_EQ_U64(r->first.value, 1000);
}

/* Writes a sample with the test values for every field of a's layout. */
static size_t put_sample(struct rb *w, const struct perf_event_attr *a)
{
	uint64_t st = a->sample_type;

	rb_begin(w, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	if (st & PERF_SAMPLE_IDENTIFIER) rb_u64(w, 0x1d);
	if (st & PERF_SAMPLE_IP) rb_u64(w, 0x401234);
	if (st & PERF_SAMPLE_TID) { rb_u32(w, 7); rb_u32(w, 8); }
	if (st & PERF_SAMPLE_TIME) rb_u64(w, 123456789);
	if (st & PERF_SAMPLE_ADDR) rb_u64(w, 0xdead000);
	if (st & PERF_SAMPLE_ID) rb_u64(w, 0x1d);
	if (st & PERF_SAMPLE_STREAM_ID) rb_u64(w, 0x5e);
	if (st & PERF_SAMPLE_CPU) { rb_u32(w, 2); rb_u32(w, 0); }
	if (st & PERF_SAMPLE_PERIOD) rb_u64(w, 4000);
	if (st & PERF_SAMPLE_READ) put_read(w, a->read_format, 3);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		rb_u64(w, 5);
		rb_u64(w, PERF_CONTEXT_KERNEL);
		rb_u64(w, 0xffffffff81000010ULL);
		rb_u64(w, 0xffffffff81000020ULL);
		rb_u64(w, PERF_CONTEXT_USER);
		rb_u64(w, 0x401000);
	}
	if (st & PERF_SAMPLE_RAW) {
		rb_u32(w, 12);
		rb_raw(w, "rawdata12345", 12);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		rb_u64(w, 2);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			rb_u64(w, 5);
		for (unsigned i = 0; i < 2; i++) {
			rb_u64(w, 0x1000 + i);
			rb_u64(w, 0x2000 + i);
			rb_u64(w, br_flags(i));
		}
		if (a->branch_sample_type & PEV_SAMPLE_BRANCH_COUNTERS) {
			rb_u64(w, 0x31);
			rb_u64(w, 0x32);
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		rb_u64(w, PERF_SAMPLE_REGS_ABI_64);
		rb_u64(w, 100); rb_u64(w, 103); rb_u64(w, 108);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		rb_u64(w, 16);
		rb_raw(w, "stackstackstack!", 16);
		rb_u64(w, 12);
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		rb_u64(w, 0x0003000200000001ULL);
	if (st & PERF_SAMPLE_DATA_SRC) rb_u64(w, 0x68100142);
	if (st & PERF_SAMPLE_TRANSACTION) rb_u64(w, 0x0000003f00000016ULL);
	if (st & PERF_SAMPLE_REGS_INTR) {
		rb_u64(w, PERF_SAMPLE_REGS_ABI_64);
		rb_u64(w, 201); rb_u64(w, 202); rb_u64(w, 210);
	}
	if (st & PERF_SAMPLE_PHYS_ADDR) rb_u64(w, 0x12345000);
	if (st & PERF_SAMPLE_CGROUP) rb_u64(w, 0xc6);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE) rb_u64(w, 4096);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE) rb_u64(w, 2 << 20);
	if (st & PERF_SAMPLE_AUX) {
		rb_u64(w, 8);
		rb_raw(w, "auxdata!", 8);
	}
	return rb_end(w);
}

static void check_sample(const struct pev_record *r, const struct perf_event_attr *a)
{
	const struct pev_sample *s = &r->u.sample;
	uint64_t st = a->sample_type;

	CHECK_EQ_U64(r->type, PERF_RECORD_SAMPLE);
	CHECK_EQ_U64(s->fields, st);
	CHECK(r->has_sample_id);
	CHECK_EQ_U64(s->id, (st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) ? 0x1d : 0);
	CHECK_EQ_U64(s->ip, (st & PERF_SAMPLE_IP) ? 0x401234 : 0);
	CHECK_EQ_U64(s->pid, (st & PERF_SAMPLE_TID) ? 7 : 0);
	CHECK_EQ_U64(s->tid, (st & PERF_SAMPLE_TID) ? 8 : 0);
	CHECK_EQ_U64(r->sample_id.tid, s->tid);
	CHECK_EQ_U64(s->time, (st & PERF_SAMPLE_TIME) ? 123456789 : 0);
	CHECK_EQ_U64(r->sample_id.time, s->time);
	CHECK_EQ_U64(s->addr, (st & PERF_SAMPLE_ADDR) ? 0xdead000 : 0);
	CHECK_EQ_U64(s->stream_id, (st & PERF_SAMPLE_STREAM_ID) ? 0x5e : 0);
	CHECK_EQ_U64(s->cpu, (st & PERF_SAMPLE_CPU) ? 2 : 0);
	CHECK_EQ_U64(s->period, (st & PERF_SAMPLE_PERIOD) ? 4000 : 0);
	if (st & PERF_SAMPLE_READ)
		check_read(&s->read, a->read_format, 3);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		CHECK_EQ_U64(s->callchain.nr, 5);
		CHECK_EQ_U64(s->callchain.ips[4], 0x401000);
	} else {
		CHECK(s->callchain.ips == NULL && s->callchain.nr == 0);
	}
	if (st & PERF_SAMPLE_RAW) {
		CHECK_EQ_U64(s->raw.size, 12);
		CHECK(!memcmp(s->raw.data, "rawdata12345", 12));
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		const struct pev_branch_stack *bs = &s->branch_stack;
		bool hw = a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX;
		CHECK_EQ_U64(bs->nr, 2);
		CHECK_EQ_INT(bs->has_hw_idx, hw);
		CHECK_EQ_U64(bs->hw_idx, hw ? 5 : 0);
		for (unsigned i = 0; i < 2; i++) {
			CHECK_EQ_U64(bs->entries[i].from, 0x1000 + i);
			CHECK_EQ_U64(bs->entries[i].to, 0x2000 + i);
			struct pev_branch_flags f = pev_branch_flags_decode(bs->entries[i].flags);
			CHECK(f.mispred && !f.predicted && !f.in_tx && !f.abort);
			CHECK_EQ_U64(f.cycles, 100 + i);
			CHECK_EQ_U64(f.type, PERF_BR_CALL);
			CHECK_EQ_U64(f.spec, 2);
			CHECK_EQ_U64(f.new_type, 0);
			CHECK_EQ_U64(f.priv, 1);
		}
		if (a->branch_sample_type & PEV_SAMPLE_BRANCH_COUNTERS) {
			CHECK(bs->counters && bs->counters[1] == 0x32);
		} else {
			CHECK(bs->counters == NULL);
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		uint64_t v = 0;
		CHECK_EQ_U64(s->regs_user.abi, PERF_SAMPLE_REGS_ABI_64);
		CHECK_EQ_U64(s->regs_user.nr, 3);
		CHECK_OK(pev_regs_get(&s->regs_user, 8, &v));
		CHECK_EQ_U64(v, 108);
		CHECK_OK(pev_regs_get(&s->regs_user, 0, &v));
		CHECK_EQ_U64(v, 100);
		CHECK_EQ_INT(pev_regs_get(&s->regs_user, 1, &v), -ENOENT);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		CHECK_EQ_U64(s->stack_user.size, 16);
		CHECK_EQ_U64(s->stack_user.dyn_size, 12);
		CHECK(!memcmp(s->stack_user.data, "stackstackstack!", 16));
	}
	CHECK_EQ_U64(s->weight, (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) ?
		     0x0003000200000001ULL : 0);
	CHECK_EQ_U64(s->data_src, (st & PERF_SAMPLE_DATA_SRC) ? 0x68100142 : 0);
	CHECK_EQ_U64(s->transaction, (st & PERF_SAMPLE_TRANSACTION) ? 0x0000003f00000016ULL : 0);
	if (st & PERF_SAMPLE_REGS_INTR) {
		uint64_t v = 0;
		CHECK_EQ_U64(s->regs_intr.nr, 3);
		CHECK_OK(pev_regs_get(&s->regs_intr, 10, &v));
		CHECK_EQ_U64(v, 210);
		CHECK_OK(pev_regs_get(&s->regs_intr, 2, &v));
		CHECK_EQ_U64(v, 202);
	}
	CHECK_EQ_U64(s->phys_addr, (st & PERF_SAMPLE_PHYS_ADDR) ? 0x12345000 : 0);
	CHECK_EQ_U64(s->cgroup, (st & PERF_SAMPLE_CGROUP) ? 0xc6 : 0);
	CHECK_EQ_U64(s->data_page_size, (st & PERF_SAMPLE_DATA_PAGE_SIZE) ? 4096 : 0);
	CHECK_EQ_U64(s->code_page_size, (st & PERF_SAMPLE_CODE_PAGE_SIZE) ? 2 << 20 : 0);
	if (st & PERF_SAMPLE_AUX) {
		CHECK_EQ_U64(s->aux.size, 8);
		CHECK(!memcmp(s->aux.data, "auxdata!", 8));
	}
}

static struct perf_event_attr mkattr(uint64_t st)
{
	struct perf_event_attr a = { .size = sizeof(a), .sample_type = st };
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			PERF_FORMAT_TOTAL_TIME_ENABLED;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	a.sample_regs_user = REGS_U_MASK;
	a.sample_regs_intr = REGS_I_MASK;
	return a;
}

static void one(const struct perf_event_attr *a, const char *what)
{
	struct pev_decoder *d = pev_decoder_new();
	CHECK_EQ_INT(pev_decoder_add_attr(d, a, NULL, 0), 0);
	size_t n = put_sample(&b, a);
	int r = pev_record_decode(d, rb_p(&b), n, &rec);
	CHECK_MSG(r == 0, "%s: %d %s %s", what, r,
		  rec.error.field ? rec.error.field : "", rec.error.reason ? rec.error.reason : "");
	if (!r)
		check_sample(&rec, a);
	rb_check_cuts(d, rb_p(&b), n, what);
	pev_decoder_free(d);
}

static void t_fields(void)
{
	for (unsigned bit = 0; bit < 25; bit++) {
		struct perf_event_attr a = mkattr(1ULL << bit);
		one(&a, pev_sample_field_name(1ULL << bit));
	}
	struct perf_event_attr a = mkattr(ALL_SAMPLE_BITS);
	one(&a, "all fields");
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PEV_SAMPLE_BRANCH_COUNTERS;
	one(&a, "all fields, branch counters, no hw_idx");
	CHECK_STR(pev_sample_field_name(PERF_SAMPLE_WEIGHT_STRUCT), "WEIGHT_STRUCT");
	CHECK_STR(pev_sample_field_name(PERF_SAMPLE_IDENTIFIER), "IDENTIFIER");
	CHECK(pev_sample_field_name(3) == NULL);
	CHECK(pev_sample_field_name(1ULL << 40) == NULL);
}

static void t_read_formats(void)
{
	for (uint64_t f = 0; f < 16; f++) {
		uint64_t base = (f & 1 ? PERF_FORMAT_TOTAL_TIME_ENABLED : 0) |
				(f & 2 ? PERF_FORMAT_TOTAL_TIME_RUNNING : 0) |
				(f & 4 ? PERF_FORMAT_ID : 0) |
				(f & 8 ? PERF_FORMAT_LOST : 0);
		for (int g = 0; g < 2; g++) {
			for (uint64_t nr = 1; nr <= 3; nr += 2) {
				uint64_t fmt = base | (g ? PERF_FORMAT_GROUP : 0);
				struct perf_event_attr a = {
					.size = sizeof(a), .read_format = fmt,
					.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TIME };
				struct pev_decoder *d = pev_decoder_new();
				pev_decoder_add_attr(d, &a, NULL, 0);
				rb_begin(&b, PERF_RECORD_SAMPLE, 0);
				rb_u64(&b, 42);
				put_read(&b, fmt, nr);
				size_t n = rb_end(&b);
				CHECK_OK(pev_record_decode(d, rb_p(&b), n, &rec));
				CHECK_EQ_U64(rec.u.sample.time, 42);
				check_read(&rec.u.sample.read, fmt, nr);
				rb_check_cuts(d, rb_p(&b), n, "read_format");
				/* The same bytes as read() returns them. */
				struct pev_readfmt rf;
				CHECK_EQ_INT(pev_readfmt_parse(fmt, rb_p(&b) + 16, n - 16, &rf),
					     (long)(n - 16));
				check_read(&rf, fmt, nr);
				CHECK_EQ_INT(pev_readfmt_parse(fmt, rb_p(&b) + 16, n - 24, &rf),
					     -EBADMSG);
				pev_decoder_free(d);
			}
		}
	}
}

static void t_callchain_iter(void)
{
	const uint64_t ips[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL,
		0xffffffff81000020ULL, PERF_CONTEXT_USER, PERF_CONTEXT_USER,
		0x401000, 0x402000, 0x403000, PERF_CONTEXT_GUEST_KERNEL };
	struct pev_callchain cc = { .nr = 9, .ips = ips };
	struct pev_callchain_iter it;
	struct pev_callchain_segment seg;

	pev_callchain_iter_init(&it, &cc);
	CHECK(pev_callchain_iter_next(&it, &seg));
	CHECK_EQ_U64(seg.context, PERF_CONTEXT_KERNEL);
	CHECK_EQ_U64(seg.nr, 2);
	CHECK_EQ_U64(seg.ips[1], 0xffffffff81000020ULL);
	CHECK_STR(pev_callchain_context_name(seg.context), "kernel");
	CHECK(pev_callchain_iter_next(&it, &seg));
	CHECK_EQ_U64(seg.context, PERF_CONTEXT_USER);
	CHECK_EQ_U64(seg.nr, 3);
	CHECK_EQ_U64(seg.ips[0], 0x401000);
	CHECK_STR(pev_callchain_context_name(seg.context), "user");
	CHECK(!pev_callchain_iter_next(&it, &seg));

	const uint64_t plain[] = { 0x1, 0x2 };
	cc.nr = 2;
	cc.ips = plain;
	pev_callchain_iter_init(&it, &cc);
	CHECK(pev_callchain_iter_next(&it, &seg));
	CHECK_EQ_U64(seg.context, 0);
	CHECK_EQ_U64(seg.nr, 2);
	CHECK_STR(pev_callchain_context_name(0), "unknown");
	CHECK(!pev_callchain_iter_next(&it, &seg));
	CHECK(pev_callchain_is_context(PERF_CONTEXT_HV));
	CHECK(pev_callchain_is_context(PERF_CONTEXT_MAX));
	CHECK(!pev_callchain_is_context(0xffffffff81000000ULL));
	CHECK_STR(pev_callchain_context_name(PERF_CONTEXT_GUEST_USER), "guest-user");
	CHECK_STR(pev_callchain_context_name(PEV_CONTEXT_USER_DEFERRED), "user-deferred");
}

static void t_branch_flags(void)
{
	uint64_t v = (1ULL << 1) | (1ULL << 2) | (1ULL << 3) | (0xffffULL << 4) |
		     (15ULL << 20) | (3ULL << 24) | (7ULL << 26) | (7ULL << 30);
	struct pev_branch_flags f = pev_branch_flags_decode(v);
	CHECK(!f.mispred && f.predicted && f.in_tx && f.abort);
	CHECK_EQ_U64(f.cycles, 0xffff);
	CHECK_EQ_U64(f.type, 15);
	CHECK_EQ_U64(f.spec, 3);
	CHECK_EQ_U64(f.new_type, 7);
	CHECK_EQ_U64(f.priv, 7);
}

static void t_regs_stack_edge(void)
{
	struct perf_event_attr a = mkattr(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
					  PERF_SAMPLE_REGS_INTR);
	struct pev_decoder *d = pev_decoder_new();
	pev_decoder_add_attr(d, &a, NULL, 0);
	/* abi NONE: no registers follow; stack size 0: no dyn_size. */
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_NONE);
	rb_u64(&b, 0);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_32);
	rb_u64(&b, 1); rb_u64(&b, 2); rb_u64(&b, 3);
	size_t n = rb_end(&b);
	CHECK_OK(pev_record_decode(d, rb_p(&b), n, &rec));
	uint64_t v;
	CHECK_EQ_U64(rec.u.sample.regs_user.nr, 0);
	CHECK_EQ_INT(pev_regs_get(&rec.u.sample.regs_user, 0, &v), -ENOENT);
	CHECK_EQ_U64(rec.u.sample.stack_user.size, 0);
	CHECK(rec.u.sample.stack_user.data == NULL);
	CHECK_EQ_U64(rec.u.sample.regs_intr.abi, PERF_SAMPLE_REGS_ABI_32);
	CHECK_OK(pev_regs_get(&rec.u.sample.regs_intr, 10, &v));
	CHECK_EQ_U64(v, 3);
	rb_check_cuts(d, rb_p(&b), n, "regs/stack edge");

	/* The regs mask needs 3 u64s; only 2 remain. */
	b.len -= 8;
	n = rb_end(&b);
	CHECK_EQ_INT(pev_record_decode(d, rb_p(&b), n, &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "regs_intr.regs");
	CHECK_EQ_U64(rec.error.offset, 32);
	pev_decoder_free(d);
}

static void expect_bad(struct pev_decoder *d, const char *field)
{
	size_t n = rb_end(&b);
	int r = pev_record_decode(d, rb_p(&b), n, &rec);
	CHECK_MSG(r == -EBADMSG, "%s: got %d", field, r);
	CHECK_STR(rec.error.field, field);
}

static void t_lying(void)
{
	struct pev_decoder *d = pev_decoder_new();
	struct perf_event_attr a = mkattr(PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	pev_decoder_add_attr(d, &a, NULL, 0);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 1); rb_u64(&b, 1ULL << 61); rb_u64(&b, 5);
	expect_bad(d, "callchain.nr");
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 1); rb_u64(&b, 2); rb_u64(&b, 5);
	expect_bad(d, "callchain.nr");
	pev_decoder_free(d);

	d = pev_decoder_new();
	a = mkattr(PERF_SAMPLE_RAW);
	pev_decoder_add_attr(d, &a, NULL, 0);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u32(&b, 20); rb_u32(&b, 0);
	expect_bad(d, "raw.size");
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u32(&b, 0xfffffffc); rb_u32(&b, 0);
	expect_bad(d, "raw.size");
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u32(&b, 3); rb_u32(&b, 0);		/* 4 + 3 is not 8-aligned */
	expect_bad(d, "raw.size");
	pev_decoder_free(d);

	d = pev_decoder_new();
	a = mkattr(PERF_SAMPLE_BRANCH_STACK);
	pev_decoder_add_attr(d, &a, NULL, 0);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, UINT64_MAX / 3 + 1); rb_u64(&b, 0); rb_u64(&b, 0);
	expect_bad(d, "branch_stack.nr");
	pev_decoder_free(d);

	d = pev_decoder_new();
	a = mkattr(PERF_SAMPLE_STACK_USER);
	pev_decoder_add_attr(d, &a, NULL, 0);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 64); rb_u64(&b, 0);
	expect_bad(d, "stack_user.size");
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 8); rb_u64(&b, 0); rb_u64(&b, 9);
	expect_bad(d, "stack_user.dyn_size");
	pev_decoder_free(d);

	d = pev_decoder_new();
	a = mkattr(PERF_SAMPLE_READ);
	pev_decoder_add_attr(d, &a, NULL, 0);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 1ULL << 60); rb_u64(&b, 0); rb_u64(&b, 0);
	expect_bad(d, "read");
	pev_decoder_free(d);

	/* A sample with no attr at all. */
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0);
	CHECK_EQ_INT(pev_record_decode(NULL, rb_p(&b), rb_end(&b), &rec), -ENOENT);
	CHECK_STR(rec.error.field, "attr");
}

static void t_multi_identifier(void)
{
	struct pev_decoder *d = pev_decoder_new();
	struct perf_event_attr a = { .size = sizeof(a), .sample_id_all = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID };
	struct perf_event_attr c = { .size = sizeof(c), .sample_id_all = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD };
	const uint64_t ida[] = { 11, 12 }, idc[] = { 13 };

	CHECK_EQ_INT(pev_decoder_add_attr(d, &a, ida, 2), 0);
	CHECK_EQ_INT(pev_decoder_add_attr(d, &c, idc, 1), 1);
	CHECK_EQ_INT(pev_decoder_add_attr(d, &c, idc, 1), -EEXIST);
	CHECK_EQ_U64(pev_decoder_nr_attrs(d), 2);
	CHECK_EQ_INT(pev_decoder_find_id(d, 12), 0);
	CHECK_EQ_INT(pev_decoder_find_id(d, 13), 1);
	CHECK_EQ_INT(pev_decoder_find_id(d, 14), -ENOENT);

	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 12); rb_u64(&b, 0x4000); rb_u32(&b, 1); rb_u32(&b, 2);
	CHECK_OK(pev_record_decode(d, rb_p(&b), rb_end(&b), &rec));
	CHECK_EQ_INT(rec.attr_index, 0);
	CHECK_EQ_U64(rec.u.sample.ip, 0x4000);
	CHECK_EQ_U64(rec.u.sample.tid, 2);

	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 13); rb_u64(&b, 999); rb_u64(&b, 50);
	CHECK_OK(pev_record_decode(d, rb_p(&b), rb_end(&b), &rec));
	CHECK_EQ_INT(rec.attr_index, 1);
	CHECK(rec.attr == pev_decoder_attr(d, 1));
	CHECK_EQ_U64(rec.u.sample.time, 999);
	CHECK_EQ_U64(rec.u.sample.period, 50);

	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 14); rb_u64(&b, 1); rb_u64(&b, 1);
	CHECK_EQ_INT(pev_record_decode(d, rb_p(&b), rb_end(&b), &rec), -ENOENT);
	CHECK_STR(rec.error.field, "id");

	/* Non-sample records: the trailer's last u64 picks the layout. */
	rb_begin(&b, PERF_RECORD_EXIT, 0);
	rb_u32(&b, 1); rb_u32(&b, 1); rb_u32(&b, 2); rb_u32(&b, 2); rb_u64(&b, 3);
	rb_u32(&b, 70); rb_u32(&b, 71); rb_u64(&b, 11);
	CHECK_OK(pev_record_decode(d, rb_p(&b), rb_end(&b), &rec));
	CHECK_EQ_INT(rec.attr_index, 0);
	CHECK_EQ_U64(rec.sample_id.tid, 71);
	CHECK_EQ_U64(rec.sample_id.id, 11);
	rb_begin(&b, PERF_RECORD_EXIT, 0);
	rb_u32(&b, 1); rb_u32(&b, 1); rb_u32(&b, 2); rb_u32(&b, 2); rb_u64(&b, 3);
	rb_u64(&b, 8888); rb_u64(&b, 13);
	CHECK_OK(pev_record_decode(d, rb_p(&b), rb_end(&b), &rec));
	CHECK_EQ_INT(rec.attr_index, 1);
	CHECK_EQ_U64(rec.sample_id.time, 8888);
	CHECK_EQ_U64(rec.u.fork.time, 3);
	rb_check_cuts(d, rb_p(&b), b.len, "EXIT two attrs");
	pev_decoder_free(d);
}

static void t_multi_id_pos(void)
{
	struct pev_decoder *d = pev_decoder_new();
	struct perf_event_attr a = { .size = sizeof(a),
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID |
			       PERF_SAMPLE_PERIOD };
	struct perf_event_attr c = a;
	c.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID |
			PERF_SAMPLE_CALLCHAIN;
	const uint64_t ida[] = { 21 }, idc[] = { 22 };

	CHECK_EQ_INT(pev_decoder_add_attr(d, &a, ida, 1), 0);
	CHECK_EQ_INT(pev_decoder_add_attr(d, &c, idc, 1), 1);
	/* A different id position, no id at all, other sample_id_all. */
	struct perf_event_attr bad = a;
	bad.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ID;
	CHECK_EQ_INT(pev_decoder_add_attr(d, &bad, NULL, 0), -EINVAL);
	bad.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	CHECK_EQ_INT(pev_decoder_add_attr(d, &bad, NULL, 0), -EINVAL);
	bad = a;
	bad.sample_id_all = 1;
	CHECK_EQ_INT(pev_decoder_add_attr(d, &bad, NULL, 0), -EINVAL);
	bad = a;
	bad.sample_type |= PERF_SAMPLE_CPU;	/* trailer id position moves */
	CHECK_EQ_INT(pev_decoder_add_attr(d, &bad, NULL, 0), -EINVAL);

	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x100); rb_u32(&b, 1); rb_u32(&b, 1); rb_u64(&b, 22);
	rb_u64(&b, 2); rb_u64(&b, PERF_CONTEXT_USER); rb_u64(&b, 0x100);
	CHECK_OK(pev_record_decode(d, rb_p(&b), rb_end(&b), &rec));
	CHECK_EQ_INT(rec.attr_index, 1);
	CHECK_EQ_U64(rec.u.sample.callchain.nr, 2);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x100); rb_u32(&b, 1); rb_u32(&b, 1); rb_u64(&b, 21);
	rb_u64(&b, 4000);
	CHECK_OK(pev_record_decode(d, rb_p(&b), rb_end(&b), &rec));
	CHECK_EQ_INT(rec.attr_index, 0);
	CHECK_EQ_U64(rec.u.sample.period, 4000);
	/* The id itself beyond the record. */
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x100); rb_u32(&b, 1); rb_u32(&b, 1);
	CHECK_EQ_INT(pev_record_decode(d, rb_p(&b), rb_end(&b), &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "id");
	/* Ids added later. */
	const uint64_t more[] = { 0, 23 };
	CHECK_OK(pev_decoder_add_ids(d, 1, more, 2));
	CHECK_EQ_INT(pev_decoder_find_id(d, 0), 1);
	CHECK_EQ_INT(pev_decoder_find_id(d, 23), 1);
	CHECK_EQ_INT(pev_decoder_add_ids(d, 5, more, 2), -EINVAL);
	/* Many ids: the table grows. */
	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t id = 1000 + i * 7919;
		CHECK_OK(pev_decoder_add_ids(d, (int)(i & 1), &id, 1));
	}
	CHECK_EQ_INT(pev_decoder_find_id(d, 1000 + 999 * 7919), 1);
	CHECK_EQ_INT(pev_decoder_find_id(d, 1000 + 998 * 7919), 0);
	pev_decoder_free(d);
}

int main(void)
{
	t_fields();
	t_read_formats();
	t_callchain_iter();
	t_branch_flags();
	t_regs_stack_edge();
	t_lying();
	t_multi_identifier();
	t_multi_id_pos();
	return t_done();
}
