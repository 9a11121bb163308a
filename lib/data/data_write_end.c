// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf.data writer, the end of a file: the feature sections after the
 * data and the final header (finish), and ending a file early at a round
 * boundary after a write failed (finish_at). */
#include <errno.h>
#include <unistd.h>

#include "data/data_write.h"

static int fill_auto_features(struct pev_data_writer *w)
{
	struct pev_data_features *f = &w->feat;
	int r = pev__dw_fill_event_desc(w);

	if (r < 0)
		return r;
	pev__dw_fill_compressed(w);
	if (w->t_first <= w->t_last) {
		f->first_sample_time = w->t_first;
		f->last_sample_time = w->t_last;
		pev_data_features_set(f, PEV_FEAT_SAMPLE_TIME, true);
	}
	return 0;
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
			idx[k].offset = pev__dw_fix64(w, off);
			idx[k].size = pev__dw_fix64(w, s.len[f]);
			off += s.len[f];
			k++;
		}
		r = pev__dw_out(w, idx, s.n * sizeof(*idx));
		for (unsigned f = 1; f < PEV_FEAT_BITS && r == 0; f++)
			if (s.pl[f])
				r = pev__dw_out(w, s.pl[f], s.len[f]);
	}
	feat_set_release(&s);
	free(idx);
	if (r == 0)
		r = pev__dw_write_header(w, true, s.bits);
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
	int r = pev__dw_write_header(w, true, NULL);

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
	r = pev__dw_write_header(w, true, NULL);
	if (r < 0)
		return r;
	cut_at(w, end);	/* if it fails, the stale tail lies past data.size */
	return PEV_DATA_FEATURES_DROPPED;
}
