// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf.data feature payloads that describe the machine and the file
 * layout: CACHE, MEM_TOPOLOGY, CPU_PMU_CAPS, PMU_CAPS, HYBRID_TOPOLOGY,
 * DIR_FORMAT, AUXTRACE, and the sizes of BPF_PROG_INFO / BPF_BTF.
 * Layouts are perf's (tools/perf/util/header.c write_* / process_*).
 *
 * Each parser builds into locals and moves them into the struct only when
 * the whole payload was good, so a rejected payload leaves nothing behind
 * (the reader then keeps the bytes raw). */
#include <errno.h>

#include "data/data_internal.h"

/* ---- release helpers */

static void free_caps(struct pev_data_pmu_cap *c, uint32_t n)
{
	for (uint32_t i = 0; c && i < n; i++) {
		free(c[i].name);
		free(c[i].value);
	}
	free(c);
}

static void free_caches(struct pev_data_cache *c, uint32_t n)
{
	for (uint32_t i = 0; c && i < n; i++) {
		free(c[i].type);
		free(c[i].size);
		free(c[i].map);
	}
	free(c);
}

static void free_mem_nodes(struct pev_data_mem_node *m, uint64_t n)
{
	for (uint64_t i = 0; m && i < n; i++)
		free(m[i].bitmap);
	free(m);
}

static void free_pmu_caps(struct pev_data_pmu_caps *p, uint32_t n)
{
	for (uint32_t i = 0; p && i < n; i++) {
		free(p[i].pmu_name);
		free_caps(p[i].caps, p[i].nr_caps);
	}
	free(p);
}

static void free_hybrid(struct pev_data_hybrid_node *h, uint32_t n)
{
	for (uint32_t i = 0; h && i < n; i++) {
		free(h[i].pmu_name);
		free(h[i].cpus);
	}
	free(h);
}

void pev__feat_sys_release(struct pev_data_features *f)
{
	free_caches(f->caches, f->nr_caches);
	free_mem_nodes(f->mem_nodes, f->nr_mem_nodes);
	free_caps(f->cpu_pmu_caps, f->nr_cpu_pmu_caps);
	free_pmu_caps(f->pmu_caps, f->nr_pmu_caps);
	free_hybrid(f->hybrid_nodes, f->nr_hybrid_nodes);
	free(f->auxtrace_index);
}

void pev__feat_sys_clear(struct pev_data_features *f, unsigned feat)
{
	switch (feat) {
	case PEV_FEAT_CACHE:
		free_caches(f->caches, f->nr_caches);
		f->caches = NULL;
		f->nr_caches = 0;
		break;
	case PEV_FEAT_MEM_TOPOLOGY:
		free_mem_nodes(f->mem_nodes, f->nr_mem_nodes);
		f->mem_nodes = NULL;
		f->nr_mem_nodes = 0;
		f->mem_block_size = 0;
		break;
	case PEV_FEAT_CPU_PMU_CAPS:
		free_caps(f->cpu_pmu_caps, f->nr_cpu_pmu_caps);
		f->cpu_pmu_caps = NULL;
		f->nr_cpu_pmu_caps = 0;
		break;
	case PEV_FEAT_PMU_CAPS:
		free_pmu_caps(f->pmu_caps, f->nr_pmu_caps);
		f->pmu_caps = NULL;
		f->nr_pmu_caps = 0;
		break;
	default:
		return;
	}
	pev_data_features_set(f, feat, false);
}

/* ---- encoding */

/* Bitmap words for `bits` bits, without overflowing near UINT64_MAX. */
static uint64_t bitmap_words(uint64_t bits)
{
	return bits / 64 + (bits % 64 != 0);
}

static void enc_caps(struct obuf *b, const struct pev_data_pmu_cap *c,
		     uint32_t n)
{
	pev__ob_u32(b, n);
	for (uint32_t i = 0; i < n; i++) {
		pev__ob_str(b, c[i].name);
		pev__ob_str(b, c[i].value);
	}
}

int pev__feat_sys_encode(const struct pev_data_features *f, unsigned feat,
			 struct obuf *b)
{
	switch (feat) {
	case PEV_FEAT_CACHE:
		pev__ob_u32(b, 1);	/* version */
		pev__ob_u32(b, f->nr_caches);
		for (uint32_t i = 0; i < f->nr_caches; i++) {
			const struct pev_data_cache *e = &f->caches[i];

			pev__ob_u32(b, e->level);
			pev__ob_u32(b, e->line_size);
			pev__ob_u32(b, e->sets);
			pev__ob_u32(b, e->ways);
			pev__ob_str(b, e->type);
			pev__ob_str(b, e->size);
			pev__ob_str(b, e->map);
		}
		return 0;
	case PEV_FEAT_MEM_TOPOLOGY:
		pev__ob_u64(b, 1);	/* version */
		pev__ob_u64(b, f->mem_block_size);
		pev__ob_u64(b, f->nr_mem_nodes);
		for (uint64_t i = 0; i < f->nr_mem_nodes; i++) {
			const struct pev_data_mem_node *n = &f->mem_nodes[i];
			uint64_t words = bitmap_words(n->size);

			/* perf writes the size twice: the node's, then the
			 * bitmap's own (do_write_bitmap). */
			pev__ob_u64(b, n->node);
			pev__ob_u64(b, n->size);
			pev__ob_u64(b, n->size);
			for (uint64_t w = 0; w < words; w++)
				pev__ob_u64(b, n->bitmap ? n->bitmap[w] : 0);
		}
		return 0;
	case PEV_FEAT_CPU_PMU_CAPS:
		enc_caps(b, f->cpu_pmu_caps, f->nr_cpu_pmu_caps);
		return 0;
	case PEV_FEAT_PMU_CAPS:
		pev__ob_u32(b, f->nr_pmu_caps);
		for (uint32_t i = 0; i < f->nr_pmu_caps; i++) {
			enc_caps(b, f->pmu_caps[i].caps, f->pmu_caps[i].nr_caps);
			pev__ob_str(b, f->pmu_caps[i].pmu_name);
		}
		return 0;
	case PEV_FEAT_HYBRID_TOPOLOGY:
		pev__ob_u32(b, f->nr_hybrid_nodes);
		for (uint32_t i = 0; i < f->nr_hybrid_nodes; i++) {
			pev__ob_str(b, f->hybrid_nodes[i].pmu_name);
			pev__ob_str(b, f->hybrid_nodes[i].cpus);
		}
		return 0;
	case PEV_FEAT_DIR_FORMAT:
		pev__ob_u64(b, f->dir_format_version);
		return 0;
	case PEV_FEAT_AUXTRACE:
		pev__ob_u64(b, f->nr_auxtrace_index);
		for (uint64_t i = 0; i < f->nr_auxtrace_index; i++) {
			pev__ob_u64(b, f->auxtrace_index[i].file_offset);
			pev__ob_u64(b, f->auxtrace_index[i].size);
		}
		return 0;
	default:
		return -ENOENT;	/* BPF_*: no bytes kept to write back */
	}
}

/* ---- parsing */

/* calloc for nr entries that each take at least min_each payload bytes:
 * a count the payload cannot hold is rejected before allocating.  NULL
 * with *err -EBADMSG (bad count, earlier short read) or -ENOMEM. */
static void *ib_calloc(struct ibuf *c, uint64_t nr, size_t min_each,
		       size_t elem, int *err)
{
	if (c->bad || nr > (c->len - c->pos) / min_each) {
		c->bad = true;
		*err = -EBADMSG;
		return NULL;
	}
	void *v = calloc(nr ? (size_t)nr : 1, elem);

	if (!v)
		*err = -ENOMEM;
	return v;
}

/* {name, value} pairs; 4+4 bytes at least each. */
static struct pev_data_pmu_cap *ib_caps(struct ibuf *c, uint32_t *nr_out,
					int *err)
{
	uint32_t nr = pev__ib_u32(c);
	struct pev_data_pmu_cap *v = ib_calloc(c, nr, 8, sizeof(*v), err);

	if (!v)
		return NULL;
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		v[i].name = pev__ib_str(c);
		v[i].value = pev__ib_str(c);
	}
	if (c->bad) {
		free_caps(v, nr);
		*err = -EBADMSG;
		return NULL;
	}
	*nr_out = nr;
	return v;
}

static int parse_cache(struct pev_data_features *f, struct ibuf *c)
{
	uint32_t version = pev__ib_u32(c), nr = pev__ib_u32(c);

	if (c->bad || version != 1 || f->caches)
		return -EBADMSG;
	/* 16 bytes of numbers and three string lengths each */
	int r = 0;
	struct pev_data_cache *v = ib_calloc(c, nr, 28, sizeof(*v), &r);

	if (!v)
		return r;
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		v[i].level = pev__ib_u32(c);
		v[i].line_size = pev__ib_u32(c);
		v[i].sets = pev__ib_u32(c);
		v[i].ways = pev__ib_u32(c);
		v[i].type = pev__ib_str(c);
		v[i].size = pev__ib_str(c);
		v[i].map = pev__ib_str(c);
	}
	if (c->bad) {
		free_caches(v, nr);
		return -EBADMSG;
	}
	f->caches = v;
	f->nr_caches = nr;
	return 0;
}

static int parse_mem_topology(struct pev_data_features *f, struct ibuf *c)
{
	uint64_t version = pev__ib_u64(c), bsize = pev__ib_u64(c);
	uint64_t nr = pev__ib_u64(c);

	if (c->bad || version != 1 || f->mem_nodes)
		return -EBADMSG;
	int r = 0;
	struct pev_data_mem_node *v = ib_calloc(c, nr, 24, sizeof(*v), &r);

	if (!v)
		return r;

	for (uint64_t i = 0; i < nr && !c->bad; i++) {
		v[i].node = pev__ib_u64(c);
		pev__ib_u64(c);		/* the node's size; the bitmap's wins */
		v[i].size = pev__ib_u64(c);
		uint64_t words = bitmap_words(v[i].size);

		if (c->bad || words > (c->len - c->pos) / 8) {
			c->bad = true;
			break;
		}
		v[i].bitmap = calloc(words ? (size_t)words : 1, 8);
		if (!v[i].bitmap) {
			r = -ENOMEM;
			break;
		}
		for (uint64_t w = 0; w < words; w++)
			v[i].bitmap[w] = pev__ib_u64(c);
	}
	if (c->bad || r) {
		free_mem_nodes(v, nr);
		return r ? r : -EBADMSG;
	}
	f->mem_block_size = bsize;
	f->mem_nodes = v;
	f->nr_mem_nodes = nr;
	return 0;
}

static int parse_pmu_caps(struct pev_data_features *f, struct ibuf *c)
{
	uint32_t nr = pev__ib_u32(c);

	if (c->bad || f->pmu_caps)
		return -EBADMSG;
	/* nr_caps and the name's length at least */
	int r = 0;
	struct pev_data_pmu_caps *v = ib_calloc(c, nr, 8, sizeof(*v), &r);

	if (!v)
		return r;

	for (uint32_t i = 0; i < nr && !r; i++) {
		v[i].caps = ib_caps(c, &v[i].nr_caps, &r);
		if (!r)
			v[i].pmu_name = pev__ib_str(c);
		if (!r && c->bad)
			r = -EBADMSG;
	}
	if (r) {
		free_pmu_caps(v, nr);
		return r;
	}
	f->pmu_caps = v;
	f->nr_pmu_caps = nr;
	return 0;
}

static int parse_hybrid(struct pev_data_features *f, struct ibuf *c)
{
	uint32_t nr = pev__ib_u32(c);

	if (c->bad || f->hybrid_nodes)
		return -EBADMSG;
	int r = 0;
	struct pev_data_hybrid_node *v = ib_calloc(c, nr, 8, sizeof(*v), &r);

	if (!v)
		return r;
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		v[i].pmu_name = pev__ib_str(c);
		v[i].cpus = pev__ib_str(c);
	}
	if (c->bad) {
		free_hybrid(v, nr);
		return -EBADMSG;
	}
	f->hybrid_nodes = v;
	f->nr_hybrid_nodes = nr;
	return 0;
}

static int parse_auxtrace(struct pev_data_features *f, struct ibuf *c)
{
	uint64_t nr = pev__ib_u64(c);

	if (c->bad || f->auxtrace_index)
		return -EBADMSG;
	int r = 0;
	struct pev_data_auxtrace_entry *v = ib_calloc(c, nr, 16, sizeof(*v), &r);

	if (!v)
		return r;
	for (uint64_t i = 0; i < nr; i++) {
		v[i].file_offset = pev__ib_u64(c);
		v[i].size = pev__ib_u64(c);
	}
	f->auxtrace_index = v;
	f->nr_auxtrace_index = nr;
	return 0;
}

int pev__feat_sys_parse(struct pev_data_features *f, unsigned feat,
			struct ibuf *c)
{
	switch (feat) {
	case PEV_FEAT_CACHE: return parse_cache(f, c);
	case PEV_FEAT_MEM_TOPOLOGY: return parse_mem_topology(f, c);
	case PEV_FEAT_CPU_PMU_CAPS: {
		int r = 0;

		if (f->cpu_pmu_caps)
			return -EBADMSG;
		struct pev_data_pmu_cap *v = ib_caps(c, &f->nr_cpu_pmu_caps, &r);

		if (!v)
			return r;
		f->cpu_pmu_caps = v;
		return 0;
	}
	case PEV_FEAT_PMU_CAPS: return parse_pmu_caps(f, c);
	case PEV_FEAT_HYBRID_TOPOLOGY: return parse_hybrid(f, c);
	case PEV_FEAT_DIR_FORMAT:
		f->dir_format_version = pev__ib_u64(c);
		return c->bad ? -EBADMSG : 0;
	case PEV_FEAT_AUXTRACE: return parse_auxtrace(f, c);
	case PEV_FEAT_BPF_PROG_INFO:
		f->bpf_prog_info_size = c->len;
		return 0;
	case PEV_FEAT_BPF_BTF:
		f->bpf_btf_size = c->len;
		return 0;
	default:
		return -ENOENT;
	}
}
