// SPDX-License-Identifier: GPL-2.0-only
/* perfev report: call graphs under each entry, as perf 6.1's
 * ui/stdio/hist.c prints them (graph and fractal with their pipes and
 * "--X%--" labels, flat, folded).
 *
 * The profile's trees hold one frame per node; perf's nodes hold runs of
 * frames.  A perf node is recovered as the run from a trie node down
 * through nodes that end no chain and have a single child (run_last). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "report/report.h"

struct gctx {
	struct report *r;
	const struct pev_profile *p;
	FILE *o;
	uint64_t min_hit;
	size_t ret;
};

static const struct pev_profile_node *N(const struct gctx *g, uint32_t n)
{
	return pev_profile_node(g->p, n);
}

static uint32_t run_last(const struct gctx *g, uint32_t n)
{
	const struct pev_profile_node *x = N(g, n);

	while (x->hit == 0 && x->nr_children == 1) {
		n = x->first_child;
		x = N(g, n);
	}
	return n;
}

static uint64_t cumul(const struct pev_profile_node *x)
{
	return x->hit + x->children_hit;
}

static int out(struct gctx *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int out(struct gctx *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(g->o, fmt, ap);
	va_end(ap);
	if (n > 0)
		g->ret += (size_t)n;
	return n;
}

/* --branch-history: perf's counts_str_build for node n. */
static size_t branch_counts(struct gctx *g, uint32_t n, char *b, size_t sz)
{
	struct pev_profile_branch_counts c;
	size_t k = 0;
	int i = 0;

	if (pev_profile_node_branch(g->p, n, &c) < 0)
		return 0;
#define ADD(...) (k += (size_t)snprintf(b + k, k < sz ? sz - k : 0, __VA_ARGS__), \
		  k = k < sz ? k : sz - 1)
	if (!c.branch) {
		ADD(" (calltrace)");
		return k;
	}
	if (c.branch_to) {
		if (c.predicted < c.branch)
			ADD("%spredicted:%.1f%%", i++ ? " " : " (",
			    (double)(float)(c.predicted * 100.0 / (double)c.branch));
		if (c.abort && (float)(c.abort * 100.0 / (double)c.branch) >= 0.1f)
			ADD("%sabort:%.1f%%", i++ ? " " : " (",
			    (double)(float)(c.abort * 100.0 / (double)c.branch));
	} else {
		uint64_t cycles = c.cycles / c.branch;

		if (cycles)
			ADD("%scycles:%" PRIu64, i++ ? " " : " (", cycles);
		if (c.iter && c.from && c.iter / c.from) {
			ADD("%siter:%" PRIu64, i++ ? " " : " (", c.iter / c.from);
			ADD("%savg_cycles:%" PRIu64, i++ ? " " : " (", c.iter_cycles / c.iter);
		}
	}
	if (i)
		ADD(")");
#undef ADD
	return k;
}

/* perf formats chain entries into a 1024-byte buffer: longer names are
 * cut at 1023 bytes. */
static void sym_name(struct gctx *g, uint32_t node, const struct pev_profile_frame *f,
		     char *b, size_t sz)
{
	if (sz > 1024)
		sz = 1024;
	if (g->r->bh_counts && node) {
		size_t k;

		sym_name(g, 0, f, b, sz);
		k = strlen(b);
		if (k + 1 < sz)
			branch_counts(g, node, b + k, sz - k);
		return;
	}
	if (f->sym) {
		const char *name = f->inline_name ? f->inline_name : f->sym->name;
		const char *inl = f->inline_name ? " (inlined)" : "";

		if (g->r->gkey == PEV_PROFILE_ADDRESS) {
			const char *sl = pev_profile_srcline((struct pev_profile *)g->p, f, true);

			snprintf(b, sz, "%s %s%s", name, sl ? sl : "", inl);
		} else {
			snprintf(b, sz, "%s%s", name, inl);
		}
	} else {
		snprintf(b, sz, "%#" PRIx64, f->ip);
	}
}

const char *report_percent_color(double percent)
{
	if (fabs(percent) >= 5.0)
		return "\033[31m";	/* red */
	if (fabs(percent) > 0.5)
		return "\033[32m";	/* green */
	return NULL;
}

static void value(struct gctx *g, uint64_t period, uint64_t count, uint64_t total)
{
	switch (g->r->gvalue) {
	case V_PERIOD:
		out(g, "%" PRIu64, period);
		break;
	case V_COUNT:
		out(g, "%u", (unsigned)count);
		break;
	default: {
		double v = total ? (double)period * 100.0 / (double)total : 0.0;
		/* perf's percent_color_fprintf, on a terminal */
		const char *c = g->r->color ? report_percent_color(v) : NULL;

		if (c)
			out(g, "%s%.2f%%%s", c, v, REPORT_COLOR_RESET);
		else
			out(g, "%.2f%%", v);
		break;
	}
	}
}

static void margin(struct gctx *g, int left)
{
	out(g, "            %*s", left, "");
}

/* perf's depth masks are ints shifted by the depth (x86 keeps 5 bits). */
static uint32_t bit(int i)
{
	return 1u << (i & 31);
}

static void graph_line(struct gctx *g, int depth, uint32_t mask, int left)
{
	margin(g, left);
	for (int i = 0; i < depth; i++)
		out(g, "%s", (mask & bit(i)) ? "|          " : "           ");
	out(g, "\n");
}

static void graph_entry(struct gctx *g, uint64_t period, uint64_t count,
			const char *name, int depth, uint32_t mask, int idx,
			uint64_t total, int left)
{
	margin(g, left);
	for (int i = 0; i < depth; i++) {
		out(g, "%s", (mask & bit(i)) ? "|" : " ");
		if (!idx && i == depth - 1) {
			out(g, "--");
			value(g, period, count, total);
			out(g, "--");
		} else {
			out(g, "          ");
		}
	}
	out(g, "%s\n", name);
}

static size_t children(struct gctx *g, uint32_t n, uint32_t **buf)
{
	const struct pev_profile_node *x = N(g, n);

	uint64_t min = g->min_hit;

	*buf = malloc((x->nr_children + 1) * sizeof(**buf));
	if (!*buf)
		return 0;
	/* fractal: perf's ceil(children_hit * min_percent) per node */
	if (g->r->gmode == G_FRACTAL)
		min = (uint64_t)ceil((double)x->children_hit * (g->r->gmin_percent / 100.0));
	return pev_profile_node_children(g->p, n, min, *buf);
}

static void fprintf_graph(struct gctx *g, uint32_t parent, uint64_t total,
			  int depth, uint32_t mask, int left)
{
	uint32_t *ch;
	size_t nch = children(g, parent, &ch);
	uint64_t remaining = total, cumul_count = 0;
	uint32_t new_mask = mask;
	bool rel = g->r->gmode == G_FRACTAL;
	char name[2048];
	size_t printed = 0;

	for (size_t k = 0; k < nch; k++) {
		const struct pev_profile_node *c = N(g, ch[k]);
		uint32_t last = run_last(g, ch[k]);

		remaining -= cumul(c);
		cumul_count += c->count + c->children_count;
		if (k + 1 == nch && (!rel || !remaining))
			new_mask &= ~bit(depth - 1);
		graph_line(g, depth, mask, left);
		int idx = 0;

		for (uint32_t v = ch[k];; v = N(g, v)->first_child) {
			sym_name(g, v, N(g, v)->frame, name, sizeof(name));
			graph_entry(g, cumul(c), c->count + c->children_count, name,
				    depth, new_mask, idx++, total, left);
			if (v == last)
				break;
		}
		uint64_t new_total = rel ? N(g, last)->children_hit : total;

		fprintf_graph(g, last, new_total, depth + 1, new_mask | bit(depth), left);
		if (++printed == g->r->gprint_limit)
			break;
	}
	if (rel && remaining && remaining != total && nch) {
		new_mask &= ~bit(depth - 1);
		/* perf mallocs its "[...]" symbol without clearing the inlined
		 * flag, so it prints "[...] (inlined)" when the heap holds
		 * garbage there: the intended "[...]" here */
		graph_entry(g, remaining, 0, g->r->bh_counts ? "[...] (calltrace)" : "[...]",
			    depth, new_mask, 0, total, left);
	}
	free(ch);
}

static void print_graph(struct gctx *g, uint32_t root, uint64_t total,
			uint64_t parent_samples)
{
	uint32_t *ch;
	size_t nch = children(g, root, &ch);
	int left = 0;
	char name[2048];

	if (nch == 1 && cumul(N(g, ch[0])) == parent_samples) {
		uint32_t last = run_last(g, ch[0]);
		bool printed = false;
		unsigned i = 0, nprinted = 0;

		for (uint32_t v = ch[0];; v = N(g, v)->first_child) {
			bool skip = !i++ && !g->r->fields && g->r->sort_starts_sym;

			if (!skip) {
				if (!printed) {
					margin(g, left);
					out(g, "|\n");
					margin(g, left);
					out(g, "---");
					left += 3;
					printed = true;
				} else {
					margin(g, left);
				}
				sym_name(g, v, N(g, v)->frame, name, sizeof(name));
				out(g, "%s\n", name);
				if (++nprinted == g->r->gprint_limit)
					break;
			}
			if (v == last)
				break;
		}
		root = last;
	}
	free(ch);
	if (g->r->gmode == G_FRACTAL)
		total = parent_samples;
	fprintf_graph(g, root, total, 1, 1, left);
	if (g->ret)
		out(g, "\n");
}

/* flat and folded: every node that ends chains, by its own hit (ties in
 * the order of a post-order walk), with its path from the root. */
struct leaf { uint32_t node; uint64_t hit; size_t seq; };

static void collect(struct gctx *g, uint32_t n, struct leaf **v, size_t *nv, size_t *cap)
{
	const struct pev_profile_node *x = N(g, n);
	uint32_t *ch = malloc((x->nr_children + 1) * sizeof(*ch));
	size_t nch;

	if (!ch)
		return;
	nch = pev_profile_node_children_chain(g->p, n, ch);
	for (size_t k = 0; k < nch; k++)
		collect(g, ch[k], v, nv, cap);
	free(ch);
	if (x->hit && x->hit >= g->min_hit) {
		if (*nv == *cap) {
			size_t c = *cap ? *cap * 2 : 64;
			struct leaf *nvv = realloc(*v, c * sizeof(*nvv));

			if (!nvv)
				return;
			*v = nvv;
			*cap = c;
		}
		(*v)[*nv] = (struct leaf){ n, x->hit, *nv };
		(*nv)++;
	}
}

static int leaf_cmp(const void *a, const void *b)
{
	const struct leaf *x = a, *y = b;

	if (x->hit != y->hit)
		return x->hit > y->hit ? -1 : 1;
	return x->seq < y->seq ? -1 : 1;
}

static void print_path(struct gctx *g, uint32_t n, bool folded, bool *first)
{
	const struct pev_profile_node *x = N(g, n);
	char name[2048];

	if (!x->frame)
		return;
	print_path(g, x->parent, folded, first);
	/* perf's folded lines leave the branch counts out */
	sym_name(g, folded ? 0 : n, x->frame, name, sizeof(name));
	if (folded)
		out(g, "%s%s", *first ? "" : ";", name);
	else
		out(g, "                %s\n", name);
	*first = false;
}

static void print_flat(struct gctx *g, uint32_t root, uint64_t total, bool folded)
{
	struct leaf *v = NULL;
	size_t nv = 0, cap = 0;

	collect(g, root, &v, &nv, &cap);
	if (nv)
		qsort(v, nv, sizeof(*v), leaf_cmp);
	for (size_t i = 0; i < nv; i++) {
		const struct pev_profile_node *x = N(g, v[i].node);
		bool first = true;

		if (folded) {
			value(g, x->hit, x->count, total);
			out(g, " ");
			print_path(g, v[i].node, true, &first);
			out(g, "\n");
		} else {
			out(g, "           ");
			value(g, cumul(x), x->count + x->children_count, total);
			out(g, "\n");
			print_path(g, v[i].node, false, &first);
			out(g, "\n");
		}
		if (i + 1 == g->r->gprint_limit)
			break;
	}
	free(v);
}

void report_print_graph(struct report *r, const struct pev_profile_entry *e,
			uint64_t total, uint64_t min_total)
{
	struct gctx g = { r, r->prof, r->out, 0, 0 };
	uint64_t parent = r->cumulate ? e->acc_period : e->period;

	if (r->gmode == G_NONE)
		return;
	/* perf: min_callchain_hits = total * (min_percent / 100), truncated,
	 * of what the filters keep with --percentage relative */
	g.min_hit = (uint64_t)((double)min_total * (r->gmin_percent / 100.0));
	if (r->gmode == G_FRACTAL)
		g.min_hit = 0;	/* per node below, from children_hit */
	if (r->gmode == G_FLAT || r->gmode == G_FOLDED) {
		print_flat(&g, e->tree, total, r->gmode == G_FOLDED);
		return;
	}
	print_graph(&g, e->tree, total, parent);
}
