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

#endif
