// SPDX-License-Identifier: GPL-2.0-only
/* perfev report --hierarchy: perf 6.1's hierarchy mode on stdio
 * (hist_entry__hierarchy_fprintf, print_hierarchy_header): one level per
 * sort key, each entry indented by 3 spaces a level with its own
 * percentage; a level's entries ordered by their period, ties by the
 * keys' names (perf's hist_entry__sort). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define HIER_INDENT 3	/* perf's HIERARCHY_INDENT */

struct hnode {
	struct pev_profile_entry sum;	/* the first entry, with the group's totals */
	const struct pev_profile_entry *leaf;	/* a leaf's entry */
	char *text;			/* the key's cell, unpadded */
	size_t first, nchild;		/* children: kids[first .. first+nchild) */
};

struct hier {
	struct report *r;
	const struct col *levels[MAX_COLS];
	unsigned nlevels;
	uint64_t total, all_total;
};

const char *report_hier_refusal(const struct report *r)
{
	if (!r->hierarchy)
		return NULL;
	if (r->json || r->field_sep || r->branch_mode || r->mem_mode ||
	    r->percent_limit > 0 || r->symbol_filter)
		return "--hierarchy is not supported with -j, -t, --percent-limit, --symbol-filter, branch or memory mode";
	/* perf's hierarchy filters keep the parents' unfiltered totals */
	if (r->fopts.comm || r->fopts.pid || r->fopts.tid || r->fopts.dso ||
	    r->fopts.symbols || r->hide_unresolved || r->socket_filter >= 0)
		return "--hierarchy is not supported with --comms, --pid, --tid, --dsos, --symbols, -U or --socket-filter";
	for (unsigned i = 0; i < r->ncols; i++)
		if (r->cols[i].kind == C_IPC_NULL || r->cols[i].kind == C_IPC_LBR)
			return "--hierarchy is not supported with IPC columns";
	return NULL;
}

static char *cell_text(struct report *r, const struct pev_profile_entry *e,
		       const struct col *c)
{
	char b[4096];

	char jit[32];
	size_t n = 0;

	/* perf compares the whole comm: the column may cut it */
	if (c->key == PEV_SORT_COMM)
		return strdup(e->comm ? e->comm : "");
	/* perf's sort__sym_cmp: the DSO and the symbol, or the address */
	if (c->key == PEV_SORT_SYM)
		n = (size_t)snprintf(b, sizeof(b), "%s%c%016" PRIx64 "%016" PRIx64, e->frame && e->frame->dso && e->frame->sym ?
				     pev_profile_dso_shown(e->frame->dso, jit, sizeof(jit)) : "", 1,
				     e->frame && e->frame->sym ? e->frame->sym->start : e->ip,
				     e->frame && e->frame->sym ? e->frame->sym->end : 0);
	if (n < sizeof(b))
		n += report_key_cell(r, e, c, true, b + n, sizeof(b) - n);
	if (n >= sizeof(b))
		n = sizeof(b) - 1;
	while (n && b[n - 1] == ' ')
		n--;
	b[n] = 0;
	return strdup(b);
}

static void add(struct pev_profile_entry *s, const struct pev_profile_entry *e)
{
	s->period += e->period;
	s->nr_samples += e->nr_samples;
	s->period_sys += e->period_sys;
	s->period_us += e->period_us;
	s->period_guest_sys += e->period_guest_sys;
	s->period_guest_us += e->period_guest_us;
}

static int cmp_nodes(const void *pa, const void *pb)
{
	const struct hnode *a = pa, *b = pb;

	if (a->sum.period != b->sum.period)
		return a->sum.period > b->sum.period ? -1 : 1;
	return strcmp(a->text, b->text);
}

/* The last level's order when it is the symbol (perf's sort__sym_sort
 * after the period): symbols by name, then the entries without one in
 * the order of perf's collapsed tree (sort__sym_cmp: by address, as a
 * wrapping difference). */
static int cmp_sym_nodes(const void *pa, const void *pb)
{
	const struct hnode *a = pa, *b = pb;
	const struct pev_profile_frame *fa = a->sum.frame, *fb = b->sum.frame;
	const struct pev_symbol *sa = fa ? fa->sym : NULL, *sb = fb ? fb->sym : NULL;

	if (a->sum.period != b->sum.period)
		return a->sum.period > b->sum.period ? -1 : 1;
	if (sa && sb) {
		const char *na = fa->inline_name ? fa->inline_name : sa->name;
		const char *nb = fb->inline_name ? fb->inline_name : sb->name;
		int c = strcmp(na, nb);

		if (c)
			return c;
		/* the same name: perf's collapsed order, DSO and address */
		return strcmp(a->text, b->text);
	}
	if (sa || sb)
		return sa ? -1 : 1;
	/* perf compares two addresses only (_sort__addr_cmp) */
	int64_t d = (int64_t)(a->sum.ip - b->sum.ip);

	if (d)
		return d < 0 ? -1 : 1;
	return a->leaf < b->leaf ? -1 : a->leaf > b->leaf;
}

/* Prints the groups of entries es[0..n) at level lv, then their levels below. */
static void print_level(struct hier *h, const struct pev_profile_entry **es, size_t n,
			unsigned lv)
{
	struct report *r = h->r;
	const struct col *c = h->levels[lv];
	bool leaf = lv + 1 == h->nlevels;
	struct hnode *nodes = calloc(n ? n : 1, sizeof(*nodes));
	const struct pev_profile_entry **kids = calloc(n ? n : 1, sizeof(*kids));
	size_t *of = calloc(n ? n : 1, sizeof(*of));
	size_t nn = 0;

	if (!nodes || !kids || !of)
		goto out;
	/* group by the key's cell, in the entries' order */
	for (size_t i = 0; i < n; i++) {
		char *t = cell_text(r, es[i], c);
		size_t j;

		if (!t)
			goto out;
		for (j = 0; j < nn; j++)
			if (!strcmp(nodes[j].text, t))
				break;
		if (j < nn) {
			free(t);
			add(&nodes[j].sum, es[i]);
		} else {
			nodes[nn].sum = *es[i];
			nodes[nn].leaf = es[i];
			nodes[nn].text = t;
			nn++;
		}
		of[i] = j;
		nodes[j].nchild++;
	}
	/* the leaves keep the entries' order (already perf's) */
	for (size_t j = 0, at = 0; j < nn; j++) {
		nodes[j].first = at;
		at += nodes[j].nchild;
		nodes[j].nchild = 0;
	}
	for (size_t i = 0; i < n; i++) {
		struct hnode *g = &nodes[of[i]];

		kids[g->first + g->nchild++] = es[i];
	}
	/* qsort is not stable, but no two groups have the same text */
	if (leaf && c->key == PEV_SORT_SYM)
		qsort(nodes, nn, sizeof(*nodes), cmp_sym_nodes);
	else if (!leaf)
		qsort(nodes, nn, sizeof(*nodes), cmp_nodes);
	for (size_t j = 0; j < nn; j++) {
		char line[8192];
		size_t len = 0;

		len += (size_t)snprintf(line, sizeof(line), "%*s", (int)(lv * HIER_INDENT), "");
		len += report_format_entry(r, &nodes[j].sum, h->total, true, line + len,
					   sizeof(line) - len);
		if (len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%*s",
						(int)((h->nlevels - 1) * HIER_INDENT), "");
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		line[len] = 0;
		/* the key's cell, padded as in the flat table, without its
		 * leading spaces (perf's skip_spaces) */
		char cell[4096];
		size_t cn = report_key_cell(r, &nodes[j].sum, c, c == &r->cols[h->r->ncols - 1] ||
					    c == h->levels[h->nlevels - 1], cell, sizeof(cell));

		if (cn >= sizeof(cell))
			cn = sizeof(cell) - 1;
		cell[cn] = 0;
		fprintf(r->out, "%s  %s\n", line, cell + strspn(cell, " "));
		if (!leaf)
			print_level(h, kids + nodes[j].first, nodes[j].nchild, lv + 1);
		else if (r->use_callchain && nodes[j].leaf->tree)
			report_print_graph(r, nodes[j].leaf, h->all_total, h->total);
	}
out:
	for (size_t j = 0; j < nn; j++)
		free(nodes[j].text);
	free(nodes);
	free(kids);
	free(of);
}

static void print_hier_headers(struct hier *h)
{
	struct report *r = h->r;
	FILE *o = r->out;
	int indent = (int)((h->nlevels - 1) * HIER_INDENT);
	int header_width = 0;
	bool first = true;

	fprintf(o, "# %*s", indent, "");
	for (unsigned i = 0; i < r->ncols; i++) {
		const struct col *c = &r->cols[i];

		if (c->elided || c->kind == C_KEY || c->kind == C_DROPPED)
			continue;
		fprintf(o, "%*s  ", c->width, c->name);
	}
	for (unsigned lv = 0; lv < h->nlevels; lv++) {
		const char *name = h->levels[lv]->name;
		size_t nl = strlen(name);

		while (nl && name[nl - 1] == ' ')
			nl--;
		while (nl && *name == ' ') {
			name++;
			nl--;
		}
		header_width += fprintf(o, "%s%.*s", lv ? " / " : "", (int)nl, name);
	}
	fprintf(o, "\n# %.*s", indent, "");
	for (int i = 0; i < indent; i++)
		fputc('.', o);
	for (unsigned i = 0; i < r->ncols; i++) {
		const struct col *c = &r->cols[i];

		if (c->elided || c->kind == C_KEY || c->kind == C_DROPPED)
			continue;
		if (!first)
			fputs("..", o);
		first = false;
		for (int j = 0; j < c->width; j++)
			fputc('.', o);
	}
	for (unsigned lv = 0; lv < h->nlevels; lv++) {
		int w = (int)(lv * HIER_INDENT) + h->levels[lv]->width;

		if (w > header_width)
			header_width = w;
	}
	fputs("  ", o);
	for (int j = 0; j < header_width; j++)
		fputc('.', o);
	fputs("\n#\n", o);
}

void report_print_hier(struct report *r, size_t ev, uint64_t total, uint64_t all_total)
{
	struct hier h = { .r = r, .total = total, .all_total = all_total };
	size_t n = pev_profile_nr_entries(r->prof, ev), m = 0;
	const struct pev_profile_entry **es;

	for (unsigned i = 0; i < r->ncols; i++)
		if (r->cols[i].kind == C_KEY)	/* a filter's elided key too */
			h.levels[h.nlevels++] = &r->cols[i];
	if (!h.nlevels)
		return;
	if (!r->quiet)
		print_hier_headers(&h);
	es = calloc(n ? n : 1, sizeof(*es));
	if (!es)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct pev_profile_entry *e = pev_profile_entry(r->prof, ev, i);

		if (!report_hidden(r, e))
			es[m++] = e;
	}
	print_level(&h, es, m, 0);
	free(es);
}
