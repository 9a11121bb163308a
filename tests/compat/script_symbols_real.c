// SPDX-License-Identifier: GPL-2.0-only
/* Symbols of programs the project did not write, against perf script 6.1:
 * perf records (with -g) python3 running a script, gcc's cc1 compiling a
 * C file, a C++ program built with g++ -O2 -g (templates, operators,
 * inlining, operator new/delete) and node running JS; perfev script must
 * print the same bytes, with ip,sym,symoff,dso and call chains and in the
 * default output.  The defects this holds down (each failed before):
 *   - PLT stubs: perf prints PyList_Append@plt / free@plt / memcpy@plt
 *     where perfev printed _init+0x5040 or [unknown] (python3, cc1, node);
 *   - overlapping symbols: node's Builtins_JSConstructStubGeneric+0x102
 *     where perfev printed the label construct_stub_create_deopt_addr;
 *   - C++ operators: operator delete+0x4 where perfev printed delete+0x4;
 *   - a kernel-space value in a user call chain (cc1's frame pointer
 *     garbage): [unknown] ([unknown]), not [kernel.kallsyms]. */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];
static int ran;

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* perf script and perfev script with the same arguments on data; the
 * outputs must be equal.  Returns perf's output (malloc'ed). */
static char *same(const char *what, const char *data, const char *args)
{
	char pa[128], pb[128];
	size_t la, lb;

	int ra = t_sh("HOME=%s %s script -i %s %s > %s/a.txt 2> %s/a.err", dir, perfev, data, args, dir, dir);
	int rb = t_sh("HOME=%s %s script -i %s %s > %s/b.txt 2> /dev/null", dir, PERF, data, args, dir);

	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(ra == 0, "%s: perfev script exited %d", what, ra);
	CHECK_MSG(rb == 0 && lb > 0, "%s: perf script exited %d with %zu bytes", what, rb, lb);
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start)) {
		T_FAIL("%s (%s): output differs at line %zu:\n  perfev: %.200s\n  perf:   %.200s",
		       what, args, line, a + start, b + start);
	} else {
		printf("%s (%s): %zu bytes identical\n", what, args, la);
	}
	free(a);
	return b;
}

/* Records cmd with perf -g into <dir>/<name>.data and compares. */
static void check_program(const char *name, const char *cmd)
{
	char data[128];

	snprintf(data, sizeof(data), "%s/%s.data", dir, name);
	if (t_sh("cd %s && HOME=%s %s record -q -g -e cpu-clock -o %s -- %s > /dev/null 2>&1",
		 dir, dir, PERF, data, cmd)) {
		T_FAIL("%s: perf record -g -- %s failed", name, cmd);
		return;
	}
	ran++;
	char *b = same(name, data, "-F comm,pid,tid,ip,sym,symoff,dso");

	printf("%s: perf printed %zu @plt frames, %zu operator frames, %zu kernel frames\n",
	       name, count(b, "@plt+"), count(b, " operator"), count(b, "([kernel.kallsyms])"));
	free(b);
	free(same(name, data, ""));
}

static const char python_src[] =
	"import json\n"
	"l = []\n"
	"for i in range(1500000):\n"
	"    l.append(i * 2)\n"
	"    if len(l) > 1000: l = []\n"
	"d = {}\n"
	"for i in range(300000): d[str(i)] = i\n"
	"s = json.dumps(d); json.loads(s)\n";

static const char cxx_src[] =
	"#include <cstdio>\n#include <map>\n#include <string>\n#include <vector>\n#include <algorithm>\n"
	"namespace geo {\n"
	"template <typename T> struct Vec {\n"
	"  T x, y;\n"
	"  __attribute__((noinline)) Vec operator+(const Vec &o) const { return Vec{x + o.x, y + o.y}; }\n"
	"  __attribute__((noinline)) bool operator<(const Vec &o) const { return x * x + y * y < o.x * o.x + o.y * o.y; }\n"
	"  __attribute__((noinline)) explicit operator bool() const { return x != 0 || y != 0; }\n"
	"  __attribute__((noinline)) T &operator[](int i) { return i ? y : x; }\n"
	"};\n"
	"struct Acc { long n = 0; __attribute__((noinline)) void operator()(long v) { n += v % 7; } };\n"
	"}\n"
	"template <typename T> __attribute__((noinline)) T total(const std::vector<T> &v)\n"
	"{ T s{}; for (const auto &e : v) s = s + e; return s; }\n"
	"int main() {\n"
	"  long out = 0; geo::Acc acc; std::map<std::string, long> m;\n"
	"  for (int r = 0; r < 400; r++) {\n"
	"    std::vector<geo::Vec<long>> v;\n"
	"    for (int i = 0; i < 5000; i++) {\n"
	"      v.push_back(geo::Vec<long>{i, r});\n"
	"      auto *p = new long[4]; p[0] = i; acc(p[0]); delete[] p;\n"
	"      auto *q = new geo::Vec<long>{i, i}; out += (*q)[1] + bool(*q); delete q;\n"
	"    }\n"
	"    std::sort(v.begin(), v.end()); out += total(v).x;\n"
	"    m[std::to_string(r % 37)] += out;\n"
	"  }\n"
	"  printf(\"%ld %ld %zu\\n\", out, acc.n, m.size());\n"
	"}\n";

static const char js_src[] =
	"let a=[];for(let i=0;i<3e6;i++){a.push({x:i,y:String(i)});if(a.length>1000)a=[];}"
	"class P{constructor(x){this.x=x}} let s=0; for(let i=0;i<2e6;i++){s+=new P(i).x}"
	"console.log(s)";

static void write_file(const char *name, const char *text)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		T_FATAL("cannot write %s", p);
}

/* A C file that keeps cc1 busy for a second or two. */
static void write_c_file(void)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/big.c", dir);
	f = fopen(p, "w");
	if (!f)
		T_FATAL("cannot write %s", p);
	fprintf(f, "#include <stdio.h>\n#include <string.h>\n");
	for (int i = 0; i < 400; i++)
		fprintf(f, "int f%d(int x, const char *s) { int r = 0; switch (x %% 7) {"
			" case 0: r = (int)strlen(s) * %d; break; case 1: r = x * x + %d; break;"
			" case 2: for (int k = 0; k < x; k++) r += k ^ %d; break;"
			" default: r = snprintf(0, 0, \"%%d-%%s\", x, s) + %d; }"
			" return r + (x > 3 ? f%d(x - 1, s) : 0); }\n",
			i, i, i, i, i, i ? i - 1 : 0);
	fclose(f);
}

int main(void)
{
	char python[4096] = "", exe[4300];
	FILE *pp;

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("%s record -q -e cpu-clock -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record cannot sample cpu-clock here");
	snprintf(perfev, sizeof(perfev), "%s", getenv("PERFEV") ? getenv("PERFEV") : "build/perfev");
	if (perfev[0] != '/') {
		char *abs = realpath(perfev, NULL);

		if (!abs)
			T_FATAL("perfev binary %s not found", perfev);
		snprintf(perfev, sizeof(perfev), "%s", abs);
		free(abs);
	}
	strcpy(dir, "/tmp/perfev-symreal-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");

	/* python3 by its real path (a pyenv shim needs the real HOME). */
	pp = popen("python3 -c 'import sys; print(sys.executable)' 2>/dev/null", "r");
	if (pp) {
		if (!fgets(python, sizeof(python), pp))
			python[0] = 0;
		python[strcspn(python, "\n")] = 0;
		pclose(pp);
	}
	if (python[0] && !access(python, X_OK)) {
		write_file("s.py", python_src);
		snprintf(exe, sizeof(exe), "%s s.py", python);
		check_program("python3", exe);
	} else {
		printf("python3 not found: that case skipped\n");
	}
	if (!t_sh("command -v gcc > /dev/null 2>&1")) {
		write_c_file();
		check_program("cc1", "gcc -O2 -c big.c -o big.o");
	} else {
		printf("gcc not found: that case skipped\n");
	}
	if (!t_sh("command -v g++ > /dev/null 2>&1")) {
		write_file("ops.cpp", cxx_src);
		if (t_sh("cd %s && g++ -O2 -g -o ops ops.cpp > /dev/null 2>&1", dir))
			T_FAIL("g++ -O2 -g ops.cpp failed");
		else
			check_program("g++-O2-g", "./ops");
	} else {
		printf("g++ not found: that case skipped\n");
	}
	if (!t_sh("command -v node > /dev/null 2>&1")) {
		write_file("j.js", js_src);
		check_program("node", "node j.js");
	} else {
		printf("node not found: that case skipped\n");
	}
	if (!ran && !t_failures)
		T_SKIP("none of python3, gcc, g++, node is installed");
	t_sh("rm -rf %s", dir);
	return t_done();
}
