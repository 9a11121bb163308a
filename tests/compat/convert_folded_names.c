// SPDX-License-Identifier: GPL-2.0-only
/* convert --to folded keeps names that hold parentheses and cuts only a
 * real trailing argument list (README: folded).  stackcollapse-perf.pl
 * cuts every name at its first '(', which merges distinct functions:
 *   - Rust (rustc -O, frame pointers): the drop glue
 *     "core::ptr::drop_in_place<(r::A,alloc::string::String)>" and
 *     "...<(r::A,alloc::vec::Vec<u64>)>", trait impls on tuples
 *     "<(u32,usize) as r::Work>::work" and "<(u64,usize) ...>" (cut to
 *     "core::ptr::drop_in_place<" and "<");
 *   - C++ (g++ -O1): "std::function<void (int)>::operator()", the
 *     _Function_handler of a lambda, "call<&(f1(int))>" (cut to
 *     "std::function<void " and "call<&");
 *   - JIT names from a /tmp/perf-PID.map (tests/helpers/jit_sled) with
 *     real argument lists: "jit::alpha(int)" and "jit::alpha(long)" are
 *     one function "jit::alpha", "jit::Op::operator()(int)" is
 *     "jit::Op::operator()", "jit::Op::operator()" stays, "f(int) const"
 *     is "f".
 * Programs built here, recorded by perf; the names expected are written
 * by hand below, and each one's sample count in the folded output must
 * equal the number of perf script samples whose stack holds the
 * function under its full name (one of several, for a merged name). */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

/* perf script's samples (default fields, call chains) whose stack has a
 * frame named one of names[] (a NULL-ended list) */
static long perf_count(const char *data, const char *const *names)
{
	char cmd[512], line[8192];
	long n = 0;
	bool hit = false;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s script -i %s 2>/dev/null", PERF, data);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] != ' ' && line[0] != '\t') {	/* a header or a blank line */
			n += hit;
			hit = false;
			continue;
		}
		/* "\t    ADDR NAME+0xOFF (DSO)" */
		char *s = line + strspn(line, " \t");
		char *e;

		s += strcspn(s, " ");
		s += strspn(s, " ");
		e = strrchr(s, '(');
		if (!e || e == s)
			continue;
		while (e > s && e[-1] == ' ')
			e--;
		*e = 0;
		char *off = strrchr(s, '+');

		if (off && !strncmp(off, "+0x", 3) && off[3 + strspn(off + 3, "0123456789abcdef")] == 0)
			*off = 0;
		for (const char *const *q = names; *q; q++)
			hit |= !strcmp(s, *q);
	}
	n += hit;
	pclose(p);
	return n;
}

/* the folded lines' count sum over lines with a frame (after the first,
 * the command) named name */
static long folded_count(const char *folded, const char *name)
{
	long n = 0;
	size_t nl = strlen(name);

	for (const char *l = folded; *l;) {
		const char *eol = strchr(l, '\n');
		const char *sp;

		if (!eol)
			eol = l + strlen(l);
		for (sp = eol; sp > l && sp[-1] != ' '; sp--)
			;
		const char *f = memchr(l, ';', (size_t)(eol - l));

		while (f && f < sp) {
			const char *g = f + 1, *end = memchr(g, ';', (size_t)(sp - 1 - g));

			if (!end)
				end = sp - 1;
			if ((size_t)(end - g) == nl && !memcmp(g, name, nl)) {
				n += atol(sp);
				break;
			}
			f = end < sp - 1 ? end : NULL;
		}
		l = *eol ? eol + 1 : eol;
	}
	return n;
}

struct want {
	const char *folded;		/* the name in the folded output */
	const char *perf[3];		/* its names in perf script */
};

static void check_names(const char *what, const char *data, const struct want *w, size_t nw,
			const char *const *gone)
{
	char fp[128];
	size_t len;

	snprintf(fp, sizeof(fp), "%s/%s.folded", dir, what);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to folded -o %s", perfev, data, fp), 0);
	char *folded = t_slurp(fp, &len);

	if (!folded) {
		T_FAIL("%s: no folded output", what);
		return;
	}
	for (size_t i = 0; i < nw; i++) {
		long a = folded_count(folded, w[i].folded), b = perf_count(data, w[i].perf);

		CHECK_MSG(b > 0, "%s: perf script shows no sample in '%s' (did the toolchain rename it?)",
			  what, w[i].perf[0]);
		CHECK_MSG(a == b, "%s: '%s': %ld samples in the folded stacks, perf script: %ld",
			  what, w[i].folded, a, b);
		printf("%s: %-60s %ld samples (perf script: %ld)\n", what, w[i].folded, a, b);
	}
	for (; *gone; gone++)
		CHECK_MSG(folded_count(folded, *gone) == 0, "%s: a frame named '%s' (a name cut short)",
			  what, *gone);
	free(folded);
}

static const char rust_src[] =
	"use std::hint::black_box;\n"
	"#[inline(never)]\n"
	"fn spin(n: u64) -> u64 { let mut x = 0u64; for i in 0..n { x = x.wrapping_mul(31).wrapping_add(black_box(i)); } x }\n"
	"trait Work { fn work(&self) -> u64; }\n"
	"impl Work for (u32, usize) { #[inline(never)] fn work(&self) -> u64 { black_box(spin(self.0 as u64)) ^ 1 } }\n"
	"impl Work for (u64, usize) { #[inline(never)] fn work(&self) -> u64 { black_box(spin(self.0)) ^ 2 } }\n"
	"struct A(u64);\n"
	"impl Drop for A { #[inline(never)] fn drop(&mut self) { black_box(spin(self.0)); } }\n"
	"fn main() {\n"
	"    let d1: unsafe fn(*mut (A, String)) = std::ptr::drop_in_place::<(A, String)>;\n"
	"    let d2: unsafe fn(*mut (A, Vec<u64>)) = std::ptr::drop_in_place::<(A, Vec<u64>)>;\n"
	"    let (d1, d2) = (black_box(d1), black_box(d2));\n"
	"    for _ in 0..3000 {\n"
	"        black_box(black_box(&(20000u32, 1usize)).work());\n"
	"        black_box(black_box(&(20000u64, 1usize)).work());\n"
	"        let mut a = std::mem::ManuallyDrop::new((A(20000), String::from(\"x\")));\n"
	"        let mut b = std::mem::ManuallyDrop::new((A(20000), vec![1u64]));\n"
	"        unsafe { d1(&mut *a); d2(&mut *b); }\n"
	"    }\n"
	"}\n";

static void test_rust(void)
{
	static const char *const cands[] = { "/root/.cargo/bin/rustc", "rustc", NULL };
	const char *rustc = NULL;
	char src[128], data[128];
	FILE *f;

	for (const char *const *c = cands; *c && !rustc; c++)
		if (!t_sh("%s --version > /dev/null 2>&1", *c))
			rustc = *c;
	if (!rustc) {
		printf("rustc is not installed: Rust part not run\n");
		return;
	}
	snprintf(src, sizeof(src), "%s/r.rs", dir);
	f = fopen(src, "w");
	CHECK(f);
	fputs(rust_src, f);
	fclose(f);
	/* the crate's own symbols in rustc's default (legacy) mangling,
	 * which perf 6.1 demangles */
	CHECK_EQ_INT(t_sh("cd %s && %s -O -C force-frame-pointers=yes -o r r.rs", dir, rustc), 0);
	snprintf(data, sizeof(data), "%s/r.data", dir);
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -g -e cpu-clock -c 250000 -o %s ./r > /dev/null 2>&1",
			  dir, PERF, data), 0);
	static const struct want w[] = {
		{ "core::ptr::drop_in_place<(r::A,alloc::string::String)>",
		  { "core::ptr::drop_in_place<(r::A,alloc::string::String)>" } },
		{ "core::ptr::drop_in_place<(r::A,alloc::vec::Vec<u64>)>",
		  { "core::ptr::drop_in_place<(r::A,alloc::vec::Vec<u64>)>" } },
		{ "<(u32,usize) as r::Work>::work", { "<(u32,usize) as r::Work>::work" } },
		{ "<(u64,usize) as r::Work>::work", { "<(u64,usize) as r::Work>::work" } },
	};
	static const char *const gone[] = { "core::ptr::drop_in_place<", "<", NULL };

	check_names("rust", data, w, sizeof(w) / sizeof(w[0]), gone);
}

static const char cxx_src[] =
	"#include <functional>\n"
	"static volatile unsigned long sink;\n"
	"__attribute__((noinline)) void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }\n"
	"__attribute__((noinline)) void f1(int n) { spin(n); }\n"
	"__attribute__((noinline)) void f2(int n) { spin(n); }\n"
	"template <void (*P)(int)> __attribute__((noinline)) void call(int n) { P(n); }\n"
	"int main() {\n"
	"  std::function<void(int)> g = [](int n) { spin(n); };\n"
	"  std::function<void(long)> h = [](long n) { spin(n); };\n"
	"  for (int i = 0; i < 2000; i++) { g(100000); h(100000); call<f1>(100000); call<f2>(100000); }\n"
	"}\n";

static void test_cxx(void)
{
	char src[128], data[128];
	FILE *f;

	if (t_sh("g++ --version > /dev/null 2>&1")) {
		printf("g++ is not installed: C++ part not run\n");
		return;
	}
	snprintf(src, sizeof(src), "%s/c.cc", dir);
	f = fopen(src, "w");
	CHECK(f);
	fputs(cxx_src, f);
	fclose(f);
	/* no inlining, no tail calls: every wrapper keeps its frame */
	CHECK_EQ_INT(t_sh("cd %s && g++ -O1 -fno-inline -fno-optimize-sibling-calls "
			  "-fno-omit-frame-pointer -o c c.cc", dir), 0);
	snprintf(data, sizeof(data), "%s/c.data", dir);
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -g -e cpu-clock -c 250000 -o %s ./c > /dev/null 2>&1",
			  dir, PERF, data), 0);
	static const struct want w[] = {
		{ "std::function<void (int)>::operator()", { "std::function<void (int)>::operator()" } },
		{ "std::function<void (long)>::operator()", { "std::function<void (long)>::operator()" } },
		{ "std::_Function_handler<void (int), main::{lambda(int)#1}>::_M_invoke",
		  { "std::_Function_handler<void (int), main::{lambda(int)#1}>::_M_invoke" } },
		{ "std::_Function_handler<void (long), main::{lambda(long)#2}>::_M_invoke",
		  { "std::_Function_handler<void (long), main::{lambda(long)#2}>::_M_invoke" } },
		{ "call<&(f1(int))>", { "call<&(f1(int))>" } },
		{ "call<&(f2(int))>", { "call<&(f2(int))>" } },
	};
	static const char *const gone[] = { "std::function<void ", "std::_Function_handler<void ",
					    "call<&", NULL };

	check_names("c++", data, w, sizeof(w) / sizeof(w[0]), gone);
}

static void test_jit(const char *build)
{
	char helper[4200], map[128], data[128];
	FILE *f;

	snprintf(helper, sizeof(helper), "%s/tests/helpers/jit_sled", build);
	if (access(helper, X_OK))
		T_FATAL("helper %s is missing", helper);
	snprintf(map, sizeof(map), "%s/map.txt", dir);
	f = fopen(map, "w");
	CHECK(f);
	/* jit_sled: "+OFF" becomes the sled's address */
	fputs("+0 400 jit::alpha(int)\n+400 400 jit::alpha(long)\n"
	      "+800 400 jit::Op::operator()(int)\n+c00 400 jit::Op::operator()\n"
	      "+1000 400 (anonymous namespace)::gamma(unsigned long)\n"
	      "+1400 400 jit::run<(int,char)>\n+1800 400 jit::tail(int) const\n", f);
	fclose(f);
	snprintf(data, sizeof(data), "%s/sled.data", dir);
	CHECK_EQ_INT(t_sh("cd %s && timeout -k 2 60 %s record -q -g -e task-clock -c 20000 "
			  "-o %s -- %s %s 1000 > /dev/null 2>&1", dir, PERF, data, helper, map), 0);
	static const struct want w[] = {
		{ "jit::alpha", { "jit::alpha(int)", "jit::alpha(long)" } },
		{ "jit::Op::operator()", { "jit::Op::operator()(int)", "jit::Op::operator()" } },
		{ "(anonymous namespace)::gamma", { "(anonymous namespace)::gamma(unsigned long)" } },
		{ "jit::run<(int,char)>", { "jit::run<(int,char)>" } },
		/* an argument list and a qualifier */
		{ "jit::tail", { "jit::tail(int) const" } },
	};
	static const char *const gone[] = { "jit::run<", "jit::alpha(int)", NULL };

	check_names("jit", data, w, sizeof(w) / sizeof(w[0]), gone);
	t_sh("%s script -i %s -F pid 2>/dev/null | sort -u | while read p; do rm -f /tmp/perf-$p.map; done",
	     PERF, data);
}

int main(void)
{
	const char *b = getenv("PERFEV_BUILD");
	char build[4096];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	if (!realpath(b ? b : "build", build))
		T_FATAL("build dir missing");
	snprintf(dir, sizeof(dir), "/tmp/pev-foldnames-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	test_rust();
	test_cxx();
	test_jit(build);
	t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
