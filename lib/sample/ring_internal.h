/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private: the ring object shared by ring.c (mapping, AUX, poll) and
 * ring_read.c (the read protocol). */
#ifndef PEV_RING_INTERNAL_H
#define PEV_RING_INTERNAL_H

#include <stdarg.h>
#include <perfev/ring.h>

struct pev_ring {
	int fd;				/* -1 for memory rings */
	enum pev_ring_mode mode;
	bool mapped;			/* base (and aux) came from mmap */
	void *base;
	size_t map_len;
	size_t page_size;
	struct perf_event_mmap_page *pc;
	unsigned char *data;
	uint64_t size;			/* data area bytes, a power of two */
	uint64_t mask;
	unsigned data_pages;

	/* The read batch.  Positions are the kernel's free-running u64
	 * offsets (data_head/data_tail), reduced with mask on access. */
	bool in_batch;
	bool paused;			/* we hold PAUSE_OUTPUT */
	bool batch_bad;			/* read_next met a corrupt header */
	uint64_t prev;			/* forward: our tail; backward: the
					 * oldest position not yet handed out */
	uint64_t start, end, pos;	/* forward: [pos, end) unread;
					 * backward: [start, end) walked */
	uint64_t *offs;			/* backward: record positions, newest
					 * (lowest) first */
	size_t n_offs, cap_offs;
	size_t bwd_left;		/* backward: offs[0..bwd_left) unread */
	unsigned char *scratch;		/* 64 KiB: a record's u16 size max */
	uint64_t lost;

	unsigned char *aux;
	uint64_t aux_size;
	bool aux_mapped, aux_overwrite;
	uint64_t aux_pos;		/* what we consumed (our aux_tail) */
	uint64_t aux_snap;		/* aux_head at the last aux_read */

	char reason[256];
};

/* The len bytes at offset pos of the circular buffer base (size a power
 * of two) as up to two spans, the second after the wrap; returns how many. */
int pev__ring_spans(struct pev_ring_span span[2], const unsigned char *base,
		    uint64_t size, uint64_t pos, uint64_t len);

/* Store a reason (printf-style) in r->reason; returns -err. */
int pev__ring_fail(struct pev_ring *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
