// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf.data writer, set-up and streaming: file mode (header placeholder,
 * ids, attrs, then the data) and pipe mode (pipe header, then the metadata
 * as user records, then the data); records compressed or byte-swapped on
 * the way.  It writes through data_write.c; the end of a file is in
 * data_write_end.c. */
#include <errno.h>
#include <unistd.h>
#include <zstd.h>

#include "data/data_write.h"

/* Appends one record built natively, converting it first when writing
 * the other byte order. */
static int out_record(struct pev_data_writer *w, void *rec, size_t len)
{
	if (w->opts.foreign_endian) {
		int r = pev_record_swap(w->dec, rec, len, PEV_SWAP_TO_FOREIGN);

		if (r < 0)
			return r;
	}
	return pev__dw_out(w, rec, len);
}

/* ---- start */

static uint32_t common_attr_size(const struct pev_data_writer *w)
{
	/* perf 6.1 refuses attrs larger than its own 128-byte struct, so
	 * 136 only when some attr needs config3. */
	for (size_t i = 0; i < w->nattrs; i++)
		if (w->attrs[i].attr.ext[0])
			return 136;
	return PERF_ATTR_SIZE_VER7;
}

static int start_file(struct pev_data_writer *w)
{
	struct obuf b = { .foreign = w->opts.foreign_endian };
	uint64_t ids_off = FILE_HEADER_SIZE, off = ids_off;

	pev__ob_zero(&b, FILE_HEADER_SIZE);
	for (size_t i = 0; i < w->nattrs; i++)
		for (size_t j = 0; j < w->attrs[i].nids; j++)
			pev__ob_u64(&b, w->attrs[i].ids[j]);
	w->attrs_offset = b.len;
	for (size_t i = 0; i < w->nattrs; i++) {
		struct pev_attr a = w->attrs[i].attr;

		a.attr.size = w->attr_size;
		if (b.foreign)
			pev_attr_swap(&a, w->attr_size, PEV_SWAP_TO_FOREIGN);
		pev__ob_put(&b, &a, w->attr_size);
		pev__ob_u64(&b, w->attrs[i].nids ? off : 0);
		pev__ob_u64(&b, w->attrs[i].nids * 8);
		off += w->attrs[i].nids * 8;
	}
	w->data_offset = b.len;
	if (b.err) {
		free(b.p);
		return b.err;
	}
	w->pos = 0;
	int r = pev__dw_out(w, b.p, b.len);

	free(b.p);
	if (r == 0)	/* the placeholder header: data.size 0 */
		r = pev__dw_write_header(w, false, NULL);
	return r;
}

static int pipe_feature(struct pev_data_writer *w, unsigned feat)
{
	void *pl;
	size_t len;
	int r = pev_data_feature_encode(&w->feat, feat, w->opts.foreign_endian,
					&pl, &len);

	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	size_t total = (16 + len + 7) & ~(size_t)7;

	if (total > 65535) {
		free(pl);
		return 0;	/* cannot travel in one record: left out */
	}
	unsigned char *rec = calloc(1, total);

	if (!rec) {
		free(pl);
		return -ENOMEM;
	}
	struct perf_event_header h = { PEV_RECORD_HEADER_FEATURE, 0,
				       (uint16_t)total };
	uint64_t id = feat;

	memcpy(rec, &h, 8);
	memcpy(rec + 8, &id, 8);
	memcpy(rec + 16, pl, len);
	free(pl);
	r = out_record(w, rec, total);
	free(rec);
	return r;
}


static int start_pipe(struct pev_data_writer *w)
{
	uint64_t hdr[2] = { pev__dw_fix64(w, PERF_MAGIC2), pev__dw_fix64(w, PIPE_HEADER_SIZE) };
	int r = pev__dw_fill_event_desc(w);

	pev__dw_fill_compressed(w);
	if (r == 0)
		r = pev__dw_out(w, hdr, sizeof(hdr));

	for (size_t i = 0; i < w->nattrs && r == 0; i++) {
		struct wattr *a = &w->attrs[i];
		size_t len = 8 + w->attr_size + a->nids * 8;

		if (len > 65535)
			return -E2BIG;
		unsigned char *rec = calloc(1, len);

		if (!rec)
			return -ENOMEM;
		struct perf_event_header h = { PEV_RECORD_HEADER_ATTR, 0,
					       (uint16_t)len };
		struct pev_attr at = a->attr;

		at.attr.size = w->attr_size;
		memcpy(rec, &h, 8);
		memcpy(rec + 8, &at, w->attr_size);
		memcpy(rec + 8 + w->attr_size, a->ids, a->nids * 8);
		r = out_record(w, rec, len);
		free(rec);
	}
	/* The features perf synthesizes for pipes (its FEAT_OPR ones). */
	for (unsigned f = 1; f < PEV_FEAT_BITS && r == 0; f++) {
		if (f == PEV_FEAT_TRACING_DATA || f == PEV_FEAT_BUILD_ID ||
		    f == PEV_FEAT_BRANCH_STACK || f == PEV_FEAT_AUXTRACE ||
		    f == PEV_FEAT_STAT || f == PEV_FEAT_CACHE ||
		    f == PEV_FEAT_DIR_FORMAT || f == PEV_FEAT_HYBRID_TOPOLOGY ||
		    f == PEV_FEAT_SAMPLE_TIME)
			continue;
		if (pev_data_features_has(&w->feat, f))
			r = pipe_feature(w, f);
	}
	/* Names travel as EVENT_UPDATE NAME, keyed by the event's first id. */
	for (size_t i = 0; i < w->nattrs && r == 0; i++) {
		struct wattr *a = &w->attrs[i];

		if (!a->name || !a->nids)
			continue;
		size_t n = strlen(a->name) + 1;
		size_t len = (24 + n + 7) & ~(size_t)7;

		if (len > 65535)
			continue;
		unsigned char *rec = calloc(1, len);

		if (!rec)
			return -ENOMEM;
		struct perf_event_header h = { PEV_RECORD_EVENT_UPDATE, 0,
					       (uint16_t)len };
		uint64_t v[2] = { PEV_EVENT_UPDATE_NAME, a->ids[0] };

		memcpy(rec, &h, 8);
		memcpy(rec + 8, v, 16);
		memcpy(rec + 24, a->name, n);
		r = out_record(w, rec, len);
		free(rec);
	}
	if (r == 0 && pev_data_features_has(&w->feat, PEV_FEAT_TRACING_DATA)) {
		size_t sz = w->feat.tracing_data_size;
		size_t pad = (8 - sz % 8) % 8;
		/* {header; u32 size; u32 pad}, then the blob padded to 8,
		 * outside header.size. */
		uint32_t rec[4] = { 0, 0, (uint32_t)(sz + pad), 0 };
		struct perf_event_header h = { PEV_RECORD_HEADER_TRACING_DATA,
					       0, 16 };

		memcpy(rec, &h, 8);
		r = out_record(w, rec, 16);
		if (r == 0)
			r = pev__dw_out(w, w->feat.tracing_data, sz);
		if (r == 0 && pad)
			r = pev__dw_out(w, "\0\0\0\0\0\0\0", pad);
	}
	return r;
}

PEV_EXPORT int pev_data_writer_start(struct pev_data_writer *w)
{
	int r;

	if (w->started || !w->nattrs)
		return -EINVAL;
	w->attr_size = common_attr_size(w);
	if (w->opts.foreign_endian) {
		w->dec = pev_decoder_new();
		if (!w->dec)
			return -ENOMEM;
		for (size_t i = 0; i < w->nattrs; i++) {
			r = pev_decoder_add_attr(w->dec, &w->attrs[i].attr.attr,
						 w->attrs[i].ids,
						 w->attrs[i].nids);
			if (r < 0)
				return r;
		}
	}
	if (w->opts.compress_level) {
		w->zctx = ZSTD_createCCtx();
		w->zbuf = malloc(COMPRESSED_MAX);
		if (!w->zctx || !w->zbuf)
			return -ENOMEM;
		if (ZSTD_isError(ZSTD_CCtx_setParameter(w->zctx,
				ZSTD_c_compressionLevel, w->opts.compress_level)))
			return -EINVAL;
	}
	w->started = true;
	r = w->opts.pipe ? start_pipe(w) : start_file(w);
	return r;
}

/* ---- data */

static int data_out(struct pev_data_writer *w, const void *buf, size_t len)
{
	int r = pev__dw_out(w, buf, len);

	if (r == 0)
		w->data_size += len;
	return r;
}

/* Writes the COMPRESSED record held in zbuf (payload bytes `len`). */
static int emit_compressed(struct pev_data_writer *w, size_t len)
{
	struct perf_event_header h = { PEV_RECORD_COMPRESSED, 0,
				       (uint16_t)(8 + len) };

	memcpy(w->zbuf, &h, 8);
	return data_out(w, w->zbuf, 8 + len);
}

static int compress_spans(struct pev_data_writer *w, const void *const *bufs,
			  const size_t *lens, size_t n)
{
	/* perf 6.1 sizes COMPRESSED records below 64 KiB (u16 size). */
	const size_t cap = 65535 - 8;
	ZSTD_outBuffer ob = { w->zbuf + 8, cap, 0 };
	size_t total = 0;

	for (size_t i = 0; i <= n; i++) {
		ZSTD_inBuffer ib = { i < n ? bufs[i] : NULL, i < n ? lens[i] : 0, 0 };
		ZSTD_EndDirective end = i < n ? ZSTD_e_continue : ZSTD_e_flush;

		if (i < n)
			total += lens[i];
		for (;;) {
			size_t left = ZSTD_compressStream2(w->zctx, &ob, &ib, end);

			if (ZSTD_isError(left))
				return -EIO;
			if (ob.pos == ob.size) {
				int r = emit_compressed(w, ob.pos);

				if (r < 0)
					return r;
				ob.pos = 0;
				continue;
			}
			if (end == ZSTD_e_continue ? ib.pos == ib.size : left == 0)
				break;
		}
	}
	if (total > w->max_chunk)
		w->max_chunk = total;
	return ob.pos ? emit_compressed(w, ob.pos) : 0;
}

static int foreign_spans(struct pev_data_writer *w, const void *const *bufs,
			 const size_t *lens, size_t n)
{
	size_t total = 0, pos = 0;

	for (size_t i = 0; i < n; i++)
		total += lens[i];
	unsigned char *tmp = malloc(total ? total : 1);

	if (!tmp)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		memcpy(tmp + pos, bufs[i], lens[i]);
		pos += lens[i];
	}
	int r = 0;

	for (pos = 0; pos + 8 <= total && r == 0; ) {
		struct perf_event_header h;

		memcpy(&h, tmp + pos, 8);
		if (h.size < 8 || h.size > total - pos || h.size % 8) {
			r = -EINVAL;
			break;
		}
		r = pev_record_swap(w->dec, tmp + pos, h.size,
				    PEV_SWAP_TO_FOREIGN);
		pos += h.size;
	}
	if (r == 0)
		r = data_out(w, tmp, total);
	free(tmp);
	return r;
}

PEV_EXPORT int pev_data_writer_writev(struct pev_data_writer *w,
				      const void *const *bufs,
				      const size_t *lens, size_t n)
{
	int r = 0;

	if (!w->started || w->finished)
		return -EINVAL;
	if (w->err)
		return w->err;
	for (size_t i = 0; i < n; i++)
		w->raw_size += lens[i];
	if (w->zctx)
		return compress_spans(w, bufs, lens, n);
	if (w->opts.foreign_endian)
		return foreign_spans(w, bufs, lens, n);
	for (size_t i = 0; i < n && r == 0; i++)
		r = data_out(w, bufs[i], lens[i]);
	return r;
}

PEV_EXPORT int pev_data_writer_write(struct pev_data_writer *w,
				     const void *buf, size_t len)
{
	return pev_data_writer_writev(w, &buf, &len, 1);
}

PEV_EXPORT int pev_data_writer_emit(const void *rec, size_t len, void *writer)
{
	return pev_data_writer_write(writer, rec, len);
}

PEV_EXPORT int pev_data_writer_finished_round(struct pev_data_writer *w)
{
	struct perf_event_header h = { PEV_RECORD_FINISHED_ROUND, 0, 8 };

	if (!w->started || w->finished)
		return -EINVAL;
	w->raw_size += 8;
	if (w->opts.foreign_endian) {
		h.type = bswap_32(h.type);
		h.size = bswap_16(h.size);
	}
	/* Never compressed: the reader must see rounds between chunks. */
	int r = data_out(w, &h, 8);

	if (r == 0) {
		w->round_size = w->data_size;
		w->round_raw = w->raw_size;
	}
	return r;
}

