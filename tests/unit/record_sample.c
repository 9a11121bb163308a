// SPDX-License-Identifier: GPL-2.0-only
/* PERF_RECORD_SAMPLE: every field alone and all together, every
 * read_format layout, callchain segments, branch stacks, registers, user
 * stacks, several events told apart, and malformed samples. */
#include "record_build.h"

static struct rb b;
static struct pev_record rec;


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
	/* id 0 (perf's synthesized records) is the first event */
	CHECK_EQ_INT(pev_decoder_find_id(d, 0), 0);

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

	/* A sample with id 0 decodes as the first event, as perf does. */
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0); rb_u64(&b, 0x5000); rb_u32(&b, 3); rb_u32(&b, 4);
	CHECK_OK(pev_record_decode(d, rb_p(&b), rb_end(&b), &rec));
	CHECK_EQ_INT(rec.attr_index, 0);
	CHECK_EQ_U64(rec.u.sample.ip, 0x5000);

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

/* pev_sample_time: the time where pev_record_decode finds it, for one
 * event and for several told apart by id; what it cannot answer. */
static void t_sample_time(void)
{
	struct pev_decoder *d = pev_decoder_new();
	struct perf_event_attr a = { .size = sizeof(a),
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			       PERF_SAMPLE_TID | PERF_SAMPLE_TIME };
	struct perf_event_attr c = a;
	const uint64_t ida[] = { 31 }, idc[] = { 32 };
	uint64_t t = 0;

	c.sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
	CHECK_EQ_INT(pev_decoder_add_attr(d, &a, ida, 1), 0);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 31); rb_u64(&b, 0x100); rb_u32(&b, 1); rb_u32(&b, 2);
	rb_u64(&b, 123456789);
	CHECK_OK(pev_sample_time(d, rb_p(&b), rb_end(&b), &t));
	CHECK_EQ_U64(t, 123456789);
	/* the time cut off; a record longer than the buffer */
	CHECK_EQ_INT(pev_sample_time(d, rb_p(&b), rb_end(&b) - 8, &t), -EBADMSG);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 31); rb_u64(&b, 0x100); rb_u32(&b, 1); rb_u32(&b, 2);
	CHECK_EQ_INT(pev_sample_time(d, rb_p(&b), rb_end(&b), &t), -EBADMSG);
	CHECK_EQ_INT(pev_decoder_add_attr(d, &c, idc, 1), 1);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 32); rb_u64(&b, 0x100); rb_u32(&b, 1); rb_u32(&b, 2);
	CHECK_EQ_INT(pev_sample_time(d, rb_p(&b), rb_end(&b), &t), -ENOENT);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 33); rb_u64(&b, 0x100); rb_u32(&b, 1); rb_u32(&b, 2);
	rb_u64(&b, 5);
	CHECK_EQ_INT(pev_sample_time(d, rb_p(&b), rb_end(&b), &t), -ENOENT);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 31); rb_u64(&b, 0x100); rb_u32(&b, 1); rb_u32(&b, 2);
	rb_u64(&b, 77);
	CHECK_OK(pev_sample_time(d, rb_p(&b), rb_end(&b), &t));
	CHECK_EQ_U64(t, 77);
	CHECK_OK(pev_record_decode(d, rb_p(&b), rb_end(&b), &rec));
	CHECK_EQ_U64(rec.u.sample.time, 77);
	rb_begin(&b, PERF_RECORD_COMM, 0);
	rb_u32(&b, 1); rb_u32(&b, 1); rb_str(&b, "x");
	CHECK_EQ_INT(pev_sample_time(d, rb_p(&b), rb_end(&b), &t), -ENOENT);
	CHECK_EQ_INT(pev_sample_time(d, NULL, 8, &t), -EINVAL);
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
	t_sample_time();
	return t_done();
}
