// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf's lookups in its entries_in tree, replayed where they can miss.
 *
 * perf 6.1 adds every sample to a red-black tree of entries
 * (hists__findnew_entry): down from the root by hist_entry__cmp(old, new),
 * into the first entry that compares equal, else a new entry where the
 * walk ended; in children mode each call-chain entry of the sample is one
 * more lookup (those equal to one the sample already made are skipped).
 * Its sym key compares two entries without a symbol by the wrapping
 * difference of their addresses, and one of them with a symbolized entry
 * by the DSO it was found in: not a total order, so a walk can pass an
 * entry that compares equal and make a second one with the same key (the
 * periods split between them), and the tree's in-order is not sorted.
 *
 * The profile aggregates by key as samples stream (profile.c); with the
 * sym key on it also logs every kept sample's pair (entry, chain, thread)
 * and period.  At finish, an event whose keys are consistent with one
 * total order (checked per group of entries equal on the keys before sym)
 * keeps the aggregated entries: no lookup of perf's can miss there.  Any
 * other event is replayed: each sample's lookups, in perf's order, through
 * a tree of the same shape, the entries found or made taking the periods,
 * and the call graphs built per (pair, entries found). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_order.h"
#include "profile/profile_replay.h"
#include "profile/profile_tree.h"

int pev__pf_log(struct pev_profile *p, uint32_t q, uint64_t period, uint32_t weight)
{
	if (p->nlog == p->log_cap) {
		uint64_t c = p->log_cap ? p->log_cap * 2 : 65536;
		struct pf_logent *l = realloc(p->log, c * sizeof(*l));

		if (!l)
			return -ENOMEM;
		p->log = l;
		p->log_cap = c;
	}
	p->log[p->nlog++] = (struct pf_logent){ period, q, weight };
	return 0;
}

/* ------------------------------------------------------------ comparisons */

/* The comparison state: DSO ranks by shown name (NULL last), per entry. */
struct dso_rank {
	const struct pev_dso *dso;
	char name[48];
	uint32_t rank;
};

struct rp {
	struct pev_profile *p;
	uint32_t *dr;		/* rank of key.dso */
	uint32_t *sr;		/* rank of the DSO the sym key compares by */
	unsigned nkeys;		/* keys compared (all, or those before sym) */
	struct dso_rank *t;	/* by pointer */
	size_t nt;
};

static int by_ptr(const void *x, const void *y)
{
	const struct dso_rank *a = x, *b = y;

	return a->dso < b->dso ? -1 : a->dso > b->dso;
}

static int by_name(const void *x, const void *y)
{
	const struct dso_rank *a = x, *b = y;

	return strcmp(a->name, b->name);
}

static uint32_t rank_of(const struct dso_rank *t, size_t n, const struct pev_dso *d)
{
	struct dso_rank k = { .dso = d };
	const struct dso_rank *f;

	if (!d)
		return UINT32_MAX;
	f = bsearch(&k, t, n, sizeof(*t), by_ptr);
	return f ? f->rank : UINT32_MAX;
}

static const struct pev_dso *sym_dso(const struct pf_entry *e)
{
	return e->key.sym ? e->key.dso : e->sdso;
}

/* Ranks for the entries o[0..n) (entry indices below p->nents) and the
 * canonical DSOs. */
static int ranks(struct rp *r, const uint32_t *o, uint32_t n)
{
	struct pev_profile *p = r->p;
	struct dso_rank *t = malloc(((size_t)n * 2 + p->ncdsos + 1) * sizeof(*t));
	size_t m = 0, u = 0;

	r->t = t;
	r->dr = malloc(((size_t)p->nents + 1) * sizeof(*r->dr));
	r->sr = malloc(((size_t)p->nents + 1) * sizeof(*r->sr));
	if (!t || !r->dr || !r->sr)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const struct pf_entry *e = &p->ents[o[i]];

		if (e->key.dso)
			t[m++].dso = e->key.dso;
		if (sym_dso(e))
			t[m++].dso = sym_dso(e);
	}
	for (uint32_t i = 0; i < p->ncdsos; i++)
		if (p->cdsos[i].dso)
			t[m++].dso = p->cdsos[i].dso;
	qsort(t, m, sizeof(*t), by_ptr);
	for (size_t i = 0; i < m; i++)
		if (!u || t[u - 1].dso != t[i].dso)
			t[u++].dso = t[i].dso;
	for (size_t i = 0; i < u; i++) {
		const char *s = pev_profile_dso_shown(t[i].dso, t[i].name, sizeof(t[i].name));

		if (s != t[i].name)
			snprintf(t[i].name, sizeof(t[i].name), "%s", s ? s : "");
	}
	qsort(t, u, sizeof(*t), by_name);
	for (size_t i = 0; i < u; i++)
		t[i].rank = i && !strcmp(t[i].name, t[i - 1].name) ? t[i - 1].rank : (uint32_t)i;
	qsort(t, u, sizeof(*t), by_ptr);
	r->nt = u;
	for (uint32_t i = 0; i < n; i++) {
		const struct pf_entry *e = &p->ents[o[i]];

		r->dr[o[i]] = rank_of(t, u, e->key.dso);
		r->sr[o[i]] = rank_of(t, u, sym_dso(e));
	}
	return 0;
}

static int sign64(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

static int u32cmp(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

/* pev__pf_key_collapse(a, b, ...) over the first r->nkeys keys (perf's
 * hist_entry__cmp(b, a)), DSO names through their ranks; ra and rb: the
 * ranks of the DSOs the sym key compares a and b by (perf's he->ms.map). */
static int rcmp(const struct rp *r, uint32_t a, uint32_t ra, uint32_t b, uint32_t rb)
{
	const struct pev_profile *p = r->p;
	const struct pf_entry *x = &p->ents[a], *y = &p->ents[b];
	int c = 0;

	if (a == b)
		return 0;
	for (unsigned i = 0; i < r->nkeys && !c; i++) {
		enum pev_sort_key k = p->opts.keys[i];

		switch (k) {
		case PEV_SORT_COMM:
			c = x->key.comm == y->key.comm ? 0 : pev__pf_key_collapse(x, y, k);
			break;
		case PEV_SORT_DSO:
			c = u32cmp(r->dr[a], r->dr[b]);
			break;
		case PEV_SORT_SYM: {
			const struct pev_symbol *sa = x->key.sym, *sb = y->key.sym;

			if (!sa && !sb) {
				c = sign64(x->key.kip, y->key.kip);
				break;
			}
			if ((c = u32cmp(ra, rb)))
				break;
			if (!sa || !sb)
				c = !sa ? 1 : -1;
			else
				c = pev__pf_sym_cmp(sa, x->key.inl, sb, y->key.inl);
			break;
		}
		default:
			c = pev__pf_key_collapse(x, y, k);
			break;
		}
	}
	return c;
}

static int rcmp_canon(const struct rp *r, uint32_t a, uint32_t b)
{
	return rcmp(r, a, r->sr[a], b, r->sr[b]);
}

/* The frame of lookup it of pair q (perf's al->map of that lookup). */
static const struct pf_frame *item_frame(const struct pev_profile *p, const struct pf_pair *q,
					 const struct pf_item *it)
{
	if (it->j == UINT32_MAX)
		return (const struct pf_frame *)pev__pf_frame_at(p, q->self);
	const struct pf_chain *ch = &p->chains[q->chain];
	uint32_t at = p->opts.order == PEV_PROFILE_CALLER ? ch->len - 1 - it->j : it->j;

	return (const struct pf_frame *)pev__pf_frame_at(p, p->chain_pool[ch->off + at]);
}

/* ------------------------------------------------------------- the check */

static int prefix_cmp(const void *x, const void *y, void *arg)
{
	return rcmp_canon(arg, *(const uint32_t *)x, *(const uint32_t *)y);
}

struct uaddr {
	uint64_t addr;
	uint32_t cut;
};

static int by_addr(const void *x, const void *y)
{
	const struct uaddr *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return u32cmp(a->cut, b->cut);
}

static int by_u32(const void *x, const void *y)
{
	return u32cmp(*(const uint32_t *)x, *(const uint32_t *)y);
}

/* Whether the entries g[0..n) (equal on the keys before sym) are ordered
 * by the sym key consistently with one total order.  Symbolized entries
 * are (DSO, start, end); an unresolved one sits after those of its DSO,
 * before those of the next DSO name (its cut), and among the unresolved
 * ones by address: consistent when the addresses fit in half the circle
 * of 64-bit values and, in their order there, the cuts do not go down. */
static int group_ok(const struct rp *r, const uint32_t *g, uint32_t n, struct uaddr *u,
		    uint32_t *rr)
{
	const struct pev_profile *p = r->p;
	uint32_t nu = 0, nr = 0, start = 0;
	uint64_t gap = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (p->ents[g[i]].key.sym)
			rr[nr++] = r->sr[g[i]];
		else
			u[nu++].addr = p->ents[g[i]].key.kip;
	}
	if (nu < 2)
		return 1;
	qsort(rr, nr, sizeof(*rr), by_u32);
	nu = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t lo = 0, hi = nr, s;

		if (p->ents[g[i]].key.sym)
			continue;
		s = r->sr[g[i]];
		while (lo < hi) {	/* the symbolized DSO ranks <= s */
			uint32_t mid = (lo + hi) / 2;

			if (rr[mid] <= s)
				lo = mid + 1;
			else
				hi = mid;
		}
		u[nu++].cut = lo;
	}
	qsort(u, nu, sizeof(*u), by_addr);
	for (uint32_t i = 0; i < nu; i++) {
		uint64_t d = u[(i + 1) % nu].addr - u[i].addr;

		if (d > gap || (i + 1 == nu && !d && !gap)) {
			gap = d;
			start = (i + 1) % nu;
		}
	}
	if (gap && gap <= (1ULL << 63))
		return 0;
	for (uint32_t i = 0; i + 1 < nu; i++) {
		const struct uaddr *a = &u[(start + i) % nu], *b = &u[(start + i + 1) % nu];

		if (a->addr == b->addr ? a->cut != b->cut : a->cut > b->cut)
			return 0;
	}
	return 1;
}

/* Whether perf's lookups can miss among the entries o[0..n) (sorted here). */
static int need_replay(struct rp *r, uint32_t *o, uint32_t n)
{
	const struct pev_profile *p = r->p;
	unsigned sym = 0, nu = 0;
	int ok = 1;

	while (sym < p->nkeys && p->opts.keys[sym] != PEV_SORT_SYM)
		sym++;
	for (uint32_t i = 0; i < n && nu < 2; i++)
		nu += !p->ents[o[i]].key.sym;
	if (nu < 2)
		return 0;
	/* an unresolved entry found in another DSO than the one it was
	 * made in changes DSO (perf updates he->ms.map) */
	for (uint32_t i = 0; i < p->npairs; i++) {
		const struct pf_pair *q = &p->pairs[i];

		if (p->ents[q->entry].e.event != p->ents[o[0]].e.event)
			continue;
		for (uint32_t j = 0; j < q->nitems; j++) {
			const struct pf_item *it = p->items + q->items + j;
			const struct pf_entry *e = &p->ents[it->ent];

			if (!e->key.sym && item_frame(p, q, it)->cdso != e->sdso)
				return 1;
		}
	}
	struct uaddr *u = malloc(((size_t)n + 1) * sizeof(*u));
	uint32_t *rr = malloc(((size_t)n + 1) * sizeof(*rr));

	if (!u || !rr) {
		free(u);
		free(rr);
		return -ENOMEM;
	}
	r->nkeys = sym;
	qsort_r(o, n, sizeof(*o), prefix_cmp, r);
	for (uint32_t i = 0, j; i < n && ok; i = j) {
		for (j = i + 1; j < n && !rcmp_canon(r, o[i], o[j]); j++)
			;
		ok = group_ok(r, o + i, j - i, u, rr);
	}
	r->nkeys = p->nkeys;
	free(u);
	free(rr);
	return !ok;
}

/* ------------------------------------------------------------- the replay */

struct lpair {			/* a pair and the entries its lookups found */
	uint32_t pair;
	uint64_t off;		/* into vec */
	uint64_t period, count, hash;
};

struct replay {
	struct rp r;
	struct pf_rbt t;
	uint32_t *lent;		/* tree position -> entry */
	uint32_t *lsr;		/* tree position -> rank of its he->ms.map */
	struct lpair *lp;
	uint32_t nlp, lp_cap;
	struct pf_htab h;
	uint32_t *vec;
	uint64_t nvec, vec_cap;
};

static uint64_t lp_rehash(void *ctx, uint32_t i)
{
	return ((struct replay *)ctx)->lp[i].hash;
}

/* A new entry with canonical entry c's key, made by sample number seq
 * of pair q at its lookup it. */
static int64_t live_new(struct pev_profile *p, uint32_t c, const struct pf_pair *q,
			const struct pf_item *it, uint64_t seq)
{
	if (pev__pf_grow((void **)&p->ents, &p->ent_cap, p->nents + 1, sizeof(*p->ents)))
		return -ENOMEM;
	struct pf_entry *e = &p->ents[p->nents];

	*e = p->ents[c];
	e->canon = c;
	e->hash = 0;
	e->seq = seq;
	e->sub = it->j == UINT32_MAX ? 0 : it->j + 1;
	e->level = it->level;
	e->e.level = it->level;
	e->e.pid = q->pid;
	e->e.tid = q->tid;
	e->e.filtered = q->filtered;
	e->e.period = e->e.nr_samples = e->e.period_sys = e->e.period_us = 0;
	e->e.period_guest_sys = e->e.period_guest_us = 0;
	e->e.acc_period = e->e.acc_samples = e->e.weight_sum = 0;
	e->e.tree = 0;
	e->e.max_depth = 0;
	if (it->j == UINT32_MAX)
		e->e.cpumode = q->cpumode;
	else	/* perf's he->ms: the frame of the lookup that made it */
		e->e.frame = &item_frame(p, q, it)->f;
	e->sdso = item_frame(p, q, it)->cdso;
	return p->nents++;
}

/* hists__findnew_entry for canonical entry c: the entry found, or made;
 * an entry found takes the lookup's map (perf's he->ms.map update). */
static int64_t lookup(struct pev_profile *p, struct replay *x, uint32_t c,
		      const struct pf_pair *q, const struct pf_item *it, uint64_t seq)
{
	struct pf_rbt *t = &x->t;
	uint32_t n = t->root, y = 0, cap = t->cap, rc = x->r.sr[c];
	const struct pev_dso *map = NULL;
	bool left = false;

	if (!p->ents[c].key.sym) {
		map = item_frame(p, q, it)->cdso;
		rc = rank_of(x->r.t, x->r.nt, map);
	}
	while (n) {
		uint32_t e = x->lent[n];
		int d = rcmp(&x->r, c, rc, p->ents[e].canon, x->lsr[n]);

		if (!d) {
			if (!p->ents[c].key.sym) {
				x->lsr[n] = rc;
				p->ents[e].sdso = (struct pev_dso *)map;
			}
			return e;
		}
		y = n;
		left = d < 0;
		n = left ? t->l[n] : t->r[n];
	}
	int64_t e = live_new(p, c, q, it, seq);
	int z;

	if (e < 0)
		return e;
	z = pev__pf_rbt_add(t, y, left);
	if (z < 0)
		return z;
	if (t->cap != cap) {
		uint32_t *l = realloc(x->lent, t->cap * sizeof(*l));

		if (l)
			x->lent = l;
		uint32_t *r = l ? realloc(x->lsr, t->cap * sizeof(*r)) : NULL;

		if (!r)
			return -ENOMEM;
		x->lsr = r;
	}
	x->lent[z] = (uint32_t)e;
	x->lsr[z] = rc;
	return e;
}

static int lpair_add(struct replay *x, uint32_t pair, const uint32_t *v, uint32_t m,
		     uint64_t period)
{
	uint64_t h = pair;

	for (uint32_t i = 0; i < m; i++)
		h = pf_mix(h, v[i]);
	uint32_t i = (uint32_t)h & x->h.mask;

	for (; x->h.slot[i]; i = (i + 1) & x->h.mask) {
		struct lpair *l = &x->lp[x->h.slot[i] - 1];

		if (l->hash == h && l->pair == pair && !memcmp(x->vec + l->off, v, m * sizeof(*v))) {
			l->period += period;
			l->count++;
			return 0;
		}
	}
	if (pev__pf_grow((void **)&x->lp, &x->lp_cap, x->nlp + 1, sizeof(*x->lp)))
		return -ENOMEM;
	if (x->nvec + m > x->vec_cap) {
		uint64_t c = x->vec_cap ? x->vec_cap * 2 : 4096;

		while (c < x->nvec + m)
			c *= 2;
		uint32_t *nv = realloc(x->vec, c * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		x->vec = nv;
		x->vec_cap = c;
	}
	memcpy(x->vec + x->nvec, v, m * sizeof(*v));
	x->lp[x->nlp] = (struct lpair){ pair, x->nvec, period, 1, h };
	x->nvec += m;
	x->h.slot[i] = ++x->nlp;
	x->h.n++;
	return pev__pf_htab_grow(&x->h, lp_rehash, x);
}

int pev__pf_pair_trees(struct pev_profile *p, const struct pf_pair *q, const uint32_t *ents,
		       uint64_t period, uint64_t count)
{
	if (q->chain == UINT32_MAX)
		return 0;
	const struct pf_chain *c = &p->chains[q->chain];
	const struct pf_item *it = p->items + q->items;
	uint32_t n = c->len, *w = malloc(((size_t)n + 1) * sizeof(*w));
	int err = 0;

	if (!w)
		return -ENOMEM;
	for (uint32_t j = 0; j < n; j++)
		w[j] = p->chain_pool[c->off + (p->opts.order == PEV_PROFILE_CALLER ? n - 1 - j : j)];
	for (uint32_t i = 0; i < q->nitems && !err; i++) {
		uint32_t j = it[i].j == UINT32_MAX ? 0 : it[i].j;
		struct pev_profile_entry *e = &p->ents[ents[i]].e;

		err = pev__pf_tree_insert(p, &e->tree, w + j, n - j, period, count);
		if (n - j > e->max_depth)
			e->max_depth = n - j;
		if (!p->opts.children)
			break;
	}
	free(w);
	return err;
}

/* The in-order walk of tree t (positions mapped through lent) into out. */
static void in_order(const struct pf_rbt *t, const uint32_t *lent, uint32_t *out)
{
	uint32_t k = 0;

	for (uint32_t x = t->root, prev = 0; x;) {
		if (prev == t->up[x]) {
			if (t->l[x]) {
				prev = x;
				x = t->l[x];
				continue;
			}
			prev = 0;
		}
		if (prev == t->l[x]) {
			out[k++] = lent[x];
			if (t->r[x]) {
				prev = x;
				x = t->r[x];
				continue;
			}
		}
		prev = x;
		x = t->up[x];
	}
}

static int run(struct pev_profile *p, struct replay *x, uint32_t ev)
{
	uint32_t *v = NULL, vcap = 0;
	int err = 0;

	for (uint64_t k = 0; k < p->nlog && !err; k++) {
		const struct pf_logent *lg = &p->log[k];
		const struct pf_pair *q = &p->pairs[lg->pair];

		if (p->ents[q->entry].e.event != ev)
			continue;
		if (q->nitems > vcap) {
			uint32_t *nv = realloc(v, q->nitems * 2 * sizeof(*nv));

			if (!nv) {
				err = -ENOMEM;
				break;
			}
			v = nv;
			vcap = q->nitems * 2;
		}
		for (uint32_t i = 0; i < q->nitems; i++) {
			const struct pf_item *it = p->items + q->items + i;
			int64_t ei = lookup(p, x, it->ent, q, it, k + 1);

			if (ei < 0) {
				err = (int)ei;
				break;
			}
			struct pev_profile_entry *e = &p->ents[ei].e;

			v[i] = (uint32_t)ei;
			if (p->opts.children) {
				e->acc_period += lg->period;
				e->acc_samples++;
			}
			if (i)
				continue;
			e->period += lg->period;
			e->nr_samples++;
			e->weight_sum += lg->weight;
			switch (q->cpumode) {
			case PERF_RECORD_MISC_KERNEL: e->period_sys += lg->period; break;
			case PERF_RECORD_MISC_USER: e->period_us += lg->period; break;
			case PERF_RECORD_MISC_GUEST_KERNEL: e->period_guest_sys += lg->period; break;
			case PERF_RECORD_MISC_GUEST_USER: e->period_guest_us += lg->period; break;
			default: break;
			}
		}
		if (!err)
			err = lpair_add(x, lg->pair, v, q->nitems, lg->period);
	}
	free(v);
	for (uint32_t i = 0; i < x->nlp && !err; i++) {
		const struct lpair *l = &x->lp[i];

		err = pev__pf_pair_trees(p, &p->pairs[l->pair], x->vec + l->off, l->period,
					 l->count);
	}
	return err;
}

int pev__pf_replay(struct pev_profile *p, uint32_t ev, uint32_t **out, uint32_t *nout)
{
	struct replay x;
	uint32_t *o, n = 0, n0 = p->nents;
	int err;

	*out = NULL;
	*nout = 0;
	if (!p->replay_on || !p->nlog)
		return 0;
	memset(&x, 0, sizeof(x));
	x.r.p = p;
	x.r.nkeys = p->nkeys;
	o = malloc(((size_t)n0 + 1) * sizeof(*o));
	if (!o)
		return -ENOMEM;
	for (uint32_t i = 0; i < n0; i++)
		if (p->ents[i].e.event == ev)
			o[n++] = i;
	err = ranks(&x.r, o, n);
	if (!err)
		err = need_replay(&x.r, o, n);
	free(o);
	if (err <= 0)
		goto out;
	err = pev__pf_htab_init(&x.h, 1024);
	if (!err)
		err = run(p, &x, ev);
	if (!err) {
		o = malloc(((size_t)x.t.n + 1) * sizeof(*o));
		if (!o) {
			err = -ENOMEM;
		} else {
			in_order(&x.t, x.lent, o);
			*out = o;
			*nout = x.t.n;
		}
	}
	pev__pf_htab_release(&x.h);
out:
	free(x.r.dr);
	free(x.r.sr);
	free(x.r.t);
	free(x.lsr);
	pev__pf_rbt_release(&x.t);
	free(x.lent);
	free(x.lp);
	free(x.vec);
	return err < 0 ? err : 0;
}
