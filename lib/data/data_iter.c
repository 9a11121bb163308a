// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf.data reader: walking the records (file order), expanding
 * COMPRESSED records, converting foreign records, and time order. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>

#include "data/data_internal.h"

/* Largest decompressed chunk accepted (a guard against zstd bombs). */
#define DCHUNK_MAX (256u << 20)

static void chunk_put(struct dchunk *c)
{
	if (c && --c->refs == 0) {
		free(c->p);
		free(c);
	}
}

void pev__data_iter_release(struct pev_data *d)
{
	struct pev_order_item it;

	if (d->q) {
		pev_order_final(d->q);
		while (pev_order_pop(d->q, &it))
			chunk_put(it.ctx);
		pev_order_free(d->q);
		d->q = pev_order_new();
	}
	chunk_put(d->held);
	d->held = NULL;
	chunk_put(d->chunk);
	d->chunk = NULL;
	free(d->carry);
	d->carry = NULL;
	d->carry_len = 0;
	ZSTD_freeDCtx(d->dctx);
	d->dctx = NULL;
	d->final = false;
}

/* An 8-aligned copy of a record that sits at an odd address. */
static void *arena_copy(struct pev_data *d, const void *p, size_t n)
{
	struct arena *a = d->arena;
	size_t need = (n + 7) / 8;

	if (!a || a->cap - a->len < need) {
		size_t cap = need > 8192 ? need : 8192;

		a = malloc(sizeof(*a) + cap * 8);
		if (!a)
			return NULL;
		a->cap = cap;
		a->len = 0;
		a->next = d->arena;
		d->arena = a;
	}
	void *r = a->data + a->len;

	memcpy(r, p, n);
	a->len += need;
	return r;
}

static struct perf_event_header read_hdr(bool swap, const void *p)
{
	struct perf_event_header h;

	memcpy(&h, p, 8);
	if (swap) {
		h.type = bswap_32(h.type);
		h.misc = bswap_16(h.misc);
		h.size = bswap_16(h.size);
	}
	return h;
}

/* Expands a COMPRESSED record's payload (after any carried bytes) into a
 * new chunk. */
static int decompress(struct pev_data *d, const void *src, size_t len,
		      uint64_t offset)
{
	if (!d->dctx && !(d->dctx = ZSTD_createDCtx()))
		return -ENOMEM;
	struct dchunk *c = calloc(1, sizeof(*c));
	size_t cap = d->carry_len + (len * 4 > 65536 ? len * 4 : 65536);

	if (!c || !(c->p = malloc(cap))) {
		free(c);
		return -ENOMEM;
	}
	c->refs = 1;
	c->offset = offset;
	if (d->carry_len)
		memcpy(c->p, d->carry, d->carry_len);
	c->len = d->carry_len;
	free(d->carry);
	d->carry = NULL;
	d->carry_len = 0;
	ZSTD_inBuffer in = { src, len, 0 };

	for (;;) {
		ZSTD_outBuffer o = { c->p, cap, c->len };
		size_t r = ZSTD_decompressStream(d->dctx, &o, &in);

		c->len = o.pos;
		if (ZSTD_isError(r)) {
			chunk_put(c);
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: COMPRESSED record at offset %" PRIu64
				" does not decompress (%s)", offset,
				ZSTD_getErrorName(r));
		}
		if (in.pos == in.size && o.pos < o.size)
			break;
		if (cap >= DCHUNK_MAX) {
			chunk_put(c);
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: COMPRESSED record at offset %" PRIu64
				" expands past %u bytes", offset, DCHUNK_MAX);
		}
		unsigned char *p = realloc(c->p, cap * 2);

		if (!p) {
			chunk_put(c);
			return -ENOMEM;
		}
		c->p = p;
		cap *= 2;
	}
	d->chunk = c;
	return 0;
}

/* The next record of the current chunk, 1; 0 when it has no whole record
 * left (the rest is carried to the next COMPRESSED record). */
static int chunk_next(struct pev_data *d, struct raw_rec *out)
{
	struct dchunk *c = d->chunk;
	size_t left = c->len - c->pos;

	if (left >= 8) {
		struct perf_event_header h = read_hdr(d->swap, c->p + c->pos);

		if (h.size < 8)
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: record of size %u inside the "
				"COMPRESSED data ending at offset %" PRIu64,
				h.size, c->offset);
		if (h.size <= left) {
			void *p = c->p + c->pos;

			if ((uintptr_t)p % 8 && !(p = arena_copy(d, p, h.size)))
				return -ENOMEM;
			if (d->swap)
				pev_record_swap(d->dec, p, h.size, 0);
			c->pos += h.size;
			*out = (struct raw_rec){ p, h.type, h.size, c->offset, c };
			return 1;
		}
	}
	if (left) {
		d->carry = malloc(left);
		if (!d->carry)
			return -ENOMEM;
		memcpy(d->carry, c->p + c->pos, left);
		d->carry_len = left;
	}
	chunk_put(c);
	d->chunk = NULL;
	return 0;
}

static int cut(struct pev_data *d, uint64_t pos, const char *what)
{
	if (d->recovering) {
		size_t n = strlen(d->recovered);

		snprintf(d->recovered + n, sizeof(d->recovered) - n,
			 "; stopped at offset %" PRIu64 " (%s)", pos, what);
		d->cut.records_end = pos - d->data_off;
		d->pos = d->data_end;
		return 0;
	}
	return pev__data_set_error(d, -EBADMSG, "perf.data: %s at offset %" PRIu64
			      " runs past the end of the data section (ends at %"
			      PRIu64 ")", what, pos, d->data_end);
}

/* A mapped file is read front to back once: the pages far behind the
 * position are given back every RELEASE_STEP bytes, so that reading a file
 * of any size keeps a bounded RSS (perf maps a sliding window for the same
 * reason).  The pages are clean copies of the file, so a later access (a
 * view the ordering queue still holds, a pass after pev_data_rewind) reads
 * them again from the page cache.  Not for a byte-swapped file: its
 * records are converted in place and would be lost. */
#define RELEASE_STEP	(16u << 20)

static void release_behind(struct pev_data *d)
{
	uint64_t step = d->window / 4 < RELEASE_STEP ? d->window / 4 : RELEASE_STEP;

	if (!d->mapped || d->swap || d->pos < d->window ||
	    d->pos - d->window < d->released_upto + step)
		return;	/* the per-record cost: these compares */
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t from = d->released_upto > d->data_off ? d->released_upto : d->data_off;
	uint64_t to = (d->pos - d->window) & ~(page - 1);

	from = (from + page - 1) & ~(page - 1);
	if (to <= from || to - from < step)
		return;
	if (madvise(d->buf + from, (size_t)(to - from), MADV_DONTNEED) == 0)
		d->released_upto = to;
}


void pev__data_seg_switch(struct pev_data *d, size_t i)
{
	const struct dseg *g = &d->segs[i];

	d->cur_seg = i;
	d->buf = g->buf;
	d->len = g->len;
	d->data_off = g->off;
	d->data_end = g->end;
	d->pos = g->off;
	d->swapped_upto = g->off;
	d->meta_upto = g->off;
	d->released_upto = 0;
}

uint64_t pev__data_offset_of(const struct pev_data *d, const void *p)
{
	const unsigned char *q = p;

	for (size_t i = 0; i < d->nsegs; i++)
		if (q >= d->segs[i].buf && q < d->segs[i].buf + d->segs[i].len)
			return (uint64_t)(q - d->segs[i].buf);
	return (uint64_t)(q - d->buf);
}

int pev__data_next_raw(struct pev_data *d, struct raw_rec *out)
{
	for (;;) {
		if (d->chunk) {
			int r = chunk_next(d, out);

			if (r != 0)
				return r;
		}
		uint64_t pos = d->pos;

		if (pos >= d->data_end) {
			if (d->carry_len && !d->recovering)
				return pev__data_set_error(d, -EBADMSG,
					"perf.data: the compressed data ends "
					"inside a record (%zu bytes left)",
					d->carry_len);
			if (d->cur_seg + 1 < d->nsegs) {
				/* the next file of a directory; its
				 * compressed records start a new stream */
				free(d->carry);
				d->carry = NULL;
				d->carry_len = 0;
				if (d->dctx)
					ZSTD_DCtx_reset(d->dctx, ZSTD_reset_session_only);
				pev__data_seg_switch(d, d->cur_seg + 1);
				continue;
			}
			return 0;
		}
		if (d->data_end - pos < 8)
			return cut(d, pos, "a record header");
		/* Records before swapped_upto were converted in place by an
		 * earlier pass (odd-offset ones never are: they are copied). */
		bool native = pos < d->swapped_upto &&
			(uintptr_t)(d->buf + pos) % 8 == 0;
		struct perf_event_header h = read_hdr(d->swap && !native,
						      d->buf + pos);

		if (h.size < 8)
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: record at offset %" PRIu64 " has size %u"
				" (below the 8-byte header)", pos, h.size);
		if (h.size > d->data_end - pos)
			return cut(d, pos, "a record");
		uint64_t extra = 0;

		if (h.type == PEV_RECORD_HEADER_TRACING_DATA && h.size >= 12) {
			uint32_t v;

			memcpy(&v, d->buf + pos + 8, 4);
			extra = d->swap && !native ? bswap_32(v) : v;
		} else if (h.type == PEV_RECORD_AUXTRACE && h.size >= 16) {
			memcpy(&extra, d->buf + pos + 8, 8);
			extra = d->swap && !native ? bswap_64(extra) : extra;
		}
		if (extra > d->data_end - pos - h.size)
			return cut(d, pos, "the data following a record");
		void *p = d->buf + pos;

		if ((uintptr_t)p % 8) {
			if (!(p = arena_copy(d, p, h.size)))
				return -ENOMEM;
			if (d->swap)
				pev_record_swap(d->dec, p, h.size, 0);
		} else if (d->swap && pos >= d->swapped_upto) {
			pev_record_swap(d->dec, p, h.size, 0);
			d->swapped_upto = pos + h.size;
		}
		d->pos = pos + h.size + extra;
		release_behind(d);
		*out = (struct raw_rec){ p, h.type, h.size, pos, NULL };
		if (h.type == PEV_RECORD_COMPRESSED ||
		    h.type == PEV_RECORD_COMPRESSED2) {
			struct pev_record rec;
			int r = pev_record_decode(d->dec, p, h.size, &rec);

			if (r < 0)
				return pev__data_set_error(d, -EBADMSG,
					"perf.data: COMPRESSED record at offset %"
					PRIu64 " is malformed", pos);
			r = decompress(d, rec.u.compressed.data,
				       rec.u.compressed.size, pos);
			if (r < 0)
				return r;
			continue;
		}
		if (h.type >= PEV_RECORD_USER_TYPE_START) {
			int r = pev__data_process_meta(d, out, d->buf + pos + h.size,
						  (size_t)extra);

			if (r < 0)
				return r;
		}
		return 1;
	}
}

static void fill_event(struct pev_data *d, const struct raw_rec *r,
		       struct pev_data_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->offset = r->offset;
	ev->compressed = r->chunk != NULL;
	ev->decode_error = pev_record_decode(d->dec, r->p, r->size, &ev->rec);
	if (ev->decode_error < 0) {
		ev->rec.type = r->type;
		ev->rec.size = r->size;
		memcpy(&ev->rec.misc, (const char *)r->p + 4, 2);
		ev->rec.raw = r->p;
	}
}

PEV_EXPORT int pev_data_next(struct pev_data *d, struct pev_data_event *ev)
{
	struct raw_rec r;
	int ret = pev__data_next_raw(d, &r);

	if (ret > 0)
		fill_event(d, &r, ev);
	return ret;
}

PEV_EXPORT int pev_data_next_ordered(struct pev_data *d,
				     struct pev_data_event *ev)
{
	struct pev_order_item it;

	chunk_put(d->held);
	d->held = NULL;
	for (;;) {
		if (pev_order_pop(d->q, &it)) {
			const struct perf_event_header *h = it.rec;
			struct raw_rec r = { it.rec, h->type, h->size, 0, it.ctx };

			fill_event(d, &r, ev);
			ev->offset = it.ctx ? ((struct dchunk *)it.ctx)->offset :
				pev__data_offset_of(d, it.rec);
			d->held = it.ctx;	/* keeps the chunk alive */
			return 1;
		}
		if (d->final)
			return 0;
		struct raw_rec r;
		int ret = pev__data_next_raw(d, &r);

		if (ret < 0)
			return ret;
		if (ret == 0) {
			pev_order_final(d->q);
			d->final = true;
			continue;
		}
		if (r.type >= PEV_RECORD_USER_TYPE_START) {
			if (r.type == PEV_RECORD_FINISHED_ROUND)
				pev_order_round(d->q);
			fill_event(d, &r, ev);
			return 1;
		}
		uint64_t t = 0;

		/* a sample is decoded once, when it leaves the queue; the
		 * rest (and a sample without a time) now, for their time */
		if (r.type != PERF_RECORD_SAMPLE ||
		    pev_sample_time(d->dec, r.p, r.size, &t) < 0 || !t ||
		    t == UINT64_MAX) {
			t = 0;
			fill_event(d, &r, ev);
			if (ev->decode_error == 0 && ev->rec.has_sample_id &&
			    (ev->rec.sample_id.fields & PERF_SAMPLE_TIME))
				t = ev->rec.sample_id.time;
		}
		int q = pev_order_push(d->q, t, r.p, r.chunk);

		if (q == -ETIME)
			return 1;	/* no time: at once, as perf does */
		if (q < 0)
			return q;
		if (r.chunk)
			r.chunk->refs++;
	}
}

PEV_EXPORT uint64_t pev_data_nr_out_of_order(const struct pev_data *d)
{
	return d->out_of_order + pev_order_nr_out_of_order(d->q);
}

PEV_EXPORT int pev_data_rewind(struct pev_data *d)
{
	d->out_of_order += pev_order_nr_out_of_order(d->q);
	pev__data_iter_release(d);
	if (!d->q)
		return -ENOMEM;
	if (d->nsegs)
		pev__data_seg_switch(d, 0);
	d->pos = d->data_off;
	d->released_upto = 0;
	d->err[0] = 0;
	return 0;
}
