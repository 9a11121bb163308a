/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to the perf.data writer (data_write.c: the object, low-level
 * output, the header; data_write_stream.c: set-up and streaming, and
 * data_write_end.c: the feature sections, the final header, cutting back,
 * both on top of data_write.c). */
#ifndef PEV_DATA_WRITE_H
#define PEV_DATA_WRITE_H

#include <zstd.h>

#include "data/data_internal.h"

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

/* Writes len bytes at file offset off (pipe mode: appends); a failure is
 * also kept as the writer's sticky error.  0 or -errno. */
int pev__dw_out_at(struct pev_data_writer *w, const void *buf, size_t len,
		   uint64_t off);
/* Appends at the current position (the stream, or the file's end). */
int pev__dw_out(struct pev_data_writer *w, const void *buf, size_t len);
/* v in the byte order being written. */
uint64_t pev__dw_fix64(const struct pev_data_writer *w, uint64_t v);
/* The file header; final: data.size is the data written (else 0, which
 * readers take as "unfinished"); feats: the feature bitmap (NULL: none). */
int pev__dw_write_header(struct pev_data_writer *w, bool final,
			 const uint64_t *feats);
/* EVENT_DESC from the attrs, unless the caller set it; 0 or -ENOMEM. */
int pev__dw_fill_event_desc(struct pev_data_writer *w);
/* The COMPRESSED feature, when compressing. */
void pev__dw_fill_compressed(struct pev_data_writer *w);

#endif
