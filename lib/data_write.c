/* perf.data writer: file mode (header placeholder, ids, attrs, streamed
 * data, features and the final header) and pipe mode (pipe header, then
 * the metadata as user records, then the data). */
#include <errno.h>
#include <unistd.h>
#include <zstd.h>

#include "data_internal.h"

struct wattr {
	struct pev_attr attr;
	uint64_t *ids;
	size_t nids;
	char *name;
};

struct pev_data_writer {
	int fd;
	struct pev_data_writer_opts opts;
	bool started, finished;
	bool complete;			/* finish or finish_at succeeded */
	struct wattr *attrs;
	size_t nattrs;
	uint32_t attr_size;		/* attr bytes written per attr */
	struct pev_data_features feat;
	uint64_t attrs_offset, data_offset, data_size, raw_size;
	uint64_t pos;			/* file mode: next write offset */
	/* data_size and raw_size after the last FINISHED_ROUND: where
	 * finish_at can cut back to. */
	uint64_t round_size, round_raw;
	uint64_t t_first, t_last;
	ZSTD_CCtx *zctx;
	unsigned char *zbuf;		/* COMPRESSED record being filled */
	size_t max_chunk;		/* largest raw chunk compressed at once */
	struct pev_decoder *dec;	/* foreign_endian: swaps records */
	int err;			/* sticky write error */
};

PEV_EXPORT struct pev_data_writer *
pev_data_writer_new(int fd, const struct pev_data_writer_opts *opts)
{
	struct pev_data_writer *w = calloc(1, sizeof(*w));

	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	w->fd = fd;
	if (opts)
		memcpy(&w->opts, opts, opts->size < sizeof(w->opts) ?
		       opts->size : sizeof(w->opts));
	w->opts.size = sizeof(w->opts);
	if (fd < 0 || w->opts.compress_level < 0 ||
	    w->opts.compress_level > 22 ||
	    (w->opts.foreign_endian && w->opts.compress_level)) {
		free(w);
		errno = EINVAL;
		return NULL;
	}
	w->t_first = UINT64_MAX;
	return w;
}

PEV_EXPORT void pev_data_writer_free(struct pev_data_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nattrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	pev_data_features_release(&w->feat);
	ZSTD_freeCCtx(w->zctx);
	free(w->zbuf);
	pev_decoder_free(w->dec);
	free(w);
}

PEV_EXPORT int pev_data_writer_add_attr(struct pev_data_writer *w,
					const struct perf_event_attr *attr,
					const uint64_t *ids, size_t nids,
					const char *name)
{
	if (w->started || !attr || (nids && !ids))
		return -EINVAL;
	struct wattr *a = realloc(w->attrs, (w->nattrs + 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	w->attrs = a;
	a += w->nattrs;
	memset(a, 0, sizeof(*a));
	size_t sz = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;

	memcpy(&a->attr, attr, sz < sizeof(a->attr) ? sz : sizeof(a->attr));
	a->ids = malloc((nids ? nids : 1) * 8);
	a->name = name ? strdup(name) : NULL;
	if (!a->ids || (name && !a->name)) {
		free(a->ids);
		free(a->name);
		return -ENOMEM;
	}
	if (nids)
		memcpy(a->ids, ids, nids * 8);
	a->nids = nids;
	return (int)w->nattrs++;
}

PEV_EXPORT struct pev_data_features *
pev_data_writer_features(struct pev_data_writer *w)
{
	return &w->feat;
}

PEV_EXPORT void pev_data_writer_sample_time(struct pev_data_writer *w,
					    uint64_t first, uint64_t last)
{
	if (first < w->t_first)
		w->t_first = first;
	if (last > w->t_last)
		w->t_last = last;
}

PEV_EXPORT void pev_data_writer_set_sample_time(struct pev_data_writer *w,
						uint64_t first, uint64_t last)
{
	w->t_first = first;
	w->t_last = last;
	if (first > last)	/* none: also forget what an earlier finish set */
		pev_data_features_set(&w->feat, PEV_FEAT_SAMPLE_TIME, false);
}

PEV_EXPORT uint64_t pev_data_writer_data_size(const struct pev_data_writer *w)
{
	return w->data_size;
}

PEV_EXPORT uint64_t pev_data_writer_raw_size(const struct pev_data_writer *w)
{
	return w->raw_size;
}

PEV_EXPORT uint64_t pev_data_writer_round_size(const struct pev_data_writer *w)
{
	return w->round_size;
}

/* ---- low-level output */

static int out_at(struct pev_data_writer *w, const void *buf, size_t len,
		  uint64_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = w->opts.pipe ? write(w->fd, p, len) :
			pwrite(w->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return w->err = -errno;
		if (n == 0)
			return w->err = -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Appends at the current position (the stream, or the file's end). */
static int out(struct pev_data_writer *w, const void *buf, size_t len)
{
	int r = out_at(w, buf, len, w->pos);

	if (r == 0)
		w->pos += len;
	return r;
}

/* Appends one record built natively, converting it first when writing
 * the other byte order. */
static int out_record(struct pev_data_writer *w, void *rec, size_t len)
{
	if (w->opts.foreign_endian) {
		int r = pev_record_swap(w->dec, rec, len, PEV_SWAP_TO_FOREIGN);

		if (r < 0)
			return r;
	}
	return out(w, rec, len);
}

static uint64_t fix64(const struct pev_data_writer *w, uint64_t v)
{
	return w->opts.foreign_endian ? bswap_64(v) : v;
}

/* ---- start */

static int write_header(struct pev_data_writer *w, bool final,
			const uint64_t *feats);

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
	int r = out(w, b.p, b.len);

	free(b.p);
	if (r == 0)	/* the placeholder header: data.size 0 */
		r = write_header(w, false, NULL);
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

static int fill_event_desc(struct pev_data_writer *w);
static void fill_compressed(struct pev_data_writer *w);

static int start_pipe(struct pev_data_writer *w)
{
	uint64_t hdr[2] = { fix64(w, PERF_MAGIC2), fix64(w, PIPE_HEADER_SIZE) };
	int r = fill_event_desc(w);

	fill_compressed(w);
	if (r == 0)
		r = out(w, hdr, sizeof(hdr));

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
			r = out(w, w->feat.tracing_data, sz);
		if (r == 0 && pad)
			r = out(w, "\0\0\0\0\0\0\0", pad);
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
	int r = out(w, buf, len);

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

/* ---- finish */

/* final: data.size is the data written (else 0, which readers take as
 * "unfinished"); feats: the feature bitmap (NULL: none). */
static int write_header(struct pev_data_writer *w, bool final,
			const uint64_t *feats)
{
	struct file_header h = {
		.magic = PERF_MAGIC2, .size = FILE_HEADER_SIZE,
		.attr_size = w->attr_size + 16,
		.attrs = { w->attrs_offset, w->nattrs * (w->attr_size + 16ULL) },
		.data = { w->data_offset, final ? w->data_size : 0 },
	};

	if (feats)
		memcpy(h.features, feats, sizeof(h.features));
	if (w->opts.foreign_endian)
		pev__feat_header_swap(&h);
	return out_at(w, &h, sizeof(h), 0);
}

static int fill_event_desc(struct pev_data_writer *w)
{
	struct pev_data_features *f = &w->feat;

	if (!pev_data_features_has(f, PEV_FEAT_EVENT_DESC)) {
		f->event_desc = calloc(w->nattrs, sizeof(*f->event_desc));
		if (!f->event_desc)
			return -ENOMEM;
		f->nr_event_desc = (uint32_t)w->nattrs;
		for (size_t i = 0; i < w->nattrs; i++) {
			struct pev_data_event_desc *e = &f->event_desc[i];

			e->attr = w->attrs[i].attr;
			e->attr.attr.size = w->attr_size;
			e->attr_size = w->attr_size;
			e->name = strdup(w->attrs[i].name ? w->attrs[i].name : "");
			e->ids = malloc((w->attrs[i].nids ? w->attrs[i].nids : 1) * 8);
			if (!e->name || !e->ids)
				return -ENOMEM;
			memcpy(e->ids, w->attrs[i].ids, w->attrs[i].nids * 8);
			e->nr_ids = (uint32_t)w->attrs[i].nids;
		}
		pev_data_features_set(f, PEV_FEAT_EVENT_DESC, true);
	}
	return 0;
}

static int fill_auto_features(struct pev_data_writer *w)
{
	struct pev_data_features *f = &w->feat;
	int r = fill_event_desc(w);

	if (r < 0)
		return r;
	fill_compressed(w);
	if (w->t_first <= w->t_last) {
		f->first_sample_time = w->t_first;
		f->last_sample_time = w->t_last;
		pev_data_features_set(f, PEV_FEAT_SAMPLE_TIME, true);
	}
	return 0;
}

static void fill_compressed(struct pev_data_writer *w)
{
	struct pev_data_features *f = &w->feat;

	if (w->zctx) {
		f->compressed.version = 0;	/* as perf 6.1 */
		f->compressed.type = 1;		/* PERF_COMP_ZSTD */
		f->compressed.level = (uint32_t)w->opts.compress_level;
		f->compressed.ratio = w->data_size ?
			(uint32_t)(w->raw_size / w->data_size) : 0;
		/* perf decompresses each record into a buffer of mmap_len
		 * bytes; one record never holds more than one write call. */
		f->compressed.mmap_len = (uint32_t)(w->max_chunk > 528384 ?
						    w->max_chunk : 528384);
		pev_data_features_set(f, PEV_FEAT_COMPRESSED, true);
	}
}

/* Ends the file at `end`; pipes and character devices cannot be cut
 * (EINVAL) and need not be. */
static int cut_at(struct pev_data_writer *w, uint64_t end)
{
	if (ftruncate(w->fd, (off_t)end) < 0 && errno != EINVAL)
		return -errno;
	return 0;
}

static bool bit_set(const uint64_t *map, unsigned bit)
{
	return map[bit / 64] >> (bit % 64) & 1;
}

/* The encoded feature sections. */
struct feat_set {
	void *pl[PEV_FEAT_BITS];
	size_t len[PEV_FEAT_BITS];
	uint64_t bits[PEV_FEAT_BITS / 64];
	size_t n;
	uint64_t bytes;		/* index entries and payloads */
};

static void feat_set_release(struct feat_set *s)
{
	for (unsigned f = 0; f < PEV_FEAT_BITS; f++)
		free(s->pl[f]);
}

/* Encodes the features (those also in `only`, when not NULL). */
static int encode_features(struct pev_data_writer *w, const uint64_t *only,
			   struct feat_set *s)
{
	int r = fill_auto_features(w);

	memset(s, 0, sizeof(*s));
	for (unsigned f = 1; f < PEV_FEAT_BITS && r == 0; f++) {
		if (!pev_data_features_has(&w->feat, f) ||
		    (only && !bit_set(only, f)))
			continue;
		r = pev_data_feature_encode(&w->feat, f, w->opts.foreign_endian,
					    &s->pl[f], &s->len[f]);
		if (r == -ENOENT) {	/* nothing to write: drop the bit */
			pev_data_features_set(&w->feat, f, false);
			r = 0;
		} else if (r == 0) {
			s->bits[f / 64] |= 1ULL << (f % 64);
			s->n++;
			s->bytes += sizeof(struct file_section) + s->len[f];
		}
	}
	return r;
}

/* Writes the features (those also in `only`, when not NULL) after the
 * data, then the final header. */
static int finish_file(struct pev_data_writer *w, const uint64_t *only)
{
	struct feat_set s;
	int r = encode_features(w, only, &s);
	struct file_section *idx = calloc(s.n ? s.n : 1, sizeof(*idx));

	if (!idx && r == 0)
		r = -ENOMEM;
	if (r == 0) {
		uint64_t off = w->data_offset + w->data_size + s.n * sizeof(*idx);
		size_t k = 0;

		w->pos = w->data_offset + w->data_size;
		for (unsigned f = 1; f < PEV_FEAT_BITS; f++) {
			if (!s.pl[f])
				continue;
			idx[k].offset = fix64(w, off);
			idx[k].size = fix64(w, s.len[f]);
			off += s.len[f];
			k++;
		}
		r = out(w, idx, s.n * sizeof(*idx));
		for (unsigned f = 1; f < PEV_FEAT_BITS && r == 0; f++)
			if (s.pl[f])
				r = out(w, s.pl[f], s.len[f]);
	}
	feat_set_release(&s);
	free(idx);
	if (r == 0)
		r = write_header(w, true, s.bits);
	/* A file that held more before (O_TRUNC forgotten) must not keep a
	 * stale tail. */
	if (r == 0)
		r = cut_at(w, w->pos);
	return r;
}

PEV_EXPORT int pev_data_writer_features_size(struct pev_data_writer *w,
					     uint64_t *size)
{
	struct feat_set s;
	int r;

	if (!w->started || w->complete)
		return -EINVAL;
	if (w->opts.pipe)
		return -ESPIPE;
	r = encode_features(w, NULL, &s);
	feat_set_release(&s);
	if (r == 0)
		*size = s.bytes;
	return r;
}

PEV_EXPORT int pev_data_writer_finish(struct pev_data_writer *w)
{
	if (!w->started || w->finished)
		return -EINVAL;
	if (w->err)
		return w->err;
	w->finished = true;
	int r = w->opts.pipe ? 0 : finish_file(w, NULL);

	w->complete = r == 0;
	return r;
}

PEV_EXPORT int pev_data_writer_finish_at(struct pev_data_writer *w,
					 uint64_t data_size)
{
	if (!w->started || w->complete)
		return -EINVAL;
	if (w->opts.pipe)
		return -ESPIPE;
	if (data_size > w->data_size)
		return -EINVAL;
	/* Everything after data_size is given up: the sticky error of the
	 * write that failed, and whatever the compressor still holds (its
	 * stream is complete up to the flush that ends every write call). */
	if (data_size == w->round_size)
		w->raw_size = w->round_raw;
	w->data_size = data_size;
	w->err = 0;
	w->finished = true;

	uint64_t end = w->data_offset + data_size;
	/* First a header that holds exactly the records that stay: from here
	 * on the file is valid whatever fails (it fits: it only overwrites). */
	int r = write_header(w, true, NULL);

	if (r < 0)
		return r;
	/* Cutting gives back the blocks of the partial round, so the
	 * features usually fit where it was.  Should the cut fail, the
	 * features overwrite the tail and finish_file cuts at their end. */
	cut_at(w, end);
	if (finish_file(w, NULL) == 0) {
		w->complete = true;
		return 0;
	}
	/* Still no room (or no memory).  perf cannot expand COMPRESSED
	 * records without the COMPRESSED feature: try it alone (36 bytes). */
	if (pev_data_features_has(&w->feat, PEV_FEAT_COMPRESSED)) {
		uint64_t only[PEV_FEAT_BITS / 64] = { 0 };

		only[PEV_FEAT_COMPRESSED / 64] |= 1ULL << (PEV_FEAT_COMPRESSED % 64);
		w->err = 0;
		cut_at(w, end);
		if (finish_file(w, only) == 0)
			return PEV_DATA_FEATURES_DROPPED;
	}
	/* The records alone; the header first, so that it never points at
	 * features the cut removes. */
	w->err = 0;
	w->pos = end;
	r = write_header(w, true, NULL);
	if (r < 0)
		return r;
	cut_at(w, end);	/* if it fails, the stale tail lies past data.size */
	return PEV_DATA_FEATURES_DROPPED;
}
