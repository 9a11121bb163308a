// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf.data feature payloads (HEADER_*): plain data <-> bytes, in either
 * byte order.  The layouts are perf's (perf.data-file-format.txt). */
#include <errno.h>

#include "data/data_internal.h"

static void free_strs(char **s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

PEV_EXPORT void pev_data_features_release(struct pev_data_features *f)
{
	if (!f)
		return;
	free(f->hostname);
	free(f->osrelease);
	free(f->version);
	free(f->arch);
	free(f->cpudesc);
	free(f->cpuid);
	free_strs(f->cmdline, f->nr_cmdline);
	for (uint32_t i = 0; f->event_desc && i < f->nr_event_desc; i++) {
		free(f->event_desc[i].name);
		free(f->event_desc[i].ids);
	}
	free(f->event_desc);
	for (size_t i = 0; f->build_ids && i < f->nr_build_ids; i++)
		free(f->build_ids[i].filename);
	free(f->build_ids);
	free_strs(f->core_siblings, f->nr_core_siblings);
	free_strs(f->thread_siblings, f->nr_thread_siblings);
	free_strs(f->die_siblings, f->nr_die_siblings);
	free(f->topo_cpus);
	for (uint32_t i = 0; f->numa_nodes && i < f->nr_numa_nodes; i++)
		free(f->numa_nodes[i].cpus);
	free(f->numa_nodes);
	for (uint32_t i = 0; f->pmu_mappings && i < f->nr_pmu_mappings; i++)
		free(f->pmu_mappings[i].name);
	free(f->pmu_mappings);
	for (uint32_t i = 0; f->groups && i < f->nr_groups; i++)
		free(f->groups[i].name);
	free(f->groups);
	free(f->tracing_data);
	pev__feat_sys_release(f);
	memset(f, 0, sizeof(*f));
}

PEV_EXPORT int pev_data_features_set_cmdline(struct pev_data_features *f,
					     int argc, const char *const *argv)
{
	char **v = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		v[i] = strdup(argv[i] ? argv[i] : "");
		if (!v[i]) {
			free_strs(v, (size_t)i);
			return -ENOMEM;
		}
	}
	free_strs(f->cmdline, f->nr_cmdline);
	f->cmdline = v;
	f->nr_cmdline = (uint32_t)(argc > 0 ? argc : 0);
	pev_data_features_set(f, PEV_FEAT_CMDLINE, true);
	return 0;
}

PEV_EXPORT int pev_data_features_add_build_id(struct pev_data_features *f,
					      int32_t pid, uint16_t misc,
					      const uint8_t *id, size_t size,
					      const char *filename)
{
	if (size > 20 || !filename)
		return -EINVAL;
	struct pev_data_build_id *b = realloc(f->build_ids,
					      (f->nr_build_ids + 1) * sizeof(*b));

	if (!b)
		return -ENOMEM;
	f->build_ids = b;
	b += f->nr_build_ids;
	memset(b, 0, sizeof(*b));
	b->filename = strdup(filename);
	if (!b->filename)
		return -ENOMEM;
	b->pid = pid;
	b->misc = misc;
	b->size = (uint8_t)size;
	if (size)
		memcpy(b->id, id, size);
	f->nr_build_ids++;
	pev_data_features_set(f, PEV_FEAT_BUILD_ID, true);
	return 0;
}

/* ---- encoding */

static void ob_strlist(struct obuf *b, char *const *s, uint32_t n)
{
	pev__ob_u32(b, n);
	for (uint32_t i = 0; i < n; i++)
		pev__ob_str(b, s[i]);
}

static void enc_build_ids(struct obuf *b, const struct pev_data_features *f)
{
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct pev_data_build_id *e = &f->build_ids[i];
		size_t n = strlen(e->filename) + 1;
		/* perf 6.1 pads the name to NAME_ALIGN; readers step by size. */
		size_t len = (n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

		pev__ob_u32(b, 0);
		pev__ob_u16(b, (uint16_t)(e->misc | PEV_RECORD_MISC_BUILD_ID_SIZE));
		pev__ob_u16(b, (uint16_t)(36 + len));
		pev__ob_u32(b, (uint32_t)e->pid);
		pev__ob_put(b, e->id, 20);
		pev__ob_put(b, &e->size, 1);
		pev__ob_zero(b, 3);
		pev__ob_put(b, e->filename, n - 1);
		pev__ob_zero(b, len - (n - 1));
	}
}

static void enc_attr(struct obuf *b, const struct pev_attr *a, uint32_t size)
{
	struct pev_attr tmp;

	memcpy(&tmp, a, sizeof(tmp));
	if (b->foreign)
		pev_attr_swap(&tmp, size, PEV_SWAP_TO_FOREIGN);
	pev__ob_put(b, &tmp, size);
}

PEV_EXPORT int pev_data_feature_encode(const struct pev_data_features *f,
				       unsigned feat, bool foreign,
				       void **out, size_t *len)
{
	struct obuf b = { .foreign = foreign };

	if (!pev_data_features_has(f, feat))
		return -ENOENT;
	switch (feat) {
	case PEV_FEAT_TRACING_DATA:
		pev__ob_put(&b, f->tracing_data, f->tracing_data_size);
		break;
	case PEV_FEAT_BUILD_ID:
		enc_build_ids(&b, f);
		break;
	case PEV_FEAT_HOSTNAME: pev__ob_str(&b, f->hostname); break;
	case PEV_FEAT_OSRELEASE: pev__ob_str(&b, f->osrelease); break;
	case PEV_FEAT_VERSION: pev__ob_str(&b, f->version); break;
	case PEV_FEAT_ARCH: pev__ob_str(&b, f->arch); break;
	case PEV_FEAT_CPUDESC: pev__ob_str(&b, f->cpudesc); break;
	case PEV_FEAT_CPUID: pev__ob_str(&b, f->cpuid); break;
	case PEV_FEAT_NRCPUS:
		pev__ob_u32(&b, f->nr_cpus_avail);
		pev__ob_u32(&b, f->nr_cpus_online);
		break;
	case PEV_FEAT_TOTAL_MEM: pev__ob_u64(&b, f->total_mem); break;
	case PEV_FEAT_CMDLINE: ob_strlist(&b, f->cmdline, f->nr_cmdline); break;
	case PEV_FEAT_EVENT_DESC: {
		uint32_t asz = 64;

		for (uint32_t i = 0; i < f->nr_event_desc; i++)
			if (f->event_desc[i].attr_size > asz)
				asz = f->event_desc[i].attr_size;
		pev__ob_u32(&b, f->nr_event_desc);
		pev__ob_u32(&b, asz);
		for (uint32_t i = 0; i < f->nr_event_desc; i++) {
			const struct pev_data_event_desc *e = &f->event_desc[i];

			enc_attr(&b, &e->attr, asz);
			pev__ob_u32(&b, e->nr_ids);
			pev__ob_str(&b, e->name ? e->name : "");
			for (uint32_t j = 0; j < e->nr_ids; j++)
				pev__ob_u64(&b, e->ids[j]);
		}
		break;
	}
	case PEV_FEAT_CPU_TOPOLOGY:
		ob_strlist(&b, f->core_siblings, f->nr_core_siblings);
		ob_strlist(&b, f->thread_siblings, f->nr_thread_siblings);
		for (uint32_t i = 0; i < f->nr_topo_cpus; i++) {
			pev__ob_u32(&b, f->topo_cpus[i].core_id);
			pev__ob_u32(&b, f->topo_cpus[i].socket_id);
		}
		if (f->has_dies) {
			ob_strlist(&b, f->die_siblings, f->nr_die_siblings);
			for (uint32_t i = 0; i < f->nr_topo_cpus; i++)
				pev__ob_u32(&b, f->topo_cpus[i].die_id);
		}
		break;
	case PEV_FEAT_NUMA_TOPOLOGY:
		pev__ob_u32(&b, f->nr_numa_nodes);
		for (uint32_t i = 0; i < f->nr_numa_nodes; i++) {
			pev__ob_u32(&b, f->numa_nodes[i].node);
			pev__ob_u64(&b, f->numa_nodes[i].mem_total);
			pev__ob_u64(&b, f->numa_nodes[i].mem_free);
			pev__ob_str(&b, f->numa_nodes[i].cpus);
		}
		break;
	case PEV_FEAT_PMU_MAPPINGS:
		pev__ob_u32(&b, f->nr_pmu_mappings);
		for (uint32_t i = 0; i < f->nr_pmu_mappings; i++) {
			pev__ob_u32(&b, f->pmu_mappings[i].type);
			pev__ob_str(&b, f->pmu_mappings[i].name);
		}
		break;
	case PEV_FEAT_GROUP_DESC:
		pev__ob_u32(&b, f->nr_groups);
		for (uint32_t i = 0; i < f->nr_groups; i++) {
			pev__ob_str(&b, f->groups[i].name);
			pev__ob_u32(&b, f->groups[i].leader_idx);
			pev__ob_u32(&b, f->groups[i].nr_members);
		}
		break;
	case PEV_FEAT_SAMPLE_TIME:
		pev__ob_u64(&b, f->first_sample_time);
		pev__ob_u64(&b, f->last_sample_time);
		break;
	case PEV_FEAT_CLOCKID: pev__ob_u64(&b, f->clockid_res_ns); break;
	case PEV_FEAT_CLOCK_DATA:
		pev__ob_u32(&b, f->clock_data.version);
		pev__ob_u32(&b, f->clock_data.clockid);
		pev__ob_u64(&b, f->clock_data.tod_ns);
		pev__ob_u64(&b, f->clock_data.clockid_ns);
		break;
	case PEV_FEAT_COMPRESSED:
		pev__ob_u32(&b, f->compressed.version);
		pev__ob_u32(&b, f->compressed.type);
		pev__ob_u32(&b, f->compressed.level);
		pev__ob_u32(&b, f->compressed.ratio);
		pev__ob_u32(&b, f->compressed.mmap_len);
		break;
	case PEV_FEAT_BRANCH_STACK:
	case PEV_FEAT_STAT:
		break;		/* presence only */
	default:
		if (pev__feat_sys_encode(f, feat, &b) < 0) {
			free(b.p);
			return -ENOENT;
		}
		break;
	}
	if (b.err) {
		free(b.p);
		return b.err;
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

/* ---- parsing */

static char **ib_strlist(struct ibuf *c, uint32_t *n)
{
	uint32_t nr = pev__ib_u32(c);

	/* Each string needs at least its 4-byte length: bounds nr. */
	if (c->bad || nr > (c->len - c->pos) / 4) {
		c->bad = true;
		return NULL;
	}
	char **v = calloc(nr ? nr : 1, sizeof(*v));

	if (!v) {
		c->bad = true;
		return NULL;
	}
	for (uint32_t i = 0; i < nr; i++) {
		v[i] = pev__ib_str(c);
		if (!v[i]) {
			free_strs(v, i);
			return NULL;
		}
	}
	*n = nr;
	return v;
}

static void *ib_array(struct ibuf *c, uint32_t nr, size_t min_each, size_t elem)
{
	if (c->bad || (min_each && nr > (c->len - c->pos) / min_each)) {
		c->bad = true;
		return NULL;
	}
	void *v = calloc(nr ? nr : 1, elem);

	if (!v)
		c->bad = true;
	return v;
}

static int parse_event_desc(struct pev_data_features *f, struct ibuf *c)
{
	uint32_t nr = pev__ib_u32(c), asz = pev__ib_u32(c);

	if (c->bad || asz < 64 || asz > 4096)
		return -EBADMSG;
	struct pev_data_event_desc *e = ib_array(c, nr, asz + 8, sizeof(*e));

	if (!e)
		return -EBADMSG;
	f->event_desc = e;
	for (uint32_t i = 0; i < nr && !c->bad; i++, e++) {
		const void *a = pev__ib_bytes(c, asz);

		if (!a)
			break;
		size_t keep = asz < sizeof(e->attr) ? asz : sizeof(e->attr);

		memcpy(&e->attr, a, keep);
		if (c->swap && pev_attr_swap(&e->attr, keep, 0) < 0)
			c->bad = true;
		e->attr_size = asz;
		e->nr_ids = pev__ib_u32(c);
		e->name = pev__ib_str(c);
		f->nr_event_desc = i + 1;
		if (c->bad || e->nr_ids > (c->len - c->pos) / 8) {
			c->bad = true;
			break;
		}
		e->ids = calloc(e->nr_ids ? e->nr_ids : 1, 8);
		if (!e->ids)
			return -ENOMEM;
		for (uint32_t j = 0; j < e->nr_ids; j++)
			e->ids[j] = pev__ib_u64(c);
	}
	return c->bad ? -EBADMSG : 0;
}

static int parse_build_ids(struct pev_data_features *f, struct ibuf *c)
{
	while (c->pos < c->len) {
		size_t start = c->pos;

		pev__ib_u32(c);
		uint16_t misc = pev__ib_u16(c), size = pev__ib_u16(c);
		int32_t pid = (int32_t)pev__ib_u32(c);
		const uint8_t *id = pev__ib_bytes(c, 20);
		const uint8_t *sz = pev__ib_bytes(c, 4);

		if (c->bad || size < 36 || size > c->len - start)
			return -EBADMSG;
		const char *name = (const char *)c->p + c->pos;
		size_t nlen = size - 36;
		char *fn = pev__strndup0(name, nlen);

		if (!fn)
			return -ENOMEM;
		int r = pev_data_features_add_build_id(f, pid,
			(uint16_t)(misc & ~PEV_RECORD_MISC_BUILD_ID_SIZE), id,
			(misc & PEV_RECORD_MISC_BUILD_ID_SIZE) && sz[0] <= 20 ?
			sz[0] : 20, fn);
		free(fn);
		if (r < 0)
			return r;
		c->pos = start + size;
	}
	return 0;
}

static int parse_one(struct pev_data_features *f, unsigned feat,
		     struct ibuf *c)
{
	switch (feat) {
	case PEV_FEAT_TRACING_DATA:
		free(f->tracing_data);
		f->tracing_data = malloc(c->len ? c->len : 1);
		if (!f->tracing_data)
			return -ENOMEM;
		memcpy(f->tracing_data, c->p, c->len);
		f->tracing_data_size = c->len;
		return 0;
	case PEV_FEAT_BUILD_ID: return parse_build_ids(f, c);
	case PEV_FEAT_HOSTNAME: free(f->hostname); f->hostname = pev__ib_str(c); break;
	case PEV_FEAT_OSRELEASE: free(f->osrelease); f->osrelease = pev__ib_str(c); break;
	case PEV_FEAT_VERSION: free(f->version); f->version = pev__ib_str(c); break;
	case PEV_FEAT_ARCH: free(f->arch); f->arch = pev__ib_str(c); break;
	case PEV_FEAT_CPUDESC: free(f->cpudesc); f->cpudesc = pev__ib_str(c); break;
	case PEV_FEAT_CPUID: free(f->cpuid); f->cpuid = pev__ib_str(c); break;
	case PEV_FEAT_NRCPUS:
		f->nr_cpus_avail = pev__ib_u32(c);
		f->nr_cpus_online = pev__ib_u32(c);
		break;
	case PEV_FEAT_TOTAL_MEM: f->total_mem = pev__ib_u64(c); break;
	case PEV_FEAT_CMDLINE:
		if (f->cmdline)
			return -EBADMSG;	/* a second copy (pipe) */
		f->cmdline = ib_strlist(c, &f->nr_cmdline);
		break;
	case PEV_FEAT_EVENT_DESC:
		if (f->event_desc)
			return -EBADMSG;
		return parse_event_desc(f, c);
	case PEV_FEAT_CPU_TOPOLOGY:
		if (f->core_siblings || f->topo_cpus)
			return -EBADMSG;
		f->core_siblings = ib_strlist(c, &f->nr_core_siblings);
		f->thread_siblings = ib_strlist(c, &f->nr_thread_siblings);
		if (c->bad || c->pos == c->len || !f->nr_cpus_avail)
			break;
		f->topo_cpus = ib_array(c, f->nr_cpus_avail, 8,
					sizeof(*f->topo_cpus));
		if (!f->topo_cpus)
			break;
		f->nr_topo_cpus = f->nr_cpus_avail;
		for (uint32_t i = 0; i < f->nr_topo_cpus; i++) {
			f->topo_cpus[i].core_id = pev__ib_u32(c);
			f->topo_cpus[i].socket_id = pev__ib_u32(c);
		}
		if (c->bad || c->pos == c->len)
			break;
		f->die_siblings = ib_strlist(c, &f->nr_die_siblings);
		for (uint32_t i = 0; i < f->nr_topo_cpus; i++)
			f->topo_cpus[i].die_id = pev__ib_u32(c);
		f->has_dies = !c->bad;
		break;
	case PEV_FEAT_NUMA_TOPOLOGY: {
		uint32_t nr = pev__ib_u32(c);

		if (f->numa_nodes)
			return -EBADMSG;
		f->numa_nodes = ib_array(c, nr, 24, sizeof(*f->numa_nodes));
		for (uint32_t i = 0; f->numa_nodes && i < nr && !c->bad; i++) {
			f->numa_nodes[i].node = pev__ib_u32(c);
			f->numa_nodes[i].mem_total = pev__ib_u64(c);
			f->numa_nodes[i].mem_free = pev__ib_u64(c);
			f->numa_nodes[i].cpus = pev__ib_str(c);
			f->nr_numa_nodes = i + 1;
		}
		break;
	}
	case PEV_FEAT_PMU_MAPPINGS: {
		uint32_t nr = pev__ib_u32(c);

		if (f->pmu_mappings)
			return -EBADMSG;
		f->pmu_mappings = ib_array(c, nr, 8, sizeof(*f->pmu_mappings));
		for (uint32_t i = 0; f->pmu_mappings && i < nr && !c->bad; i++) {
			f->pmu_mappings[i].type = pev__ib_u32(c);
			f->pmu_mappings[i].name = pev__ib_str(c);
			f->nr_pmu_mappings = i + 1;
		}
		break;
	}
	case PEV_FEAT_GROUP_DESC: {
		uint32_t nr = pev__ib_u32(c);

		if (f->groups)
			return -EBADMSG;
		f->groups = ib_array(c, nr, 12, sizeof(*f->groups));
		for (uint32_t i = 0; f->groups && i < nr && !c->bad; i++) {
			f->groups[i].name = pev__ib_str(c);
			f->groups[i].leader_idx = pev__ib_u32(c);
			f->groups[i].nr_members = pev__ib_u32(c);
			f->nr_groups = i + 1;
		}
		break;
	}
	case PEV_FEAT_SAMPLE_TIME:
		f->first_sample_time = pev__ib_u64(c);
		f->last_sample_time = pev__ib_u64(c);
		break;
	case PEV_FEAT_CLOCKID: f->clockid_res_ns = pev__ib_u64(c); break;
	case PEV_FEAT_CLOCK_DATA:
		f->clock_data.version = pev__ib_u32(c);
		f->clock_data.clockid = pev__ib_u32(c);
		f->clock_data.tod_ns = pev__ib_u64(c);
		f->clock_data.clockid_ns = pev__ib_u64(c);
		break;
	case PEV_FEAT_COMPRESSED:
		f->compressed.version = pev__ib_u32(c);
		f->compressed.type = pev__ib_u32(c);
		f->compressed.level = pev__ib_u32(c);
		f->compressed.ratio = pev__ib_u32(c);
		f->compressed.mmap_len = pev__ib_u32(c);
		break;
	case PEV_FEAT_BRANCH_STACK:
	case PEV_FEAT_STAT:
		break;
	default:
		return pev__feat_sys_parse(f, feat, c);
	}
	return c->bad ? -EBADMSG : 0;
}

PEV_EXPORT int pev_data_feature_parse(struct pev_data_features *f,
				      unsigned feat, const void *buf,
				      size_t len, bool swap)
{
	struct ibuf c = { .p = buf, .len = len, .swap = swap };
	int r;

	if (feat >= PEV_FEAT_BITS || (!buf && len))
		return -EINVAL;
	r = parse_one(f, feat, &c);
	if (r == 0)
		pev_data_features_set(f, feat, true);
	return r;
}
