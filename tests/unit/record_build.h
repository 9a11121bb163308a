/* SPDX-License-Identifier: GPL-2.0-only */
/* Test helper: builds perf records field by field into an aligned buffer,
 * in native or big-endian byte order, and checks that cut or shrunken
 * copies of a record never decode (nor read out of bounds). */
#ifndef PEV_RECORD_BUILD_H
#define PEV_RECORD_BUILD_H

#include <byteswap.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/perfev.h>
#include "testutil.h"

struct rb {
	uint64_t words[2048];	/* 16 KiB, 8-aligned */
	size_t len;
	bool be;		/* write big-endian (foreign on this host) */
};

static inline uint8_t *rb_p(struct rb *b) { return (uint8_t *)b->words; }

static inline void rb_raw(struct rb *b, const void *p, size_t n)
{
	if (b->len + n > sizeof(b->words))
		T_FATAL("record builder overflow");
	memcpy(rb_p(b) + b->len, p, n);
	b->len += n;
}

static inline bool rb_swap(const struct rb *b)
{
	return b->be != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

static inline void rb_u64(struct rb *b, uint64_t v)
{
	if (rb_swap(b))
		v = bswap_64(v);
	rb_raw(b, &v, 8);
}

static inline void rb_u32(struct rb *b, uint32_t v)
{
	if (rb_swap(b))
		v = bswap_32(v);
	rb_raw(b, &v, 4);
}

static inline void rb_u16(struct rb *b, uint16_t v)
{
	if (rb_swap(b))
		v = bswap_16(v);
	rb_raw(b, &v, 2);
}

static inline void rb_u8(struct rb *b, uint8_t v) { rb_raw(b, &v, 1); }

static inline void rb_pad8(struct rb *b)
{
	static const uint8_t z[8];
	rb_raw(b, z, (8 - b->len % 8) % 8);
}

/* A string with its NUL, zero padded to 8. */
static inline void rb_str(struct rb *b, const char *s)
{
	rb_raw(b, s, strlen(s) + 1);
	rb_pad8(b);
}

static inline void rb_begin(struct rb *b, uint32_t type, uint16_t misc)
{
	b->len = 0;
	rb_u32(b, type);
	rb_u16(b, misc);
	rb_u16(b, 0);
}

/* Sets header.size to the length written; returns it. */
static inline size_t rb_end(struct rb *b)
{
	uint16_t sz = (uint16_t)b->len;
	if (rb_swap(b))
		sz = bswap_16(sz);
	memcpy(rb_p(b) + 6, &sz, 2);
	return b->len;
}

/* The sample_id trailer in sample_type order. */
static inline void rb_trailer(struct rb *b, uint64_t st, uint32_t pid,
			      uint32_t tid, uint64_t time, uint64_t id,
			      uint64_t stream_id, uint32_t cpu)
{
	if (st & PERF_SAMPLE_TID) { rb_u32(b, pid); rb_u32(b, tid); }
	if (st & PERF_SAMPLE_TIME) rb_u64(b, time);
	if (st & PERF_SAMPLE_ID) rb_u64(b, id);
	if (st & PERF_SAMPLE_STREAM_ID) rb_u64(b, stream_id);
	if (st & PERF_SAMPLE_CPU) { rb_u32(b, cpu); rb_u32(b, 0); }
	if (st & PERF_SAMPLE_IDENTIFIER) rb_u64(b, id);
}

/* Decodes an exact-size heap copy (so a sanitizer sees any overread). */
static inline int rb_decode_copy(const struct pev_decoder *d, const void *p,
				 size_t n, struct pev_record *out)
{
	void *m = malloc(n ? n : 1);
	if (!m)
		T_FATAL("malloc");
	memcpy(m, p, n);
	int r = pev_record_decode(d, m, n, out);
	free(m);
	return r;
}

/* Every cut of the record (buffer shorter than header.size) is -ERANGE,
 * and every smaller header.size either fails or stays within bounds
 * (the sanitizer run proves the latter). */
static inline void rb_check_cuts(const struct pev_decoder *d, const void *p,
				 size_t n, const char *what)
{
	struct pev_record rec;
	uint8_t tmp[16384];

	for (size_t l = 0; l < n; l++) {
		int r = rb_decode_copy(d, p, l, &rec);
		CHECK_MSG(r == -ERANGE, "%s cut at %zu: got %d", what, l, r);
		if (r != -ERANGE)
			break;
	}
	memcpy(tmp, p, n);
	for (size_t l = 8; l < n; l++) {
		uint16_t sz = (uint16_t)l;
		memcpy(tmp + 6, &sz, 2);
		int r = rb_decode_copy(d, tmp, l, &rec);
		if (r < 0)
			CHECK_MSG(rec.error.field != NULL,
				  "%s size %zu: error %d names no field", what, l, r);
	}
}

/* A little-endian-layout branch flags word re-laid out as a big-endian
 * writer's bit-fields would hold it (fields allocated from bit 63). */
static inline uint64_t br_flags_be(uint64_t v)
{
	static const uint8_t f[][2] = { { 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 },
		{ 4, 16 }, { 20, 4 }, { 24, 2 }, { 26, 4 }, { 30, 3 } };
	uint64_t out = 0;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		uint64_t m = (1ULL << f[i][1]) - 1;
		out |= ((v >> f[i][0]) & m) << (64 - f[i][0] - f[i][1]);
	}
	return out;
}

/* ---- A sample with test values in every field of an attr's layout. */
#define ALL_SAMPLE_BITS ((1ULL << 25) - 1)
#define REGS_U_MASK ((1ULL << 0) | (1ULL << 3) | (1ULL << 8))
#define REGS_I_MASK ((1ULL << 1) | (1ULL << 2) | (1ULL << 10))

static inline uint64_t br_flags(unsigned i)
{
	/* mispred, cycles 100+i, type PERF_BR_CALL, spec 2, priv 1 */
	return 1ULL | ((uint64_t)(100 + i) << 4) | ((uint64_t)PERF_BR_CALL << 20) |
	       (2ULL << 24) | (1ULL << 30);
}

static inline void put_read(struct rb *w, uint64_t fmt, uint64_t nr)
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

static inline void check_read(const struct pev_readfmt *r, uint64_t fmt, uint64_t nr)
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
static inline size_t put_sample(struct rb *w, const struct perf_event_attr *a)
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
			rb_u64(w, w->be ? br_flags_be(br_flags(i)) : br_flags(i));
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

static inline void check_sample(const struct pev_record *r, const struct perf_event_attr *a)
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

static inline struct perf_event_attr mkattr(uint64_t st)
{
	struct perf_event_attr a = { .size = sizeof(a), .sample_type = st };
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			PERF_FORMAT_TOTAL_TIME_ENABLED;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	a.sample_regs_user = REGS_U_MASK;
	a.sample_regs_intr = REGS_I_MASK;
	return a;
}

#endif
