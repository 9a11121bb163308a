// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf.data user record types (64 and up), which perf writes itself; the
 * layouts are those of perf's tools/lib/perf/include/perf/event.h.  Also
 * the perf_event_attr walker used to swap HEADER_ATTR and file attrs. */
#include "sample/record_internal.h"

/* perf_event_attr fields by offset: 8, 4 or 2 = an integer of that size;
 * 'b' = a u64 bit-field word, 'w' = a u32 bit-field word. */
static const struct { uint8_t off, kind; } attr_fields[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
	{ 40, 'b' }, { 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 },
	{ 80, 8 }, { 88, 4 }, { 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 },
	{ 110, 2 }, { 112, 4 }, { 116, 'w' }, { 120, 8 }, { 128, 8 },
};

static uint8_t rev8(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

/* Bit-field position p of a word in this host's layout. */
static void pos_addr(unsigned p, unsigned *byte, unsigned *bit)
{
	*byte = p / 8;
	*bit = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? p % 8 : 7 - p % 8;
}

/* precise_ip is the one multi-bit field: its two bits trade places when
 * the allocation order flips (positions 15 and 16). */
static void swap_precise_ip(uint8_t *w)
{
	unsigned b1, i1, b2, i2;

	pos_addr(15, &b1, &i1);
	pos_addr(16, &b2, &i2);
	unsigned v1 = (w[b1] >> i1) & 1, v2 = (w[b2] >> i2) & 1;
	w[b1] = (uint8_t)((w[b1] & ~(1u << i1)) | v2 << i1);
	w[b2] = (uint8_t)((w[b2] & ~(1u << i2)) | v1 << i2);
}

/* Bit-fields are allocated from the low bit on little-endian and from the
 * high bit on big-endian; seen as bytes, position p stays in byte p/8 but
 * its bit index is mirrored, so reversing each byte converts. */
static void swap_bitfield(struct rcur *c, uint8_t *w, size_t n, bool has_pip)
{
	if (c->swap == SWAP_TO_FOREIGN && has_pip)
		swap_precise_ip(w);
	for (size_t i = 0; i < n; i++)
		w[i] = rev8(w[i]);
	if (c->swap == SWAP_FROM_FOREIGN && has_pip)
		swap_precise_ip(w);
}

int pev__attr_walk(struct rcur *c, uint32_t attr_size)
{
	for (size_t i = 0; i < sizeof(attr_fields) / sizeof(attr_fields[0]); i++) {
		unsigned off = attr_fields[i].off, k = attr_fields[i].kind;
		unsigned w = k == 'b' ? 8 : k == 'w' ? 4 : k;
		if (off + w > attr_size || off + w > c->end)
			break;
		uint8_t *p = c->base + off;
		if (k == 8)
			sw64(c, p);
		else if (k == 4)
			sw32(c, p);
		else if (k == 2)
			sw16(c, p);
		else if (c->swap)
			swap_bitfield(c, p, w, k == 'b');
	}
	return 0;
}

static int cpu_map_walk(struct rcur *c, struct pev_cpu_map_data *m)
{
	int r;
	size_t at = c->pos;

	if ((r = rc_u16(c, &m->type, "cpu_map.type")))
		return r;
	switch (m->type) {
	case PEV_CPU_MAP_CPUS:
		if ((r = rc_u16(c, &m->nr, "cpu_map.nr")) ||
		    (r = rc_need_array(c, m->nr, 2, "cpu_map.nr")))
			return r;
		m->data = c->base + c->pos;
		for (unsigned i = 0; i < m->nr; i++)
			sw16(c, c->base + c->pos + 2 * i);
		c->pos += 2 * (size_t)m->nr;
		return 0;
	case PEV_CPU_MAP_MASK: {
		const void *pad;
		if ((r = rc_u16(c, &m->nr, "cpu_map.nr")))
			return r;
		at = c->pos;
		if ((r = rc_u16(c, &m->long_size, "cpu_map.long_size")))
			return r;
		if (m->long_size == 8 && (r = rc_bytes(c, 4, &pad, "cpu_map.mask")))
			return r;
		if (m->long_size != 4 && m->long_size != 8)
			return rc_fail(c, -EBADMSG, "cpu_map.long_size", at,
				       "not 4 or 8");
		if ((r = rc_need_array(c, m->nr, m->long_size, "cpu_map.nr")))
			return r;
		m->data = c->base + c->pos;
		for (unsigned i = 0; i < m->nr; i++) {
			uint8_t *p = c->base + c->pos + (size_t)i * m->long_size;
			if (m->long_size == 4)
				sw32(c, p);
			else
				sw64(c, p);
		}
		c->pos += (size_t)m->nr * m->long_size;
		return 0;
	}
	case PEV_CPU_MAP_RANGE: {
		uint8_t any, pad;
		if ((r = rc_u8(c, &any, "cpu_map.any_cpu")) ||
		    (r = rc_u8(c, &pad, "cpu_map.any_cpu")) ||
		    (r = rc_u16(c, &m->start_cpu, "cpu_map.start_cpu")) ||
		    (r = rc_u16(c, &m->end_cpu, "cpu_map.end_cpu")))
			return r;
		m->any_cpu = any != 0;
		return 0;
	}
	}
	return rc_fail(c, -EBADMSG, "cpu_map.type", at, "unknown encoding");
}

PEV_EXPORT long pev_cpu_map_cpus(const struct pev_cpu_map_data *m,
				 int32_t *cpus, size_t max)
{
	size_t n = 0;

	if (!m)
		return -EINVAL;
#define PUT(v) do { if (n < max && cpus) cpus[n] = (v); n++; } while (0)
	switch (m->type) {
	case PEV_CPU_MAP_CPUS:
		for (unsigned i = 0; i < m->nr; i++) {
			uint16_t v;
			memcpy(&v, (const uint8_t *)m->data + 2 * i, 2);
			PUT(v == 0xffff ? -1 : (int32_t)v);
		}
		break;
	case PEV_CPU_MAP_MASK:
		for (unsigned w = 0; w < m->nr; w++) {
			uint64_t word = 0;
			unsigned bits = m->long_size * 8u;
			if (m->long_size == 4) {
				uint32_t v32;
				memcpy(&v32, (const uint8_t *)m->data + 4 * w, 4);
				word = v32;
			} else {
				memcpy(&word, (const uint8_t *)m->data + 8 * w, 8);
			}
			for (unsigned b = 0; b < bits; b++)
				if ((word >> b) & 1)
					PUT((int32_t)(w * bits + b));
		}
		break;
	case PEV_CPU_MAP_RANGE:
		if (m->any_cpu)
			PUT(-1);
		for (unsigned v = m->start_cpu; v <= m->end_cpu; v++)
			PUT((int32_t)v);
		break;
	default:
		return -EINVAL;
	}
#undef PUT
	return (long)n;
}

static int header_attr(struct rcur *c)
{
	struct pev_record_header_attr *h = &c->out->u.header_attr;
	int r;

	if ((r = rc_need(c, PERF_ATTR_SIZE_VER0, "attr")))
		return r;
	uint32_t sz;
	memcpy(&sz, c->base + 12, 4);
	if (c->swap == SWAP_FROM_FOREIGN)
		sz = bswap_32(sz);
	if (!sz)
		sz = PERF_ATTR_SIZE_VER0;
	if (sz < PERF_ATTR_SIZE_VER0 || sz > c->end - 8)
		return rc_fail(c, -EBADMSG, "attr.size", 12,
			       "attr size out of range");
	if ((c->end - 8 - sz) & 7)
		return rc_fail(c, -EBADMSG, "attr.size", 12,
			       "ids are not whole u64s");
	struct rcur sub = { .base = c->base + 8, .end = sz, .swap = c->swap,
			    .out = c->out };
	pev__attr_walk(&sub, sz);
	memcpy(&h->attr, c->base + 8, sz < sizeof(h->attr) ? sz : sizeof(h->attr));
	h->attr_size = sz;
	c->pos = 8 + sz;
	h->nr_ids = (c->end - c->pos) / 8;
	return rc_array64(c, h->nr_ids, &h->ids, "ids");
}

int pev__decode_user(struct rcur *c)
{
	struct pev_record *o = c->out;
	int r;

	switch (o->type) {
	case PEV_RECORD_HEADER_ATTR:
		return header_attr(c);
	case PEV_RECORD_HEADER_EVENT_TYPE:
		if ((r = rc_u64(c, &o->u.event_type.event_id, "event_id")))
			return r;
		return rc_string_fixed(c, 64, &o->u.event_type.name, "name");
	case PEV_RECORD_HEADER_TRACING_DATA:
		return rc_u32(c, &o->u.tracing_data.size, "size");
	case PEV_RECORD_HEADER_BUILD_ID: {
		struct pev_record_build_id *b = &o->u.build_id;
		uint32_t pid;
		uint8_t res8;
		uint16_t res16;
		const void *bid;
		size_t at;
		if ((r = rc_u32(c, &pid, "pid")) ||
		    (r = rc_bytes(c, 20, &bid, "build_id")))
			return r;
		at = c->pos;
		if ((r = rc_u8(c, &b->size, "size")) ||
		    (r = rc_u8(c, &res8, "size")) ||
		    (r = rc_u16(c, &res16, "size")))
			return r;
		b->pid = (int32_t)pid;
		b->build_id = bid;
		if (!(o->misc & PEV_RECORD_MISC_BUILD_ID_SIZE))
			b->size = 20;
		else if (b->size > 20)
			return rc_fail(c, -EBADMSG, "size", at,
				       "larger than 20 bytes");
		return rc_string(c, &b->filename, "filename");
	}
	case PEV_RECORD_FINISHED_ROUND:
	case PEV_RECORD_FINISHED_INIT:
		return 0;
	case PEV_RECORD_ID_INDEX: {
		struct pev_record_id_index *x = &o->u.id_index;
		const uint64_t *p;
		if ((r = rc_u64(c, &x->nr, "nr")) ||
		    (r = rc_need_array(c, x->nr, 32, "nr")) ||
		    (r = rc_array64(c, x->nr * 4, &p, "nr")))
			return r;
		x->entries = (const struct pev_id_index_entry *)p;
		/* The machine_pid/vcpu table is there when the size allows. */
		if (x->nr && x->nr <= (c->end - c->pos) / 16) {
			if ((r = rc_array64(c, x->nr * 2, &p, "nr")))
				return r;
			x->entries2 = (const struct pev_id_index_entry2 *)p;
		}
		return 0;
	}
	case PEV_RECORD_AUXTRACE_INFO: {
		struct pev_record_auxtrace_info *a = &o->u.auxtrace_info;
		uint32_t res;
		if ((r = rc_u32(c, &a->type, "type")) ||
		    (r = rc_u32(c, &res, "reserved")))
			return r;
		a->nr_priv = (c->end - c->pos) / 8;
		return rc_array64(c, a->nr_priv, &a->priv, "priv");
	}
	case PEV_RECORD_AUXTRACE: {
		struct pev_record_auxtrace *a = &o->u.auxtrace;
		uint32_t res;
		if ((r = rc_u64(c, &a->size, "size")) ||
		    (r = rc_u64(c, &a->offset, "offset")) ||
		    (r = rc_u64(c, &a->reference, "reference")) ||
		    (r = rc_u32(c, &a->idx, "idx")) ||
		    (r = rc_u32(c, &a->tid, "tid")) ||
		    (r = rc_u32(c, &a->cpu, "cpu")))
			return r;
		return rc_u32(c, &res, "reserved");
	}
	case PEV_RECORD_AUXTRACE_ERROR: {
		struct pev_record_auxtrace_error *e = &o->u.auxtrace_error;
		if ((r = rc_u32(c, &e->type, "type")) ||
		    (r = rc_u32(c, &e->code, "code")) ||
		    (r = rc_u32(c, &e->cpu, "cpu")) ||
		    (r = rc_u32(c, &e->pid, "pid")) ||
		    (r = rc_u32(c, &e->tid, "tid")) ||
		    (r = rc_u32(c, &e->fmt, "fmt")) ||
		    (r = rc_u64(c, &e->ip, "ip")) ||
		    (r = rc_u64(c, &e->time, "time")) ||
		    (r = rc_string_fixed(c, 64, &e->msg, "msg")))
			return r;
		if (c->end - c->pos >= 8) {
			e->has_machine = true;
			return rc_u32x2(c, &e->machine_pid, &e->vcpu,
					"machine_pid");
		}
		return 0;
	}
	case PEV_RECORD_THREAD_MAP: {
		struct pev_record_thread_map *t = &o->u.thread_map;
		if ((r = rc_u64(c, &t->nr, "nr")) ||
		    (r = rc_need_array(c, t->nr, 24, "nr")))
			return r;
		t->entries = (const struct pev_thread_map_entry *)(c->base + c->pos);
		for (uint64_t i = 0; c->swap && i < t->nr; i++)
			sw64(c, c->base + c->pos + i * 24);
		c->pos += (size_t)t->nr * 24;
		return 0;
	}
	case PEV_RECORD_CPU_MAP:
		return cpu_map_walk(c, &o->u.cpu_map.map);
	case PEV_RECORD_STAT_CONFIG: {
		struct pev_record_stat_config *s = &o->u.stat_config;
		const uint64_t *p;
		if ((r = rc_u64(c, &s->nr, "nr")) ||
		    (r = rc_need_array(c, s->nr, 16, "nr")) ||
		    (r = rc_array64(c, s->nr * 2, &p, "nr")))
			return r;
		s->entries = (const struct pev_stat_config_entry *)p;
		return 0;
	}
	case PEV_RECORD_STAT: {
		struct pev_record_stat *s = &o->u.stat;
		if ((r = rc_u64(c, &s->id, "id")) ||
		    (r = rc_u32x2(c, &s->cpu, &s->thread, "cpu")) ||
		    (r = rc_u64(c, &s->val, "val")) ||
		    (r = rc_u64(c, &s->ena, "ena")))
			return r;
		return rc_u64(c, &s->run, "run");
	}
	case PEV_RECORD_STAT_ROUND:
		if ((r = rc_u64(c, &o->u.stat_round.type, "type")))
			return r;
		return rc_u64(c, &o->u.stat_round.time, "time");
	case PEV_RECORD_EVENT_UPDATE: {
		struct pev_record_event_update *e = &o->u.event_update;
		if ((r = rc_u64(c, &e->type, "type")) ||
		    (r = rc_u64(c, &e->id, "id")))
			return r;
		switch (e->type) {
		case PEV_EVENT_UPDATE_UNIT:
		case PEV_EVENT_UPDATE_NAME:
			return rc_string(c, &e->str, "data");
		case PEV_EVENT_UPDATE_SCALE: {
			uint64_t v;
			if ((r = rc_u64(c, &v, "scale")))
				return r;
			memcpy(&e->scale, &v, 8);
			return 0;
		}
		case PEV_EVENT_UPDATE_CPUS:
			return cpu_map_walk(c, &e->cpus);
		}
		return 0;
	}
	case PEV_RECORD_TIME_CONV: {
		struct pev_record_time_conv *t = &o->u.time_conv;
		if ((r = rc_u64(c, &t->time_shift, "time_shift")) ||
		    (r = rc_u64(c, &t->time_mult, "time_mult")) ||
		    (r = rc_u64(c, &t->time_zero, "time_zero")))
			return r;
		/* Older perf wrote only the first three. */
		if (c->end - c->pos < 24)
			return 0;
		t->has_cycles = true;
		if ((r = rc_u64(c, &t->time_cycles, "time_cycles")) ||
		    (r = rc_u64(c, &t->time_mask, "time_mask")) ||
		    (r = rc_u8(c, &t->cap_user_time_zero, "cap_user_time_zero")))
			return r;
		return rc_u8(c, &t->cap_user_time_short, "cap_user_time_short");
	}
	case PEV_RECORD_HEADER_FEATURE:
		if ((r = rc_u64(c, &o->u.feature.feat_id, "feat_id")))
			return r;
		o->u.feature.data = c->base + c->pos;
		o->u.feature.size = c->end - c->pos;
		return 0;
	case PEV_RECORD_COMPRESSED:
		o->u.compressed.data = c->base + 8;
		o->u.compressed.size = c->end - 8;
		return 0;
	case PEV_RECORD_COMPRESSED2: {
		uint64_t n;
		if ((r = rc_u64(c, &n, "data_size")) ||
		    (r = rc_bytes(c, n, &o->u.compressed.data, "data_size")))
			return r;
		o->u.compressed.size = (size_t)n;
		return 0;
	}
	}
	/* BPF_METADATA, SCHEDSTAT_* and newer: the body, undecoded. */
	o->u.payload.data = c->base + 8;
	o->u.payload.size = c->end - 8;
	return 0;
}
