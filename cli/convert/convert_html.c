// SPDX-License-Identifier: GPL-2.0-only
/* --to html (and `perfev flamegraph`): a self-contained interactive flame
 * graph in one file.  The page (cli/flamegraph/page.html) gets its CSS and
 * script inline and the profile as JSON in a non-executed script element:
 *
 *   strings  the names (functions, DSOs, comms, "pid/tid")
 *   funcs    per function: name, DSO + 1 (0: none), kind (convert_html.h)
 *   nodes    the prefix tree in preorder, root left out; per node: its
 *            function, how many levels up from the node before plus one
 *            (0: a child of the node before), then one self value per
 *            series
 *
 * funcs and nodes are strings of unsigned varints, 5 bits a character
 * (bit 5 set: more follow, low groups first), over the alphabet
 * VARINT_DIGITS: a tenth of the size of per-sample data, and decoded in
 * one pass by the page.  No request leaves the page: its CSP allows only
 * the inline script and style. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "convert/convert_html.h"

#define VARINT_DIGITS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

static void put_varint(FILE *o, uint64_t v)
{
	static const char digits[] = VARINT_DIGITS;

	while (v >= 32) {
		putc(digits[32 | (v & 31)], o);
		v >>= 5;
	}
	putc(digits[v], o);
}

/* Length of the valid UTF-8 sequence at s, 0 when invalid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A JSON string that is also safe inside a script element ('<' escaped);
 * bytes that are not UTF-8 become U+FFFD. */
static void put_json_str(FILE *o, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putc('"', o);
	while (*s) {
		if (*s == '"' || *s == '\\') {
			fprintf(o, "\\%c", *s++);
		} else if (*s < 0x20 || *s == '<' || *s == '>' || *s == '&') {
			fprintf(o, "\\u%04x", *s++);
		} else if (*s < 0x80) {
			putc(*s++, o);
		} else {
			size_t n = utf8_len(s);

			if (!n) {
				fputs("\\ufffd", o);
				s++;
			} else {
				fwrite(s, 1, n, o);
				s += n;
			}
		}
	}
	putc('"', o);
}

/* Text for the page's title: the same escaping as HTML text. */
static void put_html_text(FILE *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", o);
		else if (*s == '>')
			fputs("&gt;", o);
		else if (*s == '&')
			fputs("&amp;", o);
		else
			putc(*s, o);
	}
}

static int put_tree(FILE *o, const struct fg_tree *t, uint32_t *maxdepth)
{
	/* preorder with an explicit stack of the next sibling to visit */
	uint32_t *stack = malloc((t->nnodes + 1) * sizeof(*stack));
	size_t sp = 0;
	uint32_t prev_depth = 0;

	*maxdepth = 0;
	if (!stack)
		return -1;
	if (t->nodes[0].child)
		stack[sp++] = t->nodes[0].child;
	while (sp) {
		uint32_t n = stack[sp - 1], depth = (uint32_t)sp;

		put_varint(o, t->nodes[n].func);
		put_varint(o, prev_depth + 1 - depth);
		for (unsigned s = 0; s < t->nseries; s++)
			put_varint(o, t->self[(size_t)n * t->nseries + s]);
		prev_depth = depth;
		if (depth > *maxdepth)
			*maxdepth = depth;
		/* the node's children come next, then its next sibling */
		stack[sp - 1] = t->nodes[n].sibling;
		if (t->nodes[n].child)
			stack[sp++] = t->nodes[n].child;
		else
			while (sp && !stack[sp - 1])
				sp--;
	}
	free(stack);
	return 0;
}

static bool shows_offcpu(const struct conv *c)
{
	for (size_t i = 0; c && i < c->nevents; i++)
		if (c->ev_on[i] && !strcmp(conv_event_name(c, (uint32_t)i), "offcpu-time"))
			return true;
	return false;
}

/* An event the page shows: an off-CPU graph leaves out the events that
 * are neither clocks nor offcpu-time (convert_html_tree.c). */
static bool event_shown(const struct conv *c, size_t i, bool offcpu)
{
	const char *e = conv_event_name(c, (uint32_t)i);

	return c->ev_on[i] && (!offcpu || c->event || !strcmp(e, "cpu-clock") ||
			       !strcmp(e, "task-clock") || !strcmp(e, "offcpu-time"));
}

static const char *unit_name(const struct conv *c)
{
	bool offcpu = shows_offcpu(c);

	if (c->value != CONV_VALUE_PERIOD)
		return "samples";
	for (size_t i = 0; i < c->nevents; i++) {
		const char *e = conv_event_name(c, (uint32_t)i);

		if (event_shown(c, i, offcpu) && strcmp(e, "cpu-clock") && strcmp(e, "task-clock") &&
		    strcmp(e, "offcpu-time"))
			return "period";
	}
	return "ns";
}

static void put_events(FILE *o, const struct conv *c)
{
	bool first = true, offcpu = shows_offcpu(c);

	for (size_t i = 0; i < c->nevents; i++) {
		if (!event_shown(c, i, offcpu))
			continue;
		if (!first)
			putc(',', o);
		put_json_str(o, conv_event_name(c, (uint32_t)i));
		first = false;
	}
}

static int put_data(FILE *o, const struct conv *c, const struct conv *old,
		     const struct fg_tree *t, bool offcpu)
{
	uint32_t maxdepth;

	fprintf(o, "{\"version\":1,\"files\":[");
	if (old) {
		put_json_str(o, old->input);
		putc(',', o);
	}
	put_json_str(o, c->input);
	fprintf(o, "],\"events\":[");
	put_events(o, c);
	fprintf(o, "],\"unit\":\"%s\",\"diff\":%s,\"offcpu\":%s,\"series\":%u,\"totals\":[",
		unit_name(c), old ? "true" : "false", offcpu ? "true" : "false", t->nseries);
	for (unsigned s = 0; s < t->nseries; s++)
		fprintf(o, "%s%" PRIu64, s ? "," : "", t->totals[s]);
	fprintf(o, "],\n\"strings\":[");
	for (size_t i = 0; i < t->nstr; i++) {
		if (i)
			putc(',', o);
		put_json_str(o, t->str[i]);
	}
	fprintf(o, "],\n\"nfuncs\":%zu,\"funcs\":\"", t->nfuncs);
	for (size_t i = 0; i < t->nfuncs; i++) {
		put_varint(o, t->funcs[i].name);
		put_varint(o, t->funcs[i].dso);
		put_varint(o, t->funcs[i].kind);
	}
	fprintf(o, "\",\n\"nnodes\":%zu,\"nodes\":\"", t->nnodes - 1);
	if (put_tree(o, t, &maxdepth))
		return -1;
	fprintf(o, "\",\"maxdepth\":%" PRIu32 "}", maxdepth);
	return 0;
}

/* The template with its {{NAME}} slots filled.  0, or -1 without memory. */
static int put_page(FILE *o, const struct conv *c, const struct conv *old,
		     const struct fg_tree *t, bool offcpu)
{
	const char *p = fg_asset_page_html, *q;

	while ((q = strstr(p, "{{"))) {
		fwrite(p, 1, (size_t)(q - p), o);
		if (!strncmp(q, "{{CSS}}", 7)) {
			fputs(fg_asset_flamegraph_css, o);
		} else if (!strncmp(q, "{{JS}}", 6)) {
			fputs(fg_asset_flamegraph_js, o);
		} else if (!strncmp(q, "{{DATA}}", 8)) {
			if (put_data(o, c, old, t, offcpu))
				return -1;
		} else if (!strncmp(q, "{{TITLE}}", 9)) {
			put_html_text(o, c->input);
		} else {
			fputs("{{", o);
			p = q + 2;
			continue;
		}
		p = strstr(q, "}}") + 2;
	}
	fputs(p, o);
	return 0;
}

/* --diff OLD: the old file read with the new one's options. */
static int load_old(const struct conv *c, struct conv *old)
{
	*old = *c;
	old->input = c->diff_old;
	old->diff_old = NULL;
	old->data = NULL;
	old->dsos = NULL;
	old->machine = NULL;
	old->chain = NULL;
	old->filter = NULL;
	old->prof = NULL;
	old->ev_on = NULL;
	old->out = NULL;
	return conv_load(old);
}

int conv_write_html(struct conv *c)
{
	struct conv old;
	struct fg_tree t;
	bool diff = c->diff_old != NULL, offcpu;
	int ret = EXIT_ERROR;

	memset(&old, 0, sizeof(old));
	if (diff && (ret = load_old(c, &old)) != EXIT_OK) {
		conv_release(&old);
		return ret;
	}
	offcpu = shows_offcpu(c) || (diff && shows_offcpu(&old));
	if (fg_tree_init(&t, (diff ? 2u : 1u) * (offcpu ? 2u : 1u)) ||
	    (diff && fg_tree_add(&t, &old, 0, offcpu)) ||
	    fg_tree_add(&t, c, diff ? (offcpu ? 2 : 1) : 0, offcpu) || fg_tree_sort(&t) ||
	    put_page(c->out, c, diff ? &old : NULL, &t, offcpu)) {
		cli_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	if (!c->quiet) {
		uint64_t total = 0;

		for (unsigned s = 0; s < t.nseries; s++)
			if (!diff || s >= t.nseries / 2)
				total += t.totals[s];
		conv_summary(c, "wrote a flame graph of %zu frames, %zu functions (%" PRIu64 " %s) to %s",
			t.nnodes - 1, t.nfuncs, total, unit_name(c), c->out_name);
	}
	ret = EXIT_OK;
out:
	fg_tree_release(&t);
	if (diff)
		conv_release(&old);
	return ret;
}
