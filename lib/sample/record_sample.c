// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* PERF_RECORD_SAMPLE bodies, the sample_id trailer, read_format values,
 * and the helpers over sample pieces (callchain segments, branch flags,
 * registers).  Field order is the kernel's (perf_output_sample()). */
#include "sample/record_internal.h"

#define TRAILER_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
		      PERF_SAMPLE_IDENTIFIER)

int pev__id_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return __builtin_popcountll(st & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					  PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
}

int pev__is_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return 1 + __builtin_popcountll(st & (PERF_SAMPLE_CPU |
					      PERF_SAMPLE_STREAM_ID));
}

size_t pev__trailer_size(uint64_t st)
{
	return 8 * (size_t)__builtin_popcountll(st & TRAILER_BITS);
}

int pev__decode_trailer(struct rcur *c, uint64_t st, struct pev_sample_id *id)
{
	int r = 0;

	id->fields = st & TRAILER_BITS;
	if (st & PERF_SAMPLE_TID)
		r = r ? r : rc_u32x2(c, &id->pid, &id->tid, "sample_id.tid");
	if (st & PERF_SAMPLE_TIME)
		r = r ? r : rc_u64(c, &id->time, "sample_id.time");
	if (st & PERF_SAMPLE_ID)
		r = r ? r : rc_u64(c, &id->id, "sample_id.id");
	if (st & PERF_SAMPLE_STREAM_ID)
		r = r ? r : rc_u64(c, &id->stream_id, "sample_id.stream_id");
	if (st & PERF_SAMPLE_CPU)
		r = r ? r : rc_u32x2(c, &id->cpu, &id->cpu_res, "sample_id.cpu");
	if (st & PERF_SAMPLE_IDENTIFIER)
		r = r ? r : rc_u64(c, &id->id, "sample_id.identifier");
	return r;
}

int pev__decode_readfmt(struct rcur *c, uint64_t fmt, struct pev_readfmt *rf,
			const char *field)
{
	int r;

	memset(rf, 0, sizeof(*rf));
	rf->format = fmt;
	rf->stride = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	/* { value | nr }, time_enabled, time_running, then the one id and
	 * lost or the group's array. */
	if (fmt & PERF_FORMAT_GROUP) {
		r = rc_u64(c, &rf->nr, field);
	} else {
		rf->nr = 1;
		r = rc_u64(c, &rf->first.value, field);
	}
	if (r)
		return r;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
	    (r = rc_u64(c, &rf->time_enabled, field)))
		return r;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) &&
	    (r = rc_u64(c, &rf->time_running, field)))
		return r;
	if (!(fmt & PERF_FORMAT_GROUP)) {
		if ((fmt & PERF_FORMAT_ID) && (r = rc_u64(c, &rf->first.id, field)))
			return r;
		if ((fmt & PERF_FORMAT_LOST) &&
		    (r = rc_u64(c, &rf->first.lost, field)))
			return r;
		return 0;
	}
	if ((r = rc_need_array(c, rf->nr, 8 * (size_t)rf->stride, field)))
		return r;
	if ((r = rc_array64(c, rf->nr * rf->stride, &rf->group, field)))
		return r;
	if (rf->nr)
		pev_readfmt_entry(rf, 0, &rf->first);
	return 0;
}

PEV_EXPORT int pev_readfmt_entry(const struct pev_readfmt *rf, uint64_t i,
				 struct pev_readfmt_entry *e)
{
	if (!rf || !e || i >= rf->nr)
		return -ERANGE;
	if (!rf->group) {
		*e = rf->first;
		return 0;
	}
	const uint64_t *p = rf->group + i * rf->stride;
	e->value = p[0];
	e->id = e->lost = 0;
	unsigned k = 1;
	if (rf->format & PERF_FORMAT_ID)
		e->id = p[k++];
	if (rf->format & PERF_FORMAT_LOST)
		e->lost = p[k];
	return 0;
}

PEV_EXPORT long pev_readfmt_parse(uint64_t read_format, const void *buf,
				  size_t len, struct pev_readfmt *out)
{
	struct pev_record rec;
	struct rcur c = { .base = (uint8_t *)(uintptr_t)buf, .end = len,
			  .out = &rec };

	if (!buf || !out || ((uintptr_t)buf & 7))
		return -EINVAL;
	int r = pev__decode_readfmt(&c, read_format, out, "read_format");
	return r ? r : (long)c.pos;
}

/* Branch flags: the kernel declares them as bit-fields, whose placement
 * follows the writer's byte order.  {position, width} in the
 * little-endian layout; in the big-endian one a field sits at
 * 64 - pos - width. */
static const uint8_t br_fields[][2] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 },
	{ 24, 2 }, { 26, 4 }, { 30, 3 }, { 33, 31 },
};

static uint64_t br_relayout(uint64_t v, bool be_to_le)
{
	uint64_t out = 0;

	for (size_t i = 0; i < sizeof(br_fields) / sizeof(br_fields[0]); i++) {
		unsigned pos = br_fields[i][0], w = br_fields[i][1];
		unsigned bepos = 64 - pos - w;
		uint64_t m = (1ULL << w) - 1;
		if (be_to_le)
			out |= ((v >> bepos) & m) << pos;
		else
			out |= ((v >> pos) & m) << bepos;
	}
	return out;
}

static uint64_t swap_branch_flags(struct rcur *c, uint8_t *p)
{
	uint64_t v;
	const bool le = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

	memcpy(&v, p, 8);
	if (c->swap == SWAP_FROM_FOREIGN) {
		/* Foreign bytes become a number in the foreign layout. */
		v = br_relayout(bswap_64(v), le);
		memcpy(p, &v, 8);
	} else if (c->swap == SWAP_TO_FOREIGN) {
		uint64_t s = bswap_64(br_relayout(v, !le));
		memcpy(p, &s, 8);
	}
	return v;
}

PEV_EXPORT struct pev_branch_flags pev_branch_flags_decode(uint64_t flags)
{
	struct perf_branch_entry e;
	struct pev_branch_flags f;

	/* The kernel's own bit-field struct gives this host's layout. */
	memset(&e, 0, sizeof(e));
	memcpy((char *)&e + 16, &flags, 8);
	f.mispred = e.mispred;
	f.predicted = e.predicted;
	f.in_tx = e.in_tx;
	f.abort = e.abort;
	f.cycles = (uint16_t)e.cycles;
	f.type = (uint8_t)e.type;
	f.spec = (uint8_t)e.spec;
	f.new_type = (uint8_t)e.new_type;
	f.priv = (uint8_t)e.priv;
	return f;
}

static int decode_branch_stack(struct rcur *c, uint64_t bst,
			       struct pev_branch_stack *b)
{
	int r;

	if ((r = rc_u64(c, &b->nr, "branch_stack.nr")))
		return r;
	if (bst & PERF_SAMPLE_BRANCH_HW_INDEX) {
		b->has_hw_idx = true;
		if ((r = rc_u64(c, &b->hw_idx, "branch_stack.hw_idx")))
			return r;
	}
	if ((r = rc_need_array(c, b->nr, 24, "branch_stack.nr")))
		return r;
	b->entries = (const struct pev_branch_entry *)(c->base + c->pos);
	if (c->swap)
		for (uint64_t i = 0; i < b->nr; i++) {
			uint8_t *e = c->base + c->pos + i * 24;
			sw64(c, e);
			sw64(c, e + 8);
			swap_branch_flags(c, e + 16);
		}
	c->pos += (size_t)b->nr * 24;
	if (bst & PEV_SAMPLE_BRANCH_COUNTERS)
		return rc_array64(c, b->nr, &b->counters, "branch_stack.counters");
	return 0;
}

static int decode_regs(struct rcur *c, uint64_t mask, struct pev_regs *rg,
		       const char *abi_field, const char *regs_field)
{
	int r;

	rg->mask = mask;
	if ((r = rc_u64(c, &rg->abi, abi_field)))
		return r;
	if (rg->abi == PERF_SAMPLE_REGS_ABI_NONE)
		return 0;
	rg->nr = (uint64_t)__builtin_popcountll(mask);
	return rc_array64(c, rg->nr, &rg->regs, regs_field);
}

PEV_EXPORT int pev_regs_get(const struct pev_regs *rg, unsigned reg,
			    uint64_t *val)
{
	if (!rg || !val || reg >= 64 || !rg->regs || !((rg->mask >> reg) & 1))
		return -ENOENT;
	uint64_t idx = (uint64_t)__builtin_popcountll(rg->mask &
						      ((1ULL << reg) - 1));
	if (idx >= rg->nr)
		return -ENOENT;
	*val = rg->regs[idx];
	return 0;
}

int pev__decode_sample(struct rcur *c, const struct perf_event_attr *attr)
{
	struct pev_sample *s = &c->out->u.sample;
	uint64_t st = attr->sample_type;
	int r = 0;

	s->fields = st;
	if ((st & PERF_SAMPLE_IDENTIFIER) && (r = rc_u64(c, &s->id, "identifier")))
		return r;
	if ((st & PERF_SAMPLE_IP) && (r = rc_u64(c, &s->ip, "ip")))
		return r;
	if ((st & PERF_SAMPLE_TID) && (r = rc_u32x2(c, &s->pid, &s->tid, "tid")))
		return r;
	if ((st & PERF_SAMPLE_TIME) && (r = rc_u64(c, &s->time, "time")))
		return r;
	if ((st & PERF_SAMPLE_ADDR) && (r = rc_u64(c, &s->addr, "addr")))
		return r;
	if ((st & PERF_SAMPLE_ID) && (r = rc_u64(c, &s->id, "id")))
		return r;
	if ((st & PERF_SAMPLE_STREAM_ID) &&
	    (r = rc_u64(c, &s->stream_id, "stream_id")))
		return r;
	if ((st & PERF_SAMPLE_CPU) &&
	    (r = rc_u32x2(c, &s->cpu, &s->cpu_res, "cpu")))
		return r;
	if ((st & PERF_SAMPLE_PERIOD) && (r = rc_u64(c, &s->period, "period")))
		return r;
	/* As perf: a fixed period (-c) without PERIOD in the sample is the
	 * attr's. */
	if (!(st & PERF_SAMPLE_PERIOD) && !attr->freq)
		s->period = attr->sample_period;
	if ((st & PERF_SAMPLE_READ) &&
	    (r = pev__decode_readfmt(c, attr->read_format, &s->read, "read")))
		return r;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if ((r = rc_u64(c, &s->callchain.nr, "callchain.nr")) ||
		    (r = rc_array64(c, s->callchain.nr, &s->callchain.ips,
				    "callchain.nr")))
			return r;
	}
	if (st & PERF_SAMPLE_RAW) {
		size_t at = c->pos;
		if ((r = rc_u32(c, &s->raw.size, "raw.size")))
			return r;
		if ((4 + (uint64_t)s->raw.size) & 7)
			return rc_fail(c, -EBADMSG, "raw.size", at,
				       "raw data not padded to 8 bytes");
		if ((r = rc_bytes(c, s->raw.size, &s->raw.data, "raw.size")))
			return r;
	}
	if ((st & PERF_SAMPLE_BRANCH_STACK) &&
	    (r = decode_branch_stack(c, attr->branch_sample_type,
				     &s->branch_stack)))
		return r;
	if ((st & PERF_SAMPLE_REGS_USER) &&
	    (r = decode_regs(c, attr->sample_regs_user, &s->regs_user,
			     "regs_user.abi", "regs_user.regs")))
		return r;
	if (st & PERF_SAMPLE_STACK_USER) {
		struct pev_stack_user *su = &s->stack_user;
		size_t at = c->pos;
		if ((r = rc_u64(c, &su->size, "stack_user.size")))
			return r;
		if (su->size & 7)
			return rc_fail(c, -EBADMSG, "stack_user.size", at,
				       "not a multiple of 8");
		if (su->size) {
			if ((r = rc_bytes(c, su->size, &su->data,
					  "stack_user.size")))
				return r;
			at = c->pos;
			if ((r = rc_u64(c, &su->dyn_size, "stack_user.dyn_size")))
				return r;
			if (su->dyn_size > su->size)
				return rc_fail(c, -EBADMSG, "stack_user.dyn_size",
					       at, "larger than the dump");
		}
	}
	if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) &&
	    (r = rc_u64(c, &s->weight, "weight")))
		return r;
	if ((st & PERF_SAMPLE_DATA_SRC) &&
	    (r = rc_u64(c, &s->data_src, "data_src")))
		return r;
	if ((st & PERF_SAMPLE_TRANSACTION) &&
	    (r = rc_u64(c, &s->transaction, "transaction")))
		return r;
	if ((st & PERF_SAMPLE_REGS_INTR) &&
	    (r = decode_regs(c, attr->sample_regs_intr, &s->regs_intr,
			     "regs_intr.abi", "regs_intr.regs")))
		return r;
	if ((st & PERF_SAMPLE_PHYS_ADDR) &&
	    (r = rc_u64(c, &s->phys_addr, "phys_addr")))
		return r;
	if ((st & PERF_SAMPLE_CGROUP) && (r = rc_u64(c, &s->cgroup, "cgroup")))
		return r;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) &&
	    (r = rc_u64(c, &s->data_page_size, "data_page_size")))
		return r;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) &&
	    (r = rc_u64(c, &s->code_page_size, "code_page_size")))
		return r;
	if (st & PERF_SAMPLE_AUX) {
		if ((r = rc_u64(c, &s->aux.size, "aux.size")) ||
		    (r = rc_bytes(c, s->aux.size, &s->aux.data, "aux.size")))
			return r;
	}

	/* The same identity fields as a trailer, for time ordering. */
	struct pev_sample_id *id = &c->out->sample_id;
	id->fields = st & TRAILER_BITS;
	id->pid = s->pid;
	id->tid = s->tid;
	id->time = s->time;
	id->id = s->id;
	id->stream_id = s->stream_id;
	id->cpu = s->cpu;
	id->cpu_res = s->cpu_res;
	c->out->has_sample_id = true;
	return 0;
}

PEV_EXPORT bool pev_callchain_is_context(uint64_t ip)
{
	return ip >= (uint64_t)PERF_CONTEXT_MAX;
}

PEV_EXPORT const char *pev_callchain_context_name(uint64_t ctx)
{
	switch (ctx) {
	case PERF_CONTEXT_HV: return "hv";
	case PERF_CONTEXT_KERNEL: return "kernel";
	case PERF_CONTEXT_USER: return "user";
	case PEV_CONTEXT_USER_DEFERRED: return "user-deferred";
	case PERF_CONTEXT_GUEST: return "guest";
	case PERF_CONTEXT_GUEST_KERNEL: return "guest-kernel";
	case PERF_CONTEXT_GUEST_USER: return "guest-user";
	default: return "unknown";
	}
}

PEV_EXPORT void pev_callchain_iter_init(struct pev_callchain_iter *it,
					const struct pev_callchain *cc)
{
	it->ips = cc ? cc->ips : NULL;
	it->nr = cc && cc->ips ? cc->nr : 0;
	it->pos = 0;
	it->context = 0;
}

PEV_EXPORT bool pev_callchain_iter_next(struct pev_callchain_iter *it,
					struct pev_callchain_segment *seg)
{
	while (it->pos < it->nr) {
		if (pev_callchain_is_context(it->ips[it->pos])) {
			it->context = it->ips[it->pos++];
			continue;
		}
		uint64_t start = it->pos;
		while (it->pos < it->nr &&
		       !pev_callchain_is_context(it->ips[it->pos]))
			it->pos++;
		seg->context = it->context;
		seg->ips = it->ips + start;
		seg->nr = it->pos - start;
		return true;
	}
	return false;
}
