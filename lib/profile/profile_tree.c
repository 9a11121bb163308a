// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile model, finishing: cumulative (children) entries, call trees
 * (the output order is profile_order.c's).
 *
 * Call trees are tries of frames (one frame per node).  perf keeps its
 * trees compressed (a node holds a run of entries), but its runs are
 * exactly the trie paths whose inner nodes end no chain and have one
 * child, so a printer recovers perf's nodes by walking such paths; the
 * totals (hit, children_hit, count, children_count) are the same. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_internal.h"

static uint64_t node_rehash(void *ctx, uint32_t i)
{
	return ((struct pev_profile *)ctx)->nodes[i].hash;
}

static int64_t node_new(struct pev_profile *p, uint32_t parent, const struct pf_frame *f)
{
	if (p->nnodes == UINT32_MAX)
		return -ENOMEM;
	if (p->nnodes + 1 > p->node_cap) {
		uint32_t c = p->node_cap * 2;
		struct pf_node *n = realloc(p->nodes, (size_t)c * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->nodes = n;
		p->node_cap = c;
	}
	uint32_t i = p->nnodes++;
	struct pf_node *n = &p->nodes[i];

	memset(n, 0, sizeof(*n));
	n->n.parent = parent;
	if (parent) {
		struct pev_profile_node *pn = &p->nodes[parent].n;

		n->n.frame = &f->f;
		n->match = f->match;
		if (f->f.inline_name)
			p->nodes[parent].inl_child = 1;
		n->n.next_sibling = pn->first_child;
		pn->first_child = i;
		pn->nr_children++;
	}
	return i;
}

static const char *frame_name(const struct pev_profile_frame *f)
{
	return f->inline_name ? f->inline_name : f->sym->name;
}

/* perf's match_chain() compares symbols by name when either entry is an
 * inlined frame (inlined frames of several callers are one entry, and an
 * inlined X is the real X), by start address otherwise. */
static uint32_t inline_match(const struct pev_profile *p, uint32_t cur,
			     const struct pev_profile_frame *f)
{
	const char *name = frame_name(f);

	for (uint32_t c = p->nodes[cur].n.first_child; c; c = p->nodes[c].n.next_sibling) {
		const struct pev_profile_frame *cf = p->nodes[c].n.frame;

		if (cf->sym && (f->inline_name || cf->inline_name) &&
		    !strcmp(frame_name(cf), name))
			return c;
	}
	return 0;
}

/* The child of node cur for frame f, made (and *created set) when there
 * is none. */
static int64_t tree_child(struct pev_profile *p, uint32_t cur, const struct pf_frame *f,
			  bool *created)
{
	uint64_t h = pf_mix(cur, f->match);
	uint32_t i = (uint32_t)h & p->nhash.mask;

	for (; p->nhash.slot[i]; i = (i + 1) & p->nhash.mask) {
		struct pf_node *c = &p->nodes[p->nhash.slot[i]];

		if (c->hash == h && c->n.parent == cur && c->match == f->match)
			return p->nhash.slot[i];
	}
	if (f->f.sym && p->opts.match == PEV_PROFILE_FUNCTION &&
	    (f->f.inline_name || p->nodes[cur].inl_child)) {
		uint32_t found = inline_match(p, cur, &f->f);

		if (found)
			return found;
	}
	int64_t c = node_new(p, cur, f);

	if (c < 0)
		return c;
	*created = true;
	p->nodes[c].hash = h;
	/* node indices start at 1: the slot holds the index */
	p->nhash.slot[i] = (uint32_t)c;
	p->nhash.n++;
	if (p->nhash.n * 4 >= (p->nhash.mask + 1) * 3) {
		/* pev__pf_htab_grow stores index + 1: rebuild by hand */
		uint32_t cap = (p->nhash.mask + 1) * 2;
		uint32_t *s = calloc(cap, sizeof(*s));

		if (!s)
			return -ENOMEM;
		for (uint32_t k = 0; k <= p->nhash.mask; k++) {
			uint32_t v = p->nhash.slot[k];

			if (!v)
				continue;
			uint32_t q = (uint32_t)node_rehash(p, v) & (cap - 1);

			while (s[q])
				q = (q + 1) & (cap - 1);
			s[q] = v;
		}
		free(p->nhash.slot);
		p->nhash.slot = s;
		p->nhash.mask = cap - 1;
	}
	return c;
}

int pev__pf_tree_insert(struct pev_profile *p, uint32_t *root, const uint32_t *fids,
		   uint32_t n, uint64_t period, uint64_t count)
{
	if (!*root) {
		int64_t r = node_new(p, 0, NULL);

		if (r < 0)
			return (int)r;
		*root = (uint32_t)r;
	}
	uint32_t cur = *root;

	for (uint32_t j = 0; j < n; j++) {
		const struct pf_frame *f = (const struct pf_frame *)pev__pf_frame_at(p, fids[j]);
		bool created = false;
		int64_t c = tree_child(p, cur, f, &created);

		if (c < 0)
			return (int)c;
		cur = (uint32_t)c;
		if (p->opts.branch_history) {
			int err = pev__pf_bh_node(p, cur, f, count, created);

			if (err)
				return err;
		}
	}
	p->nodes[cur].n.hit += period;
	p->nodes[cur].n.count += count;
	return 0;
}

/* perf's callchain_merge: every node of src added into the same path of
 * *dst (its totals, children totals included). */
int pev__pf_tree_merge(struct pev_profile *p, uint32_t *dst, uint32_t src)
{
	if (!src)
		return 0;
	if (!*dst) {
		*dst = src;
		return 0;
	}
	uint32_t *st = malloc(2 * sizeof(*st) * 64), cap = 64, n = 0;

	if (!st)
		return -ENOMEM;
	st[n * 2] = src;
	st[n * 2 + 1] = *dst;
	n++;
	while (n) {
		n--;
		uint32_t s = st[n * 2], d = st[n * 2 + 1];
		struct pev_profile_node *sn = &p->nodes[s].n, *dn = &p->nodes[d].n;

		dn->hit += sn->hit;
		dn->count += sn->count;
		dn->children_hit += sn->children_hit;
		dn->children_count += sn->children_count;
		for (uint32_t c = sn->first_child; c; c = p->nodes[c].n.next_sibling) {
			bool created;
			int64_t dc = tree_child(p, d, (const struct pf_frame *)p->nodes[c].n.frame,
						&created);

			if (dc < 0) {
				free(st);
				return (int)dc;
			}
			if (n == cap) {
				uint32_t *ns = realloc(st, 2 * sizeof(*st) * cap * 2);

				if (!ns) {
					free(st);
					return -ENOMEM;
				}
				st = ns;
				cap *= 2;
			}
			st[n * 2] = c;
			st[n * 2 + 1] = (uint32_t)dc;
			n++;
		}
	}
	free(st);
	return 0;
}

/* perf's rb_root_in order of two chain entries: match_chain() puts a new
 * entry left of an existing one that compares lower, so the in-order walk
 * is descending by (DSO, symbol start or address). */
static int chain_cmp(const struct pev_profile *p, const struct pev_profile_frame *a,
		     const struct pev_profile_frame *b);
static int chain_cmp_asc(const struct pev_profile *p, const struct pev_profile_frame *a,
		     const struct pev_profile_frame *b)
{
	if (a->dso != b->dso)
		return a->dso_order < b->dso_order ? -1 : 1;
	if (a->inline_name || b->inline_name) {
		const char *na = a->inline_name ? a->inline_name : a->sym ? a->sym->name : NULL;
		const char *nb = b->inline_name ? b->inline_name : b->sym ? b->sym->name : NULL;

		if (na && nb) {
			int c = strcmp(na, nb);

			return c < 0 ? -1 : c > 0;
		}
	}
	if (p->opts.match == PEV_PROFILE_FUNCTION && a->sym && b->sym) {
		if (a->sym->start != b->sym->start)
			return a->sym->start < b->sym->start ? -1 : 1;
		return 0;
	}
	if (a->ip != b->ip)
		return a->ip < b->ip ? -1 : 1;
	return 0;
}

static int chain_cmp(const struct pev_profile *p, const struct pev_profile_frame *a,
		     const struct pev_profile_frame *b)
{
	return -chain_cmp_asc(p, a, b);
}

static const struct pev_profile *sort_p;

static int child_cmp(const void *x, const void *y)
{
	const struct pev_profile_node *a = &sort_p->nodes[*(const uint32_t *)x].n;
	const struct pev_profile_node *b = &sort_p->nodes[*(const uint32_t *)y].n;
	uint64_t ca = a->hit + a->children_hit, cb = b->hit + b->children_hit;

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return chain_cmp(sort_p, a->frame, b->frame);
}

PEV_EXPORT size_t pev_profile_node_children(const struct pev_profile *p,
					    uint32_t n, uint64_t min_hit,
					    uint32_t *out)
{
	size_t k = 0;

	if (!p || !n || n >= p->nnodes)
		return 0;
	for (uint32_t c = p->nodes[n].n.first_child; c; c = p->nodes[c].n.next_sibling) {
		const struct pev_profile_node *cn = &p->nodes[c].n;

		if (cn->hit + cn->children_hit >= min_hit)
			out[k++] = c;
	}
	sort_p = p;
	qsort(out, k, sizeof(*out), child_cmp);
	return k;
}

static int chain_only_cmp(const void *x, const void *y)
{
	const struct pev_profile_node *a = &sort_p->nodes[*(const uint32_t *)x].n;
	const struct pev_profile_node *b = &sort_p->nodes[*(const uint32_t *)y].n;

	return chain_cmp(sort_p, a->frame, b->frame);
}

PEV_EXPORT size_t pev_profile_node_children_chain(const struct pev_profile *p,
						  uint32_t n, uint32_t *out)
{
	size_t k = 0;

	if (!p || !n || n >= p->nnodes)
		return 0;
	for (uint32_t c = p->nodes[n].n.first_child; c; c = p->nodes[c].n.next_sibling)
		out[k++] = c;
	sort_p = p;
	qsort(out, k, sizeof(*out), chain_only_cmp);
	return k;
}

PEV_EXPORT const struct pev_profile_node *
pev_profile_node(const struct pev_profile *p, uint32_t n)
{
	return p && n && n < p->nnodes ? &p->nodes[n].n : NULL;
}

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
