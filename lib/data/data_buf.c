// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The ground floor of the perf.data code: the growing output buffer, the
 * bounds-checked input cursor (both in either byte order), the file
 * header's byte swap and the feature bitmap and names.  Every other
 * data_*.c file builds on these; this one calls none of them. */
#include <errno.h>

#include "data/data_internal.h"

/* ---- output buffer */

static void ob_grow(struct obuf *b, size_t n)
{
	if (b->err)
		return;
	if (b->len + n <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;

	while (cap < b->len + n)
		cap *= 2;
	unsigned char *p = realloc(b->p, cap);

	if (!p) {
		b->err = -ENOMEM;
		return;
	}
	b->p = p;
	b->cap = cap;
}

void pev__ob_put(struct obuf *b, const void *d, size_t n)
{
	ob_grow(b, n);
	if (b->err || !n)
		return;
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

void pev__ob_zero(struct obuf *b, size_t n)
{
	ob_grow(b, n);
	if (b->err || !n)
		return;
	memset(b->p + b->len, 0, n);
	b->len += n;
}

void pev__ob_u16(struct obuf *b, uint16_t v)
{
	if (b->foreign)
		v = bswap_16(v);
	pev__ob_put(b, &v, 2);
}

void pev__ob_u32(struct obuf *b, uint32_t v)
{
	if (b->foreign)
		v = bswap_32(v);
	pev__ob_put(b, &v, 4);
}

void pev__ob_u64(struct obuf *b, uint64_t v)
{
	if (b->foreign)
		v = bswap_64(v);
	pev__ob_put(b, &v, 8);
}

void pev__ob_str(struct obuf *b, const char *s)
{
	size_t n = strlen(s ? s : "") + 1;
	size_t len = (n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

	pev__ob_u32(b, (uint32_t)len);
	pev__ob_put(b, s ? s : "", n - 1);
	pev__ob_zero(b, len - (n - 1));
}

void pev__ob_pad8(struct obuf *b)
{
	pev__ob_zero(b, (8 - b->len % 8) % 8);
}

/* ---- input cursor */

const void *pev__ib_bytes(struct ibuf *c, size_t n)
{
	if (c->bad || n > c->len - c->pos) {
		c->bad = true;
		return NULL;
	}
	const void *p = c->p + c->pos;

	c->pos += n;
	return p;
}

uint16_t pev__ib_u16(struct ibuf *c)
{
	uint16_t v = 0;
	const void *p = pev__ib_bytes(c, 2);

	if (p)
		memcpy(&v, p, 2);
	return c->swap ? bswap_16(v) : v;
}

uint32_t pev__ib_u32(struct ibuf *c)
{
	uint32_t v = 0;
	const void *p = pev__ib_bytes(c, 4);

	if (p)
		memcpy(&v, p, 4);
	return c->swap ? bswap_32(v) : v;
}

uint64_t pev__ib_u64(struct ibuf *c)
{
	uint64_t v = 0;
	const void *p = pev__ib_bytes(c, 8);

	if (p)
		memcpy(&v, p, 8);
	return c->swap ? bswap_64(v) : v;
}

char *pev__strndup0(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *r = malloc(n + 1);

	if (r) {
		memcpy(r, s, n);
		r[n] = 0;
	}
	return r;
}

char *pev__ib_str(struct ibuf *c)
{
	uint32_t len = pev__ib_u32(c);
	const char *p = pev__ib_bytes(c, len);

	if (!p)
		return NULL;
	char *r = pev__strndup0(p, len);

	if (!r)
		c->bad = true;
	return r;
}

void pev__feat_header_swap(struct file_header *h)
{
	uint64_t *w = (uint64_t *)h;

	for (size_t i = 0; i < sizeof(*h) / 8; i++)
		w[i] = bswap_64(w[i]);
}

/* ---- names and the bitmap */

static const char *const feat_names[] = {
	[1] = "TRACING_DATA", [2] = "BUILD_ID", [3] = "HOSTNAME",
	[4] = "OSRELEASE", [5] = "VERSION", [6] = "ARCH", [7] = "NRCPUS",
	[8] = "CPUDESC", [9] = "CPUID", [10] = "TOTAL_MEM", [11] = "CMDLINE",
	[12] = "EVENT_DESC", [13] = "CPU_TOPOLOGY", [14] = "NUMA_TOPOLOGY",
	[15] = "BRANCH_STACK", [16] = "PMU_MAPPINGS", [17] = "GROUP_DESC",
	[18] = "AUXTRACE", [19] = "STAT", [20] = "CACHE", [21] = "SAMPLE_TIME",
	[22] = "MEM_TOPOLOGY", [23] = "CLOCKID", [24] = "DIR_FORMAT",
	[25] = "BPF_PROG_INFO", [26] = "BPF_BTF", [27] = "COMPRESSED",
	[28] = "CPU_PMU_CAPS", [29] = "CLOCK_DATA", [30] = "HYBRID_TOPOLOGY",
	[31] = "PMU_CAPS", [32] = "CPU_DOMAIN_INFO",
};

PEV_EXPORT const char *pev_feat_name(unsigned feat)
{
	if (feat >= sizeof(feat_names) / sizeof(feat_names[0]))
		return NULL;
	return feat_names[feat];
}

PEV_EXPORT bool pev_data_features_has(const struct pev_data_features *f,
				      unsigned feat)
{
	return feat < PEV_FEAT_BITS && (f->present[feat / 64] >> (feat % 64) & 1);
}

PEV_EXPORT void pev_data_features_set(struct pev_data_features *f,
				      unsigned feat, bool on)
{
	if (feat >= PEV_FEAT_BITS)
		return;
	if (on)
		f->present[feat / 64] |= 1ULL << (feat % 64);
	else
		f->present[feat / 64] &= ~(1ULL << (feat % 64));
}
