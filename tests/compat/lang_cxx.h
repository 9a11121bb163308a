/* SPDX-License-Identifier: GPL-2.0-only */
/* The lang_cxx_* tests (C++ programs built by the test, recorded with
 * perf and perfev, read by both): the program and what they share.
 *
 * The program has what C++ puts in call chains: templates (instances
 * only ever inlined, for which g++ writes no linkage name), lambdas,
 * std::sort with a comparator, std::function, virtual calls, an
 * exception thrown and caught, namespaces and a function in an anonymous
 * namespace, and inlined hot code (work::mix<long>). */
#ifndef PERFEV_TESTS_LANG_CXX_H
#define PERFEV_TESTS_LANG_CXX_H

#include <math.h>
#include "lang_dwarf.h"

#define LANG_CXX_ROUNDS "100"	/* about 0.15 s of work */

static const char lang_cxx_prog[] =
	"#include <algorithm>\n"
	"#include <cstdio>\n"
	"#include <cstdlib>\n"
	"#include <functional>\n"
	"#include <stdexcept>\n"
	"#include <vector>\n"
	"namespace work {\n"
	"struct Shape { virtual ~Shape() {} virtual long area(long k) const = 0; };\n"
	"struct Sq : Shape { long s; explicit Sq(long v) : s(v) {} long area(long k) const override; };\n"
	"struct Tri : Shape { long b; explicit Tri(long v) : b(v) {} long area(long k) const override; };\n"
	"__attribute__((noinline)) long Sq::area(long k) const\n"
	"{ long t = 0; for (long i = 0; i < k; i++) t += (s + i) * (s ^ i); return t; }\n"
	"__attribute__((noinline)) long Tri::area(long k) const\n"
	"{ long t = 0; for (long i = 0; i < k; i++) t += (b * i) >> 1; return t; }\n"
	"template <typename T> static inline T mix(T x) { return (x * 2654435761u) ^ (x >> 7); }\n"
	"template <typename T> __attribute__((noinline)) T accumulate_mixed(const std::vector<T> &v)\n"
	"{ T s = 0; for (const T &x : v) s += mix<T>(x + s); return s; }\n"
	"namespace {\n"
	"__attribute__((noinline)) long hidden_rec(long d) { return d < 2 ? d : hidden_rec(d - 1) + hidden_rec(d - 2); }\n"
	"}\n"
	"__attribute__((noinline)) long thrower(long n)\n"
	"{ if (n % 10 == 0) throw std::runtime_error(\"ten\"); return hidden_rec(n % 20 + 5); }\n"
	"__attribute__((noinline)) long run(long rounds)\n"
	"{\n"
	"  std::vector<long> v(20000);\n"
	"  std::vector<Shape *> shapes;\n"
	"  for (long i = 0; i < 8; i++) shapes.push_back(i & 1 ? (Shape *)new Tri(i) : (Shape *)new Sq(i));\n"
	"  long total = 0;\n"
	"  std::function<long(long)> fn = [&total](long x) { return hidden_rec(x) + total % 7; };\n"
	"  for (long r = 0; r < rounds; r++) {\n"
	"    for (size_t i = 0; i < v.size(); i++) v[i] = mix<long>((long)i ^ r) % 10007;\n"
	"    std::sort(v.begin(), v.end(), [r](long a, long b) { return (a ^ r) < (b ^ r); });\n"
	"    total += accumulate_mixed(v);\n"
	"    for (Shape *s : shapes) total += s->area(2000);\n"
	"    total += fn(18);\n"
	"    try { total += thrower(r); } catch (const std::exception &e) { total += e.what()[0]; }\n"
	"  }\n"
	"  for (Shape *s : shapes) delete s;\n"
	"  return total;\n"
	"}\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"  long n = argc > 1 ? atol(argv[1]) : 40;\n"
	"  printf(\"%ld\\n\", work::run(n));\n"
	"  return 0;\n"
	"}\n";

/* perfev's and perf's output of "CMD OPTS -i dir/file" (report: perf's
 * '#' lines and blank lines left out), byte for byte; perf's holds
 * needle (NULL: anything).  The outputs stay in dir/a.txt, dir/b.txt. */
static inline void lang_cxx_same(const char *dir, const char *file, const char *cmd,
				 const char *opts, const char *needle)
{
	const char *strip = strcmp(cmd, "report") ? "cat" : "grep -v '^#' | grep .";
	char pa[256], pb[256];
	size_t la, lb, line, start;

	CHECK_EQ_INT(t_sh("%s %s -i %s/%s %s 2>/dev/null | %s > %s/a.txt", t_perfev(), cmd, dir, file,
			  opts, strip, dir), 0);
	CHECK_EQ_INT(t_sh("%s %s -i %s/%s %s 2>/dev/null | %s > %s/b.txt", PERF, cmd, dir, file, opts,
			  strip, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(a && b && lb, "%s %s '%s': no output", file, cmd, opts);
	if (a && b && lb) {
		CHECK_MSG(!needle || strstr(b, needle), "%s %s '%s': perf's output lacks '%s'",
			  file, cmd, opts, needle);
		if (t_first_diff(a, la, b, lb, &line, &start))
			T_FAIL("%s %s '%s': first difference on line %zu:\nperfev: %.400s\nperf:   %.400s",
			       file, cmd, opts, line, a + start, b + start);
		else
			printf("%s %s '%s': the same %zu bytes\n", file, cmd, opts, lb);
	}
	free(a);
	free(b);
}


/* report --children entries of one output: each line's children and self
 * percentages and its symbol text, entries of one name added up. */
struct lang_entry {
	char name[200];
	double children, self;
	int pieces;
};

static inline size_t lang_entries(char *text, struct lang_entry *e, size_t max)
{
	size_t n = 0;

	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		double c, s;
		int at = 0;
		size_t i;

		if (sscanf(l, " %lf%% %lf%% %n", &c, &s, &at) != 2 || !at)
			continue;
		for (i = 0; i < n && strcmp(e[i].name, l + at); i++)
			;
		if (i == n) {
			if (n == max)
				break;
			snprintf(e[n].name, sizeof(e[n].name), "%s", l + at);
			e[n].children = e[n].self = 0;
			e[n].pieces = 0;
			n++;
		}
		e[i].children += c;
		e[i].self += s;
		e[i].pieces++;
	}
	return n;
}

/* report --children with inline frames: perf 6.1 compares an inlined
 * frame's symbol by its name first (_sort__sym_cmp), an order that is not
 * total, so its tree sometimes holds one symbol in two entries (work::run
 * 98.93% and 0.46%); perfev keeps one.  The entries of each name (two
 * symbols may share one: ld.so's and the program's _start), added up, are
 * perf's (to the rounding of its pieces), no entry passes 100%, and
 * inline frames have entries of their own. */
static inline void lang_cxx_children(const char *dir, const char *file, const char *opts)
{
	static struct lang_entry ea[4096], eb[4096];
	char pa[256], pb[256];
	size_t la, lb, na, nb, bad = 0;

	CHECK_EQ_INT(t_sh("%s report -i %s/%s %s 2>/dev/null | grep -v '^#' > %s/a.txt", t_perfev(),
			  dir, file, opts, dir), 0);
	CHECK_EQ_INT(t_sh("%s report -i %s/%s %s 2>/dev/null | grep -v '^#' > %s/b.txt", PERF, dir,
			  file, opts, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(a && b && lb, "%s report '%s': no output", file, opts);
	if (!a || !b || !lb) {
		free(a);
		free(b);
		return;
	}
	CHECK_MSG(strstr(b, " (inlined)"), "%s report '%s': perf's output has no inline frame", file,
		  opts);
	CHECK_MSG(strstr(a, " (inlined)"), "%s report '%s': perfev's output has no inline frame",
		  file, opts);
	na = lang_entries(a, ea, 4096);
	nb = lang_entries(b, eb, 4096);
	CHECK_MSG(na == nb, "%s report '%s': %zu symbols in perfev's output, %zu in perf's", file,
		  opts, na, nb);
	for (size_t i = 0; i < na; i++) {
		size_t j;

		CHECK_MSG(ea[i].children <= 100.0 && ea[i].self <= 100.0, "%s: %s at %.2f%% children",
			  file, ea[i].name, ea[i].children);
		for (j = 0; j < nb && strcmp(ea[i].name, eb[j].name); j++)
			;
		int pieces = j < nb && eb[j].pieces > ea[i].pieces ? eb[j].pieces : ea[i].pieces;
		double tol = 0.006 + 0.01 * pieces;

		if (j == nb || fabs(ea[i].children - eb[j].children) > tol ||
		    fabs(ea[i].self - eb[j].self) > tol) {
			if (bad++ < 5)
				T_FAIL("%s report '%s': %s: perfev %.2f%% %.2f%%, perf %s%.2f%% %.2f%%",
				       file, opts, ea[i].name, ea[i].children, ea[i].self,
				       j == nb ? "(none) " : "", j < nb ? eb[j].children : 0,
				       j < nb ? eb[j].self : 0);
		}
	}
	if (!bad && na == nb)
		printf("%s report '%s': %zu symbols, as perf's (its split entries added up)\n", file,
		       opts, na);
	free(a);
	free(b);
}

#endif
