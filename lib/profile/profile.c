// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile model: streaming samples into interned frames, interned
 * call chains and entries (perfev/profile.h).
 *
 * Per sample the work is a few hash lookups: the thread's comm, the
 * sample's location, each chain frame, the chain as a whole, the entry
 * and the (entry, chain) pair (the entries: profile_entry.c).  Nothing is allocated per sample once the
 * tables hold the data's variety: the cumulative entries and call trees
 * are built once per distinct pair in pev_profile_finish()
 * (profile_tree.c), which gives the same totals as perf's per-sample
 * insertion because perf's trees are canonical (they do not depend on the
 * order samples arrive in). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_bhist.h"
#include "profile/profile_branch.h"
#include "profile/profile_cgroup.h"
#include "profile/profile_comm.h"
#include "profile/profile_entry.h"
#include "profile/profile_ipc.h"
#include "profile/profile_keys.h"
#include "profile/profile_replay.h"
#include "profile/profile_samples.h"
#include "profile/profile_src.h"
/* ----------------------------------------------------------------- chains */

static uint64_t chain_rehash(void *ctx, uint32_t i)
{
	return ((struct pev_profile *)ctx)->chains[i].hash;
}

static int64_t chain_get(struct pev_profile *p, const uint32_t *ids, uint32_t n)
{
	uint64_t h = n;

	for (uint32_t j = 0; j < n; j++)
		h = pf_mix(h, ids[j]);
	uint32_t i = (uint32_t)h & p->chash.mask;

	for (; p->chash.slot[i]; i = (i + 1) & p->chash.mask) {
		struct pf_chain *c = &p->chains[p->chash.slot[i] - 1];

		if (c->hash == h && c->len == n &&
		    !memcmp(p->chain_pool + c->off, ids, n * sizeof(*ids)))
			return p->chash.slot[i] - 1;
	}
	if (pev__pf_grow((void **)&p->chains, &p->chain_cap, p->nchains + 1, sizeof(*p->chains)))
		return -ENOMEM;
	if (p->pool_len + n > p->pool_cap) {
		uint64_t c = p->pool_cap ? p->pool_cap * 2 : 65536;

		while (c < p->pool_len + n)
			c *= 2;
		uint32_t *np = realloc(p->chain_pool, c * sizeof(*np));

		if (!np)
			return -ENOMEM;
		p->chain_pool = np;
		p->pool_cap = c;
	}
	memcpy(p->chain_pool + p->pool_len, ids, n * sizeof(*ids));
	p->chains[p->nchains] = (struct pf_chain){ p->pool_len, n, h, NULL };
	if (pev__pf_chain_parent(p, &p->chains[p->nchains]))
		return -ENOMEM;
	p->pool_len += n;
	p->chash.slot[i] = ++p->nchains;
	p->chash.n++;
	if (pev__pf_htab_grow(&p->chash, chain_rehash, p))
		return -ENOMEM;
	return p->nchains - 1;
}

static uint64_t pair_rehash(void *ctx, uint32_t i)
{
	return ((struct pev_profile *)ctx)->pairs[i].hash;
}

static int pair_add(struct pev_profile *p, uint32_t entry, uint32_t chain,
		    int32_t pid, int32_t tid, uint32_t filtered, uint8_t cpumode,
		    uint32_t self, uint64_t period, uint32_t *idx)
{
	uint64_t h = pf_mix(pf_mix(pf_mix(pf_mix(entry, chain), filtered | (uint32_t)cpumode << 1),
				   ((uint64_t)(uint32_t)pid << 32) | (uint32_t)tid), self);
	uint32_t i = (uint32_t)h & p->phash.mask;

	for (; p->phash.slot[i]; i = (i + 1) & p->phash.mask) {
		struct pf_pair *q = &p->pairs[p->phash.slot[i] - 1];

		if (q->entry == entry && q->chain == chain && q->pid == pid && q->tid == tid &&
		    q->filtered == filtered && q->cpumode == cpumode && q->self == self) {
			q->period += period;
			q->count++;
			*idx = p->phash.slot[i] - 1;
			return 0;
		}
	}
	if (pev__pf_grow((void **)&p->pairs, &p->pair_cap, p->npairs + 1, sizeof(*p->pairs)))
		return -ENOMEM;
	p->pairs[p->npairs] = (struct pf_pair){ entry, chain, pid, tid, filtered, period, 1,
						 p->seq, h, 0, 0, cpumode, self };
	*idx = p->npairs;
	p->phash.slot[i] = ++p->npairs;
	p->phash.n++;
	return pev__pf_htab_grow(&p->phash, pair_rehash, p);
}

/* ---------------------------------------------------------------- samples */

static int scratch_room(struct pev_profile *p, size_t n)
{
	if (n <= p->scratch_cap)
		return 0;
	size_t c = p->scratch_cap ? p->scratch_cap * 2 : 256;

	while (c < n)
		c *= 2;
	uint32_t *s = realloc(p->scratch, c * sizeof(*s));

	if (!s)
		return -ENOMEM;
	p->scratch = s;
	p->scratch_cap = c;
	return 0;
}

static uint64_t raw_rehash(void *ctx, uint32_t i)
{
	return ((struct pev_profile *)ctx)->raws[i].hash;
}

static void raw_clear(struct pev_profile *p)
{
	if (!p->nraws)
		return;
	memset(p->rhash.slot, 0, ((size_t)p->rhash.mask + 1) * sizeof(*p->rhash.slot));
	p->rhash.n = 0;
	p->nraws = 0;
	p->raw_len = 0;
}

/* The cache slot of a sample (found: *hit; else a new one to fill), or
 * NULL when it cannot be cached (DWARF stack dumps, no memory). */
static struct pf_raw *raw_get(struct pev_profile *p, const struct pev_sample *s,
			      uint8_t cpumode, bool *hit)
{
	const struct pev_callchain *cc = &s->callchain;
	uint64_t nr = p->opts.callchains || p->parent_on ? cc->nr : 0;
	uint64_t h = pf_mix(pf_mix(pf_mix(s->pid, cpumode), s->ip), nr);

	*hit = false;
	if (s->stack_user.size || nr > 4096)
		return NULL;
	/* a thread sampled where it was the last time: no hash needed */
	if (p->last_raw < p->nraws) {
		struct pf_raw *r = &p->raws[p->last_raw];

		if (r->pid == s->pid && r->ip == s->ip && r->cpumode == cpumode &&
		    r->nr == nr &&
		    (!nr || !memcmp(p->raw_pool + r->off, cc->ips, nr * sizeof(uint64_t)))) {
			*hit = true;
			return r;
		}
	}
	h = pf_mix(h, pev__pf_hash_words(cc->ips, nr));
	uint32_t i = (uint32_t)h & p->rhash.mask;

	for (; p->rhash.slot[i]; i = (i + 1) & p->rhash.mask) {
		struct pf_raw *r = &p->raws[p->rhash.slot[i] - 1];

		if (r->hash == h && r->pid == s->pid && r->ip == s->ip &&
		    r->cpumode == cpumode && r->nr == nr &&
		    (!nr || !memcmp(p->raw_pool + r->off, cc->ips, nr * sizeof(uint64_t)))) {
			*hit = true;
			p->last_raw = p->rhash.slot[i] - 1;
			return r;
		}
	}
	if (pev__pf_grow((void **)&p->raws, &p->raw_cap, p->nraws + 1, sizeof(*p->raws)))
		return NULL;
	if (p->raw_len + nr > p->raw_cap2) {
		uint64_t c = p->raw_cap2 ? p->raw_cap2 * 2 : 65536;

		while (c < p->raw_len + nr)
			c *= 2;
		uint64_t *np = realloc(p->raw_pool, c * sizeof(*np));

		if (!np)
			return NULL;
		p->raw_pool = np;
		p->raw_cap2 = c;
	}
	if (nr)
		memcpy(p->raw_pool + p->raw_len, cc->ips, nr * sizeof(uint64_t));
	struct pf_raw *r = &p->raws[p->nraws];

	*r = (struct pf_raw){ .hash = h, .ip = s->ip, .off = p->raw_len, .pid = s->pid,
			      .nr = (uint32_t)nr, .self = UINT32_MAX, .chain = UINT32_MAX,
			      .cpumode = cpumode };
	p->raw_len += nr;
	p->last_raw = p->nraws;
	p->rhash.slot[i] = ++p->nraws;
	p->rhash.n++;
	if (pev__pf_htab_grow(&p->rhash, raw_rehash, p))
		return NULL;
	return &p->raws[p->nraws - 1];
}

/* The interned chain of a sample: UINT32_MAX when it has none; -ENOMEM. */
static int64_t sample_chain(struct pev_profile *p, const struct pev_sample *s)
{
	const struct pev_frame *fr;
	long n = pev_chain_resolve(p->chain, s, &fr);

	if (n <= 0)
		return n < 0 ? n : UINT32_MAX;
	unsigned max = p->opts.max_stack ? p->opts.max_stack : 127;
	long first = 0;

	/* perf counts --max-stack from the end it starts reading at: the
	 * leaf in callee order, the root in caller order. */
	if ((unsigned long)n > max) {
		if (p->opts.order == PEV_PROFILE_CALLER)
			first = n - max;
		n = first + max;
	}
	if (scratch_room(p, (size_t)n))
		return -ENOMEM;
	long k = 0;

	for (long j = first; j < n; j++) {
		const struct pev_frame *f = &fr[j];
		bool kip = p->frame_ip || !f->loc.sym;

		if (p->opts.hide_unresolved && !f->loc.sym)
			continue;	/* perf's -U */
		int64_t id = pev__pf_frame_get(p, f->loc.dso, f->loc.sym, f->inline_name,
				       kip ? f->ip : 0, f->ip, f->loc.map_ip,
				       f->loc.dso ? pev__pf_level_of(f->cpumode, f->loc.kernel) : 0);

		if (id < 0)
			return id;
		pev__pf_set_map_size(p, (uint32_t)id, &f->loc);
		if (f->call_file && pev__pf_set_call_line(p, (uint32_t)id, f))
			return -ENOMEM;
		p->scratch[k++] = (uint32_t)id;
	}
	return k ? chain_get(p, p->scratch, (uint32_t)k) : UINT32_MAX;
}

/* --ignore-callees: the chain from the frame perf stops at (toward the
 * root in callee order, the leaf in caller order), that frame the
 * sample's own location (loc); self, or the new self frame, or -ENOMEM. */
static int64_t ignore_callees(struct pev_profile *p, int64_t *chain, uint32_t self,
			      struct pev_addr_loc *loc)
{
	const struct pf_chain *c = &p->chains[*chain];
	uint32_t n = c->len;
	long m = pev__pf_ignore_at(p, p->chain_pool + c->off, n);

	if (m < 0)
		return self;
	if (scratch_room(p, n))
		return -ENOMEM;
	memcpy(p->scratch, p->chain_pool + c->off, n * sizeof(uint32_t));
	const struct pev_profile_frame *f = pev__pf_frame_at(p, p->scratch[m]);
	bool caller = p->opts.order == PEV_PROFILE_CALLER;

	memset(loc, 0, sizeof(*loc));
	loc->dso = f->dso;
	loc->sym = f->sym;
	loc->map_ip = f->addr;
	loc->kernel = f->level == 'k';
	int64_t ns = pev__pf_frame_get(p, f->dso, f->sym, NULL, p->frame_ip ? f->addr : 0,
				       f->ip, f->addr, f->level);

	if (ns < 0)
		return ns;
	*chain = caller ? chain_get(p, p->scratch, (uint32_t)m + 1) :
			  chain_get(p, p->scratch + m, n - (uint32_t)m);
	return *chain < 0 ? *chain : ns;
}

static int add_sample(struct pev_profile *p, const struct pev_record *rec)
{
	const struct pev_sample *s = &rec->u.sample;
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint32_t ev = rec->attr_index > 0 ? (uint32_t)rec->attr_index : 0;
	const struct pev_filter *flt = p->opts.filter;
	struct pev_addr_loc loc;
	const char *comm;
	struct pf_key k;
	bool filtered = false;
	int err;

	if (ev >= p->nevents)
		return 0;

	if (flt && (!pev_filter_time_ok(flt, s->time) ||
		    ((s->fields & PERF_SAMPLE_CPU) ? !pev_filter_cpu_ok(flt, s->cpu) :
		     (pev_filter_needs(flt) & PEV_FILTER_NEED_CPU))))
		return 0;
	/* the comm of the last thread seen, until a COMM or FORK */
	if (p->comm_cached && p->comm_pid == s->pid && p->comm_tid == s->tid) {
		comm = p->comm_last;
	} else {
		comm = pev__pf_sample_comm(p, s->pid, s->tid, &p->comm_last_shown);
		if (!comm)
			return -ENOMEM;
		p->comm_cached = true;
		p->comm_pid = s->pid;
		p->comm_tid = s->tid;
		p->comm_last = comm;
	}
	bool hit = false;
	/* --branch-history: the chain holds the branches too */
	struct pf_raw *raw = p->opts.branch_history ? NULL : raw_get(p, s, cpumode, &hit);
	int64_t self, chain = UINT32_MAX;

	if (raw && hit) {
		const struct pev_profile_frame *sf = pev__pf_frame_at(p, raw->self);

		memset(&loc, 0, sizeof(loc));
		loc.dso = sf->dso;
		loc.sym = sf->sym;
		loc.map_ip = sf->addr;
		loc.kernel = sf->level == 'k';
		self = raw->self;
		chain = raw->chain;
	} else {
		pev_machine_resolve(p->m, s->pid, s->ip, cpumode, &loc);
		self = pev__pf_frame_get(p, loc.dso, loc.sym, NULL,
				 (p->frame_ip || !loc.sym) ? loc.map_ip : 0, s->ip,
				 loc.map_ip, pev__pf_level_of(cpumode, loc.kernel));
		if (self < 0)
			return (int)self;
		pev__pf_set_map_size(p, (uint32_t)self, &loc);
		if (p->opts.branch_history && p->opts.callchains) {
			long n = pev__pf_bh_frames(p, s);

			if (n < 0)
				return (int)n;
			chain = n ? chain_get(p, p->bh_ids, (uint32_t)n) : UINT32_MAX;
			if (chain < 0)
				return (int)chain;
		} else if ((p->opts.callchains || p->parent_on) && p->chain) {
			chain = sample_chain(p, s);
			if (chain < 0)
				return (int)chain;
			if (p->ignore_on && chain != UINT32_MAX) {
				self = ignore_callees(p, &chain, (uint32_t)self, &loc);
				if (self < 0)
					return (int)self;
			}
		}
		/* raw_get may have moved the array: find the slot again */
		if (raw) {
			bool again;

			raw = raw_get(p, s, cpumode, &again);
			if (raw) {
				raw->self = (uint32_t)self;
				raw->chain = (uint32_t)chain;
			}
		}
	}
	/* perf's -U: a sample without a symbol is not counted at all */
	if (p->opts.hide_unresolved && !loc.sym)
		return 0;
	/* perf's --socket-filter: the entry of another socket is hidden */
	if (p->opts.socket_filter_on)
		filtered = !(s->fields & PERF_SAMPLE_CPU) || s->cpu >= p->opts.nr_cpu_socket ||
			   p->opts.cpu_socket[s->cpu] != p->opts.socket_filter;
	if (flt) {	/* pid and tid lists need nothing resolved */
		struct pev_filter_sample fs = {
			.time = s->time, .cpu = s->cpu,
			.has_cpu = !!(s->fields & PERF_SAMPLE_CPU),
			.pid = (int32_t)s->pid, .tid = (int32_t)s->tid, .comm = comm,
			.dso_short = loc.dso ? pev_profile_dso_short(loc.dso) : NULL,
			.dso_long = loc.dso ? pev_dso_name(loc.dso) : NULL,
			.sym = loc.sym ? loc.sym->name : NULL,
			.ip = s->ip,
		};

		filtered |= pev_filter_match(flt, &fs) != 0;
	}
	const char *parent = chain != UINT32_MAX ? p->chains[chain].parent : NULL;

	/* perf's -x: no parent, filtered */
	filtered |= p->opts.exclude_other && !parent;
	char level = pev__pf_level_of(cpumode, loc.kernel);
	/* A self frame is keyed by its map address (perf's al->addr). */
	memset(&k, 0, sizeof(k));
	k.event = ev;
	if (p->key_on[PEV_SORT_COMM]) {
		k.comm = comm;
		p->comm_shown = p->comm_last_shown;
	}
	if (p->key_on[PEV_SORT_PID])
		k.tid = (int32_t)s->tid;
	k.parent = parent;
	const struct pf_frame *sf = (const struct pf_frame *)pev__pf_frame_at(p, (uint32_t)self);

	/* perf's sym key compares DSOs only when a symbol was found */
	if (p->key_on[PEV_SORT_DSO] || (p->key_on[PEV_SORT_SYM] && sf->csym))
		k.dso = sf->cdso;
	pev__pf_size_keys(p, &k, sf);
	if (p->key_on[PEV_SORT_SYM]) {
		k.sym = sf->csym;
		if (!loc.sym)
			k.kip = loc.map_ip;
	}
	if (p->key_on[PEV_SORT_CPU])
		k.cpu = (s->fields & PERF_SAMPLE_CPU) ? (int32_t)s->cpu : -1;
	if (p->key_on[PEV_SORT_SOCKET])
		k.socket = (s->fields & PERF_SAMPLE_CPU) && s->cpu < p->opts.nr_cpu_socket ?
			   p->opts.cpu_socket[s->cpu] : -1;
	if (p->key_on[PEV_SORT_TIME]) {
		uint64_t q = p->opts.time_quantum;

		k.time = q ? s->time / q * q : s->time;
	}
	if (p->key_on[PEV_SORT_WEIGHT] || p->key_on[PEV_SORT_LOCAL_WEIGHT])
		k.weight = s->fields & PERF_SAMPLE_WEIGHT_STRUCT ?
			   s->weight & 0xffffffffu : s->weight;
	/* perf's ins_lat: the second part of a WEIGHT_STRUCT */
	if ((p->key_on[PEV_SORT_INS_LAT] || p->key_on[PEV_SORT_LOCAL_INS_LAT]) &&
	    (s->fields & PERF_SAMPLE_WEIGHT_STRUCT))
		k.ins_lat = s->weight >> 32 & 0xffff;
	if (p->key_on[PEV_SORT_CGROUP])
		k.cgroup = s->cgroup;
	if (p->key_on[PEV_SORT_CGROUP_ID])
		pev__pf_cgroup_ns(p, s->tid, &k.cgroup_dev, &k.cgroup_ino);
	if (p->key_on[PEV_SORT_CODE_PAGE_SIZE])
		k.cps = s->code_page_size;
	if (p->key_on[PEV_SORT_TRACE] && (err = pev__pf_trace_key(p, ev, s, &k)))
		return err;
	struct pf_mem mem;

	if ((err = pev__pf_mem_keys(p, s, cpumode, &k, &mem)))
		return err;
	if (p->key_on[PEV_SORT_SRCLINE]) {
		const char *sl = pev_profile_srcline(p, pev__pf_frame_at(p, (uint32_t)self),
						     false);

		if (!sl)
			return -ENOMEM;
		k.srcline = sl;
	}
	if (p->key_on[PEV_SORT_SRCFILE]) {
		const char *sl = pev_profile_srcline(p, pev__pf_frame_at(p, (uint32_t)self),
						     false);

		k.srcfile = sl ? pev__pf_srcfile(p, sl) : NULL;
		if (!k.srcfile)
			return -ENOMEM;
	}
	uint32_t ei;
	/* perf's mem mode: the weight is the cost */
	uint64_t period = !p->opts.mem_mode ? s->period :
			  (s->weight & 0xffffffffu) ? (s->weight & 0xffffffffu) : 1;

	if (p->opts.keep_samples && !p->opts.branch_mode) {
		struct pev_profile_sample ks = {
			.time = s->time, .period = period, .comm = comm,
			.pid = (int32_t)s->pid, .tid = (int32_t)s->tid,
			.cpu = (s->fields & PERF_SAMPLE_CPU) ? (int32_t)s->cpu : -1,
			.event = ev, .self = (uint32_t)self,
			.chain = p->opts.callchains ? (uint32_t)chain : UINT32_MAX,
			.cpumode = cpumode, .filtered = filtered,
		};

		if ((err = pev__pf_keep(p, &ks)))
			return err;
	}
	if (p->opts.branch_mode)
		return (s->fields & PERF_SAMPLE_BRANCH_STACK) ?
		       pev__pf_add_branches(p, s, cpumode, &k, level, filtered) : 0;
	err = p->live_on ? pev__pf_live_find(p, &k, level, pev__pf_frame_at(p, (uint32_t)self), &ei) :
			   pev__pf_entry_find(p, &k, level, pev__pf_frame_at(p, (uint32_t)self), &ei);
	if (err)
		return err;
	struct pev_profile_entry *e = &p->ents[ei].e;

	p->seq++;
	if (!e->nr_samples && !e->acc_samples) {
		e->pid = (int32_t)s->pid;
		e->tid = (int32_t)s->tid;
		p->ents[ei].seq = p->seq;
		/* perf shows the memory info of the entry's first sample */
		e->data_src = mem.data_src;
		e->daddr = mem.daddr;
		e->daddr_frame = mem.dframe;
		e->daddr_sym_off = mem.sym_off;
		e->daddr_shared = mem.shared;
		e->cpumode = cpumode;
		p->ents[ei].sdso = sf->cdso;
		/* perf: an entry is hidden when the sample that made it
		 * failed a filter (later samples add to it all the same) */
		e->filtered = filtered;
	}
	e->period += period;
	e->nr_samples++;
	e->weight_sum += s->weight & 0xffffffffu;
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL: e->period_sys += period; break;
	case PERF_RECORD_MISC_USER: e->period_us += period; break;
	case PERF_RECORD_MISC_GUEST_KERNEL: e->period_guest_sys += period; break;
	case PERF_RECORD_MISC_GUEST_USER: e->period_guest_us += period; break;
	default: break;
	}
	if (p->opts.children) {
		e->acc_period += period;
		e->acc_samples++;
	}
	if (!p->opts.callchains)
		chain = UINT32_MAX;
	if (chain == UINT32_MAX && !p->replay_on)
		return 0;
	uint32_t q;

	err = pair_add(p, ei, (uint32_t)chain, (int32_t)s->pid, (int32_t)s->tid, filtered,
		       cpumode, p->replay_on ? (uint32_t)self : 0, period, &q);
	if (err || !p->replay_on)
		return err;
	return pev__pf_log(p, q, period, (uint32_t)s->weight);
}

/* perf's deliver_sample_value: a sample that reads its events
 * (PERF_SAMPLE_READ, {a,b}:S) counts, for each value read, the growth of
 * that event's counter since its last read, as a sample of that event;
 * nothing for an id no event has or a value that did not grow. */
static int add_read_sample(struct pev_profile *p, const struct pev_record *rec)
{
	const struct pev_readfmt *rf = &rec->u.sample.read;
	int err = 0;

	for (uint64_t i = 0; i < rf->nr && !err; i++) {
		struct pev_readfmt_entry v;
		struct pf_readval *rv = NULL;
		int ev;

		if (pev_readfmt_entry(rf, i, &v) || (ev = pev_decoder_find_id(p->dec, v.id)) < 0)
			continue;
		for (size_t j = 0; j < p->nreadvals && !rv; j++)
			if (p->readvals[j].id == v.id)
				rv = &p->readvals[j];
		if (!rv) {
			if (pev__pf_grow((void **)&p->readvals, &p->readval_cap, p->nreadvals + 1,
					 sizeof(*p->readvals)))
				return -ENOMEM;
			rv = &p->readvals[p->nreadvals++];
			rv->id = v.id;
			rv->value = 0;
		}
		uint64_t period = v.value - rv->value;

		rv->value = v.value;
		if (!period)
			continue;
		struct pev_record r = *rec;

		r.attr_index = ev;
		r.u.sample.period = period;
		err = add_sample(p, &r);
	}
	return err;
}

PEV_EXPORT int pev_profile_add(struct pev_profile *p, const struct pev_record *rec)
{
	if (!p || !rec || p->finished)
		return -EINVAL;
	switch (rec->type) {
	case PERF_RECORD_SAMPLE: {
		int err = (rec->u.sample.fields & PERF_SAMPLE_READ) && rec->u.sample.read.nr ?
			  add_read_sample(p, rec) : add_sample(p, rec);

		p->comm_shown = NULL;
		return err;
	}
	case PERF_RECORD_LOST_SAMPLES:
		p->lost_samples += rec->u.lost_samples.lost;
		return 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		/* perf creates a DSO per mapped file as the MMAP arrives; that
		 * order breaks ties between call-graph branches */
		const struct pev_record_mmap *mm = &rec->u.mmap;
		struct pev_addr_loc loc;
		int err = pev_machine_process(p->m, rec);

		raw_clear(p);
		if (err)
			return err;
		if (!pev_machine_resolve(p->m, mm->pid, mm->addr,
					 (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK), &loc) &&
		    loc.dso && pev__pf_dso_order(p, loc.dso) == UINT32_MAX)
			return -ENOMEM;
		return 0;
	}
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
		raw_clear(p);
		p->comm_cached = false;
		pev__pf_comm_record(p, rec);
		return pev_machine_process(p->m, rec);
	case PERF_RECORD_EXIT:
		return pev_machine_process(p->m, rec);
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_NAMESPACES:
		return pev__pf_cgroup_record(p, rec);
	default:
		return 0;
	}
}

PEV_EXPORT int pev_profile_read(struct pev_profile *p, struct pev_data *d,
				void (*progress)(uint64_t done, void *arg),
				void *arg)
{
	struct pev_data_event ev;
	uint64_t n = 0;
	int rc;

	while ((rc = pev_data_next_ordered(d, &ev)) > 0) {
		if (progress && !(++n & 0xffff))
			progress(ev.offset, arg);
		if (ev.decode_error)
			continue;
		rc = pev_profile_add(p, &ev.rec);
		if (rc < 0)
			return rc;
	}
	return rc;
}

/* ------------------------------------------------------------- lifecycle */

PEV_EXPORT struct pev_profile *
pev_profile_new(struct pev_machine *m, struct pev_chain *chain,
		const struct pev_decoder *dec, const struct pev_profile_opts *opts)
{
	struct pev_profile *p;

	if (!m || !dec) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	p->m = m;
	p->chain = chain;
	p->dec = dec;
	if (opts) {
		size_t n = opts->size && opts->size < sizeof(p->opts) ?
			   opts->size : sizeof(p->opts);

		memcpy(&p->opts, opts, n);
	} else {
		p->opts.keys[0] = PEV_SORT_COMM;
		p->opts.keys[1] = PEV_SORT_DSO;
		p->opts.keys[2] = PEV_SORT_SYM;
	}
	for (unsigned i = 0; i < PEV_PROFILE_MAX_KEYS && p->opts.keys[i]; i++) {
		if (p->opts.keys[i] >= PEV_SORT_MAX) {
			free(p);
			errno = EINVAL;
			return NULL;
		}
		p->key_on[p->opts.keys[i]] = true;
		p->nkeys++;
	}
	for (unsigned i = 0; i < 2 * PEV_PROFILE_MAX_KEYS && p->opts.sort_order[i]; i++) {
		int it = p->opts.sort_order[i];

		if (it >= PEV_FIELD_OVERHEAD ? it > PEV_FIELD_PERIOD :
		    it >= PEV_SORT_MAX || it < 0 || !p->key_on[it]) {
			free(p);
			errno = EINVAL;
			return NULL;
		}
	}
	/* keys whose equal entries differ in memory (perf's != compares,
	 * dcacheline's DSO ids and per-process anonymous memory) merge as
	 * perf's entries_in tree merges them */
	p->live_on = (p->opts.branch_mode && (p->key_on[PEV_SORT_MISPREDICT] ||
					      p->key_on[PEV_SORT_IN_TX] ||
					      p->key_on[PEV_SORT_ABORT])) ||
		     p->key_on[PEV_SORT_DCACHELINE];
	/* perf's sym key compares unresolved addresses by a wrapping
	 * difference: lookups may miss (profile_replay.c; not with the
	 * live trees above) */
	p->replay_on = p->key_on[PEV_SORT_SYM] && !p->opts.branch_mode && !p->live_on;
	if (pev__pf_parent_init(p) || pev__pf_ignore_init(p)) {
		if (p->parent_on)
			regfree(&p->parent_re);
		free(p);
		errno = EINVAL;
		return NULL;
	}
	p->frame_ip = p->opts.match == PEV_PROFILE_ADDRESS ||
		      p->key_on[PEV_SORT_SRCLINE] || p->key_on[PEV_SORT_SRCFILE];
	p->nevents = pev_decoder_nr_attrs(dec);
	if (!p->nevents)
		p->nevents = 1;
	p->stats = calloc(p->nevents, sizeof(*p->stats));
	p->order = calloc(p->nevents, sizeof(*p->order));
	p->nnodes = 1;
	if (!p->stats || !p->order || pev__pf_htab_init(&p->fhash, 1024) ||
	    pev__pf_htab_init(&p->shash, 256) || pev__pf_htab_init(&p->ehash, 1024) ||
	    pev__pf_htab_init(&p->chash, 1024) || pev__pf_htab_init(&p->phash, 1024) ||
	    pev__pf_htab_init(&p->nhash, 1024) || pev__pf_htab_init(&p->rhash, 1024) ||
	    pev__pf_htab_init(&p->cshash, 1024) ||
	    pev__pf_grow((void **)&p->nodes, &p->node_cap, 1, sizeof(*p->nodes))) {
		pev_profile_free(p);
		errno = ENOMEM;
		return NULL;
	}
	memset(&p->nodes[0], 0, sizeof(p->nodes[0]));
	return p;
}

PEV_EXPORT void pev_profile_free(struct pev_profile *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->nfblocks; i++)
		free(p->fblocks[i]);
	free(p->fblocks);
	pev__pf_cgroup_free(p);
	pev__pf_comm_free(p);
	pev__pf_live_free(p);
	pev__pf_ipc_free(p);
	free(p->bh);
	free(p->bh_ids);
	for (uint32_t i = 0; i < p->nstrs; i++)
		free(p->strs[i]);
	free(p->strs);
	free(p->str_hash);
	free(p->dsos);
	free(p->ents);
	free(p->chain_pool);
	free(p->chains);
	free(p->kept);
	free(p->pairs);
	free(p->log);
	free(p->items);
	free(p->nodes);
	for (size_t i = 0; p->order && i < p->nevents; i++)
		free(p->order[i]);
	free(p->order);
	free(p->stats);
	free(p->readvals);
	free(p->scratch);
	pev__pf_htab_release(&p->fhash);
	pev__pf_htab_release(&p->shash);
	pev__pf_htab_release(&p->ehash);
	pev__pf_htab_release(&p->chash);
	pev__pf_htab_release(&p->phash);
	pev__pf_htab_release(&p->nhash);
	pev__pf_htab_release(&p->rhash);
	pev__pf_htab_release(&p->cshash);
	free(p->cdsos);
	free(p->csyms);
	free(p->raws);
	free(p->raw_pool);
	pev_srclines_free(p->srclines);
	if (p->parent_on)
		regfree(&p->parent_re);
	if (p->ignore_on)
		regfree(&p->ignore_re);
	free(p);
}
