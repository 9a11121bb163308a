// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* jitdump files (the format of perf's tools/perf/util/jitdump.h), read
 * from a buffer with every size checked against it:
 *
 *   header:  u32 magic "JiTD", version, total_size, elf_mach, pad1, pid;
 *            u64 timestamp, flags                          (40 bytes)
 *   records: u32 id, total_size; u64 timestamp, then
 *     CODE_LOAD       u32 pid, tid; u64 vma, code_addr, code_size,
 *                     code_index; name\0; code (the last code_size bytes)
 *     CODE_MOVE       u32 pid, tid; u64 vma, old_code_addr,
 *                     new_code_addr, code_size, code_index
 *     DEBUG_INFO      u64 code_addr, nr_entry; entries
 *                     (u64 addr; s32 lineno, discrim; name\0 or "\xff\0")
 *     CLOSE           nothing
 *     UNWINDING_INFO  u64 unwinding_size, eh_frame_hdr_size,
 *                     mapped_size; unwinding_size bytes
 *
 * A file in the other byte order (magic "DTiJ") is read swapped. */
#include <byteswap.h>
#include <errno.h>
#include <string.h>

#include <perfev/jit.h>

#define HEADER_SIZE 40
#define PREFIX_SIZE 16
#define MAGIC_SWAPPED 0x4454694Au

struct rd {
	const uint8_t *p;
	size_t len, off;
	bool swap;
};

static uint32_t u32(struct rd *r)
{
	uint32_t v;

	memcpy(&v, r->p + r->off, 4);
	r->off += 4;
	return r->swap ? bswap_32(v) : v;
}

static uint64_t u64(struct rd *r)
{
	uint64_t v;

	memcpy(&v, r->p + r->off, 8);
	r->off += 8;
	return r->swap ? bswap_64(v) : v;
}

PEV_EXPORT int pev_jitdump_header_read(const void *buf, size_t len,
				       struct pev_jitdump_header *h)
{
	struct rd r = { buf, len, 0, false };
	uint32_t magic;

	if (!buf || !h || len < HEADER_SIZE)
		return -EBADMSG;
	memcpy(&magic, buf, 4);
	if (magic == MAGIC_SWAPPED)
		r.swap = true;
	else if (magic != PEV_JITDUMP_MAGIC)
		return -EPROTO;
	memset(h, 0, sizeof(*h));
	h->swapped = r.swap;
	h->magic = u32(&r);
	h->version = u32(&r);
	h->total_size = u32(&r);
	h->elf_mach = u32(&r);
	(void)u32(&r);			/* pad1 */
	h->pid = u32(&r);
	h->timestamp = u64(&r);
	h->flags = u64(&r);
	if (h->total_size < HEADER_SIZE || h->total_size > len)
		return -EBADMSG;
	if (h->version > 1 || (h->flags & ~PEV_JITDUMP_FLAG_ARCH_TIMESTAMP))
		return -ENOTSUP;
	return 0;
}

PEV_EXPORT int pev_jitdump_next(const void *buf, size_t len,
				const struct pev_jitdump_header *h, size_t *pos,
				struct pev_jit_record *out)
{
	struct rd r = { buf, len, *pos, h->swapped };
	size_t start = *pos, end, fixed;

	if (start > len || len - start < PREFIX_SIZE)
		return 0;
	memset(out, 0, sizeof(*out));
	out->id = u32(&r);
	out->total_size = u32(&r);
	out->timestamp = u64(&r);
	if (out->total_size < PREFIX_SIZE)
		return -EBADMSG;
	if (out->total_size > len - start)
		return 0;			/* cut short: the end, as perf */
	end = start + out->total_size;
	switch (out->id) {
	case PEV_JIT_CODE_LOAD:
		fixed = PREFIX_SIZE + 8 + 32;
		if (out->total_size < fixed)
			return -EBADMSG;
		out->u.load.pid = u32(&r);
		out->u.load.tid = u32(&r);
		out->u.load.vma = u64(&r);
		out->u.load.code_addr = u64(&r);
		out->u.load.code_size = u64(&r);
		out->u.load.code_index = u64(&r);
		/* The code is the record's last code_size bytes; the name
		 * (with its NUL) lies between the fixed part and it. */
		if (out->u.load.code_size > out->total_size - fixed)
			return -EBADMSG;
		{
			size_t name_room = out->total_size - fixed - (size_t)out->u.load.code_size;
			const char *name = (const char *)r.p + r.off;

			if (!name_room || !memchr(name, 0, name_room))
				return -EBADMSG;
			out->u.load.name = name;
			out->u.load.code = r.p + end - out->u.load.code_size;
		}
		break;
	case PEV_JIT_CODE_MOVE:
		if (out->total_size < PREFIX_SIZE + 8 + 40)
			return -EBADMSG;
		out->u.move.pid = u32(&r);
		out->u.move.tid = u32(&r);
		out->u.move.vma = u64(&r);
		out->u.move.old_code_addr = u64(&r);
		out->u.move.new_code_addr = u64(&r);
		out->u.move.code_size = u64(&r);
		out->u.move.code_index = u64(&r);
		break;
	case PEV_JIT_CODE_DEBUG_INFO:
		if (out->total_size < PREFIX_SIZE + 16)
			return -EBADMSG;
		out->u.debug_info.code_addr = u64(&r);
		out->u.debug_info.nr_entry = u64(&r);
		out->u.debug_info.entries = r.p + r.off;
		out->u.debug_info.entries_len = end - r.off;
		break;
	case PEV_JIT_CODE_UNWINDING_INFO:
		if (out->total_size < PREFIX_SIZE + 24)
			return -EBADMSG;
		out->u.unwinding.unwinding_size = u64(&r);
		out->u.unwinding.eh_frame_hdr_size = u64(&r);
		out->u.unwinding.mapped_size = u64(&r);
		if (out->u.unwinding.unwinding_size > end - r.off ||
		    out->u.unwinding.eh_frame_hdr_size > out->u.unwinding.unwinding_size)
			return -EBADMSG;
		out->u.unwinding.data = r.p + r.off;
		break;
	default:			/* CLOSE, and ids perf skips */
		break;
	}
	*pos = end;
	return 1;
}

PEV_EXPORT int pev_jitdump_debug_entry(const struct pev_jitdump_header *h,
				       const struct pev_jit_record *rec, size_t *off,
				       uint64_t *index, struct pev_jit_debug_entry *e)
{
	struct rd r = { rec->u.debug_info.entries, rec->u.debug_info.entries_len,
			*off, h->swapped };
	const char *name;
	const void *nul;

	if (*index >= rec->u.debug_info.nr_entry || r.off >= r.len)
		return 0;
	if (r.len - r.off < 16 + 1)
		return -EBADMSG;
	e->addr = u64(&r);
	e->lineno = (int32_t)u32(&r);
	e->discrim = (int32_t)u32(&r);
	name = (const char *)r.p + r.off;
	nul = memchr(name, 0, r.len - r.off);
	if (!nul)
		return -EBADMSG;
	e->name = (unsigned char)name[0] == 0xff && name[1] == 0 ? NULL : name;
	*off = (size_t)((const uint8_t *)nul - r.p) + 1;
	(*index)++;
	return 1;
}
