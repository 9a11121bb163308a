// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The ring read protocol (kernel/events/ring_buffer.c is the other half):
 *
 *   kernel                         user (us)
 *   if (LOAD data_tail) {          LOAD-ACQUIRE data_head
 *       STORE records              LOAD records
 *       smp_wmb / store-release    STORE-RELEASE data_tail
 *       STORE data_head
 *   }
 *
 * Forward rings: [tail, head) holds whole records, oldest first.
 * Backward rings (write_backward): the kernel decrements head before each
 * record, so [head, head + size) holds records newest first; the last one
 * may be torn (its end overwritten) and a zero header marks memory never
 * written. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/ring.h>
#include <perfev/sys.h>
#include "sample/ring_internal.h"
#include "core/util.h"

#define SCRATCH_SIZE 65536	/* perf_event_header.size is a u16 */

/* Copy len bytes at ring position pos, wrapping at the end of the area. */
static void ring_copy(const struct pev_ring *r, uint64_t pos, void *dst, size_t len)
{
	uint64_t off = pos & r->mask;
	size_t first = r->size - off < len ? (size_t)(r->size - off) : len;

	memcpy(dst, r->data + off, first);
	if (first < len)
		memcpy((unsigned char *)dst + first, r->data, len - first);
}

static uint16_t header_size(const struct pev_ring *r, uint64_t pos)
{
	struct perf_event_header h;

	ring_copy(r, pos, &h, sizeof(h));
	return h.size;
}

/* A contiguous, 8-aligned view of the record at pos: in place when it
 * neither wraps nor sits misaligned (the kernel's never do), else copied. */
static int record_at(struct pev_ring *r, uint64_t pos, uint16_t len,
		     const struct perf_event_header **rec)
{
	uint64_t off = pos & r->mask;

	if (off + len <= r->size && !(off & 7)) {
		*rec = (const struct perf_event_header *)(r->data + off);
		return 1;
	}
	if (!r->scratch) {
		r->scratch = aligned_alloc(8, SCRATCH_SIZE);
		if (!r->scratch)
			return -ENOMEM;
	}
	ring_copy(r, pos, r->scratch, len);
	*rec = (const struct perf_event_header *)r->scratch;
	return 1;
}

static int pause_output(struct pev_ring *r)
{
	int err;

	if (r->fd < 0 || r->mode == PEV_RING_FORWARD)
		return 0;
	err = pev_ioc_pause_output(r->fd, true);
	if (err < 0)
		return pev__ring_fail(r, -err, "PERF_EVENT_IOC_PAUSE_OUTPUT failed (%s): reading an "
				 "overwrite ring needs Linux >= 4.7", strerror(-err));
	r->paused = true;
	return 0;
}

static void resume_output(struct pev_ring *r)
{
	if (r->paused && r->fd >= 0)
		pev_ioc_pause_output(r->fd, false);
	r->paused = false;
}

static int push_off(struct pev_ring *r, uint64_t pos)
{
	if (pev__grow_array(r->offs, &r->cap_offs, r->n_offs + 1, 256))
		return -ENOMEM;
	r->offs[r->n_offs++] = pos;
	return 0;
}

/* Walk a backward ring from head, as perf's overwrite_rb_find_range: stop
 * at `limit` (what we read last time) when that is within one buffer,
 * else at one full buffer, a zero header (never written) or a record that
 * runs past the buffer (its end was overwritten). */
static int backward_walk(struct pev_ring *r, uint64_t head)
{
	uint64_t dist = r->prev - head, limit, pos = head;
	bool exact = dist <= r->size;
	int err;

	limit = exact ? r->prev : head + r->size;
	if (!exact)
		r->lost += dist - r->size;	/* overwritten before we read it */
	r->n_offs = 0;
	while (pos != limit) {
		uint64_t room = limit - pos;
		uint16_t sz;

		if (room < sizeof(struct perf_event_header))
			break;
		sz = header_size(r, pos);
		if (!sz)
			break;
		if (sz < sizeof(struct perf_event_header))
			return pev__ring_fail(r, EBADMSG, "record at ring offset %llu has size %u (< 8)",
					 (unsigned long long)(pos & r->mask), sz);
		if (sz > room) {
			if (!exact)
				break;		/* the oldest record, torn */
			return pev__ring_fail(r, EBADMSG, "record at ring offset %llu (size %u) runs "
					 "past the data read last time",
					 (unsigned long long)(pos & r->mask), sz);
		}
		err = push_off(r, pos);
		if (err)
			return err;
		pos += sz;
	}
	r->start = head;
	r->end = pos;
	r->bwd_left = r->n_offs;
	return 0;
}

static int batch_size(uint64_t bytes)
{
	return bytes > INT_MAX ? INT_MAX : (int)bytes;
}

PEV_EXPORT int pev_ring_read_init(struct pev_ring *r)
{
	uint64_t head;
	int err;

	if (!r)
		return -EINVAL;
	if (r->in_batch)
		return -EBUSY;
	r->batch_bad = false;
	r->reason[0] = '\0';
	err = pause_output(r);
	if (err)
		return err;
	/* Pairs with the kernel's smp_store_release of data_head in
	 * perf_output_put_handle: the records before head are visible. */
	head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);

	if (r->mode == PEV_RING_BACKWARD) {
		if (r->prev == head) {
			resume_output(r);
			return 0;
		}
		err = backward_walk(r, head);
		if (err) {
			r->lost += r->prev - head <= r->size ? r->prev - head : r->size;
			r->prev = head;
			resume_output(r);
			return err;
		}
		if (!r->n_offs) {
			r->prev = head;
			resume_output(r);
			return 0;
		}
		r->in_batch = true;
		return batch_size(r->end - r->start);
	}

	uint64_t avail = head - r->prev;
	if (avail > r->size) {
		/* A forward overwrite ring ran over us (or someone moved our
		 * tail): record boundaries are unknown, so skip to head. */
		r->lost += avail;
		r->prev = head;
		if (r->mode == PEV_RING_FORWARD)
			__atomic_store_n(&r->pc->data_tail, head, __ATOMIC_RELEASE);
		resume_output(r);
		return pev__ring_fail(r, EOVERFLOW, "the writer overran the reader by %llu bytes; "
				 "skipped to the head", (unsigned long long)(avail - r->size));
	}
	if (!avail) {
		resume_output(r);
		return 0;
	}
	r->start = r->pos = r->prev;
	r->end = head;
	r->in_batch = true;
	return batch_size(avail);
}

PEV_EXPORT int pev_ring_read_next(struct pev_ring *r, const struct perf_event_header **rec)
{
	uint64_t pos, room;
	uint16_t sz;

	if (!r || !rec)
		return -EINVAL;
	*rec = NULL;
	if (!r->in_batch || r->batch_bad)
		return 0;
	if (r->mode == PEV_RING_BACKWARD) {
		if (!r->bwd_left)
			return 0;
		/* Oldest first: the walk saw the newest first. */
		pos = r->offs[--r->bwd_left];
		return record_at(r, pos, header_size(r, pos), rec);
	}
	pos = r->pos;
	room = r->end - pos;
	if (!room)
		return 0;
	sz = room >= sizeof(struct perf_event_header) ? header_size(r, pos) : 0;
	if (sz < sizeof(struct perf_event_header) || sz > room) {
		r->batch_bad = true;
		r->lost += room;
		if (room < sizeof(struct perf_event_header))
			return pev__ring_fail(r, EBADMSG, "%llu stray bytes at ring offset %llu",
					 (unsigned long long)room,
					 (unsigned long long)(pos & r->mask));
		return pev__ring_fail(r, EBADMSG, "record at ring offset %llu has size %u, but %s",
				 (unsigned long long)(pos & r->mask), sz,
				 sz < sizeof(struct perf_event_header) ? "a record is at least 8 bytes" :
				 "fewer bytes are pending");
	}
	int ret = record_at(r, pos, sz, rec);
	if (ret > 0)
		r->pos = pos + sz;
	return ret;
}

PEV_EXPORT int pev_ring_read_spans(struct pev_ring *r, struct pev_ring_span span[2])
{
	uint64_t from, to;

	if (!r || !span)
		return -EINVAL;
	if (!r->in_batch || r->batch_bad)
		return 0;
	if (r->mode == PEV_RING_BACKWARD) {
		from = r->start;
		to = r->bwd_left < r->n_offs ? r->offs[r->bwd_left] : r->end;
		r->bwd_left = 0;
	} else {
		from = r->pos;
		to = r->end;
		r->pos = to;
	}
	return pev__ring_spans(span, r->data, r->size, from, to - from);
}

PEV_EXPORT int pev_ring_read_done(struct pev_ring *r)
{
	if (!r || !r->in_batch)
		return -EINVAL;
	if (r->mode == PEV_RING_BACKWARD) {
		/* What is left unread is the newer records, [start, offs[left]). */
		r->prev = r->bwd_left < r->n_offs ? r->offs[r->bwd_left] : r->end;
	} else {
		r->prev = r->batch_bad ? r->end : r->pos;
		/* Pairs with the kernel's read of data_tail (READ_ONCE + smp_mb
		 * in perf_output_begin): our loads of the records complete
		 * before it may reuse the space. */
		if (r->mode == PEV_RING_FORWARD)
			__atomic_store_n(&r->pc->data_tail, r->prev, __ATOMIC_RELEASE);
	}
	r->in_batch = false;
	resume_output(r);
	return 0;
}
