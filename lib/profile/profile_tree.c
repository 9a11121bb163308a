// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile model's call trees (built by pev_profile_finish in
 * profile_finish.c, merged by profile_order.c, replayed by
 * profile_replay.c).
 *
 * Call trees are tries of frames (one frame per node).  perf keeps its
 * trees compressed (a node holds a run of entries), but its runs are
 * exactly the trie paths whose inner nodes end no chain and have one
 * child, so a printer recovers perf's nodes by walking such paths; the
 * totals (hit, children_hit, count, children_count) are the same. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_bhist.h"
#include "profile/profile_tree.h"

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

static int child_cmp(const void *x, const void *y, void *arg)
{
	const struct pev_profile *sort_p = arg;
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
	qsort_r(out, k, sizeof(*out), child_cmp, (void *)p);
	return k;
}

static int chain_only_cmp(const void *x, const void *y, void *arg)
{
	const struct pev_profile *sort_p = arg;
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
	qsort_r(out, k, sizeof(*out), chain_only_cmp, (void *)p);
	return k;
}

PEV_EXPORT const struct pev_profile_node *
pev_profile_node(const struct pev_profile *p, uint32_t n)
{
	return p && n && n < p->nnodes ? &p->nodes[n].n : NULL;
}
