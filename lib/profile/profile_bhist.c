// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* --branch-history (perf 6.1's branch_callstack): a sample's branch
 * stack is put in its call chain, as perf's
 * thread__resolve_callchain_sample builds its cursor:
 *  - at most max_stack branches; in callee order newest first, each
 *    branch that starts at most 8 bytes before the chain entry it has
 *    reached (or a context marker there) moving past that entry; in
 *    caller order oldest first;
 *  - loops taken out (perf's remove_loops: a run of sources repeating an
 *    earlier run is dropped and counted as an iteration of it, with its
 *    cycles);
 *  - each branch gives its target (flags: predicted, abort) then its
 *    source (cycles, iterations);
 *  - then the call chain, less as many entries as branches were kept:
 *    from the first entry not passed above in callee order, from the
 *    root in caller order.
 * Branch ends are frames tagged with their flags (they match in the call
 * trees as their address does); the tree nodes count them as perf's
 * callchain entries do (branch_count, predicted, abort, cycles,
 * iterations): the first sample to reach a node fills it, later ones add
 * to it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/callchain.h>

#include "profile/profile_bhist.h"
#include "profile/profile_src.h"

#define CTX_MAX ((uint64_t)-4095)	/* PERF_CONTEXT_MAX */
#define MAX_BRANCH_DEPTH 127		/* PERF_MAX_BRANCH_DEPTH */
#define CHASHSZ 127
#define CHASHBITS 7

#define ROLE_TO 1u
#define ROLE_FROM 2u

struct bh_iter {
	uint64_t nr_loop_iter, cycles;
};

static unsigned cycles_of(uint64_t flags)
{
	return (unsigned)(flags >> 4 & 0xffff);
}

/* perf's remove_loops (its hash: the kernel's hash_64, bucket % 127). */
static size_t remove_loops(struct pev_branch_entry *l, size_t nr, struct bh_iter *iter)
{
	unsigned char chash[CHASHSZ];

	memset(chash, 0xff, sizeof(chash));
	for (size_t i = 0; i < nr; i++) {
		int h = (int)(((l[i].from * 0x61C8864680B583EBULL) >> (64 - CHASHBITS)) % CHASHSZ);

		if (chash[h] == 0xff) {
			chash[h] = (unsigned char)i;
		} else if (l[chash[h]].from == l[i].from) {
			bool loop = true;
			size_t off = 0, j;

			for (j = chash[h]; j < i && i + off < nr; j++, off++)
				if (l[j].from != l[i + off].from) {
					loop = false;
					break;
				}
			if (loop) {
				size_t rest = nr - (i + off);

				if (rest > 0) {
					struct bh_iter *it = &iter[i + off];

					it->nr_loop_iter++;
					it->cycles = 0;
					for (size_t k = 0; k < off; k++)
						it->cycles += cycles_of(l[i + k].flags);
					memmove(iter + i, iter + i + off, rest * sizeof(*iter));
					memmove(l + i, l + i + off, rest * sizeof(*l));
				}
				nr -= off;
			}
		}
	}
	return nr;
}

static int push(struct pev_profile *p, uint32_t *n, int64_t id)
{
	if (id < 0)
		return (int)id;
	if (pev__pf_grow((void **)&p->bh_ids, &p->bh_ids_cap, *n + 1, sizeof(*p->bh_ids)))
		return -ENOMEM;
	p->bh_ids[(*n)++] = (uint32_t)id;
	return 0;
}

/* A branch end: resolved in the thread's user maps, then the kernel's
 * (perf's thread__find_cpumode_addr_location); tagged. */
static int64_t end_frame(struct pev_profile *p, uint32_t pid, uint64_t addr, uint64_t tag)
{
	struct pev_addr_loc loc;
	uint8_t mode = PERF_RECORD_MISC_USER;
	int64_t id;

	if (pev_machine_resolve(p->m, pid, addr, mode, &loc) || !loc.dso) {
		mode = PERF_RECORD_MISC_KERNEL;
		pev_machine_resolve(p->m, pid, addr, mode, &loc);
	}
	if (!loc.dso)
		id = pev__pf_frame_get(p, NULL, NULL, NULL, addr, addr, addr, 0);
	else
		id = pev__pf_frame_get(p, loc.dso, loc.sym, NULL,
				       p->frame_ip || !loc.sym ? addr : 0, addr, loc.map_ip,
				       pev__pf_level_of(mode, loc.kernel));
	if (id < 0)
		return id;
	pev__pf_set_map_size(p, (uint32_t)id, &loc);
	return pev__pf_frame_tagged(p, (uint32_t)id, tag);
}

/* The frames of the resolved chain fr (n) for raw entry r of cc: the
 * run of fr that starts at *k (inline frames, then the frame of the
 * address); *k moves past it. */
static int raw_frames(struct pev_profile *p, uint32_t *out, const struct pev_frame *fr,
		      long n, long *k, uint64_t ip)
{
	long a = *k, b = a;

	while (b < n && fr[b].inline_name)
		b++;
	if (b >= n || fr[b].ip != ip)
		return 0;	/* the resolver dropped it */
	*k = b + 1;
	for (long j = a; j <= b; j++) {
		const struct pev_frame *f = &fr[j];
		bool kip = p->frame_ip || !f->loc.sym;
		int64_t id = pev__pf_frame_get(p, f->loc.dso, f->loc.sym, f->inline_name,
					       kip ? f->ip : 0, f->ip, f->loc.map_ip,
					       f->loc.dso ? pev__pf_level_of(f->cpumode, f->loc.kernel) : 0);
		int err = push(p, out, id);

		if (err)
			return err;
		pev__pf_set_map_size(p, (uint32_t)id, &f->loc);
	}
	return 0;
}

static uint64_t tag_to(const struct pev_branch_entry *e)
{
	return ROLE_TO | (e->flags & 2 ? 4 : 0) | (e->flags & 8 ? 8 : 0);
}

static uint64_t tag_from(const struct pev_branch_entry *e, const struct bh_iter *it)
{
	return ROLE_FROM | (uint64_t)cycles_of(e->flags) << 4 |
	       (it->nr_loop_iter & 0xfff) << 20 | (it->cycles & 0xffffffffULL) << 32;
}

/* The sample's chain with its branches into p->bh_ids, in the order the
 * profile stores chains (callee order: expand_pair reverses it for a
 * caller-order tree).  Returns the number of ids or -errno. */
long pev__pf_bh_frames(struct pev_profile *p, const struct pev_sample *s)
{
	const struct pev_branch_stack *bs = &s->branch_stack;
	const struct pev_callchain *cc = (s->fields & PERF_SAMPLE_CALLCHAIN) && s->callchain.nr ?
					 &s->callchain : NULL;
	unsigned max = p->opts.max_stack ? p->opts.max_stack : 127;
	bool callee = p->opts.order != PEV_PROFILE_CALLER;
	size_t nbr = (s->fields & PERF_SAMPLE_BRANCH_STACK) ? bs->nr : 0;
	size_t nr = nbr < max ? nbr : max;
	long chain_nr = cc ? (long)cc->nr : 0, first_call = 0;
	uint32_t n = 0;
	int err = 0;

	if (nbr > MAX_BRANCH_DEPTH)
		nr = 0;
	struct pev_branch_entry *be = nr ? calloc(nr, sizeof(*be)) : NULL;
	struct bh_iter *iter = nr ? calloc(nr, sizeof(*iter)) : NULL;

	if (nr && (!be || !iter)) {
		free(be);
		free(iter);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++) {
		if (!callee) {
			be[i] = bs->entries[nbr - i - 1];
			continue;
		}
		be[i] = bs->entries[i];
		if (!cc)
			continue;
		/* past the chain perf reads the word after it: the branch
		 * stack's count */
		uint64_t v = (uint64_t)first_call < cc->nr ? cc->ips[first_call] : nbr;

		if (v >= CTX_MAX || (be[i].from < v && be[i].from >= v - 8))
			first_call++;
	}
	nr = remove_loops(be, nr, iter);
	if (nbr <= MAX_BRANCH_DEPTH)
		chain_nr -= (long)nr;

	const struct pev_frame *fr = NULL;
	long nfr = cc && p->chain ? pev_chain_resolve(p->chain, s, &fr) : 0;
	/* raw entry -> its first resolved frame (-1: none) */
	long *at = cc ? malloc(cc->nr * sizeof(*at)) : NULL;

	if (cc && !at)
		err = -ENOMEM;
	for (long r = 0, k = 0; !err && cc && r < (long)cc->nr; r++) {
		long b = k;

		at[r] = -1;
		if (cc->ips[r] >= CTX_MAX)
			continue;
		while (b < nfr && fr[b].inline_name)
			b++;
		if (b < nfr && fr[b].ip == cc->ips[r]) {
			at[r] = k;
			k = b + 1;
		}
	}
	if (!err && callee) {
		for (size_t i = 0; i < nr && !err; i++) {
			err = push(p, &n, end_frame(p, s->pid, be[i].to, tag_to(&be[i])));
			if (!err)
				err = push(p, &n, end_frame(p, s->pid, be[i].from,
							    tag_from(&be[i], &iter[i])));
		}
		for (long i = first_call, ne = 0; !err && cc && i < chain_nr && ne < (long)max; i++) {
			if (cc->ips[i] >= CTX_MAX)
				continue;
			ne++;
			if (at[i] >= 0) {
				long k = at[i];

				err = raw_frames(p, &n, fr, nfr, &k, cc->ips[i]);
			}
		}
	} else if (!err) {
		/* caller order: the chain's root-side entries, stored leaf
		 * first, then the branches newest first (source, target) */
		long ne = 0, hi = cc ? (long)cc->nr : 0;

		for (long i = 0; cc && i < chain_nr && ne < (long)max; i++) {
			hi = (long)cc->nr - i - 1;
			if (cc->ips[hi] < CTX_MAX)
				ne++;
		}
		for (long j = hi; !err && cc && j < (long)cc->nr; j++) {
			if (cc->ips[j] >= CTX_MAX || at[j] < 0)
				continue;
			long k = at[j];

			err = raw_frames(p, &n, fr, nfr, &k, cc->ips[j]);
		}
		for (size_t i = nr; i-- > 0 && !err;) {
			err = push(p, &n, end_frame(p, s->pid, be[i].from,
						    tag_from(&be[i], &iter[i])));
			if (!err)
				err = push(p, &n, end_frame(p, s->pid, be[i].to, tag_to(&be[i])));
		}
	}
	free(at);
	free(be);
	free(iter);
	return err ? err : (long)n;
}

/* perf's fill_node (the first sample at a node) and match_chain (the
 * others) for a branch end or a chain entry. */
int pev__pf_bh_node(struct pev_profile *p, uint32_t node, const struct pf_frame *f,
		    uint64_t count, bool created)
{
	if (node >= p->bh_cap) {
		uint32_t cap = p->bh_cap;

		if (pev__pf_grow((void **)&p->bh, &p->bh_cap, node + 1, sizeof(*p->bh)))
			return -ENOMEM;
		memset(p->bh + cap, 0, (p->bh_cap - cap) * sizeof(*p->bh));
	}
	struct pf_bh_counts *c = &p->bh[node];
	uint64_t t = f->br_tag, merges = count;
	unsigned role = t & 3;
	bool pred = t & 4, abort = t & 8;
	uint64_t cyc = t >> 4 & 0xffff, it = t >> 20 & 0xfff, itc = t >> 32;

	if (created) {
		merges = count - 1;
		if (role) {
			c->branch = 1;
			c->branch_to = role == ROLE_TO;
			if (role == ROLE_TO) {
				c->predicted = pred;
				c->abort = abort;
			} else {
				c->cycles = cyc;
				c->iter = it;
				c->iter_cycles = itc;
			}
		}
	}
	if (!role)
		return 0;
	if (merges)	/* perf's match_chain: the last branch end met decides */
		c->branch_to = role == ROLE_TO;
	c->branch += merges;
	if (role == ROLE_TO) {
		c->predicted += pred ? merges : 0;
		c->abort += abort ? merges : 0;
	} else {
		c->cycles += cyc * merges;
		c->iter += it * merges;
		c->iter_cycles += itc * merges;
		c->from += merges;
	}
	return 0;
}

PEV_EXPORT int pev_profile_node_branch(const struct pev_profile *p, uint32_t node,
				       struct pev_profile_branch_counts *out)
{
	if (!p || !out || !node || node >= p->nnodes)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (node < p->bh_cap) {
		const struct pf_bh_counts *c = &p->bh[node];

		out->branch = c->branch;
		out->predicted = c->predicted;
		out->abort = c->abort;
		out->cycles = c->cycles;
		out->iter = c->iter;
		out->iter_cycles = c->iter_cycles;
		out->from = c->from;
		out->branch_to = c->branch_to;
	}
	return 0;
}
