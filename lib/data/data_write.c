// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf.data writer, the object and what its two halves write with: the
 * attrs it holds, low-level output (either byte order, files and pipes),
 * the file header and the features it fills itself.  Set-up and streaming
 * are in data_write_stream.c, the end of a file in data_write_end.c; this
 * file calls neither. */
#include <errno.h>
#include <poll.h>
#include <unistd.h>
#include <zstd.h>

#include "data/data_write.h"

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

int pev__dw_out_at(struct pev_data_writer *w, const void *buf, size_t len,
		  uint64_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = w->opts.pipe ? write(w->fd, p, len) :
			pwrite(w->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		/* A non-blocking stdout (a pipe its reader set O_NONBLOCK on):
		 * wait until it takes more, as a blocking write would. */
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = w->fd, .events = POLLOUT };

			if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
				return w->err = -errno;
			continue;
		}
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
int pev__dw_out(struct pev_data_writer *w, const void *buf, size_t len)
{
	int r = pev__dw_out_at(w, buf, len, w->pos);

	if (r == 0)
		w->pos += len;
	return r;
}

uint64_t pev__dw_fix64(const struct pev_data_writer *w, uint64_t v)
{
	return w->opts.foreign_endian ? bswap_64(v) : v;
}

/* ---- the header and the features the writer fills itself */

/* final: data.size is the data written (else 0, which readers take as
 * "unfinished"); feats: the feature bitmap (NULL: none). */
int pev__dw_write_header(struct pev_data_writer *w, bool final,
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
	return pev__dw_out_at(w, &h, sizeof(h), 0);
}

int pev__dw_fill_event_desc(struct pev_data_writer *w)
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

void pev__dw_fill_compressed(struct pev_data_writer *w)
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
