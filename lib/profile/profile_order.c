// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile model's output order: perf 6.1's three trees of entries in
 * turn (entries_in in creation order, the collapsed tree, the output
 * tree), rebuilt with perf's own comparisons, since those are not all
 * transitive and the printed order depends on the trees' shapes; and the
 * red-black tree (as lib/rbtree.c balances it) they share with branch
 * mode's live entries_in tree. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_branch_cmp.h"
#include "profile/profile_order.h"
#include "profile/profile_tree.h"

/* ---------------------------------------------------------- output order */

static int cmp_name(const char *a, const char *b)
{
	int c = strcmp(a, b);

	return c < 0 ? -1 : c > 0;
}

static int dso_cmp(const struct pev_dso *a, const struct pev_dso *b)
{
	if (!a || !b)
		return !a && !b ? 0 : !a ? 1 : -1;	/* no DSO last */
	char ba[32], bb[32];

	return cmp_name(pev_profile_dso_shown(a, ba, sizeof(ba)),
			pev_profile_dso_shown(b, bb, sizeof(bb)));
}

/* perf's __dso_id__cmp, ascending: major, minor, inode, and the inode
 * generations only when both have one (synthesized MMAPs have none) */
static int dso_id_cmp(const struct pev_dso_id *a, const struct pev_dso_id *b)
{
	if (a->maj != b->maj)
		return a->maj < b->maj ? -1 : 1;
	if (a->min != b->min)
		return a->min < b->min ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	if (a->ino_generation && b->ino_generation && a->ino_generation != b->ino_generation)
		return a->ino_generation < b->ino_generation ? -1 : 1;
	return 0;
}

static int s64_sign(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* One field of a data_src, by the key that compares it. */
static uint64_t mem_field(uint64_t ds, enum pev_sort_key k)
{
	switch (k) {
	case PEV_SORT_MEM: return ds >> 5 & 0x3fff;
	case PEV_SORT_SNOOP: return ds >> 19 & 0x1f;
	case PEV_SORT_LOCKED: return ds >> 24 & 0x3;
	case PEV_SORT_TLB: return ds >> 26 & 0x7f;
	default: return ds >> 40 & 0x7;
	}
}


/* perf's _sort__sym_cmp(left, right) of b and a: an inlined frame's
 * symbol (perf makes one per inline frame) compares by its name first,
 * equal to a symbol of that name whose range overlaps its function's. */
int pev__pf_sym_cmp(const struct pev_symbol *sa, const char *ia,
		    const struct pev_symbol *sb, const char *ib)
{
	if (sa == sb && ia == ib)	/* inline names are interned */
		return 0;
	if (ia || ib) {
		int c = cmp_name(ib ? ib : sb->name, ia ? ia : sa->name);

		if (c)
			return c;
		if (sb->start <= sa->end && sb->end >= sa->start)
			return 0;
	}
	if (sa->start != sb->start)
		return s64_sign(sa->start, sb->start);
	return s64_sign(sa->end, sb->end);
}

/* The order of perf's collapsed tree: its cmp functions, ascending. */
int pev__pf_key_collapse(const struct pf_entry *a, const struct pf_entry *b,
			 enum pev_sort_key k)
{
	switch (k) {
	case PEV_SORT_COMM:	/* the names shown (a late COMM renames) */
		return cmp_name(a->e.comm ? a->e.comm : a->key.comm,
				b->e.comm ? b->e.comm : b->key.comm);
	case PEV_SORT_PID:
		return a->key.tid < b->key.tid ? -1 : a->key.tid > b->key.tid;
	case PEV_SORT_DSO:
		return dso_cmp(a->key.dso, b->key.dso);
	/* perf's sort__sym_size_cmp and sort__dso_size_cmp */
	case PEV_SORT_SYM_SIZE:
		return s64_sign(a->key.sym_size, b->key.sym_size);
	case PEV_SORT_DSO_SIZE:
		return s64_sign(a->key.dso_size, b->key.dso_size);
	case PEV_SORT_SRCFILE:
		return cmp_name(a->key.srcfile ? a->key.srcfile : "",
				b->key.srcfile ? b->key.srcfile : "");
	case PEV_SORT_SYM: {
		const struct pev_symbol *sa = a->key.sym, *sb = b->key.sym;
		int c;

		if (!sa && !sb)
			return s64_sign(a->key.kip, b->key.kip);
		c = dso_cmp(sa ? a->key.dso : a->sdso, sb ? b->key.dso : b->sdso);
		if (c)
			return c;
		if (!sa || !sb)
			return !sa ? 1 : -1;
		return pev__pf_sym_cmp(sa, a->key.inl, sb, b->key.inl);
	}
	case PEV_SORT_CPU:
		return a->key.cpu < b->key.cpu ? -1 : a->key.cpu > b->key.cpu;
	case PEV_SORT_SOCKET:
		return a->key.socket < b->key.socket ? -1 : a->key.socket > b->key.socket;
	case PEV_SORT_SRCLINE:
		return cmp_name(a->key.srcline ? a->key.srcline : "",
				b->key.srcline ? b->key.srcline : "");
	case PEV_SORT_TIME:
		return a->key.time < b->key.time ? -1 : a->key.time > b->key.time;
	/* perf's weight and ins_lat cmps are left - right (the others
	 * right - left): larger first; the global ones times the samples */
	case PEV_SORT_WEIGHT:
		return s64_sign(b->key.weight * b->e.nr_samples, a->key.weight * a->e.nr_samples);
	case PEV_SORT_LOCAL_WEIGHT:
		return s64_sign(b->key.weight, a->key.weight);
	case PEV_SORT_INS_LAT:
		return s64_sign(b->key.ins_lat * b->e.nr_samples, a->key.ins_lat * a->e.nr_samples);
	case PEV_SORT_LOCAL_INS_LAT:
		return s64_sign(b->key.ins_lat, a->key.ins_lat);
	case PEV_SORT_CGROUP:
		return a->key.cgroup < b->key.cgroup ? -1 : a->key.cgroup > b->key.cgroup;
	case PEV_SORT_CGROUP_ID:	/* perf: dev, then inode */
		if (a->key.cgroup_dev != b->key.cgroup_dev)
			return a->key.cgroup_dev < b->key.cgroup_dev ? -1 : 1;
		return a->key.cgroup_ino < b->key.cgroup_ino ? -1 :
		       a->key.cgroup_ino > b->key.cgroup_ino;
	case PEV_SORT_CODE_PAGE_SIZE:
		return a->key.cps < b->key.cps ? -1 : a->key.cps > b->key.cps;
	/* perf's memory cmps: right - left of one data_src field, the data
	 * and physical addresses, the page size; dso_daddr unswapped */
	case PEV_SORT_MEM:
	case PEV_SORT_SNOOP:
	case PEV_SORT_LOCKED:
	case PEV_SORT_TLB:
	case PEV_SORT_BLOCKED:
		return s64_sign(mem_field(a->key.data_src, k), mem_field(b->key.data_src, k));
	case PEV_SORT_SYM_DADDR:
		return s64_sign(a->key.daddr, b->key.daddr);
	case PEV_SORT_SYM_IADDR:
		return s64_sign(a->key.iaddr, b->key.iaddr);
	case PEV_SORT_PHYS_DADDR:
		return s64_sign(a->key.phys_addr, b->key.phys_addr);
	case PEV_SORT_DATA_PAGE_SIZE:
		return s64_sign(a->key.dps, b->key.dps);
	case PEV_SORT_DSO_DADDR:
		return dso_cmp(b->key.ddso, a->key.ddso);
	case PEV_SORT_DCACHELINE:	/* event types (cpumode) together */
		if (a->key.cpumode != b->key.cpumode)
			return a->key.cpumode < b->key.cpumode ? -1 : 1;
		if (!a->key.dcl_dso != !b->key.dcl_dso)
			return !b->key.dcl_dso ? -1 : 1;
		if (a->key.dcl_dso) {
			int c = dso_id_cmp(&a->key.dcl_id, &b->key.dcl_id);

			if (c)
				return c;
			/* perf asks its left entry (b here) only */
			if (b->key.dcl_anon && a->key.dcl_pid != b->key.dcl_pid)
				return a->key.dcl_pid < b->key.dcl_pid ? -1 : 1;
		}
		return a->key.dcl < b->key.dcl ? -1 : a->key.dcl > b->key.dcl;
	case PEV_SORT_TRACE:	/* perf: 0 for other events, else names */
		if (!a->key.trace || !b->key.trace)
			return 0;
		return cmp_name(a->key.trace, b->key.trace);
	case PEV_SORT_PARENT:	/* perf's cmp_null(left, right), then names */
		if (!a->key.parent || !b->key.parent)
			return !a->key.parent && !b->key.parent ? 0 : !b->key.parent ? -1 : 1;
		return cmp_name(a->key.parent, b->key.parent);
	default:	/* perf's cmp(left, right) is pev__pf_key_collapse(right, left) */
		if (pev__pf_is_branch_key(k)) {
			int64_t c = pev__pf_branch_cmp(NULL, b, a, k);

			return c < 0 ? -1 : c > 0;
		}
		return 0;
	}
}

/* perf's output sort of a key (se_sort, else se_cmp). */
static int key_sort(const struct pf_entry *a, const struct pf_entry *b,
		    enum pev_sort_key k)
{
	if (k == PEV_SORT_SYM) {
		const struct pev_symbol *sa = a->key.sym, *sb = b->key.sym;

		if (!sa || !sb)
			return !sa && !sb ? 0 : !sa ? 1 : -1;
		/* an inlined frame's symbol is named after the inlined function */
		return cmp_name(a->key.inl ? a->key.inl : sa->name,
				b->key.inl ? b->key.inl : sb->name);
	}
	/* dcacheline's cmp asks its left entry only (not antisymmetric):
	 * perf's output sort puts new left when cmp(new, old) > 0 */
	if (k == PEV_SORT_DCACHELINE)
		return -pev__pf_key_collapse(b, a, k);
	/* perf's output sort: left first when cmp(new, old) > 0 */
	if (pev__pf_is_branch_key(k)) {
		int64_t c = pev__pf_branch_cmp(NULL, a, b, k);

		return c > 0 ? -1 : c < 0;
	}
	return pev__pf_key_collapse(a, b, k);
}

/* perf's __hpp__sort_acc: the cumulative period, then (same thread,
 * call graphs shown) the caller above the callee. */
static int children_cmp(const struct pev_profile *p, const struct pf_entry *a,
			const struct pf_entry *b)
{
	if (!p->opts.children)
		return 0;
	if (a->e.acc_period != b->e.acc_period)
		return a->e.acc_period > b->e.acc_period ? -1 : 1;
	if (p->opts.caller_first && a->e.pid == b->e.pid &&
	    a->e.tid == b->e.tid && a->e.max_depth != b->e.max_depth) {
		bool deeper_first = p->opts.order == PEV_PROFILE_CALLER;

		return (a->e.max_depth > b->e.max_depth) == deeper_first ? -1 : 1;
	}
	return 0;
}

static int larger_first(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/* One item of an output order (a pev_sort_field or a key). */
static int item_cmp(const struct pev_profile *p, const struct pf_entry *a,
		    const struct pf_entry *b, int item)
{
	switch (item) {
	case PEV_FIELD_OVERHEAD:
	case PEV_FIELD_PERIOD:
		return larger_first(a->e.period, b->e.period);
	case PEV_FIELD_CHILDREN:
		return children_cmp(p, a, b);
	case PEV_FIELD_SYS:
		return larger_first(a->e.period_sys, b->e.period_sys);
	case PEV_FIELD_US:
		return larger_first(a->e.period_us, b->e.period_us);
	case PEV_FIELD_GUEST_SYS:
		return larger_first(a->e.period_guest_sys, b->e.period_guest_sys);
	case PEV_FIELD_GUEST_US:
		return larger_first(a->e.period_guest_us, b->e.period_guest_us);
	case PEV_FIELD_SAMPLES:
		return larger_first(a->e.nr_samples, b->e.nr_samples);
	default:
		return key_sort(a, b, (enum pev_sort_key)item);
	}
}

/* perf's elided columns (a key filtered to one value) do not sort */
static bool key_unsorted(const struct pev_profile *p, int item)
{
	for (unsigned j = 0; j < p->nkeys && p->opts.unsorted_keys; j++)
		if ((int)p->opts.keys[j] == item)
			return p->opts.unsorted_keys >> j & 1;
	return false;
}

/* perf's hist_entry__sort(a, b) < 0: a is printed before b. */
static int entry_cmp(const struct pev_profile *p, uint32_t ia, uint32_t ib)
{
	const struct pf_entry *a = &p->ents[ia], *b = &p->ents[ib];
	int c;

	if (p->opts.sort_order[0]) {
		for (unsigned i = 0; i < 2 * PEV_PROFILE_MAX_KEYS && p->opts.sort_order[i]; i++)
			if (!key_unsorted(p, p->opts.sort_order[i]) &&
			    (c = item_cmp(p, a, b, p->opts.sort_order[i])))
				return c;
		return 0;
	}
	if ((c = children_cmp(p, a, b)))
		return c;
	if (a->e.period != b->e.period)
		return a->e.period > b->e.period ? -1 : 1;
	for (unsigned i = 0; i < p->nkeys; i++)
		if (!(p->opts.unsorted_keys >> i & 1) &&
		    (c = key_sort(a, b, p->opts.keys[i])))
			return c;
	return 0;
}

/* perf's creation order of entries: by first sample, the self entry
 * first, then the chain entries in walk order. */
static int created_cmp(const void *x, const void *y, void *arg)
{
	const struct pev_profile *sort_p = arg;
	const struct pf_entry *a = &sort_p->ents[*(const uint32_t *)x];
	const struct pf_entry *b = &sort_p->ents[*(const uint32_t *)y];

	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return a->sub < b->sub ? -1 : a->sub > b->sub;
}

/* hists__findnew_entry: the new entry goes left when hist_entry__cmp(old,
 * new) < 0, the same argument order as the collapse below. */
static bool in_left(const struct pev_profile *p, uint32_t a, uint32_t b)
{
	int c;

	for (unsigned i = 0; i < p->nkeys; i++)
		if ((c = pev__pf_key_collapse(&p->ents[a], &p->ents[b], p->opts.keys[i])))
			return c < 0;
	return false;
}

/* hists__collapse_insert_entry: left when collapse(old, new) < 0, into
 * the old entry when it is 0 (-2: merge). */
static int collapse_dir(const struct pev_profile *p, uint32_t a, uint32_t b)
{
	int c;

	for (unsigned i = 0; i < p->nkeys; i++)
		if ((c = pev__pf_key_collapse(&p->ents[a], &p->ents[b], p->opts.keys[i])))
			return c < 0;
	return p->ents[a].key.filtered == p->ents[b].key.filtered ? -2 : 0;
}

static bool collapse_left(const struct pev_profile *p, uint32_t a, uint32_t b)
{
	return collapse_dir(p, a, b) == 1;
}

/* he_stat__add_stat and callchain_merge: entry a's totals and call
 * graph into b (a is dropped). */
static int merge_into(struct pev_profile *p, uint32_t a, uint32_t b)
{
	struct pev_profile_entry *x = &p->ents[a].e, *y = &p->ents[b].e;

	y->period += x->period;
	y->nr_samples += x->nr_samples;
	y->period_sys += x->period_sys;
	y->period_us += x->period_us;
	y->period_guest_sys += x->period_guest_sys;
	y->period_guest_us += x->period_guest_us;
	y->acc_period += x->acc_period;
	y->acc_samples += x->acc_samples;
	y->weight_sum += x->weight_sum;
	if (x->max_depth > y->max_depth)
		y->max_depth = x->max_depth;
	return pev__pf_tree_merge(p, &y->tree, x->tree);
}

/* perf's collapsed tree when its entries_in tree may hold entries that
 * compare equal (branch mode's != keys): o[0..*n) inserted in turn, an
 * entry meeting an equal one on its way down merged into it and left
 * out; *n shrinks. */
static int collapse_merge(struct pev_profile *p, uint32_t *o, uint32_t *n)
{
	struct pf_rbt t = { 0 };
	uint32_t *pos = malloc(((size_t)*n + 1) * sizeof(*pos)), k = 0;
	int err = 0;

	if (!pos)
		return -ENOMEM;
	for (uint32_t i = 0; i < *n && !err; i++) {
		uint32_t x = t.root, y = 0;
		int d = 0;

		while (x) {
			d = collapse_dir(p, o[i], pos[x]);
			if (d == -2)
				break;
			y = x;
			x = d ? t.l[x] : t.r[x];
		}
		if (x) {
			err = merge_into(p, o[i], pos[x]);
			continue;
		}
		int z = pev__pf_rbt_add(&t, y, d == 1);

		if (z < 0)
			err = z;
		else
			pos[z] = o[i];
	}
	/* the survivors, in insertion order: the caller sorts them next */
	for (uint32_t i = 1; !err && i <= t.n; i++)
		o[k++] = pos[i];
	if (!err)
		*n = k;
	pev__pf_rbt_release(&t);
	free(pos);
	return err;
}

static bool output_left(const struct pev_profile *p, uint32_t a, uint32_t b)
{
	return entry_cmp(p, a, b) < 0;
}

/* perf inserts the collapsed entries one by one into a red-black tree
 * (lib/rbtree.c) with entry_cmp, equal ones to the right.  entry_cmp is
 * not transitive (the caller-first rule applies to one thread only), so
 * the printed order depends on the tree's shape: build the same tree. */
static void rb_rotate(struct pf_rbt *t, uint32_t x, bool left)
{
	uint32_t *a = left ? t->r : t->l, *b = left ? t->l : t->r;
	uint32_t y = a[x];

	a[x] = b[y];
	if (b[y])
		t->up[b[y]] = x;
	t->up[y] = t->up[x];
	if (!t->up[x])
		t->root = y;
	else if (x == t->l[t->up[x]])
		t->l[t->up[x]] = y;
	else
		t->r[t->up[x]] = y;
	b[y] = x;
	t->up[x] = y;
}

static void rb_fix(struct pf_rbt *t, uint32_t z)
{
	while (t->up[z] && t->red[t->up[z]]) {
		uint32_t pz = t->up[z], g = t->up[pz];
		bool pleft = pz == t->l[g];
		uint32_t u = pleft ? t->r[g] : t->l[g];

		if (u && t->red[u]) {
			t->red[pz] = 0;
			t->red[u] = 0;
			t->red[g] = 1;
			z = g;
			continue;
		}
		if (z == (pleft ? t->r[pz] : t->l[pz])) {
			z = pz;
			rb_rotate(t, z, pleft);
			pz = t->up[z];
			g = t->up[pz];
		}
		t->red[pz] = 0;
		t->red[g] = 1;
		rb_rotate(t, g, !pleft);
	}
	t->red[t->root] = 0;
}

int pev__pf_rbt_add(struct pf_rbt *t, uint32_t parent, bool left)
{
	uint32_t z = t->n + 1;

	if (z >= t->cap) {
		uint32_t c = t->cap ? t->cap * 2 : 1024;
		uint32_t *l = realloc(t->l, c * sizeof(*l)), *r, *up;
		uint8_t *red;

		if (l)
			t->l = l;
		r = l ? realloc(t->r, c * sizeof(*r)) : NULL;
		if (r)
			t->r = r;
		up = r ? realloc(t->up, c * sizeof(*up)) : NULL;
		if (up)
			t->up = up;
		red = up ? realloc(t->red, c) : NULL;
		if (!red)
			return -ENOMEM;
		t->red = red;
		t->cap = c;
	}
	t->n = z;
	t->l[z] = t->r[z] = 0;
	t->up[z] = parent;
	t->red[z] = 1;
	if (!parent)
		t->root = z;
	else if (left)
		t->l[parent] = z;
	else
		t->r[parent] = z;
	rb_fix(t, z);
	return (int)z;
}

void pev__pf_rbt_release(struct pf_rbt *t)
{
	free(t->l);
	free(t->r);
	free(t->up);
	free(t->red);
	memset(t, 0, sizeof(*t));
}

/* Inserts o[0..n) in turn into a red-black tree, left when left(new,
 * old), and writes the in-order walk back into o. */
static int rb_order(struct pev_profile *p, uint32_t *o, uint32_t n,
		    bool (*goes_left)(const struct pev_profile *, uint32_t, uint32_t))
{
	struct pf_rbt t = { 0 };
	uint32_t *res, k = 0;

	t.l = calloc(n + 1, sizeof(uint32_t));
	t.r = calloc(n + 1, sizeof(uint32_t));
	t.up = calloc(n + 1, sizeof(uint32_t));
	t.red = calloc(n + 1, 1);
	res = malloc((n + 1) * sizeof(uint32_t));
	if (!t.l || !t.r || !t.up || !t.red || !res) {
		free(t.l); free(t.r); free(t.up); free(t.red); free(res);
		return -ENOMEM;
	}
	for (uint32_t z = 1; z <= n; z++) {
		uint32_t y = 0, x = t.root;
		bool left = false;

		while (x) {
			y = x;
			left = goes_left(p, o[z - 1], o[x - 1]);
			x = left ? t.l[x] : t.r[x];
		}
		t.up[z] = y;
		t.red[z] = 1;
		if (!y)
			t.root = z;
		else if (left)
			t.l[y] = z;
		else
			t.r[y] = z;
		rb_fix(&t, z);
	}
	/* in-order walk without a stack: follow parents back up */
	for (uint32_t x = t.root, prev = 0; x;) {
		if (prev == t.up[x]) {		/* came down */
			if (t.l[x]) {
				prev = x;
				x = t.l[x];
				continue;
			}
			prev = 0;		/* pretend we came back from the left */
		}
		if (prev == t.l[x]) {		/* left done */
			res[k++] = o[x - 1];
			if (t.r[x]) {
				prev = x;
				x = t.r[x];
				continue;
			}
		}
		prev = x;
		x = t.up[x];
	}
	memcpy(o, res, n * sizeof(*o));
	free(t.l); free(t.r); free(t.up); free(t.red); free(res);
	return 0;
}

/* The keys before the trace key: the profile and the trace key's position. */
struct trace_ctx {
	const struct pev_profile *p;
	unsigned pos;
};

static int before_trace_cmp(const void *x, const void *y, void *arg)
{
	const struct trace_ctx *t = arg;
	const struct pf_entry *a = &t->p->ents[*(const uint32_t *)x];
	const struct pf_entry *b = &t->p->ents[*(const uint32_t *)y];
	int c;

	for (unsigned i = 0; i < t->pos; i++)
		if ((c = pev__pf_key_collapse(a, b, t->p->opts.keys[i])))
			return c;
	return 0;
}

/* Entries equal on the keys before trace sit next to each other in any
 * of perf's trees, so each meets another on the trace key. */
static void mark_trace_compared(struct pev_profile *p, uint32_t *o, uint32_t n)
{
	struct trace_ctx t = { .p = p, .pos = 0 };

	while (t.pos < p->nkeys && p->opts.keys[t.pos] != PEV_SORT_TRACE)
		t.pos++;
	if (t.pos == p->nkeys)
		return;
	/* a second sample's lookup compares with the entry it adds to; in
	 * children mode each sample's entry also meets the chain entries it
	 * makes (the first one at the same place) */
	for (uint32_t i = 0; i < n; i++) {
		struct pev_profile_entry *e = &p->ents[o[i]].e;

		if (e->nr_samples >= 2 ||
		    (p->opts.children && (e->max_depth > 0 || e->acc_samples >= 2)))
			e->trace_compared = true;
	}
	qsort_r(o, n, sizeof(*o), before_trace_cmp, &t);
	for (uint32_t i = 0; i + 1 < n; i++)
		if (!before_trace_cmp(&o[i], &o[i + 1], &t))
			p->ents[o[i]].e.trace_compared = p->ents[o[i + 1]].e.trace_compared = true;
}


/* perf's three trees in turn: entries_in (creation order), the collapsed
 * tree, the output tree.  Their comparisons are not all transitive
 * (addresses compare by a wrapping difference), so each is rebuilt. */
static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

int pev__pf_output_order(struct pev_profile *p, uint32_t *o, uint32_t *np, bool replayed)
{
	/* perf 6.1 builds its collapsed tree only when a sort key has a
	 * collapse function: of perfev's keys, only comm has one */
	bool collapse = p->key_on[PEV_SORT_COMM];
	uint32_t n = *np;

	if (replayed) {		/* mark_trace_compared sorts what it gets */
		uint32_t *c = malloc(((size_t)n + 1) * sizeof(*c));

		if (!c)
			return -ENOMEM;
		memcpy(c, o, n * sizeof(*c));
		mark_trace_compared(p, c, n);
		free(c);
	} else {
		mark_trace_compared(p, o, n);
	}
	/* a replay (profile_replay.c) gave entries_in's order itself */
	if (!replayed) {
		qsort_r(o, n, sizeof(*o), created_cmp, p);
		/* the order they go into the tree the output sort walks
		 * (pev_profile_entry_tree_index): entries_in's, without a
		 * collapsed tree */
		for (uint32_t i = 0; !collapse && i < n; i++)
			p->ents[o[i]].tpos = i;
		if (rb_order(p, o, n, in_left))
			return -ENOMEM;
	}
	for (uint32_t i = 0; collapse && i < n; i++)
		p->ents[o[i]].tpos = i;
	/* a replay made its entries in the order its tree got them */
	if (replayed && !collapse) {
		uint32_t *c = malloc(((size_t)n + 1) * sizeof(*c));

		if (!c)
			return -ENOMEM;
		memcpy(c, o, n * sizeof(*c));
		qsort(c, n, sizeof(*c), u32_cmp);
		for (uint32_t i = 0; i < n; i++)
			p->ents[c[i]].tpos = i;
		free(c);
	}
	/* a thread's ":TID" renamed by its COMM: equal comms to merge */
	if (collapse && (p->live_on || replayed || p->comm_renamed)) {
		/* entries may merge: insert them in entries_in order, then
		 * order the survivors as the collapsed tree does */
		if (collapse_merge(p, o, np))
			return -ENOMEM;
		n = *np;
		for (uint32_t i = 0; i < n; i++)
			p->ents[o[i]].tpos = i;
	}
	if (collapse && rb_order(p, o, n, collapse_left))
		return -ENOMEM;
	return rb_order(p, o, n, output_left);
}


/* An entry of p from its public part (NULL when not one of p's). */
static const struct pf_entry *pf_of(const struct pev_profile *p,
				    const struct pev_profile_entry *e)
{
	const struct pf_entry *pe = (const struct pf_entry *)(const void *)e;

	if (!p || !e || pe < p->ents || pe >= p->ents + p->nents)
		return NULL;
	return pe;
}

int pev_profile_entry_collapse(const struct pev_profile *p, const struct pev_profile_entry *a,
			       const struct pev_profile_entry *b)
{
	const struct pf_entry *pa = pf_of(p, a), *pb = pf_of(p, b);
	int c;

	if (!pa || !pb)
		return -EINVAL;
	for (unsigned i = 0; i < p->nkeys; i++)
		if ((c = pev__pf_key_collapse(pa, pb, p->opts.keys[i])))
			return c < 0 ? -1 : 1;
	return 0;
}

size_t pev_profile_entry_tree_index(const struct pev_profile *p,
				    const struct pev_profile_entry *e)
{
	const struct pf_entry *pe = pf_of(p, e);

	return pe ? pe->tpos : SIZE_MAX;
}

int pev_profile_entry_key_order(const struct pev_profile *p, const struct pev_profile_entry *a,
				const struct pev_profile_entry *b)
{
	const struct pf_entry *pa = pf_of(p, a), *pb = pf_of(p, b);
	int c;

	if (!pa || !pb)
		return 0;
	if (p->opts.sort_order[0]) {
		for (unsigned i = 0; i < 2 * PEV_PROFILE_MAX_KEYS && p->opts.sort_order[i]; i++) {
			int item = p->opts.sort_order[i];

			if (item >= PEV_FIELD_OVERHEAD || key_unsorted(p, item))
				continue;
			if ((c = key_sort(pa, pb, (enum pev_sort_key)item)))
				return c;
		}
		return 0;
	}
	for (unsigned i = 0; i < p->nkeys; i++)
		if (!(p->opts.unsorted_keys >> i & 1) &&
		    (c = key_sort(pa, pb, p->opts.keys[i])))
			return c;
	return 0;
}
