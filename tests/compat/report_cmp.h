/* SPDX-License-Identifier: GPL-2.0-only */
/* What the report compat tests share: perfev report and perf report
 * --stdio on the same file and options, compared byte for byte after
 * perf's closing random tip and its "[...] (inlined)" garbage are cut.
 * dir (the test's temp folder) and perfev (the binary) are set by the
 * including test. */
#ifndef PERFEV_TESTS_REPORT_CMP_H
#define PERFEV_TESTS_REPORT_CMP_H

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];
static char perfev[4096];

/* Cuts perf's random "#\n# (tip)\n#\n" block: the last one, at the end or
 * before what -T prints after it. */
static void cut_tip(char *s, size_t *len)
{
	char *p = NULL, *e = NULL;

	for (char *q = strstr(s, "#\n# ("); q; q = strstr(q + 1, "#\n# ("))
		if (q == s || q[-1] == '\n')
			p = q;
	if (p)
		e = strstr(p + 5, ")\n#\n");
	if (!p || !e)
		return;
	e += 4;
	memmove(p, e, strlen(e) + 1);
	*len -= (size_t)(e - p);
}

/* perf's "[...]" branch reads an uninitialized flag and sometimes
 * prints "[...] (inlined)" (heap garbage): the intended text is kept. */
static void drop_garbage_inlined(char *s, size_t *len)
{
	static const char bad[] = "[...] (inlined)\n";
	static const char bad_bh[] = "[...] (inlined) (calltrace)\n";	/* --branch-history */
	char *p;

	while ((p = strstr(s, bad_bh))) {
		memmove(p + 5, p + 15, strlen(p + 15) + 1);
		*len -= 10;
	}
	while ((p = strstr(s, bad))) {
		memmove(p + 5, p + sizeof(bad) - 2, strlen(p + sizeof(bad) - 2) + 1);
		*len -= sizeof(bad) - 7;
	}
}

/* perfev report and perf report --stdio with the same input arguments
 * `in` ("-i FILE", "-i - < FILE") and options, byte for byte; norm (may
 * be NULL) is applied to both outputs first. */
static void same_report_in(const char *what, const char *in, const char *opts,
			   void (*norm)(char *s, size_t len))
{
	size_t la, lb;
	char pa[128], pb[128];
	int ra = t_sh("%s report %s %s > %s/a.txt 2> %s/a.err", perfev, in, opts, dir, dir);
	int rb = t_sh("%s report --stdio %s %s > %s/b.txt 2> %s/b.err", PERF, in, opts, dir, dir);

	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(ra == 0, "%s %s: perfev report exited %d", what, opts, ra);
	CHECK_MSG(rb == 0, "%s %s: perf report exited %d", what, opts, rb);
	CHECK_MSG(lb > 0, "%s %s: perf printed nothing", what, opts);
	if (!a || !b) {
		free(a);
		free(b);
		return;
	}
	cut_tip(a, &la);
	cut_tip(b, &lb);
	drop_garbage_inlined(b, &lb);
	if (norm) {
		norm(a, la);
		norm(b, lb);
	}
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start)) {
		T_FAIL("%s %s: output differs at line %zu:\n  perfev: %.160s\n  perf:   %.160s",
		       what, opts, line, a + start, b + start);
	} else {
		printf("%s %s: %zu bytes identical\n", what, opts, la);
	}
	free(a);
	free(b);
}

static inline void same_report_norm(const char *what, const char *file, const char *opts,
				    void (*norm)(char *s, size_t len))
{
	char in[300];

	snprintf(in, sizeof(in), "-i %s", file);
	same_report_in(what, in, opts, norm);
}

static inline void same_report(const char *what, const char *file, const char *opts)
{
	same_report_norm(what, file, opts, NULL);
}

static inline bool have(const char *prog)
{
	return !t_sh("command -v %s > /dev/null 2>&1", prog);
}

/* The start every report test shares: skip without a perf that can
 * sample cpu-clock (when `sampling`), perfev from $PERFEV, a temp dir
 * made from tmpl ("/tmp/perfev-NAME-XXXXXX"). */
static void report_cmp_start(const char *tmpl, bool sampling)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (sampling && t_sh("%s record -q -e cpu-clock -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record cannot sample cpu-clock here");
	snprintf(perfev, sizeof(perfev), "%s", getenv("PERFEV") ? getenv("PERFEV") : "build/perfev");
	snprintf(dir, sizeof(dir), "%s", tmpl);
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
}

/* The end every report test shares: the temp dir is removed, or kept and
 * named when a check failed (or KEEP is set), so that the recordings that
 * showed a rare difference can be looked at; t_done's exit status. */
static inline int report_cmp_end(void)
{
	if (t_failures || getenv("KEEP"))
		printf("kept %s: the files of this run\n", dir);
	else
		t_sh("rm -rf %s", dir);
	return t_done();
}

/* text into DIR/name; its path into path. */
static void report_cmp_write(char *path, size_t size, const char *name, const char *text)
{
	snprintf(path, size, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	CHECK(f && fputs(text, f) >= 0);
	if (f)
		fclose(f);
}

/* perfev script and perf script with the same options on file, byte for
 * byte; perf's output must hold needle (so the case is not vacuous). */
static inline void same_script(const char *file, const char *opts, const char *needle)
{
	size_t la, lb, line, start;
	char pa[128], pb[128];

	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/a.txt 2>/dev/null", perfev, file, opts, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/b.txt 2>/dev/null", PERF, file, opts, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(a && b && strstr(b, needle), "%s: perf's output lacks '%s'", file, needle);
	if (a && b && t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s '%s': first difference on line %zu:\nperfev: %.200s\nperf:   %.200s",
		       file, opts, line, a + start, b + start);
	free(a);
	free(b);
}

/* The modes report_perf and report_perf2 compare: cg for files with
 * call chains. */
static const char *const cg_modes[] = {
	"", "--no-children", "--no-children --sort sym", "-g fractal", "-g flat",
	"-g folded", "-g callee", "-g caller --no-children", "-G", "-g none",
	"-n --show-total-period", "--sort pid", "--sort dso", "--sort comm,dso",
	"--sort cpu,comm", "--sort dso,sym", "--percent-limit 1",
	"-q", "--no-children -g fractal,2,callee", "--show-cpu-utilization",
	NULL,
};

static const char *const flat_modes[] = {
	"", "--no-children", "--sort dso,sym", "-n", "--sort pid,sym", "--sort dso",
	"--show-total-period -n", "-q", NULL,
};

static inline void report_modes(const char *what, const char *file, bool cg)
{
	for (const char *const *m = cg ? cg_modes : flat_modes; *m; m++)
		same_report(what, file, *m);
}

/* Programs nobody here wrote run these: python3 a JSON loop, a C++
 * program built with g++ -O2 -g (std::map, std::string, operators). */
static const char report_py_src[] =
	"import json\ns = 0\nfor i in range(120000):\n"
	"    s += len(json.dumps({'a': i, 'b': [i, str(i) * 3]}))\nprint(s)\n";

/* A C program (a binary tree) that gcc compiles (cc1's samples) and
 * that runs built with -O2 -g (source lines). */
static const char report_c_src[] =
	"#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n"
	"struct node { struct node *l, *r; int k; };\n"
	"static struct node *ins(struct node *n, int k) { if (!n) { n = calloc(1, sizeof(*n)); n->k = k; return n; }\n"
	"  if (k < n->k) n->l = ins(n->l, k); else n->r = ins(n->r, k); return n; }\n"
	"int main(void) { struct node *r = 0; for (int i = 0; i < 1000; i++) r = ins(r, (i * 7919) % 1000);\n"
	"  printf(\"%d\\n\", r->k); return 0; }\n";

static const char report_cxx_src[] =
	"#include <map>\n#include <string>\n#include <vector>\n#include <cstdio>\n"
	"static std::map<std::string, long> count(const std::vector<std::string> &w) {\n"
	"  std::map<std::string, long> m;\n  for (auto &s : w) m[s] += (long)s.size();\n  return m;\n}\n"
	"int main(int argc, char **argv) {\n  long n = argc > 1 ? atol(argv[1]) : 200;\n  long t = 0;\n"
	"  for (long r = 0; r < n; r++) {\n    std::vector<std::string> w;\n"
	"    for (long i = 0; i < 2000; i++) w.push_back(std::to_string(i * 7919 % 1013));\n"
	"    t += (long)count(w).size();\n  }\n  printf(\"%ld\\n\", t);\n  return 0;\n}\n";
#endif
