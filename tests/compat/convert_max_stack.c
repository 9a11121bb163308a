// SPDX-License-Identifier: GPL-2.0-only
/* convert --max-stack 0 writes a flat profile in every format, as perf
 * report --max-stack 0 does (each sample its own function, no callers),
 * on files perf records at test time (python3 with -g and --call-graph
 * dwarf, a C++ program built with g++ -O2 -g):
 *   - folded: the samples (and periods) per command and function equal
 *     perf report --max-stack 0's -F sample|period,comm,dso,sym (parsed
 *     here; an address without a symbol is "[dso]"; on the DWARF file,
 *     where perf 6.1's report --max-stack 0 fails, its -g none self
 *     column), and the output is
 *     byte for byte perf script --max-stack 1 through
 *     tests/helpers/stackcollapse.py;
 *   - firefox, speedscope, chrome: tests/helpers/check_views.py against
 *     perf script --max-stack 1 (-g files: on DWARF files perf script
 *     --max-stack 1 still adds the unwound user frames);
 *   - json: perf data convert --to-json with each callchain cut to its
 *     first entry (tests/helpers/json_cmp.py);
 *   - pprof: go tool pprof's cum% against perf report --max-stack 0
 *     --children (equal to self) (tests/helpers/pprof_cmp.py);
 *   - html: compat/convert_html_data holds its tree to folded's.
 * And --max-stack 2 for folded: perf script --max-stack 2's stacks. */
#include "report_cmp.h"

struct agg {
	char *key;
	long v;
};

static int cmp_agg(const void *a, const void *b)
{
	return strcmp(((const struct agg *)a)->key, ((const struct agg *)b)->key);
}

static char *trim(char *s)
{
	char *e;

	s += strspn(s, " ");
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\n'))
		*--e = 0;
	return s;
}

/* perf report --max-stack 0 of file as folded lines: "comm;function N".
 * perf 6.1's report --max-stack 0 fails on a DWARF file ("failed to
 * process type: 68"): there (dwarf) its self column without chains, the
 * same flat profile. */
static char *report_as_folded(const char *file, bool period, bool dwarf)
{
	char cmd[512], line[8192];
	struct agg *a = NULL;
	size_t n = 0, cap = 0, len = 0;
	char *out = NULL;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s report -i %s %s --stdio --no-children -F %s,comm,dso,sym "
		 "-t '|' 2>/dev/null", PERF, file, dwarf ? "-g none" : "--max-stack 0",
		 period ? "period" : "sample");
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	while (fgets(line, sizeof(line), p)) {
		char *f[4], *s = line, name[4096], key[8192];
		int k;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		for (k = 0; k < 4 && s; k++) {
			f[k] = s;
			s = strchr(s, '|');
			if (s)
				*s++ = 0;
		}
		if (k < 4)
			continue;
		char *comm = trim(f[1]), *dso = trim(f[2]), *sym = trim(f[3]);

		if (sym[0] == '[' && sym[2] == ']' && sym[3] == ' ')
			sym += 4;
		if (!strncmp(sym, "0x", 2)) {	/* no symbol: "[dso's base name]" */
			const char *b = strrchr(dso, '/');

			snprintf(name, sizeof(name), !strcmp(dso, "[unknown]") ? "%s" : "[%s]",
				 !strcmp(dso, "[unknown]") ? dso : b ? b + 1 : dso);
		} else {
			snprintf(name, sizeof(name), "%s", sym);
		}
		for (char *c = comm; *c; c++)
			if (*c == ' ')
				*c = '_';
		snprintf(key, sizeof(key), "%s;%s", comm, name);
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			a = realloc(a, cap * sizeof(*a));
		}
		a[n].key = strdup(key);
		a[n++].v = atol(trim(f[0]));
	}
	pclose(p);
	qsort(a, n, sizeof(*a), cmp_agg);
	out = calloc(1, 1);
	for (size_t i = 0; i < n;) {
		size_t e = i + 1;
		long v = a[i].v;
		char l[8300];

		for (; e < n && !strcmp(a[e].key, a[i].key); e++)
			v += a[e].v;
		int m = snprintf(l, sizeof(l), "%s %ld\n", a[i].key, v);

		out = realloc(out, len + (size_t)m + 1);
		memcpy(out + len, l, (size_t)m + 1);
		len += (size_t)m;
		i = e;
	}
	for (size_t i = 0; i < n; i++)
		free(a[i].key);
	free(a);
	return out;
}

static void same_text(const char *what, const char *a, size_t la, const char *b, size_t lb)
{
	size_t line, start;

	CHECK_MSG(b && lb > 0, "%s: perf gave nothing", what);
	if (a && b && t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s: first difference on line %zu:\nperfev: %.300s\nperf:   %.300s", what,
		       line, a + start, b + start);
	else if (a && b)
		printf("%s: %zu bytes identical\n", what, la);
}

static void folded_vs_report(const char *file, bool period, bool dwarf)
{
	char pa[128], what[256];
	size_t la;

	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to folded --max-stack 0 %s > %s/a.txt", perfev, file,
			  period ? "--value period" : "", dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	char *a = t_slurp(pa, &la), *b = report_as_folded(file, period, dwarf);

	snprintf(what, sizeof(what), "%s folded --max-stack 0%s vs perf report %s", file,
		 period ? " --value period" : "", dwarf ? "--no-children -g none" : "--max-stack 0");
	same_text(what, a, la, b, b ? strlen(b) : 0);
	free(a);
	free(b);
}

static void folded_vs_script(const char *file, int depth, const char *script_depth)
{
	char pa[128], pb[128], what[256];
	size_t la, lb;

	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to folded --max-stack %d > %s/a.txt", perfev, file,
			  depth, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s --max-stack %s 2>/dev/null | python3 tests/helpers/stackcollapse.py > %s/b.txt",
			  PERF, file, script_depth, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	snprintf(what, sizeof(what), "%s folded --max-stack %d vs perf script --max-stack %s", file,
		 depth, script_depth);
	same_text(what, a, la, b, lb);
	free(a);
	free(b);
}

static void views(const char *file)
{
	static const char *const fmts[] = { "firefox", "speedscope", "chrome" };

	CHECK_EQ_INT(t_sh("%s script -i %s --max-stack 1 -F comm,pid,tid,time,period,event,ip,sym,dso --ns > %s/script.txt 2>/dev/null",
			  PERF, file, dir), 0);
	for (size_t i = 0; i < 3; i++) {
		CHECK_EQ_INT(t_sh("%s convert -q -i %s --to %s --max-stack 0 -o %s/out.%s", perfev, file,
				  fmts[i], dir, fmts[i]), 0);
		if (t_sh("python3 tests/helpers/check_views.py %s %s/out.%s %s/script.txt > %s/check.txt 2>&1",
			 fmts[i], dir, fmts[i], dir, dir)) {
			char cp[192], *why;
			size_t n;

			snprintf(cp, sizeof(cp), "%s/check.txt", dir);
			why = t_slurp(cp, &n);
			T_FAIL("%s --to %s --max-stack 0: check_views.py: %.600s", file, fmts[i],
			       why && strstr(why, "FAIL: ") ? strstr(why, "FAIL: ") : "(no reason printed)");
			free(why);
		} else {
			printf("%s --to %s --max-stack 0: as perf script --max-stack 1\n", file, fmts[i]);
		}
	}
}

static void json(const char *file, bool dwarf)
{
	CHECK_EQ_INT(t_sh("rm -f %s/perf.json && %s data convert -i %s --to-json %s/perf.json > /dev/null 2>&1",
			  dir, PERF, file, dir), 0);
	/* perf's chains cut to their first entry (the sampled ip) */
	CHECK_EQ_INT(t_sh("python3 -c 'import json,sys\n"
			  "d=json.load(open(sys.argv[1], encoding=\"utf-8\", errors=\"replace\"))\n"
			  "for s in d[\"samples\"]: s[\"callchain\"]=s[\"callchain\"][:1]\n"
			  "json.dump(d, open(sys.argv[2], \"w\"))' %s/perf.json %s/perf1.json", dir, dir), 0);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to json --max-stack 0 -o %s/ours.jsonl", perfev, file, dir), 0);
	if (t_sh("python3 tests/helpers/json_cmp.py %s/perf1.json %s/ours.jsonl %s", dir, dir,
		 dwarf ? "--user-prefix" : ""))
		T_FAIL("%s --to json --max-stack 0: not perf's samples with their first frame", file);
	else
		printf("%s --to json --max-stack 0: perf's samples with their first frame\n", file);
}

static void pprof(const char *file, const char *genv)
{
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to pprof --max-stack 0 -o %s/p.pb.gz", perfev, file, dir), 0);
	CHECK_EQ_INT(t_sh("%s go tool pprof -symbolize=none -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 %s/p.pb.gz > %s/cum.top 2>&1",
			  genv, dir, dir), 0);
	CHECK_EQ_INT(t_sh("%s report -i %s --max-stack 0 --stdio --children --sort sym -g none > %s/cum.rep 2>/dev/null",
			  PERF, file, dir), 0);
	if (t_sh("python3 tests/helpers/pprof_cmp.py cum %s/cum.top %s/cum.rep", dir, dir))
		T_FAIL("%s --to pprof --max-stack 0: cum%% differ from perf report --max-stack 0", file);
	else
		printf("%s --to pprof --max-stack 0: cum%% as perf report --max-stack 0 --children\n", file);
}

int main(void)
{
	char py[128], cxx[128], bin[128], f[128], genv[1024];
	bool go;

	report_cmp_start("/tmp/perfev-maxstack-XXXXXX", true);
	if (!have("python3"))
		T_SKIP("python3 is not installed (it runs the comparisons)");
	go = !t_sh("command -v go > /dev/null 2>&1 && go version > /dev/null 2>&1");
	if (!go)
		printf("go is not installed: the pprof part is not run\n");
	snprintf(genv, sizeof(genv),
		 "HOME=%s GOCACHE=%s/gocache GOPATH=%s/gopath GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOTELEMETRY=off",
		 dir, dir, dir);
	report_cmp_write(py, sizeof(py), "w.py", report_py_src);
	report_cmp_write(cxx, sizeof(cxx), "t.cc", report_cxx_src);

	snprintf(f, sizeof(f), "%s/py.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	folded_vs_report(f, false, false);
	folded_vs_report(f, true, false);
	folded_vs_script(f, 0, "1");
	folded_vs_script(f, 2, "2");
	views(f);
	json(f, false);
	if (go)
		pprof(f, genv);

	snprintf(f, sizeof(f), "%s/pyd.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 400000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	folded_vs_report(f, false, true);
	folded_vs_report(f, true, true);

	snprintf(bin, sizeof(bin), "%s/cxx", dir);
	if (have("g++") && !t_sh("g++ -O2 -g -o %s %s", bin, cxx)) {
		snprintf(f, sizeof(f), "%s/cxx.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- %s 100 > /dev/null 2>&1",
				  PERF, f, bin), 0);
		folded_vs_report(f, false, false);
		folded_vs_script(f, 0, "1");
		views(f);
		if (go)
			pprof(f, genv);
	}
	return report_cmp_end();
}
