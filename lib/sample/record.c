// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The record decoder object (attrs and the id table) and the names of
 * record types and sample fields.  Decoding itself is in record_decode.c. */
#include <stdlib.h>

#include "sample/record_internal.h"
#include "core/util.h"

PEV_EXPORT struct pev_decoder *pev_decoder_new(void)
{
	struct pev_decoder *d = calloc(1, sizeof(*d));

	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	d->zero_id = -1;
	d->id_pos = -1;
	d->is_pos = -1;
	return d;
}

PEV_EXPORT void pev_decoder_free(struct pev_decoder *d)
{
	if (!d)
		return;
	free(d->attrs);
	free(d->keys);
	free(d->vals);
	free(d);
}

static uint64_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

int pev__lookup_attr(const struct pev_decoder *d, uint64_t id)
{
	/* perf synthesizes records (COMM, MMAP2, ...) with a zero sample_id
	 * and maps id 0 to the first event (evlist__id2evsel); so do we,
	 * unless some event really was given id 0. */
	if (id == 0)
		return d->zero_id >= 0 ? d->zero_id : d->nattrs ? 0 : -ENOENT;
	if (!d->nslots)
		return -ENOENT;
	size_t mask = d->nslots - 1;
	for (size_t i = hash64(id) & mask;; i = (i + 1) & mask) {
		if (d->keys[i] == id)
			return d->vals[i];
		if (!d->keys[i])
			return -ENOENT;
	}
}

static void slot_put(uint64_t *keys, int *vals, size_t nslots, uint64_t id,
		     int idx)
{
	size_t mask = nslots - 1, i = hash64(id) & mask;

	while (keys[i])
		i = (i + 1) & mask;
	keys[i] = id;
	vals[i] = idx;
}

static int grow_slots(struct pev_decoder *d, size_t need)
{
	size_t n = d->nslots ? d->nslots : 16;

	while (need * 2 > n)
		n *= 2;
	if (n == d->nslots)
		return 0;
	uint64_t *keys = calloc(n, sizeof(*keys));
	int *vals = calloc(n, sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->nslots; i++)
		if (d->keys[i])
			slot_put(keys, vals, n, d->keys[i], d->vals[i]);
	free(d->keys);
	free(d->vals);
	d->keys = keys;
	d->vals = vals;
	d->nslots = n;
	return 0;
}

/* Whether id was given to some event (id 0 only when really added). */
static bool id_known(const struct pev_decoder *d, uint64_t id)
{
	return id ? pev__lookup_attr(d, id) >= 0 : d->zero_id >= 0;
}

PEV_EXPORT int pev_decoder_add_ids(struct pev_decoder *d, int index,
				   const uint64_t *ids, size_t nids)
{
	if (!d || index < 0 || (size_t)index >= d->nattrs || (nids && !ids))
		return -EINVAL;
	for (size_t i = 0; i < nids; i++)
		if (id_known(d, ids[i]))
			return -EEXIST;
	if (grow_slots(d, d->nkeys + nids))
		return -ENOMEM;
	for (size_t i = 0; i < nids; i++) {
		/* A repeat inside ids[] itself is harmless: same index. */
		if (id_known(d, ids[i]))
			continue;
		if (ids[i] == 0) {
			d->zero_id = index;
			continue;
		}
		slot_put(d->keys, d->vals, d->nslots, ids[i], index);
		d->nkeys++;
	}
	return 0;
}

PEV_EXPORT int pev_decoder_add_attr(struct pev_decoder *d,
				    const struct perf_event_attr *attr,
				    const uint64_t *ids, size_t nids)
{
	if (!d || !attr)
		return -EINVAL;
	size_t sz = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
	if (sz < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	uint64_t st = attr->sample_type;
	int idp = pev__id_pos(st), isp = pev__is_pos(st);
	if (d->nattrs) {
		/* perf's evlist rules: every event's id sits at one place. */
		const struct perf_event_attr *a0 = &d->attrs[0].attr.attr;
		int idp0 = pev__id_pos(a0->sample_type);
		int isp0 = pev__is_pos(a0->sample_type);
		if (idp < 0 || idp != idp0 || isp != isp0 ||
		    attr->sample_id_all != a0->sample_id_all)
			return -EINVAL;
	}
	for (size_t i = 0; i < nids; i++)
		if (id_known(d, ids[i]))
			return -EEXIST;
	if (pev__grow_array(d->attrs, &d->cap, d->nattrs + 1, 4))
		return -ENOMEM;
	struct pev_decoder_attr *e = &d->attrs[d->nattrs];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, attr, sz < sizeof(e->attr) ? sz : sizeof(e->attr));
	int index = (int)d->nattrs++;
	if (index == 0) {
		d->id_pos = idp;
		d->is_pos = isp;
	}
	int r = pev_decoder_add_ids(d, index, ids, nids);
	if (r) {
		d->nattrs--;
		return r;
	}
	return index;
}

PEV_EXPORT size_t pev_decoder_nr_attrs(const struct pev_decoder *d)
{
	return d ? d->nattrs : 0;
}

PEV_EXPORT const struct perf_event_attr *
pev_decoder_attr(const struct pev_decoder *d, size_t index)
{
	if (!d || index >= d->nattrs)
		return NULL;
	return &d->attrs[index].attr.attr;
}

PEV_EXPORT int pev_decoder_find_id(const struct pev_decoder *d, uint64_t id)
{
	if (!d)
		return -EINVAL;
	return pev__lookup_attr(d, id);
}

static const char *const kernel_names[] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[21] = "AUX_OUTPUT_HW_ID",
	[PEV_RECORD_CALLCHAIN_DEFERRED] = "CALLCHAIN_DEFERRED",
};

static const char *const user_names[] = {
	"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND",
	"ID_INDEX", "AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR",
	"THREAD_MAP", "CPU_MAP", "STAT_CONFIG", "STAT", "STAT_ROUND",
	"EVENT_UPDATE", "TIME_CONV", "FEATURE", "COMPRESSED",
	"FINISHED_INIT", "COMPRESSED2", "BPF_METADATA", "SCHEDSTAT_CPU",
	"SCHEDSTAT_DOMAIN",
};

PEV_EXPORT const char *pev_record_type_name(uint32_t type)
{
	if (type < sizeof(kernel_names) / sizeof(kernel_names[0]))
		return kernel_names[type];
	if (type >= PEV_RECORD_USER_TYPE_START &&
	    type - PEV_RECORD_USER_TYPE_START <
		    sizeof(user_names) / sizeof(user_names[0]))
		return user_names[type - PEV_RECORD_USER_TYPE_START];
	return NULL;
}

static const char *const sample_names[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
	"PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
	"STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
	"REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
	"CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};

PEV_EXPORT const char *pev_sample_field_name(uint64_t bit)
{
	if (!bit || (bit & (bit - 1)))
		return NULL;
	unsigned n = (unsigned)__builtin_ctzll(bit);
	if (n >= sizeof(sample_names) / sizeof(sample_names[0]))
		return NULL;
	return sample_names[n];
}
