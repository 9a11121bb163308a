/* SPDX-License-Identifier: GPL-2.0-only */
/* A fake ring for unit tests: a user page and a data area in malloc'd
 * memory, and a writer that places records as the kernel would. */
#ifndef RING_FAKE_H
#define RING_FAKE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>

#define FAKE_PAGE 4096

struct fake {
	unsigned char *mem;
	size_t len;
	struct perf_event_mmap_page *pc;
	unsigned char *data;
	uint64_t size;
};

/* data_size bytes of data after one page; explicit = write data_offset /
 * data_size into the page (else the reader must fall back). */
static inline void fake_init(struct fake *f, uint64_t data_size, int explicit_layout)
{
	f->len = FAKE_PAGE + data_size;
	void *p = NULL;
	if (posix_memalign(&p, FAKE_PAGE, f->len))
		abort();
	f->mem = p;
	memset(f->mem, 0, f->len);
	f->pc = (struct perf_event_mmap_page *)f->mem;
	f->data = f->mem + FAKE_PAGE;
	f->size = data_size;
	if (explicit_layout) {
		f->pc->data_offset = FAKE_PAGE;
		f->pc->data_size = data_size;
	}
}

static inline struct pev_ring *fake_ring(struct fake *f, enum pev_ring_mode mode)
{
	struct pev_ring_memory m = { .size = sizeof(m), .base = f->mem, .len = f->len,
				     .page_size = FAKE_PAGE };
	return pev_ring_from_memory(&m, mode);
}

/* Write bytes at ring position pos, wrapping. */
static inline void fake_put(struct fake *f, uint64_t pos, const void *src, size_t len)
{
	for (size_t i = 0; i < len; i++)
		f->data[(pos + i) & (f->size - 1)] = ((const unsigned char *)src)[i];
}

/* Build a record image: header {type, misc 0, size len}, then a u64
 * sequence number, then bytes derived from seq. */
static inline void fake_record(unsigned char *buf, uint32_t type, uint16_t len, uint64_t seq)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = len };
	memcpy(buf, &h, sizeof(h));
	for (size_t i = sizeof(h); i < len; i++)
		buf[i] = (unsigned char)(seq * 31 + i);
	if (len >= 16)
		memcpy(buf + 8, &seq, 8);
}

static inline void fake_free(struct fake *f)
{
	free(f->mem);
}

#endif
