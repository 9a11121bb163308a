// SPDX-License-Identifier: GPL-2.0-only
/* The data a perfev flame graph embeds (convert --to html) holds exactly
 * the stacks and counts of `perfev convert --to folded` (which
 * compat/convert_folded holds to perf script): this test decodes the
 * page's JSON and varint strings itself (the format documented in
 * cli/convert/convert_html.c), rebuilds each node's path with stackcollapse's name
 * rules (README, folded) and prints them as folded lines; byte for byte
 * the folded output, on files perf records at test time (python3 with -g
 * and --call-graph dwarf, gcc's cc1), in samples and in period; the
 * declared totals are the sums.  And the page's script parses. */
#include <ctype.h>

#include "report_cmp.h"

#define DIGITS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

struct line {
	char *path;
	unsigned long long v;
};

static const char *vp;

static unsigned long long varint(void)
{
	unsigned long long v = 0;
	unsigned shift = 0;

	for (;;) {
		const char *d = *vp ? strchr(DIGITS, *vp) : NULL;

		if (!d || shift > 60)
			T_FATAL("bad varint at '%.20s'", vp);
		vp++;
		v |= (unsigned long long)((d - DIGITS) & 31) << shift;
		if (!((d - DIGITS) & 32))
			return v;
		shift += 5;
	}
}

/* one JSON string at *p (past its opening quote), unescaped, UTF-8 */
static char *json_str(const char **p)
{
	const char *s = *p;
	char *o = malloc(strlen(s) + 1), *q = o;

	while (*s && *s != '"') {
		if (*s != '\\') {
			*q++ = *s++;
			continue;
		}
		s++;
		if (*s == 'u') {
			unsigned c = (unsigned)strtoul((char[5]){ s[1], s[2], s[3], s[4], 0 }, NULL, 16);

			if (c < 0x80) {
				*q++ = (char)c;
			} else if (c < 0x800) {
				*q++ = (char)(0xc0 | c >> 6);
				*q++ = (char)(0x80 | (c & 63));
			} else {
				*q++ = (char)(0xe0 | c >> 12);
				*q++ = (char)(0x80 | (c >> 6 & 63));
				*q++ = (char)(0x80 | (c & 63));
			}
			s += 5;
		} else {
			*q++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
			s++;
		}
	}
	*q = 0;
	*p = *s ? s + 1 : s;
	return o;
}

/* stackcollapse-perf.pl's names, but for the argument list: only one that
 * ends the name goes (README: folded); the CLI's own rule, so the HTML
 * is held to the folded output (convert_folded_names checks the rule
 * against hand-written names) */
#include "../../cli/convert/folded_name.c"
static void tidy(char *o, const char *name, bool comm)
{
	size_t keep = comm ? strlen(name) : folded_name_keep(name, strlen(name));

	for (size_t i = 0; i < keep; i++) {
		char c = name[i];

		if (comm && c == ' ')
			c = '_';
		if (c == '"' || c == '\'')
			continue;
		*o++ = c == ';' ? ':' : c;
	}
	*o = 0;
}

static long num_after(const char *html, const char *key)
{
	const char *p = strstr(html, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->path, ((const struct line *)b)->path);
}

/* the page's tree as folded text (series 0) */
static char *html_as_folded(const char *html, size_t *len)
{
	long nstr = 0, nfuncs = num_after(html, "\"nfuncs\":"), nnodes = num_after(html, "\"nnodes\":");
	long series = num_after(html, "\"series\":");
	const char *p = strstr(html, "\"strings\":[");
	char **str = NULL;

	CHECK_MSG(p && nfuncs >= 0 && nnodes >= 0 && series >= 1, "the page has no flame graph data");
	if (!p || nfuncs < 0 || nnodes < 0 || series < 1)
		return NULL;
	for (p += 11; *p == '"' || *p == ',';) {
		if (*p++ == ',')
			continue;
		str = realloc(str, (size_t)(nstr + 1) * sizeof(*str));
		str[nstr++] = json_str(&p);
	}
	unsigned long long *fname = calloc((size_t)nfuncs + 1, sizeof(*fname)), *fkind = calloc((size_t)nfuncs + 1, 8);

	vp = strstr(html, "\"funcs\":\"") + 9;
	for (long i = 0; i < nfuncs; i++) {
		fname[i] = varint();
		varint();
		fkind[i] = varint();
		CHECK_MSG(fname[i] < (unsigned long long)nstr, "function %ld names string %llu of %ld", i, fname[i], nstr);
	}
	CHECK_MSG(*vp == '"', "funcs has more than nfuncs entries");
	vp = strstr(html, "\"nodes\":\"") + 9;
	char **stack = calloc(4096, sizeof(*stack));
	struct line *lines = calloc((size_t)nnodes + 1, sizeof(*lines));
	size_t nl = 0, prev = 0;
	unsigned long long total = 0;

	stack[0] = strdup("");
	for (long i = 0; i < nnodes; i++) {
		unsigned long long f = varint(), up = varint(), v = 0;
		size_t depth = prev + 1 - (size_t)up;
		char t[8192];

		for (long s = 0; s < series; s++) {
			unsigned long long x = varint();

			if (!s)
				v = x;
		}
		CHECK_MSG(f < (unsigned long long)nfuncs && depth >= 1 && depth < 4096 &&
			  (depth == 1) == (fkind[f] == 4), "node %ld: function %llu at depth %zu", i, f, depth);
		if (f >= (unsigned long long)nfuncs || depth < 1 || depth >= 4096)
			break;
		tidy(t, str[fname[f]], depth == 1);
		free(stack[depth]);
		if (asprintf(&stack[depth], "%s%s%s", stack[depth - 1], depth > 1 ? ";" : "", t) < 0)
			break;
		prev = depth;
		if (v) {
			lines[nl].path = strdup(stack[depth]);
			lines[nl++].v = v;
			total += v;
		}
	}
	CHECK_MSG(*vp == '"', "nodes has more than nnodes entries");
	CHECK_EQ_U64(total, (unsigned long long)num_after(html, "\"totals\":["));
	qsort(lines, nl, sizeof(*lines), cmp_line);
	char *out = NULL;
	FILE *o = open_memstream(&out, len);

	for (size_t j = 0; j < nl;) {
		unsigned long long v = lines[j].v;
		size_t e = j + 1;

		for (; e < nl && !strcmp(lines[e].path, lines[j].path); e++)
			v += lines[e].v;
		fprintf(o, "%s %llu\n", lines[j].path, v);
		j = e;
	}
	fclose(o);
	for (size_t j = 0; j < nl; j++)
		free(lines[j].path);
	for (size_t d = 0; d < 4096; d++)
		free(stack[d]);
	for (long i = 0; i < nstr; i++)
		free(str[i]);
	free(str);
	free(stack);
	free(lines);
	free(fname);
	free(fkind);
	return out;
}

static void same_tree(const char *file, const char *opts)
{
	size_t la, lb, lh, line, start;
	char pa[128], ph[128];

	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to folded %s > %s/a.txt", perfev, file, opts, dir), 0);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to html %s -o %s/a.html", perfev, file, opts, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(ph, sizeof(ph), "%s/a.html", dir);
	char *a = t_slurp(pa, &la), *h = t_slurp(ph, &lh), *b = h ? html_as_folded(h, &lb) : NULL;

	CHECK_MSG(a && la > 0, "%s: no folded stacks", file);
	if (a && b && t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s '%s': first difference on line %zu:\nfolded: %.300s\nhtml:   %.300s",
		       file, opts, line, a + start, b + start);
	else if (a && b)
		printf("%s '%s': the page's tree is the folded output (%zu bytes, page %zu bytes)\n",
		       file, opts, la, lh);
	free(a);
	free(b);
	free(h);
}

int main(void)
{
	char py[128], c[128], f[128];

	report_cmp_start("/tmp/perfev-fgdata-XXXXXX", true);
	if (!have("python3"))
		T_SKIP("python3 is not installed");
	/* the page's script parses (node's own parser), as embedded */
	if (have("node"))
		CHECK_EQ_INT(t_sh("node --check cli/convert/flamegraph/flamegraph.js && node --check tests/helpers/flamegraph_browser.js"), 0);
	report_cmp_write(py, sizeof(py), "w.py", report_py_src);
	report_cmp_write(c, sizeof(c), "t.c", report_c_src);
	snprintf(f, sizeof(f), "%s/py.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	same_tree(f, "");
	same_tree(f, "--value period");
	same_tree(f, "--max-stack 0");	/* folded's flat profile: compat/convert_max_stack */
	snprintf(f, sizeof(f), "%s/pyd.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 400000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	same_tree(f, "");
	if (have("gcc")) {
		snprintf(f, sizeof(f), "%s/cc1.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- gcc -O2 -c %s -o %s/t.o > /dev/null 2>&1",
				  PERF, f, c, dir), 0);
		same_tree(f, "");
	}
	return report_cmp_end();
}
