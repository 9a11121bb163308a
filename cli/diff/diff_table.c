// SPDX-License-Identifier: GPL-2.0-only
/* perfev diff: the table of one event as perf 6.1's perf diff prints it
 * (ui/stdio/hist.c driving builtin-diff.c's columns): the header lines,
 * then one line per row, the diff columns before the sort keys. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "diff/diff.h"

enum dcol_kind { DC_BASELINE, DC_BASE_PERIOD, DC_COMPUTE, DC_FORMULA, DC_PERIOD };

struct dcol {
	enum dcol_kind kind;
	int file;
	char header[64];
	int width;
};

/* perf's cell buffer: longer cells (a formula) are cut to 69 bytes */
#define CELL 70

static const char *compute_name(enum diff_compute c)
{
	switch (c) {
	case D_DELTA: return "Delta";
	case D_RATIO: return "Ratio";
	case D_WDIFF: return "Weighted diff";
	default: return "Delta Abs";
	}
}

static void add_col(struct diff *d, struct dcol *c, enum dcol_kind k, int f)
{
	static const int width[] = {
		[DC_BASELINE] = 0, [DC_BASE_PERIOD] = 14, [DC_FORMULA] = 70,
		[DC_PERIOD] = 14,
	};
	const char *name = k == DC_BASELINE ? "Baseline" : k == DC_BASE_PERIOD ?
			   "Base period" : k == DC_FORMULA ? "Formula" :
			   k == DC_PERIOD ? "Period" : compute_name(d->compute);
	int w = k != DC_COMPUTE ? width[k] : d->compute == D_DELTA ||
		d->compute == D_DELTA_ABS ? 7 : 14;

	c->kind = k;
	c->file = f;
	if (d->nfiles > 2)
		snprintf(c->header, sizeof(c->header), "%s/%d", name, f);
	else
		snprintf(c->header, sizeof(c->header), "%s", name);
	c->width = (int)strlen(c->header) > w ? (int)strlen(c->header) : w;
}

static int setup_cols(struct diff *d, struct dcol *cols)
{
	int n = 0;

	for (int f = 0; f < d->nfiles; f++) {
		add_col(d, &cols[n++], f ? DC_COMPUTE : DC_BASELINE, f);
		if (d->formula && f)
			add_col(d, &cols[n++], DC_FORMULA, f);
		if (d->period)
			add_col(d, &cols[n++], f ? DC_PERIOD : DC_BASE_PERIOD, f);
	}
	return n;
}

static void formula(struct diff *d, struct diff_table *t, const struct diff_row *w,
		    int f, char *b, size_t sz)
{
	const struct dent *p = w->pair[f];

	switch (d->compute) {
	case D_DELTA:
	case D_DELTA_ABS:
		snprintf(b, sz, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
			 p->period, t->total[f], w->period, t->base_total);
		break;
	case D_RATIO:
		snprintf(b, sz, "%.0F / %.0F", (double)p->period, (double)w->period);
		break;
	case D_WDIFF:
		snprintf(b, sz, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
			 p->period, d->w2, w->period, d->w1);
		break;
	}
}

/* With -t perf prints every cell through its entry function (no colour
 * path), unpadded, then pads it on the right to the column's width. */
static void sep_cell(struct diff *d, struct diff_table *t, const struct diff_row *w,
		     const struct dcol *c, char *out, size_t outsz)
{
	const struct dent *p = w->pair[c->file];
	char b[CELL] = " ";
	int f = c->file, n;

	switch (c->kind) {
	case DC_BASELINE:
		if (!w->dummy)
			snprintf(b, sizeof(b), "%.2f", 100.0 * w->period / t->base_total);
		break;
	case DC_BASE_PERIOD:
		snprintf(b, sizeof(b), "%" PRIu64, w->period);
		break;
	case DC_COMPUTE:
		if (!p)
			break;
		if (d->compute == D_DELTA || d->compute == D_DELTA_ABS)
			snprintf(b, sizeof(b), "%+4.2F%%", w->delta[f]);
		else if (w->dummy)
			snprintf(b, sizeof(b), "N/A");
		else if (d->compute == D_RATIO && w->ratio[f] > 0.0)
			snprintf(b, sizeof(b), "%14.6F", w->ratio[f]);
		else if (d->compute == D_WDIFF && w->wdiff[f])
			snprintf(b, sizeof(b), "%14" PRId64, w->wdiff[f]);
		break;
	case DC_FORMULA:
		if (p)
			formula(d, t, w, f, b, sizeof(b));
		break;
	case DC_PERIOD:
		if (p)
			snprintf(b, sizeof(b), "%" PRIu64, p->period);
		break;
	}
	n = snprintf(out, outsz, "%s", b);
	while (n >= 0 && n < c->width && (size_t)n + 1 < outsz)
		out[n++] = ' ';
	if (n >= 0 && (size_t)n < outsz)
		out[n] = 0;
}

/* One column's cell as perf prints it in its stdio table: the columns
 * with a colour function print through it (colours or not; perf always
 * takes that path without -t), the others through their entry function,
 * padded to the column's width (right-aligned); whatever is shorter than
 * the column is then padded on the right (perf's
 * hist_entry__snprintf_alignment). */
static void cell(struct diff *d, struct diff_table *t, const struct diff_row *w,
		 const struct dcol *c, char *out, size_t outsz)
{
	const struct dent *p = w->pair[c->file];
	char b[CELL] = " ";
	int f = c->file, n;

	if (d->sep)
		return sep_cell(d, t, w, c, out, outsz);
	switch (c->kind) {
	case DC_BASELINE:	/* perf's hpp__color_baseline */
		if (w->dummy)
			n = snprintf(out, outsz, "%*s", c->width, " ");
		else
			n = snprintf(out, outsz, "%*.2f%%", c->width - 1,
				     100.0 * w->period / t->base_total);
		break;
	case DC_COMPUTE:	/* perf's __hpp__color_compare */
		if (!p)
			n = snprintf(out, outsz, "%*s", c->width, " ");
		else if (d->compute == D_DELTA || d->compute == D_DELTA_ABS)
			n = snprintf(out, outsz, "%+*.2f%%", c->width - 1, w->delta[f]);
		else if (w->dummy)
			n = snprintf(out, outsz, "%*s", c->width, "N/A");
		else if (d->compute == D_RATIO)
			n = snprintf(out, outsz, "%*.6f", c->width, w->ratio[f]);
		else
			n = snprintf(out, outsz, "%14" PRId64, w->wdiff[f]);
		break;
	default:		/* perf's hpp__entry_global */
		if (c->kind == DC_BASE_PERIOD)
			snprintf(b, sizeof(b), "%" PRIu64, w->period);
		else if (p && c->kind == DC_FORMULA)
			formula(d, t, w, f, b, sizeof(b));
		else if (p && c->kind == DC_PERIOD)
			snprintf(b, sizeof(b), "%" PRIu64, p->period);
		n = snprintf(out, outsz, "%*s", c->width, b);
		break;
	}
	while (n >= 0 && n < c->width && (size_t)n + 1 < outsz)
		out[n++] = ' ';
	if (n >= 0 && (size_t)n < outsz)
		out[n] = 0;
}

void diff_print_table(struct diff *d, struct diff_table *t)
{
	struct report *r0 = &d->files[0];
	struct dcol cols[3 * DIFF_MAX_FILES];
	int ncols = setup_cols(d, cols);
	int kw[MAX_COLS] = { 0 };
	int lastkey = -1;
	FILE *o = d->out;
	const char *sep = d->sep ? d->sep : "  ";

	for (unsigned i = 0; i < r0->ncols; i++) {
		if (r0->cols[i].kind != C_KEY || r0->cols[i].elided)
			continue;
		lastkey = (int)i;
		kw[i] = (int)strlen(r0->cols[i].name);
		for (size_t j = 0; j < t->n; j++) {
			const struct diff_row *w = t->rows[j];
			int l;

			if (w->e->filtered)
				continue;
			l = report_key_len(w->r, w->e, r0->cols[i].key);
			if (l > kw[i])
				kw[i] = l;
		}
		r0->cols[i].width = kw[i];
	}
	if (!d->quiet) {
		fputs("# ", o);
		for (int i = 0; i < ncols; i++)
			fprintf(o, "%s%*s", i ? sep : "", cols[i].width, cols[i].header);
		for (unsigned i = 0; i < r0->ncols; i++)
			if ((int)i <= lastkey && r0->cols[i].kind == C_KEY && !r0->cols[i].elided)
				fprintf(o, "%s%-*.*s", sep, kw[i], kw[i], r0->cols[i].name);
	}
	/* perf: no dots line with -t */
	if (!d->quiet && !d->sep) {
		fputs("\n# ", o);
		for (int i = 0; i < ncols; i++)
			fprintf(o, "%s%.*s", i ? "  " : "", cols[i].width,
				"................................................................................");
		for (unsigned i = 0; i < r0->ncols; i++) {
			if ((int)i > lastkey || r0->cols[i].kind != C_KEY || r0->cols[i].elided)
				continue;
			fputs("  ", o);
			for (int j = 0; j < kw[i]; j++)
				fputc('.', o);
		}
		fputs("\n#", o);
	}
	if (!d->quiet)
		fputc('\n', o);
	for (size_t j = 0; j < t->n; j++) {
		const struct diff_row *w = t->rows[j];
		char b[2 * CELL], key[8192];

		if (w->e->filtered)
			continue;
		for (int i = 0; i < ncols; i++) {
			cell(d, t, w, &cols[i], b, sizeof(b));
			/* perf: with -t no separator before the first column */
			fprintf(o, "%s%s", i || !d->sep ? sep : "", b);
		}
		for (unsigned i = 0; i < r0->ncols; i++) {
			struct col c = r0->cols[i];

			if ((int)i > lastkey || c.kind != C_KEY || c.elided)
				continue;
			report_key_cell(w->r, w->e, &c, (int)i == lastkey, key, sizeof(key));
			/* perf's repsep_snprintf: the separator's first
			 * character in a value becomes '.' */
			for (char *q = key; d->sep && (q = strchr(q, d->sep[0])); q++)
				*q = '.';
			fprintf(o, "%s%s", sep, key);
		}
		fputc('\n', o);
	}
}

