// SPDX-License-Identifier: GPL-2.0-only
/* perfev report: event groups shown together, as perf 6.1 does by default
 * on a file whose GROUP_DESC names groups ({a,b}), and with --group on any
 * file (all its events one group): one table per group, each percentage
 * column once per member side by side.  perf pairs a member's entries
 * with its leader's by the sort keys (hists__match), and adds an entry
 * only a member has to the leader's as a "dummy" of zero (hists__link):
 * it sorts by the leader's values, then the members' in order, and it
 * shows the leader's call graphs only. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "report/report.h"

int report_setup_groups(struct report *r)
{
	size_t n = pev_profile_nr_events(r->prof);
	const struct pev_data_features *f = pev_data_features(r->data);

	r->nr_group_ev = 0;
	free(r->ev_leader);
	free(r->ev_members);
	r->ev_leader = calloc(n ? n : 1, sizeof(*r->ev_leader));
	r->ev_members = calloc(n ? n : 1, sizeof(*r->ev_members));
	if (!r->ev_leader || !r->ev_members)
		return -1;
	r->nr_group_ev = n;
	for (size_t i = 0; i < n; i++) {
		r->ev_leader[i] = (uint32_t)i;
		r->ev_members[i] = 1;
	}
	r->group_forced = false;
	/* perf's process_group_desc: the leader and the events after it */
	for (uint32_t g = 0; f && g < f->nr_groups; g++) {
		uint32_t l = f->groups[g].leader_idx, m = f->groups[g].nr_members;

		if (l >= n || !m || m > n - l)
			continue;
		r->ev_members[l] = m;
		for (uint32_t k = 1; k < m; k++)
			r->ev_leader[l + k] = l;
	}
	/* perf's evlist__force_leader: --group on a file without groups
	 * makes all its events one group, named without braces */
	if (r->group_flag == 1 && (!f || !f->nr_groups) && n > 1) {
		r->group_forced = true;
		r->ev_members[0] = (uint32_t)n;
		for (size_t i = 1; i < n; i++)
			r->ev_leader[i] = 0;
	}
	return 0;
}

/* perf's evsel__group_desc */
const char *report_group_desc(struct report *r, size_t ev, char *buf, size_t sz)
{
	size_t m = report_group_size(r, ev), len = 0;
	const struct pev_data_features *f = pev_data_features(r->data);
	const char *gname = "anon group";
	char nb[128];

	for (uint32_t g = 0; f && !r->group_forced && g < f->nr_groups; g++)
		if (f->groups[g].leader_idx == ev && f->groups[g].name &&
		    strcmp(f->groups[g].name, "{anon_group}"))
			gname = f->groups[g].name;
	buf[0] = 0;
#define ADD(...) do { if (len < sz) len += (size_t)snprintf(buf + len, sz - len, __VA_ARGS__); } while (0)
	if (!r->group_forced)
		ADD("%s { ", gname);
	for (size_t k = 0; k < m; k++)
		ADD("%s%s", k ? ", " : "", report_event_name(r, ev + k, nb, sizeof(nb)));
	if (!r->group_forced)
		ADD(" }");
#undef ADD
	return buf;
}

/* One line of a group's table: the leader's entry (NULL: a dummy), each
 * member's paired entry (NULL: none), the entry whose keys it shows. */
struct grow {
	const struct pev_profile_entry *lead, *key;
	const struct pev_profile_entry **pair;	/* [members - 1] */
};

struct gctx {
	struct report *r;
	size_t m;
	struct grow *rows;
};

static struct gctx *sort_ctx;

static uint64_t val(const struct pev_profile_entry *e, enum col_kind k)
{
	if (!e)
		return 0;
	switch (k) {
	case C_CHILDREN: return e->acc_period;
	case C_SYS: return e->period_sys;
	case C_US: return e->period_us;
	case C_GUEST_SYS: return e->period_guest_sys;
	case C_GUEST_US: return e->period_guest_us;
	case C_SAMPLES: return e->nr_samples;
	default: return e->period;
	}
}

static int larger_first(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/* perf's output sort of a group: __hpp__sort_acc (children: the
 * cumulative period, then the caller above the callee of one thread),
 * __hpp__sort with the members' values after the leader's, the keys. */
static int by_output(const void *x, const void *y)
{
	const struct grow *a = &sort_ctx->rows[*(const size_t *)x];
	const struct grow *b = &sort_ctx->rows[*(const size_t *)y];
	struct report *r = sort_ctx->r;
	int c;

	if (r->cumulate) {
		if ((c = larger_first(val(a->lead, C_CHILDREN), val(b->lead, C_CHILDREN))))
			return c;
		uint32_t da = a->lead ? a->lead->max_depth : 0, db = b->lead ? b->lead->max_depth : 0;

		if (r->use_callchain && a->key->pid == b->key->pid && a->key->tid == b->key->tid &&
		    da != db)
			return (da > db) == (r->gorder == PEV_PROFILE_CALLER) ? -1 : 1;
	}
	if ((c = larger_first(val(a->lead, C_OVERHEAD), val(b->lead, C_OVERHEAD))))
		return c;
	for (size_t k = 0; k + 1 < sort_ctx->m; k++)
		if ((c = larger_first(val(a->pair[k], C_OVERHEAD), val(b->pair[k], C_OVERHEAD))))
			return c;
	return pev_profile_entry_key_order(r->prof, a->key, b->key);
}

/* perf's output sort inserts the collapsed entries (the dummies among
 * them) one by one into a red-black tree (lib/rbtree.c), left when the
 * new one sorts first, equal ones to the right.  The children order is
 * not transitive (caller first within one thread only), so the printed
 * order depends on the tree's shape: build the same tree. */
struct rbt {
	size_t *l, *r, *up;
	unsigned char *red;
	size_t root;
};

static void rb_rotate(struct rbt *t, size_t x, bool left)
{
	size_t *a = left ? t->r : t->l, *b = left ? t->l : t->r;
	size_t y = a[x];

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

static void rb_fix(struct rbt *t, size_t z)
{
	while (t->up[z] && t->red[t->up[z]]) {
		size_t pz = t->up[z], g = t->up[pz];
		bool pleft = pz == t->l[g];
		size_t u = pleft ? t->r[g] : t->l[g];

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

static int rbt_init(struct rbt *t, size_t n)
{
	memset(t, 0, sizeof(*t));
	t->l = calloc(n + 1, sizeof(size_t));
	t->r = calloc(n + 1, sizeof(size_t));
	t->up = calloc(n + 1, sizeof(size_t));
	t->red = calloc(n + 1, 1);
	return t->l && t->r && t->up && t->red ? 0 : -1;
}

static void rbt_release(struct rbt *t)
{
	free(t->l);
	free(t->r);
	free(t->up);
	free(t->red);
	memset(t, 0, sizeof(*t));
}

/* node z under parent y (0: the root), left or right; rebalanced */
static void rbt_link(struct rbt *t, size_t z, size_t y, bool left)
{
	t->l[z] = t->r[z] = 0;
	t->up[z] = y;
	t->red[z] = 1;
	if (!y)
		t->root = z;
	else if (left)
		t->l[y] = z;
	else
		t->r[y] = z;
	rb_fix(t, z);
}

/* the nodes in order into out (room for all); how many */
static size_t rbt_walk(const struct rbt *t, size_t *out)
{
	size_t k = 0;

	for (size_t x = t->root, prev = 0; x;) {
		if (prev == t->up[x]) {
			if (t->l[x]) {
				prev = x;
				x = t->l[x];
				continue;
			}
			prev = 0;
		}
		if (prev == t->l[x]) {
			out[k++] = x;
			if (t->r[x]) {
				prev = x;
				x = t->r[x];
				continue;
			}
		}
		prev = x;
		x = t->up[x];
	}
	return k;
}

/* o[0..n) inserted in turn, left when cmp(new, old) < 0; o gets the
 * in-order walk.  -1: out of memory. */
static int rb_order(size_t *o, size_t n, int (*cmp)(const void *, const void *))
{
	struct rbt t = { 0 };
	size_t *res = malloc((n + 1) * sizeof(*res)), k = 0;
	int ret = -1;

	t.l = calloc(n + 1, sizeof(size_t));
	t.r = calloc(n + 1, sizeof(size_t));
	t.up = calloc(n + 1, sizeof(size_t));
	t.red = calloc(n + 1, 1);
	if (!t.l || !t.r || !t.up || !t.red || !res)
		goto out;
	for (size_t z = 1; z <= n; z++) {
		size_t y = 0, x = t.root;
		bool left = false;

		while (x) {
			y = x;
			left = cmp(&o[z - 1], &o[x - 1]) < 0;
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
	for (size_t x = t.root, prev = 0; x;) {
		if (prev == t.up[x]) {
			if (t.l[x]) {
				prev = x;
				x = t.l[x];
				continue;
			}
			prev = 0;
		}
		if (prev == t.l[x]) {
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
	ret = 0;
out:
	free(t.l);
	free(t.r);
	free(t.up);
	free(t.red);
	free(res);
	return ret;
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* perf's __hpp__fmt of a group: the leader's value, then each member's */
static size_t group_cell(struct report *r, const struct col *c, const struct grow *row,
			 const uint64_t *totals, size_t m, char *b, size_t sz)
{
	bool percent = c->kind != C_SAMPLES && c->kind != C_PERIOD;
	int base = c->kind == C_SAMPLES || c->kind == C_PERIOD ? 12 : 8;
	int w = r->field_sep ? 1 : base - (percent ? 2 : 1);
	size_t len = 0;

	if (c->kind == C_CHILDREN && !r->cumulate)
		return (size_t)snprintf(b, sz, "%*s", c->width, "N/A");
	for (size_t k = 0; k < m && len + 1 < sz; k++) {
		const struct pev_profile_entry *e = k ? row->pair[k - 1] : row->lead;
		uint64_t v = val(e, c->kind);
		const char *col = NULL;
		int n;

		if (percent) {
			double p = pct(v, totals[k]);

			col = r->color && !r->field_sep ? report_percent_color(p) : NULL;
			n = snprintf(b + len, sz - len, "%s %*.2f%%%s", col ? col : "", w, p,
				     col ? REPORT_COLOR_RESET : "");
		} else {
			n = snprintf(b + len, sz - len, " %*" PRIu64, w, v);
		}
		if (n > 0)
			len += (size_t)n < sz - len ? (size_t)n : sz - len - 1;
	}
	/* -t: the values left-aligned in the column */
	while (r->field_sep && (int)len < c->width && len + 1 < sz)
		b[len++] = ' ';
	b[len] = 0;
	/* perf pads a cell narrower than its header on the left */
	if (!r->field_sep && (int)len < c->width && !r->color) {
		size_t pad = (size_t)c->width - len;

		if (len + pad < sz) {
			memmove(b + pad, b, len + 1);
			memset(b, ' ', pad);
			len += pad;
		}
	}
	return len;
}

static void print_row(struct report *r, const struct grow *row, const uint64_t *totals,
		      size_t m)
{
	char line[8192];
	size_t len = 0;
	unsigned lastcol = 0;

	for (unsigned i = 0; i < r->ncols; i++)
		if (!r->cols[i].elided)
			lastcol = i;
	for (unsigned i = 0; i < r->ncols && len + 1 < sizeof(line); i++) {
		const struct col *c = &r->cols[i];
		size_t room = sizeof(line) - len, n;

		if (c->elided || c->kind == C_DROPPED)
			continue;
		if (r->field_sep)
			n = len ? (size_t)snprintf(line + len, room, "%s", r->field_sep) : 0;
		else
			n = (size_t)snprintf(line + len, room, "  ");
		len += n < room ? n : room - 1;
		room = sizeof(line) - len;
		switch (c->kind) {
		case C_KEY:
			n = report_key_cell(r, row->key, c, i == lastcol, line + len, room);
			break;
		case C_IPC_NULL:
			n = (size_t)snprintf(line + len, room, "%-*s", c->width, "-      -");
			break;
		case C_IPC_LBR:
			n = (size_t)snprintf(line + len, room, "%-*s", c->width, "-");
			break;
		default:
			n = group_cell(r, c, row, totals, m, line + len, room);
			break;
		}
		len += n < room ? n : room - 1;
	}
	line[len] = 0;
	fprintf(r->out, "%s\n", line);
}

/* The group of leader ev: its "# Samples" lines (sums over the members)
 * and its table (the caller leaves out a leader without samples, as
 * perf's --skip-empty, its default, does). */
void report_print_group(struct report *r, size_t ev)
{
	FILE *o = r->out;
	size_t m = report_group_size(r, ev), nrows = 0;
	uint64_t nr = 0, total_all = 0, *totals = calloc(m, sizeof(*totals));
	const struct pev_profile_stats *lst = pev_profile_stats(r->prof, ev);
	struct grow *rows = NULL;
	const struct pev_profile_entry **pairs = NULL;
	size_t *idx = NULL;
	char desc[1024];

	if (!totals)
		goto oom;
	for (size_t k = 0; k < m; k++) {
		const struct pev_profile_stats *st = pev_profile_stats(r->prof, ev + k);

		totals[k] = st->total_period + (r->relative ? 0 : st->filtered_period);
		nr += st->nr_samples + (r->relative ? 0 : st->nr_filtered);
		total_all += totals[k];
	}
	if (!r->quiet) {
		uint64_t v = nr;
		char unit = ' ';

		if (v > 1000) { v /= 1000; unit = 'K'; }
		if (v > 1000) { v /= 1000; unit = 'M'; }
		if (v > 1000) { v /= 1000; unit = 'G'; }
		fprintf(o, "# Samples: %" PRIu64 "%c of events '%s'", v, unit,
			report_group_desc(r, ev, desc, sizeof(desc)));
		if (r->fopts.time)
			fprintf(o, " (time slices: %s)", r->fopts.time);
		fputc('\n', o);
		if (r->mem_mode)
			fprintf(o, "# Total weight : %" PRIu64 "\n# Sort order   : %s%s\n#\n",
				total_all, r->sort ? r->sort : REPORT_MEM_SORT,
				r->sort && strstr(r->sort, "symbol") ? ",ipc_null" : "");
		else
			fprintf(o, "# Event count (approx.): %" PRIu64 "\n", total_all);
		if (!r->mem_mode && r->socket_filter >= 0)
			fprintf(o, "# Processor Socket: %d\n", r->socket_filter);
		if (!r->mem_mode)
			fputs("#\n", o);
	}
	/* perf's hists__match and hists__link: the leader's tree (its
	 * collapsed tree, or entries_in), each member's entries (in the walk
	 * of its own) paired with the line of the same keys the tree finds,
	 * then the rest put in as lines of their own */
	size_t total_n = 0;
	struct rbt lt = { 0 }, mt = { 0 };
	size_t *order = NULL, *walk = NULL;
	bool *matched = NULL;

	for (size_t k = 0; k < m; k++)
		total_n += pev_profile_nr_entries(r->prof, ev + k);
	rows = calloc(total_n + 1, sizeof(*rows));
	pairs = calloc((total_n + 1) * (m - 1), sizeof(*pairs));
	idx = calloc(total_n + 1, sizeof(*idx));
	order = calloc(total_n + 1, sizeof(*order));
	walk = calloc(total_n + 1, sizeof(*walk));
	matched = calloc(total_n + 1, sizeof(*matched));
	if (!rows || !pairs || !idx || !order || !walk || !matched ||
	    rbt_init(&lt, total_n) < 0) {
		rbt_release(&lt);
		free(order);
		free(walk);
		free(matched);
		goto oom;
	}
	struct gctx ctx = { r, m, rows };

	sort_ctx = &ctx;
	for (size_t k = 0; k < m; k++) {
		size_t n = pev_profile_nr_entries(r->prof, ev + k);

		/* the event's entries in the order perf put them in its tree */
		for (size_t i = 0; i < n; i++)
			order[i] = i;
		for (size_t i = 0; i < n; i++) {
			size_t t = pev_profile_entry_tree_index(r->prof,
					pev_profile_entry(r->prof, ev + k, i));

			if (t < n)
				order[t] = i;
		}
		if (!k) {
			for (size_t i = 0; i < n; i++) {
				const struct pev_profile_entry *e = pev_profile_entry(r->prof, ev, order[i]);
				size_t y = 0, x = lt.root;
				bool left = false;

				rows[nrows].pair = pairs + nrows * (m - 1);
				rows[nrows].lead = rows[nrows].key = e;
				while (x) {
					y = x;
					left = pev_profile_entry_collapse(r->prof, e, rows[x - 1].key) < 0;
					x = left ? lt.l[x] : lt.r[x];
				}
				rbt_link(&lt, ++nrows, y, left);
			}
			continue;
		}
		/* the member's own tree, walked */
		if (rbt_init(&mt, n) < 0)
			break;
		for (size_t i = 0; i < n; i++) {
			const struct pev_profile_entry *e = pev_profile_entry(r->prof, ev + k, order[i]);
			size_t y = 0, x = mt.root;
			bool left = false;

			while (x) {
				y = x;
				left = pev_profile_entry_collapse(r->prof, e,
						pev_profile_entry(r->prof, ev + k, order[x - 1])) < 0;
				x = left ? mt.l[x] : mt.r[x];
			}
			rbt_link(&mt, i + 1, y, left);
		}
		size_t nw = rbt_walk(&mt, walk);

		rbt_release(&mt);
		for (size_t i = 0; i < nw; i++)
			walk[i] = order[walk[i] - 1];
		/* hists__match, then hists__link */
		for (int pass = 0; pass < 2; pass++) {
			for (size_t i = 0; i < nw; i++) {
				const struct pev_profile_entry *e = pev_profile_entry(r->prof, ev + k, walk[i]);
				size_t y = 0, x = lt.root;
				bool left = false;
				int c = 1;

				if (pass && matched[i])
					continue;
				if (!pass)
					matched[i] = false;
				while (x) {
					c = pev_profile_entry_collapse(r->prof, e, rows[x - 1].key);
					if (!c)
						break;
					y = x;
					left = c < 0;
					x = left ? lt.l[x] : lt.r[x];
				}
				if (!c) {
					if (!pass && rows[x - 1].pair[k - 1])
						continue;
					rows[x - 1].pair[k - 1] = e;
					matched[i] = true;
					continue;
				}
				if (!pass)
					continue;
				rows[nrows].pair = pairs + nrows * (m - 1);
				rows[nrows].lead = NULL;
				rows[nrows].key = e;
				rows[nrows].pair[k - 1] = e;
				rbt_link(&lt, ++nrows, y, left);
			}
		}
	}
	nrows = rbt_walk(&lt, idx);
	for (size_t i = 0; i < nrows; i++)
		idx[i]--;
	rbt_release(&lt);
	free(order);
	free(walk);
	free(matched);
	/* then the output tree */
	if (rb_order(idx, nrows, by_output) < 0)
		goto oom;
	sort_ctx = NULL;

	/* widths: perf's hpp__width_fn (the members side by side) and the
	 * keys of every line shown, the dummies' too */
	for (unsigned i = 0; i < r->ncols; i++) {
		struct col *c = &r->cols[i];
		int w;

		switch (c->kind) {
		case C_SAMPLES:
		case C_PERIOD:
			w = 12 * (int)m;
			break;
		case C_KEY:
			w = 0;
			for (size_t j = 0; j < nrows; j++) {
				int l;

				if (report_hidden(r, rows[j].key))
					continue;
				l = report_key_len(r, rows[j].key, c->key);
				if (l > w)
					w = l;
			}
			break;
		case C_IPC_NULL:
		case C_IPC_LBR:
		case C_DROPPED:
			w = 8;
			break;
		default:
			w = 8 * (int)m;
			break;
		}
		if (w < (int)strlen(c->name))
			w = (int)strlen(c->name);
		c->width = w;
	}
	if (!r->quiet)
		report_print_headers(r);
	for (size_t j = 0; j < nrows; j++) {
		const struct grow *row = &rows[idx[j]];
		uint64_t v = val(row->lead, r->cumulate ? C_CHILDREN : C_OVERHEAD);

		if (report_hidden(r, row->key))
			continue;
		if (r->percent_limit > 0 && (float)pct(v, totals[0]) < (float)r->percent_limit)
			continue;
		print_row(r, row, totals, m);
		if (r->use_callchain && row->lead && row->lead->tree)
			report_print_graph(r, row->lead, lst->total_period + lst->filtered_period,
					   totals[0]);
	}
	fputs("\n\n", o);
	goto out;
oom:
	cli_error("out of memory");
out:
	free(idx);
	free(pairs);
	free(rows);
	free(totals);
}
