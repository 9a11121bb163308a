/* Private to the perf.data code: file layout constants and the byte
 * buffer / cursor helpers shared by the writer, reader and features. */
#ifndef PEV_DATA_INTERNAL_H
#define PEV_DATA_INTERNAL_H

#include <byteswap.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/data.h>

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

/* A growing output buffer; `err` sticks once an allocation fails. */
struct obuf {
	unsigned char *p;
	size_t len, cap;
	bool foreign;		/* store integers byte-swapped */
	int err;
};
void ob_put(struct obuf *b, const void *d, size_t n);
void ob_zero(struct obuf *b, size_t n);
void ob_u16(struct obuf *b, uint16_t v);
void ob_u32(struct obuf *b, uint32_t v);
void ob_u64(struct obuf *b, uint64_t v);
void ob_str(struct obuf *b, const char *s);	/* u32 len + NAME_ALIGN pad */
void ob_pad8(struct obuf *b);

/* A bounds-checked input cursor; `bad` sticks once a read runs past end. */
struct ibuf {
	const unsigned char *p;
	size_t len, pos;
	bool swap;
	bool bad;
};
uint16_t ib_u16(struct ibuf *c);
uint32_t ib_u32(struct ibuf *c);
uint64_t ib_u64(struct ibuf *c);
const void *ib_bytes(struct ibuf *c, size_t n);
char *ib_str(struct ibuf *c);		/* malloc'ed; NULL when bad */

void feat_header_swap(struct file_header *h);
char *pev_strndup0(const char *s, size_t max);

#endif
