// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile model, finishing: cumulative (children) entries and call
 * trees (profile_tree.c) per (entry, chain) pair, the replay of perf's
 * lookups where needed (profile_replay.c), the output order
 * (profile_order.c); the entry accessors. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_entry.h"
#include "profile/profile_order.h"
#include "profile/profile_replay.h"
#include "profile/profile_src.h"
#include "profile/profile_tree.h"

/* ---------------------------------------------------------------- finish */

/* Room for n more replay items; NULL: no memory. */
static struct pf_item *items_room(struct pev_profile *p, uint64_t n)
{
	if (p->nitems + n > p->items_cap) {
		uint64_t c = p->items_cap ? p->items_cap * 2 : 4096;

		while (c < p->nitems + n)
			c *= 2;
		struct pf_item *it = realloc(p->items, c * sizeof(*it));

		if (!it)
			return NULL;
		p->items = it;
		p->items_cap = c;
	}
	return p->items + p->nitems;
}

static int expand_pair(struct pev_profile *p, struct pf_pair *q)
{
	uint32_t self = q->entry;
	struct pf_item *items = NULL;
	int err;

	if (p->replay_on) {	/* the sample's own lookup, then its chain's */
		items = items_room(p, q->chain == UINT32_MAX ? 1 : p->chains[q->chain].len + 1);
		if (!items)
			return -ENOMEM;
		q->items = p->nitems;
		q->nitems = 1;
		items[0] = (struct pf_item){ self, UINT32_MAX, p->ents[self].level };
		p->nitems++;
	}
	if (q->chain == UINT32_MAX)
		return 0;
	const struct pf_chain *c = &p->chains[q->chain];
	uint32_t n = c->len, *w = p->scratch;

	/* walk order: the tree's order (caller: root first) */
	for (uint32_t j = 0; j < n; j++)
		w[j] = p->chain_pool[c->off + (p->opts.order == PEV_PROFILE_CALLER ?
					      n - 1 - j : j)];
	/* with a replay log the trees wait for the replay's decision */
	err = items ? 0 : pev__pf_tree_insert(p, &p->ents[self].e.tree, w, n, q->period,
					      q->count);
	if (n > p->ents[self].e.max_depth && !items)
		p->ents[self].e.max_depth = n;
	if (err || !p->opts.children)
		return err;
	uint32_t *seen = w + n, nseen = 0;
	char level = p->ents[self].level;

	seen[nseen++] = self;
	for (uint32_t j = 0; j < n; j++) {
		const struct pev_profile_frame *f = pev__pf_frame_at(p, w[j]);
		struct pf_key k = p->ents[self].key;
		bool dup = false;
		uint32_t ei;

		if (f->level)
			level = f->level;
		if (p->key_on[PEV_SORT_DSO] || (p->key_on[PEV_SORT_SYM] && f->sym))
			k.dso = ((const struct pf_frame *)f)->cdso;
		else
			k.dso = NULL;
		pev__pf_size_keys(p, &k, (const struct pf_frame *)f);
		if (p->key_on[PEV_SORT_SYM]) {
			k.sym = ((const struct pf_frame *)f)->csym;
			k.inl = f->inline_name;
			k.kip = f->sym ? 0 : f->ip;
		}
		if (p->key_on[PEV_SORT_SRCLINE]) {
			k.srcline = pev__pf_chain_entry_srcline(p, f);
			if (!k.srcline)
				return -ENOMEM;
		}
		if (p->key_on[PEV_SORT_SRCFILE]) {
			const char *sl = pev__pf_chain_entry_srcline(p, f);

			k.srcfile = sl ? pev__pf_srcfile(p, sl) : NULL;
			if (!k.srcfile)
				return -ENOMEM;
		}
		for (uint32_t s = 0; s < nseen && !dup; s++)
			dup = !memcmp(&p->ents[seen[s]].key, &k, sizeof(k));
		if (dup)
			continue;
		err = pev__pf_entry_find(p, &k, level, f, &ei);
		if (err)
			return err;
		struct pev_profile_entry *e = &p->ents[ei].e;

		if (!e->nr_samples && !e->acc_samples)
			p->ents[ei].sdso = ((const struct pf_frame *)f)->cdso;

		/* perf's he->thread and level: those of the first sample
		 * that made the entry, as self or along a chain */
		if ((!e->nr_samples && !e->acc_samples) || q->seq < p->ents[ei].seq ||
		    (q->seq == p->ents[ei].seq && j + 1 < p->ents[ei].sub)) {
			p->ents[ei].sub = j + 1;
			e->pid = q->pid;
			e->tid = q->tid;
			e->level = level;
			e->filtered = q->filtered;
			e->frame = f;	/* perf's he->ms: the first sample's */
			if (k.comm)	/* and its comm, as the self entry shows it */
				e->comm = p->ents[self].e.comm;
			p->ents[ei].level = level;
			p->ents[ei].seq = q->seq;
		}
		e->acc_period += q->period;
		e->acc_samples += q->count;
		seen[nseen++] = ei;
		if (items) {
			items[q->nitems++] = (struct pf_item){ ei, j, level };
			p->nitems++;
			continue;
		}
		err = pev__pf_tree_insert(p, &p->ents[ei].e.tree, w + j, n - j,
				     q->period, q->count);
		if (n - j > p->ents[ei].e.max_depth)
			p->ents[ei].e.max_depth = n - j;
		if (err)
			return err;
	}
	return 0;
}

PEV_EXPORT int pev_profile_finish(struct pev_profile *p)
{
	int err;

	if (!p || p->finished)
		return -EINVAL;
	p->finished = true;
	for (uint32_t i = 0; i < p->npairs; i++) {
		uint32_t ch = p->pairs[i].chain;
		size_t need = (size_t)(ch == UINT32_MAX ? 0 : p->chains[ch].len) * 2 + 2;

		if (need > p->scratch_cap) {
			uint32_t *s = realloc(p->scratch, need * 2 * sizeof(*s));

			if (!s)
				return -ENOMEM;
			p->scratch = s;
			p->scratch_cap = need * 2;
		}
		err = expand_pair(p, &p->pairs[i]);
		if (err)
			return err;
	}
	/* events whose lookups can miss in perf: replayed */
	uint32_t **rep = calloc(p->nevents, sizeof(*rep)), *nrep = calloc(p->nevents, sizeof(*nrep));

	err = rep && nrep ? 0 : -ENOMEM;
	for (size_t ev = 0; ev < p->nevents && !err; ev++)
		err = pev__pf_replay(p, (uint32_t)ev, &rep[ev], &nrep[ev]);
	free(p->log);
	p->log = NULL;
	p->nlog = 0;
	/* the other events' call graphs: from the aggregated pairs */
	for (uint32_t i = 0; i < p->npairs && !err && p->replay_on; i++) {
		const struct pf_pair *q = &p->pairs[i];

		if (rep[p->ents[q->entry].e.event])
			continue;
		for (uint32_t j = 0; j < q->nitems; j++)
			p->scratch[j] = p->items[q->items + j].ent;
		err = pev__pf_pair_trees(p, q, p->scratch, q->period, q->count);
	}
	/* children totals, bottom-up: a child's index is above its parent's */
	for (uint32_t i = p->nnodes - 1; i > 0 && !err; i--) {
		struct pev_profile_node *n = &p->nodes[i].n;

		if (n->parent) {
			p->nodes[n->parent].n.children_hit += n->hit + n->children_hit;
			p->nodes[n->parent].n.children_count += n->count + n->children_count;
		}
	}
	for (size_t ev = 0; ev < p->nevents && !err; ev++) {
		uint32_t *o = rep[ev], k = nrep[ev];

		rep[ev] = NULL;
		if (!o) {
			o = malloc(((size_t)p->nents + 1) * sizeof(*o));
			if (!o) {
				err = -ENOMEM;
				break;
			}
			for (uint32_t i = 0; i < p->nents; i++)
				if (p->ents[i].e.event == ev)
					o[k++] = i;
		}
		p->order[ev] = o;
		/* perf's totals of what the filters keep: the self periods
		 * and samples of the entries not hidden */
		struct pev_profile_stats *st = &p->stats[ev];

		for (uint32_t i = 0; i < k; i++) {
			const struct pev_profile_entry *e = &p->ents[o[i]].e;

			if (e->filtered) {
				st->nr_filtered += e->nr_samples;
				st->filtered_period += e->period;
			} else {
				st->nr_samples += e->nr_samples;
				st->total_period += e->period;
			}
		}
		if (pev__pf_output_order(p, o, &k, nrep[ev] > 0))
			err = -ENOMEM;
		p->stats[ev].nr_entries = k;
	}
	for (size_t ev = 0; rep && ev < p->nevents; ev++)
		free(rep[ev]);
	free(rep);
	free(nrep);
	return err;
}

PEV_EXPORT size_t pev_profile_nr_entries(const struct pev_profile *p, size_t event)
{
	return p && p->finished && event < p->nevents ? p->stats[event].nr_entries : 0;
}

PEV_EXPORT const struct pev_profile_entry *
pev_profile_entry(const struct pev_profile *p, size_t event, size_t i)
{
	if (!p || !p->finished || event >= p->nevents || i >= p->stats[event].nr_entries)
		return NULL;
	return &p->ents[p->order[event][i]].e;
}
