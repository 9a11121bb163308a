/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to the perf.data code: file layout constants and the byte
 * buffer / cursor helpers shared by the writer, reader and features. */
#ifndef PEV_DATA_INTERNAL_H
#define PEV_DATA_INTERNAL_H

#include <byteswap.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/data.h>
#include <perfev/order.h>

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL
#define FILE_HEADER_SIZE	104
#define PIPE_HEADER_SIZE	16
#define NAME_ALIGN		64
#define COMPRESSED_MAX		65536	/* PERF_SAMPLE_MAX_SIZE */

struct file_section { uint64_t offset, size; };
struct file_header {
	uint64_t magic, size, attr_size;
	struct file_section attrs, data, event_types;
	uint64_t features[4];
};

/* ---- data_buf.c: the ground every other data_*.c file builds on */

/* A growing output buffer; `err` sticks once an allocation fails. */
struct obuf {
	unsigned char *p;
	size_t len, cap;
	bool foreign;		/* store integers byte-swapped */
	int err;
};
void pev__ob_put(struct obuf *b, const void *d, size_t n);
void pev__ob_zero(struct obuf *b, size_t n);
void pev__ob_u16(struct obuf *b, uint16_t v);
void pev__ob_u32(struct obuf *b, uint32_t v);
void pev__ob_u64(struct obuf *b, uint64_t v);
void pev__ob_str(struct obuf *b, const char *s);	/* u32 len + NAME_ALIGN pad */
void pev__ob_pad8(struct obuf *b);

/* A bounds-checked input cursor; `bad` sticks once a read runs past end. */
struct ibuf {
	const unsigned char *p;
	size_t len, pos;
	bool swap;
	bool bad;
};
uint16_t pev__ib_u16(struct ibuf *c);
uint32_t pev__ib_u32(struct ibuf *c);
uint64_t pev__ib_u64(struct ibuf *c);
const void *pev__ib_bytes(struct ibuf *c, size_t n);
char *pev__ib_str(struct ibuf *c);		/* malloc'ed; NULL when bad */

void pev__feat_header_swap(struct file_header *h);
char *pev__strndup0(const char *s, size_t max);

/* The system-description features (CACHE, MEM_TOPOLOGY, *PMU_CAPS,
 * HYBRID_TOPOLOGY, DIR_FORMAT, AUXTRACE, BPF_*), data_feat_sys.c.
 * encode: 0 or -ENOENT (not one of them); parse: 0, -EBADMSG, -ENOMEM,
 * -ENOENT; release frees their fields. */
int pev__feat_sys_encode(const struct pev_data_features *f, unsigned feat,
			 struct obuf *b);
int pev__feat_sys_parse(struct pev_data_features *f, unsigned feat,
			struct ibuf *c);
void pev__feat_sys_release(struct pev_data_features *f);
/* Frees the fields of one of CACHE, MEM_TOPOLOGY, CPU_PMU_CAPS, PMU_CAPS,
 * zeroes them and clears the feature's bit; other ids: nothing. */
void pev__feat_sys_clear(struct pev_data_features *f, unsigned feat);


/* ---- the reader, shared by data_read.c, data_iter.c and data_meta.c */

/* A buffer of decompressed records, alive while records in it are queued
 * or handed out. */
struct dchunk {
	unsigned char *p;
	size_t len, pos;	/* pos: next record */
	unsigned refs;		/* the reader's + queued/held records */
	uint64_t offset;	/* of the COMPRESSED record that ended it */
};

/* Aligned copies of records that sit at odd offsets (after COMPRESSED or
 * HEADER_FEATURE records, whose sizes are not multiples of 8). */
struct arena {
	struct arena *next;
	size_t len, cap;
	uint64_t data[];
};

/* One file of a perf.data directory (perf record --threads): the main
 * file's data section (segs[0]) and each non-empty data.N, read one after
 * the other; buf/len/data_off/data_end of pev_data are the current one's. */
struct dseg {
	unsigned char *buf;
	size_t len;
	uint64_t off, end;
};

struct pev_data {
	unsigned char *buf;
	size_t len;
	bool mapped;		/* buf is a private mmap */
	bool pipe, swap, strict;
	struct file_header hdr;
	uint64_t data_off, data_end;
	bool recovering;	/* stop quietly at a record cut by EOF */
	struct pev_data_cut cut;	/* what recovery found (pev_data_cut_info) */
	struct pev_decoder *dec;
	char **names;
	size_t nnames;
	struct pev_data_features feat;
	const void *raw_feat[PEV_FEAT_BITS];
	size_t raw_feat_size[PEV_FEAT_BITS];
	char err[320];
	char recovered[320];
	/* iteration */
	uint64_t pos;		/* next record in buf */
	uint64_t swapped_upto;	/* buf records before this are native */
	uint64_t released_upto;	/* mapped pages before this given back */
	uint64_t window;	/* pages this far behind pos are given back */
	uint64_t meta_upto;	/* user records before this were processed */
	void *dctx;		/* ZSTD_DCtx */
	struct dchunk *chunk;	/* decompressed records being handed out */
	unsigned char *carry;	/* a record cut by a COMPRESSED boundary */
	size_t carry_len;
	struct arena *arena;
	struct pev_order *q;
	bool final;
	struct dchunk *held;	/* chunk of the record last handed out */
	uint64_t out_of_order;
	bool ordered_used, plain_used;
	struct dseg *segs;	/* a directory: its files, else NULL */
	size_t nsegs, cur_seg;
};

/* data_iter.c: makes file i of a directory the current one (its data
 * from the start); the offset of a record p in whichever file holds it. */
void pev__data_seg_switch(struct pev_data *d, size_t i);
uint64_t pev__data_offset_of(const struct pev_data *d, const void *p);

/* A raw record from the stream. */
struct raw_rec {
	const void *p;
	uint32_t type;
	uint16_t size;
	uint64_t offset;
	struct dchunk *chunk;	/* NULL: in buf */
};

/* data_meta.c: what the opener and the iterator both feed (data_read.c
 * -> data_iter.c -> data_meta.c).  set_error keeps the message and returns
 * err. */
int pev__data_set_error(struct pev_data *d, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Adds the event a (asz bytes read of it) with its ids to the decoder;
 * 0 or -errno with the error set. */
int pev__data_add_event(struct pev_data *d, struct pev_attr *a, size_t asz,
			const uint64_t *ids, size_t nids);
/* Metadata user records (pipe mode and perf inject): attrs, features,
 * names, tracing data, build ids. 0 or -errno. */
int pev__data_process_meta(struct pev_data *d, const struct raw_rec *r,
		      const void *extra, size_t extra_len);

/* data_iter.c: the raw record stream, used by the opener to prescan a
 * pipe and to release iteration state. */
void pev__data_iter_release(struct pev_data *d);
int pev__data_next_raw(struct pev_data *d, struct raw_rec *out);

#endif
