/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to lib/sample/record*.c: the bounds-checked cursor that every
 * record walker uses.
 *
 * One walker per layout serves both decoding and byte swapping: in swap
 * mode each integer load first converts the bytes in place (and returns
 * the native value), so the swap follows exactly the layout the decoder
 * checks, with the same bounds. */
#ifndef PEV_RECORD_CURSOR_H
#define PEV_RECORD_CURSOR_H

#include <byteswap.h>
#include <errno.h>
#include <string.h>

#include <perfev/record.h>

enum swap_mode { SWAP_NONE = 0, SWAP_FROM_FOREIGN, SWAP_TO_FOREIGN };

struct rcur {
	uint8_t *base;		/* record start (writable only in swap mode) */
	size_t pos;		/* next byte to read */
	size_t end;		/* end of the region being walked */
	enum swap_mode swap;
	struct pev_record *out;
};

static inline int rc_fail(struct rcur *c, int err, const char *field,
			  size_t off, const char *reason)
{
	c->out->error.field = field;
	c->out->error.offset = off;
	c->out->error.reason = reason;
	return err;
}

#define R_PAST_END "runs past the end of the record"

static inline int rc_need(struct rcur *c, size_t n, const char *field)
{
	if (n > c->end - c->pos)
		return rc_fail(c, -EBADMSG, field, c->pos, R_PAST_END);
	return 0;
}

/* Count * elem bytes must fit in what remains; no overflow possible since
 * the division happens first. */
static inline int rc_need_array(struct rcur *c, uint64_t count, size_t elem,
				const char *field)
{
	if (count > (c->end - c->pos) / elem)
		return rc_fail(c, -EBADMSG, field, c->pos,
			       "count needs more bytes than remain");
	return 0;
}

static inline uint64_t sw64(struct rcur *c, uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	if (c->swap == SWAP_FROM_FOREIGN) {
		v = bswap_64(v);
		memcpy(p, &v, 8);
	} else if (c->swap == SWAP_TO_FOREIGN) {
		uint64_t s = bswap_64(v);
		memcpy(p, &s, 8);
	}
	return v;
}

static inline uint32_t sw32(struct rcur *c, uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	if (c->swap == SWAP_FROM_FOREIGN) {
		v = bswap_32(v);
		memcpy(p, &v, 4);
	} else if (c->swap == SWAP_TO_FOREIGN) {
		uint32_t s = bswap_32(v);
		memcpy(p, &s, 4);
	}
	return v;
}

static inline uint16_t sw16(struct rcur *c, uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	if (c->swap == SWAP_FROM_FOREIGN) {
		v = bswap_16(v);
		memcpy(p, &v, 2);
	} else if (c->swap == SWAP_TO_FOREIGN) {
		uint16_t s = bswap_16(v);
		memcpy(p, &s, 2);
	}
	return v;
}

/* Reads without converting: the native value of bytes not yet walked. */
static inline uint64_t rc_peek64(const struct rcur *c, size_t off)
{
	uint64_t v;

	memcpy(&v, c->base + off, 8);
	return c->swap == SWAP_FROM_FOREIGN ? bswap_64(v) : v;
}

static inline int rc_u64(struct rcur *c, uint64_t *v, const char *field)
{
	int r = rc_need(c, 8, field);

	if (r)
		return r;
	*v = sw64(c, c->base + c->pos);
	c->pos += 8;
	return 0;
}

static inline int rc_u32(struct rcur *c, uint32_t *v, const char *field)
{
	int r = rc_need(c, 4, field);

	if (r)
		return r;
	*v = sw32(c, c->base + c->pos);
	c->pos += 4;
	return 0;
}

static inline int rc_u16(struct rcur *c, uint16_t *v, const char *field)
{
	int r = rc_need(c, 2, field);

	if (r)
		return r;
	*v = sw16(c, c->base + c->pos);
	c->pos += 2;
	return 0;
}

static inline int rc_u8(struct rcur *c, uint8_t *v, const char *field)
{
	int r = rc_need(c, 1, field);

	if (r)
		return r;
	*v = c->base[c->pos++];
	return 0;
}

/* Two u32s (pid/tid, cpu/res). */
static inline int rc_u32x2(struct rcur *c, uint32_t *a, uint32_t *b,
			   const char *field)
{
	int r = rc_need(c, 8, field);

	if (r)
		return r;
	*a = sw32(c, c->base + c->pos);
	*b = sw32(c, c->base + c->pos + 4);
	c->pos += 8;
	return 0;
}

/* A view of count u64s (converted in swap mode). */
static inline int rc_array64(struct rcur *c, uint64_t count,
			     const uint64_t **p, const char *field)
{
	int r = rc_need_array(c, count, 8, field);

	if (r)
		return r;
	*p = (const uint64_t *)(c->base + c->pos);
	if (c->swap)
		for (uint64_t i = 0; i < count; i++)
			sw64(c, c->base + c->pos + i * 8);
	c->pos += (size_t)count * 8;
	return 0;
}

/* A view of n bytes, never converted. */
static inline int rc_bytes(struct rcur *c, uint64_t n, const void **p,
			   const char *field)
{
	if (n > c->end - c->pos)
		return rc_fail(c, -EBADMSG, field, c->pos, R_PAST_END);
	*p = c->base + c->pos;
	c->pos += (size_t)n;
	return 0;
}

/* A NUL-terminated string filling [pos, end) with its padding. */
static inline int rc_string(struct rcur *c, const char **s, const char *field)
{
	const uint8_t *p = c->base + c->pos;

	if (c->pos >= c->end || !memchr(p, 0, c->end - c->pos))
		return rc_fail(c, -EBADMSG, field, c->pos,
			       "string is not NUL-terminated within the record");
	*s = (const char *)p;
	c->pos = c->end;
	return 0;
}

/* A string within a fixed-size field of n bytes. */
static inline int rc_string_fixed(struct rcur *c, size_t n, const char **s,
				  const char *field)
{
	int r = rc_need(c, n, field);

	if (r)
		return r;
	if (!memchr(c->base + c->pos, 0, n))
		return rc_fail(c, -EBADMSG, field, c->pos,
			       "string is not NUL-terminated within its field");
	*s = (const char *)(c->base + c->pos);
	c->pos += n;
	return 0;
}

#endif
