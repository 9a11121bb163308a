// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Kernel record types (1..63): finding the event that wrote a record,
 * the sample_id trailer, and every non-sample body. */
#include "sample/record_internal.h"

static int no_attr(struct rcur *c)
{
	return rc_fail(c, -ENOENT, "attr", 0,
		       "no event attr to decode this record with");
}

static int find_sample_attr(struct rcur *c, const struct pev_decoder *d)
{
	if (!d || !d->nattrs)
		return no_attr(c);
	if (d->nattrs == 1)
		return 0;
	size_t off = 8 + 8 * (size_t)d->id_pos;
	if (off + 8 > c->end)
		return rc_fail(c, -EBADMSG, "id", off, R_PAST_END);
	int idx = pev__lookup_attr(d, rc_peek64(c, off));
	if (idx < 0)
		return rc_fail(c, -ENOENT, "id", off, "unknown event id");
	return idx;
}

static int body_mmap(struct rcur *c, bool v2)
{
	struct pev_record_mmap *m = &c->out->u.mmap;
	int r;

	if ((r = rc_u32x2(c, &m->pid, &m->tid, "pid")) ||
	    (r = rc_u64(c, &m->addr, "addr")) ||
	    (r = rc_u64(c, &m->len, "len")) ||
	    (r = rc_u64(c, &m->pgoff, "pgoff")))
		return r;
	if (v2) {
		if (c->out->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			uint8_t res8;
			uint16_t res16;
			const void *bid;
			size_t at = c->pos;
			m->has_build_id = true;
			if ((r = rc_u8(c, &m->build_id_size, "build_id_size")) ||
			    (r = rc_u8(c, &res8, "build_id_size")) ||
			    (r = rc_u16(c, &res16, "build_id_size")) ||
			    (r = rc_bytes(c, 20, &bid, "build_id")))
				return r;
			if (m->build_id_size > 20)
				return rc_fail(c, -EBADMSG, "build_id_size", at,
					       "larger than 20 bytes");
			m->build_id = bid;
		} else if ((r = rc_u32x2(c, &m->maj, &m->min, "maj")) ||
			   (r = rc_u64(c, &m->ino, "ino")) ||
			   (r = rc_u64(c, &m->ino_generation, "ino_generation"))) {
			return r;
		}
		if ((r = rc_u32x2(c, &m->prot, &m->flags, "prot")))
			return r;
	}
	return rc_string(c, &m->filename, "filename");
}

static int body(struct rcur *c, const struct perf_event_attr *attr)
{
	struct pev_record *o = c->out;
	int r;

	switch (o->type) {
	case PERF_RECORD_MMAP:
		return body_mmap(c, false);
	case PERF_RECORD_MMAP2:
		return body_mmap(c, true);
	case PERF_RECORD_LOST:
		if ((r = rc_u64(c, &o->u.lost.id, "id")))
			return r;
		return rc_u64(c, &o->u.lost.lost, "lost");
	case PERF_RECORD_COMM:
		o->u.comm.exec = !!(o->misc & PERF_RECORD_MISC_COMM_EXEC);
		if ((r = rc_u32x2(c, &o->u.comm.pid, &o->u.comm.tid, "pid")))
			return r;
		return rc_string(c, &o->u.comm.comm, "comm");
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK: {
		struct pev_record_fork *f = &o->u.fork;
		if ((r = rc_u32x2(c, &f->pid, &f->ppid, "pid")) ||
		    (r = rc_u32x2(c, &f->tid, &f->ptid, "tid")))
			return r;
		return rc_u64(c, &f->time, "time");
	}
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE: {
		struct pev_record_throttle *t = &o->u.throttle;
		if ((r = rc_u64(c, &t->time, "time")) ||
		    (r = rc_u64(c, &t->id, "id")))
			return r;
		return rc_u64(c, &t->stream_id, "stream_id");
	}
	case PERF_RECORD_READ:
		if (!attr)
			return no_attr(c);
		if ((r = rc_u32x2(c, &o->u.read.pid, &o->u.read.tid, "pid")))
			return r;
		return pev__decode_readfmt(c, attr->read_format,
					   &o->u.read.values, "values");
	case PERF_RECORD_AUX: {
		struct pev_record_aux *a = &o->u.aux;
		if ((r = rc_u64(c, &a->aux_offset, "aux_offset")) ||
		    (r = rc_u64(c, &a->aux_size, "aux_size")) ||
		    (r = rc_u64(c, &a->flags, "flags")))
			return r;
		a->truncated = !!(a->flags & PERF_AUX_FLAG_TRUNCATED);
		a->overwrite = !!(a->flags & PERF_AUX_FLAG_OVERWRITE);
		a->partial = !!(a->flags & PERF_AUX_FLAG_PARTIAL);
		a->collision = !!(a->flags & PERF_AUX_FLAG_COLLISION);
		a->pmu_format = (uint8_t)((a->flags &
					   PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK) >> 8);
		return 0;
	}
	case PERF_RECORD_ITRACE_START:
		return rc_u32x2(c, &o->u.itrace_start.pid, &o->u.itrace_start.tid,
				"pid");
	case PERF_RECORD_LOST_SAMPLES:
		return rc_u64(c, &o->u.lost_samples.lost, "lost");
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		struct pev_record_switch *s = &o->u.context_switch;
		s->out = !!(o->misc & PERF_RECORD_MISC_SWITCH_OUT);
		s->preempt = s->out &&
			     (o->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		if (o->type == PERF_RECORD_SWITCH)
			return 0;
		return rc_u32x2(c, &s->next_prev_pid, &s->next_prev_tid,
				"next_prev_pid");
	}
	case PERF_RECORD_NAMESPACES: {
		struct pev_record_namespaces *n = &o->u.namespaces;
		const uint64_t *links;
		if ((r = rc_u32x2(c, &n->pid, &n->tid, "pid")) ||
		    (r = rc_u64(c, &n->nr, "nr_namespaces")) ||
		    (r = rc_need_array(c, n->nr, 16, "nr_namespaces")) ||
		    (r = rc_array64(c, n->nr * 2, &links, "nr_namespaces")))
			return r;
		n->links = (const struct pev_ns_link *)links;
		return 0;
	}
	case PERF_RECORD_KSYMBOL: {
		struct pev_record_ksymbol *k = &o->u.ksymbol;
		if ((r = rc_u64(c, &k->addr, "addr")) ||
		    (r = rc_u32(c, &k->len, "len")) ||
		    (r = rc_u16(c, &k->ksym_type, "ksym_type")) ||
		    (r = rc_u16(c, &k->flags, "flags")))
			return r;
		return rc_string(c, &k->name, "name");
	}
	case PERF_RECORD_BPF_EVENT: {
		struct pev_record_bpf_event *b = &o->u.bpf_event;
		const void *tag;
		if ((r = rc_u16(c, &b->type, "type")) ||
		    (r = rc_u16(c, &b->flags, "flags")) ||
		    (r = rc_u32(c, &b->id, "id")) ||
		    (r = rc_bytes(c, 8, &tag, "tag")))
			return r;
		b->tag = tag;
		return 0;
	}
	case PERF_RECORD_CGROUP:
		if ((r = rc_u64(c, &o->u.cgroup.id, "id")))
			return r;
		return rc_string(c, &o->u.cgroup.path, "path");
	case PERF_RECORD_TEXT_POKE: {
		struct pev_record_text_poke *t = &o->u.text_poke;
		const void *ob, *nb;
		if ((r = rc_u64(c, &t->addr, "addr")) ||
		    (r = rc_u16(c, &t->old_len, "old_len")) ||
		    (r = rc_u16(c, &t->new_len, "new_len")) ||
		    (r = rc_bytes(c, t->old_len, &ob, "old_len")) ||
		    (r = rc_bytes(c, t->new_len, &nb, "new_len")))
			return r;
		t->old_bytes = ob;
		t->new_bytes = nb;
		return 0;
	}
	case 21: /* PERF_RECORD_AUX_OUTPUT_HW_ID */
		return rc_u64(c, &o->u.aux_output_hw_id.hw_id, "hw_id");
	case PEV_RECORD_CALLCHAIN_DEFERRED: {
		struct pev_record_callchain_deferred *cd = &o->u.callchain_deferred;
		if ((r = rc_u64(c, &cd->cookie, "cookie")) ||
		    (r = rc_u64(c, &cd->callchain.nr, "callchain.nr")))
			return r;
		return rc_array64(c, cd->callchain.nr, &cd->callchain.ips,
				  "callchain.nr");
	}
	}
	return 0;
}

static bool known_kernel_type(uint32_t t)
{
	return t >= PERF_RECORD_MMAP && t <= PEV_RECORD_CALLCHAIN_DEFERRED;
}

int pev__decode_kernel(struct rcur *c, const struct pev_decoder *d)
{
	struct pev_record *o = c->out;
	const struct perf_event_attr *attr = NULL;
	size_t nattrs = d ? d->nattrs : 0;
	int idx = -1, r;

	if (o->type == PERF_RECORD_SAMPLE) {
		if ((idx = find_sample_attr(c, d)) < 0)
			return idx;
		o->attr_index = idx;
		o->attr = &d->attrs[idx].attr.attr;
		return pev__decode_sample(c, o->attr);
	}
	if (!known_kernel_type(o->type)) {
		/* A type newer than this library: its body, undecoded (its
		 * trailer, if any, cannot be told from the body). */
		o->u.payload.data = c->base + 8;
		o->u.payload.size = c->end - 8;
		return 0;
	}

	bool id_all = nattrs && d->attrs[0].attr.attr.sample_id_all;
	if (nattrs == 1) {
		idx = 0;
	} else if (id_all) {
		size_t back = 8 * (size_t)d->is_pos;
		if (c->end < 8 + back)
			return rc_fail(c, -EBADMSG, "sample_id", 8,
				       "record too small for its sample_id trailer");
		idx = pev__lookup_attr(d, rc_peek64(c, c->end - back));
		if (idx < 0)
			return rc_fail(c, -ENOENT, "sample_id.id", c->end - back,
				       "unknown event id");
	}
	if (idx >= 0) {
		o->attr_index = idx;
		o->attr = attr = &d->attrs[idx].attr.attr;
	} else if (nattrs) {
		/* No trailer to tell events apart: perf requires one
		 * read_format for all, so any attr decodes READ. */
		attr = &d->attrs[0].attr.attr;
	}

	size_t end = c->end, tsize = 0;
	if (id_all) {
		tsize = pev__trailer_size(attr->sample_type);
		if (tsize > end - 8)
			return rc_fail(c, -EBADMSG, "sample_id", 8,
				       "record too small for its sample_id trailer");
		c->end = end - tsize;
	}
	if ((r = body(c, attr)))
		return r;
	if (id_all) {
		/* Bytes between a body and its trailer (a newer kernel's
		 * extra fields) are skipped. */
		c->pos = end - tsize;
		c->end = end;
		if ((r = pev__decode_trailer(c, attr->sample_type, &o->sample_id)))
			return r;
		o->has_sample_id = true;
	}
	return 0;
}
