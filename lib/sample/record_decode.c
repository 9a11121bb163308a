// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Decoding and byte-swapping one record: the header checks, then the walker
 * of its layout (record_kernel.c, record_user.c); an attr's byte swap. */
#include <stdint.h>

#include "sample/record_internal.h"

/* Types whose size perf does not align (perf's session.c makes the same
 * exceptions): TRACING_DATA was 12 bytes, COMPRESSED and HEADER_FEATURE
 * carry byte payloads. */
static bool unaligned_ok(uint32_t type)
{
	/* perf 6.1's inject -b writes BUILD_ID records of 36 + 64n bytes */
	return type == PEV_RECORD_HEADER_TRACING_DATA ||
	       type == PEV_RECORD_HEADER_BUILD_ID ||
	       type == PEV_RECORD_HEADER_FEATURE ||
	       type == PEV_RECORD_COMPRESSED;
}

int pev__decode(const struct pev_decoder *d, uint8_t *buf, size_t len,
		enum swap_mode swap, struct pev_record *out)
{
	struct rcur c = { .base = buf, .pos = 0, .end = 8, .swap = swap,
			  .out = out };
	uint32_t type;
	uint16_t misc, size;

	memset(out, 0, sizeof(*out));
	out->attr_index = -1;
	out->raw = buf;
	if (len < 8)
		return rc_fail(&c, -ERANGE, "header", 0,
			       "buffer shorter than a record header");
	rc_u32(&c, &type, "header.type");
	rc_u16(&c, &misc, "header.misc");
	rc_u16(&c, &size, "header.size");
	out->type = type;
	out->misc = misc;
	out->size = size;
	if (size < 8)
		return rc_fail(&c, -EBADMSG, "header.size", 6,
			       "smaller than the record header");
	if (size > len)
		return rc_fail(&c, -ERANGE, "header.size", 6,
			       "record runs past the end of the buffer");
	if ((size & 7) && !unaligned_ok(type))
		return rc_fail(&c, -EBADMSG, "header.size", 6,
			       "not a multiple of 8");
	c.end = size;
	if (type >= PEV_RECORD_USER_TYPE_START)
		return pev__decode_user(&c);
	return pev__decode_kernel(&c, d);
}

PEV_EXPORT int pev_record_decode(const struct pev_decoder *d, const void *buf,
				 size_t len, struct pev_record *out)
{
	if (!buf || !out || ((uintptr_t)buf & 7))
		return -EINVAL;
	/* The cursor only writes in swap mode. */
	return pev__decode(d, (uint8_t *)(uintptr_t)buf, len, SWAP_NONE, out);
}

PEV_EXPORT int pev_sample_time(const struct pev_decoder *d, const void *buf,
			       size_t len, uint64_t *time)
{
	const uint8_t *p = buf;
	struct perf_event_header h;
	int idx = 0;

	if (!p || !time || ((uintptr_t)p & 7))
		return -EINVAL;
	if (len < sizeof(h))
		return -EBADMSG;
	memcpy(&h, p, sizeof(h));
	if (h.type != PERF_RECORD_SAMPLE)
		return -ENOENT;
	if (h.size < sizeof(h) || h.size > len || (h.size & 7))
		return -EBADMSG;
	if (!d || !d->nattrs)
		return -ENOENT;
	if (d->nattrs > 1) {	/* as record_kernel.c's find_sample_attr */
		size_t off = 8 + 8 * (size_t)d->id_pos;
		uint64_t id;

		if (off + 8 > h.size)
			return -EBADMSG;
		memcpy(&id, p + off, 8);
		if ((idx = pev__lookup_attr(d, id)) < 0)
			return -ENOENT;
	}
	uint64_t st = d->attrs[idx].attr.attr.sample_type;
	size_t at = 8 + 8 * (size_t)__builtin_popcountll(st & (PERF_SAMPLE_IDENTIFIER |
			    PERF_SAMPLE_IP | PERF_SAMPLE_TID));

	if (!(st & PERF_SAMPLE_TIME))
		return -ENOENT;
	if (at + 8 > h.size)
		return -EBADMSG;
	memcpy(time, p + at, 8);
	return 0;
}

PEV_EXPORT int pev_record_swap(const struct pev_decoder *d, void *buf,
			       size_t len, unsigned flags)
{
	struct pev_record rec;

	if (!buf || ((uintptr_t)buf & 7) || (flags & ~PEV_SWAP_TO_FOREIGN))
		return -EINVAL;
	return pev__decode(d, buf, len,
			   (flags & PEV_SWAP_TO_FOREIGN) ? SWAP_TO_FOREIGN
							 : SWAP_FROM_FOREIGN,
			   &rec);
}

PEV_EXPORT int pev_attr_swap(void *attr, size_t len, unsigned flags)
{
	struct pev_record rec;
	struct rcur c = { .base = attr, .pos = 0, .end = len, .out = &rec,
			  .swap = (flags & PEV_SWAP_TO_FOREIGN) ?
				  SWAP_TO_FOREIGN : SWAP_FROM_FOREIGN };
	uint32_t size;

	if (!attr || (flags & ~PEV_SWAP_TO_FOREIGN))
		return -EINVAL;
	if (len < 8)
		return -EBADMSG;
	memcpy(&size, (uint8_t *)attr + 4, 4);
	if (c.swap == SWAP_FROM_FOREIGN)
		size = bswap_32(size);
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > len)
		return -EBADMSG;
	return pev__attr_walk(&c, size) ? -EBADMSG : 0;
}
