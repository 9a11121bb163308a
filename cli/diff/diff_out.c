// SPDX-License-Identifier: GPL-2.0-only
/* perfev diff: perf 6.1's `perf diff` table from the profiles of several
 * files (builtin-diff.c and the hists it drives).  Per event of the
 * baseline:
 *  - every entry of the other file's matching event (same attr type and
 *    config) is paired with the baseline entry equal to it on the sort
 *    keys, compared as perf's collapse functions compare them (a DSO by
 *    its short name, a symbol by its start and end address in it, an
 *    unresolved address by that address), not by pointers;
 *  - entries no baseline entry matches become "dummy" rows of the
 *    baseline (no Baseline value), unless -b;
 *  - the delta, ratio or weighted diff of each pair is computed on the
 *    totals of the files as read, then the rows are ordered as perf's
 *    output tree orders them: the -o file's values first, then each
 *    column's values, then the keys, ties in the collapsed tree's order;
 *  - the Baseline percentages are printed against the sum of the rows
 *    kept (perf resets its totals when it sorts the output). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "diff/diff.h"

static int sign64(int64_t v)
{
	return v < 0 ? -1 : v > 0;
}

static int u64cmp(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int dso_cmp(const struct pev_profile_frame *a, const struct pev_profile_frame *b)
{
	const struct pev_dso *da = a ? a->dso : NULL, *db = b ? b->dso : NULL;
	char ba[32], bb[32];

	if (!da || !db)
		return !da && !db ? 0 : !da ? 1 : -1;	/* no DSO last */
	return sign64(strcmp(pev_profile_dso_shown(da, ba, sizeof(ba)),
			     pev_profile_dso_shown(db, bb, sizeof(bb))));
}

static const struct pev_symbol *sym_of(const struct pev_profile_entry *e)
{
	return e->frame && e->frame->dso ? e->frame->sym : NULL;
}

/* perf's collapse comparison of one key (the order of its collapsed
 * tree, ascending); 0: the entries pair. */
static int key_collapse(const struct pev_profile_entry *a, const struct pev_profile_entry *b,
			enum pev_sort_key k)
{
	switch (k) {
	case PEV_SORT_COMM:
		return sign64(strcmp(a->comm ? a->comm : "", b->comm ? b->comm : ""));
	case PEV_SORT_PID:
		return a->tid < b->tid ? -1 : a->tid > b->tid;
	case PEV_SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	case PEV_SORT_DSO:
		return dso_cmp(a->frame, b->frame);
	case PEV_SORT_SYM: {
		/* perf diff: a symbol by its name alone (its DSO is the dso
		 * key's), an unresolved address equal to any other
		 * (measured: perf 6.1 pairs them so) */
		const struct pev_symbol *sa = sym_of(a), *sb = sym_of(b);

		if (!sa || !sb)
			return !sa && !sb ? 0 : !sa ? 1 : -1;
		return sign64(strcmp(sa->name, sb->name));
	}
	default:
		return 0;
	}
}

/* perf's cmp of a key: the order entries are created in its tree (a
 * symbol by its address), the first of those equal on the collapse
 * comparison being the one that stays. */
static int key_cmp(const struct pev_profile_entry *a, const struct pev_profile_entry *b,
		   enum pev_sort_key k)
{
	const struct pev_symbol *sa = sym_of(a), *sb = sym_of(b);
	int c;

	if (k != PEV_SORT_SYM)
		return key_collapse(a, b, k);
	if (!sa && !sb)
		return u64cmp(a->ip, b->ip);
	c = dso_cmp(a->frame, b->frame);
	if (c)
		return c;
	if (!sa || !sb)
		return !sa ? 1 : -1;
	if (sa->start != sb->start)
		return u64cmp(sa->start, sb->start);
	return u64cmp(sa->end, sb->end);
}

/* perf's output sort of a key (its se_sort, else its cmp) */
static int key_sort(const struct pev_profile_entry *a, const struct pev_profile_entry *b,
		    enum pev_sort_key k)
{
	if (k == PEV_SORT_SYM) {
		const struct pev_symbol *sa = sym_of(a), *sb = sym_of(b);

		if (!sa || !sb)
			return !sa && !sb ? 0 : !sa ? 1 : -1;
		return sign64(strcmp(sa->name, sb->name));
	}
	return key_collapse(a, b, k);
}

/* the keys are the baseline's (every file is read with the same) */
static int entry_collapse(const struct diff *d, const struct pev_profile_entry *a,
			  const struct pev_profile_entry *b)
{
	const struct report *r = &d->files[0];

	for (unsigned i = 0; i < r->nkeys; i++) {
		int c = key_collapse(a, b, r->keys[i]);

		if (c)
			return c;
	}
	return 0;
}

static int row_collapse_qs(const void *x, const void *y, void *d)
{
	const struct diff_row *a = *(const struct diff_row *const *)x;
	const struct diff_row *b = *(const struct diff_row *const *)y;

	return entry_collapse(d, a->e, b->e);
}

/* the dent of v (n, in the collapsed order) equal to e, or NULL */
static const struct dent *find_dent(const struct diff *d, const struct dent *v, size_t n,
				    const struct pev_profile_entry *e)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = entry_collapse(d, v[mid].e, e);

		if (!c)
			return &v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* the collapsed order, the first in perf's tree first among equals */
static int dent_first_qs(const void *x, const void *y, void *arg)
{
	const struct dent *a = x, *b = y;
	const struct diff *d = arg;
	const struct report *r = &d->files[0];
	int c = entry_collapse(d, a->e, b->e);

	for (unsigned i = 0; !c && i < r->nkeys; i++)
		c = key_cmp(a->e, b->e, r->keys[i]);
	return c;
}

/* File r's entries of event ev merged as perf diff merges them, in the
 * collapsed order; NULL (and *n 0) when there are none or no memory
 * (*err set). */
static struct dent *merge_entries(struct diff *d, struct report *r, long ev, size_t *n,
				  int *err)
{
	size_t ne = ev < 0 ? 0 : pev_profile_nr_entries(r->prof, (size_t)ev), k = 0;
	struct dent *v;

	*n = 0;
	*err = 0;
	if (!ne)
		return NULL;
	v = calloc(ne, sizeof(*v));
	if (!v) {
		*err = -ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < ne; i++) {
		v[i].e = pev_profile_entry(r->prof, (size_t)ev, i);
		v[i].period = v[i].e->period;
	}
	qsort_r(v, ne, sizeof(*v), dent_first_qs, d);
	for (size_t i = 0; i < ne; i++) {
		if (k && !entry_collapse(d, v[k - 1].e, v[i].e)) {
			v[k - 1].period += v[i].period;
			continue;
		}
		v[k++] = v[i];
	}
	*n = k;
	return v;
}

static bool has_pairs(const struct diff *d, const struct diff_row *w)
{
	for (int i = 1; i < d->nfiles; i++)
		if (w->pair[i])
			return true;
	return false;
}

static int doubles_first(double a, double b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

/* larger values first, of file i's pairs */
static int value_cmp(const struct diff *d, const struct diff_row *a,
		     const struct diff_row *b, int i)
{
	switch (d->compute) {
	case D_DELTA:
		return doubles_first(a->delta[i], b->delta[i]);
	case D_DELTA_ABS:
		return doubles_first(fabs(a->delta[i]), fabs(b->delta[i]));
	case D_RATIO:
		return doubles_first(a->ratio[i], b->ratio[i]);
	case D_WDIFF:
		return -sign64((int64_t)((uint64_t)a->wdiff[i] - (uint64_t)b->wdiff[i]));
	}
	return 0;
}

/* perf's sort of the -o file's values: rows paired with it first; for
 * ratio and wdiff the dummy rows after the others */
static int order_cmp(const struct diff *d, const struct diff_row *a,
		     const struct diff_row *b, int i)
{
	if (!a->pair[i] || !b->pair[i])
		return !a->pair[i] && !b->pair[i] ? 0 : !a->pair[i] ? 1 : -1;
	if (d->compute != D_DELTA && d->compute != D_DELTA_ABS &&
	    (a->dummy || b->dummy))
		return a->dummy && b->dummy ? 0 : a->dummy ? 1 : -1;
	return value_cmp(d, a, b, i);
}

/* a file's column: rows with pairs (in any file) first, then those
 * paired with this file, then its values */
static int column_cmp(const struct diff *d, const struct diff_row *a,
		      const struct diff_row *b, int i)
{
	bool pa = has_pairs(d, a), pb = has_pairs(d, b);

	if (!pa || !pb)
		return !pa && !pb ? 0 : !pa ? 1 : -1;
	if (!a->pair[i] || !b->pair[i])
		return !a->pair[i] && !b->pair[i] ? 0 : !a->pair[i] ? 1 : -1;
	return value_cmp(d, a, b, i);
}

static int row_output_cmp(const struct diff *d, const struct diff_row *a,
			  const struct diff_row *b)
{
	const struct report *r = &d->files[0];
	int c;

	if (d->order && (c = order_cmp(d, a, b, d->order)))
		return c;
	if ((c = -u64cmp(a->period, b->period)))	/* Baseline */
		return c;
	for (int i = 1; i < d->nfiles; i++)
		if ((c = column_cmp(d, a, b, i)))
			return c;
	for (unsigned i = 0; i < r->ncols; i++) {
		if (r->cols[i].kind != C_KEY || r->cols[i].elided)
			continue;
		if ((c = key_sort(a->e, b->e, r->cols[i].key)))
			return c;
	}
	return 0;
}

/* stable: perf inserts equal rows after those already in its tree */
static void merge_sort(const struct diff *d, struct diff_row **v, struct diff_row **tmp,
		       size_t n)
{
	if (n < 2)
		return;
	size_t h = n / 2, i = 0, j = h, k = 0;

	merge_sort(d, v, tmp, h);
	merge_sort(d, v + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = row_output_cmp(d, v[j], v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

/* The event of file f that perf's evsel__match2 pairs with the
 * baseline's event ev (same type and config), or -1. */
static long match_event(struct diff *d, int f, size_t ev)
{
	const struct pev_decoder *bd = pev_data_decoder(d->files[0].data);
	const struct pev_decoder *fd = pev_data_decoder(d->files[f].data);
	const struct perf_event_attr *ba = pev_decoder_attr(bd, ev);

	for (size_t i = 0; ba && i < pev_decoder_nr_attrs(fd); i++) {
		const struct perf_event_attr *a = pev_decoder_attr(fd, i);

		if (a->type == ba->type && a->config == ba->config)
			return (long)i;
	}
	return -1;
}

/* The period the percentages of file f's event ev are of: every sample
 * perf counted, or with --percentage relative those the filters keep. */
static uint64_t file_total(struct diff *d, int f, long ev)
{
	const struct pev_profile_stats *st;

	if (ev < 0)
		return 0;
	st = pev_profile_stats(d->files[f].prof, (size_t)ev);
	if (!st)
		return 0;
	return st->total_period + (d->relative ? 0 : st->filtered_period);
}

static struct diff_row *add_row(struct diff_table *t, const struct pev_profile_entry *e,
				struct report *r)
{
	struct diff_row *w;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct diff_row **v = realloc(t->rows, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->rows = v;
		t->cap = cap;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->e = e;
	w->r = r;
	t->rows[t->n++] = w;
	return w;
}

/* perf's hists__match then hists__link for file f */
static int pair_file(struct diff *d, struct diff_table *t, int f)
{
	struct report *r = &d->files[f];
	size_t n, nrows = t->n;
	int err;
	struct dent *v = merge_entries(d, r, t->ev[f], &n, &err);
	bool *used = calloc(n ? n : 1, sizeof(*used));

	t->dents[f] = v;
	if (err || !used) {
		free(used);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nrows && n; i++) {
		const struct dent *m = find_dent(d, v, n, t->rows[i]->e);

		if (m) {
			t->rows[i]->pair[f] = m;
			used[m - v] = true;
		}
	}
	for (size_t i = 0; i < n && !d->baseline_only; i++) {
		struct diff_row *w;

		if (used[i])
			continue;
		w = add_row(t, v[i].e, r);
		if (!w) {
			free(used);
			return -ENOMEM;
		}
		w->dummy = true;
		w->pair[f] = &v[i];
	}
	free(used);
	return 0;
}

static double percent(uint64_t period, uint64_t total)
{
	return period * 100.0 / total;
}

static void precompute(struct diff *d, struct diff_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct diff_row *w = t->rows[i];

		for (int f = 1; f < d->nfiles; f++) {
			const struct dent *p = w->pair[f];
			double old = w->period ? (double)w->period : 1.0;

			if (!p)
				continue;
			w->delta[f] = percent(p->period, t->total[f]) -
				      percent(w->period, t->total[0]);
			w->ratio[f] = (double)p->period / old;
			w->wdiff[f] = (int64_t)(p->period * (uint64_t)d->w2 -
						w->period * (uint64_t)d->w1);
		}
	}
}

static void free_table(struct diff_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->rows[i]);
	for (int f = 0; f < DIFF_MAX_FILES; f++)
		free(t->dents[f]);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

static int diff_event(struct diff *d, size_t ev)
{
	struct report *r0 = &d->files[0];
	struct diff_table t;
	struct diff_row **tmp;
	size_t n, kept = 0;
	int ret = 0;

	memset(&t, 0, sizeof(t));
	t.ev[0] = (long)ev;
	t.total[0] = file_total(d, 0, (long)ev);
	t.dents[0] = merge_entries(d, r0, (long)ev, &n, &ret);
	if (ret < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct diff_row *w = add_row(&t, t.dents[0][i].e, r0);

		if (!w) {
			ret = -ENOMEM;
			goto out;
		}
		w->period = t.dents[0][i].period;
	}
	for (int f = 1; f < d->nfiles; f++) {
		t.ev[f] = match_event(d, f, ev);
		t.total[f] = file_total(d, f, t.ev[f]);
		if ((ret = pair_file(d, &t, f)) < 0)
			goto out;
	}
	/* -b: only the rows with a pair */
	for (size_t i = 0; i < t.n; i++) {
		if (d->baseline_only && !has_pairs(d, t.rows[i])) {
			free(t.rows[i]);
			continue;
		}
		t.rows[kept++] = t.rows[i];
	}
	t.n = kept;
	precompute(d, &t);
	for (size_t i = 0; i < t.n; i++)
		if (!d->relative || !t.rows[i]->e->filtered)
			t.base_total += t.rows[i]->period;
	/* the collapsed tree's order, then perf's output sort (stable) */
	if (t.n)
		qsort_r(t.rows, t.n, sizeof(*t.rows), row_collapse_qs, d);
	tmp = malloc((t.n ? t.n : 1) * sizeof(*tmp));
	if (!tmp) {
		ret = -ENOMEM;
		goto out;
	}
	merge_sort(d, t.rows, tmp, t.n);
	free(tmp);
	diff_print_table(d, &t);
out:
	free_table(&t);
	return ret;
}

int diff_print(struct diff *d)
{
	const struct pev_decoder *dec = pev_data_decoder(d->files[0].data);
	size_t nev = pev_decoder_nr_attrs(dec);

	for (size_t ev = 0; ev < nev; ev++) {
		const char *name = pev_data_event_name(d->files[0].data, ev);
		int ret;

		if (!d->quiet) {
			fprintf(d->out, "%s# Event '%s'\n#\n", ev ? "\n" : "",
				name ? name : "unknown");
			if (d->nfiles > 2) {
				fputs("# Data files:\n", d->out);
				for (int f = 0; f < d->nfiles; f++)
					fprintf(d->out, "#  [%d] %s %s\n", f, d->paths[f],
						f ? "" : "(Baseline)");
				fputs("#\n", d->out);
			}
		}
		if ((ret = diff_event(d, ev)) < 0)
			return ret;
	}
	return 0;
}
