// SPDX-License-Identifier: GPL-2.0-only
/* Inline frames and srclines in Rust code, as perf 6.1 prints them.
 *
 * rustc puts every function of a unit inside its module's
 * DW_TAG_namespace.  libdw's dwarf_getscopes looks into no DIE without
 * an address range, so perfev found no function scope in any Rust unit
 * (the program's and the prebuilt standard library's alike): it printed
 * no "(inlined)" frame where perf (binutils' addr2line -i) prints
 * std::rt::lang_start_internal::{closure#0},
 * core::ops::function::FnOnce::call_once and the like, and the srcline of
 * the function holding them was its own address's line (function.rs:287)
 * instead of the call's (rt.rs:171).
 *
 * A program built here with rustc -O -g calls into std (formatting,
 * collecting); recorded by perf with --call-graph dwarf:
 *  - linked with GNU ld: perfev script equals perf script, with the
 *    default fields and with -F ip,sym,srcline; the same for a file
 *    perfev records;
 *  - linked with rustc's default linker (rust-lld): the same, and the
 *    sampled address's frames alone (--max-stack 1, no CFI walk);
 *  - the srcline of std::rt::lang_start_internal's frame is the last line
 *    binutils' addr2line -i gives for its address. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"
#define ADDR2LINE "/usr/bin/addr2line"

static char dir[64];

static const char prog[] =
	"use std::hint::black_box;\n"
	"fn fib(n: u64) -> u64 { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }\n"
	"fn main() {\n"
	"    let mut s = 0u64;\n"
	"    for i in 0..150 { s = s.wrapping_add(fib(black_box(20 + (i % 10)))); }\n"
	"    let mut n = 0usize;\n"
	"    for _ in 0..6 {\n"
	"        let v: Vec<String> = (0..100000).map(|i| format!(\"{}-{}\", i, i * 7)).collect();\n"
	"        n += v.iter().map(|x| x.len()).sum::<usize>();\n"
	"    }\n"
	"    println!(\"{} {}\", s, n);\n"
	"}\n";

static const char *rustc_path(void)
{
	static const char *const cands[] = { "/root/.cargo/bin/rustc", "/usr/local/cargo/bin/rustc",
					     "/usr/bin/rustc", "/usr/local/bin/rustc" };
	const char *e = getenv("RUSTC");

	if (e && !access(e, X_OK))
		return e;
	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++)
		if (!access(cands[i], X_OK))
			return cands[i];
	return NULL;
}

/* perfev script and perf script on file with these options: the same
 * bytes; perf's output holds needle. */
static void same_script(const char *file, const char *opts, const char *needle)
{
	char pa[128], pb[128];
	size_t la, lb;

	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/a.txt 2>/dev/null", t_perfev(), file, opts, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/b.txt 2>/dev/null", PERF, file, opts, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(a && b, "no output");
	if (!a || !b)
		return;
	CHECK_MSG(lb > 0 && strstr(b, needle), "%s '%s': perf's output lacks '%s': %.300s",
		  file, opts, needle, b);
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s '%s': first difference on line %zu:\nperfev: %.400s\nperf:   %.400s",
		       file, opts, line, a + start, b + start);
	free(a);
	free(b);
}

/* The srcline perfev prints for the first frame of
 * std::rt::lang_start_internal in file, and binutils' answer for its
 * address (the last line addr2line -i prints: the call the inlined
 * functions came from), both as "base.rs:LINE". */
static void lang_start_srcline(const char *file, const char *exe)
{
	char pa[128];
	size_t la, lx;

	CHECK_EQ_INT(t_sh("%s script -i %s -F ip,sym,srcline 2>/dev/null | "
			  "awk '$2 == \"std::rt::lang_start_internal\" { ip = $1; getline; print ip; print $1; exit }' "
			  "> %s/ls.txt", t_perfev(), file, dir), 0);
	snprintf(pa, sizeof(pa), "%s/ls.txt", dir);
	char *a = t_slurp(pa, &la);
	char ip[32], got[256];

	if (!a || sscanf(a, "%31s %255s", ip, got) != 2) {
		T_FAIL("%s: no frame of std::rt::lang_start_internal in perfev script: '%s'", file, a ? a : "");
		free(a);
		return;
	}
	/* script prints the file offset; addr2line takes the address, which
	 * LLD puts a page or more further than the offset: the PT_LOAD that
	 * holds the offset converts it (readelf) */
	CHECK_EQ_INT(t_sh("a=$(readelf -lW %s | awk -v ip=%s 'function h(s,  k, v) { s = tolower(s); sub(/^0x/, \"\", s); v = 0; "
			  "for (k = 1; k <= length(s); k++) v = v * 16 + index(\"0123456789abcdef\", substr(s, k, 1)) - 1; "
			  "return v } BEGIN { i = h(ip) } $1 == \"LOAD\" && i >= h($2) && i < h($2) + h($5) "
			  "{ printf \"0x%%x\", i - h($2) + h($3); exit }'); "
			  "test -n \"$a\" && %s -i -e %s $a | tail -1 | sed 's,.*/,,; s/ .*//' > %s/a2l.txt",
			  exe, ip, ADDR2LINE, exe, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a2l.txt", dir);
	char *x = t_slurp(pa, &lx);

	if (x && lx && x[lx - 1] == '\n')
		x[lx - 1] = 0;
	if (!x) {
		T_FAIL("addr2line -i gave nothing for %s", ip);
		free(a);
		return;
	}
	CHECK_MSG(!strncmp(x, "rt.rs:", 6), "addr2line -i's last line for %s is '%s', not rt.rs", ip, x);
	CHECK_MSG(!strcmp(got, x), "srcline of std::rt::lang_start_internal at %s: perfev '%s', addr2line -i '%s'",
		  ip, got, x);
	free(a);
	free(x);
}

int main(void)
{
	const char *rustc = rustc_path();
	char f[192], exe[192];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (access(ADDR2LINE, X_OK))
		T_SKIP("%s is not installed", ADDR2LINE);
	if (!rustc)
		T_SKIP("no rustc (set RUSTC)");
	strcpy(dir, "/tmp/perfev-rsinl-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(f, sizeof(f), "%s/prog.rs", dir);
	FILE *fp = fopen(f, "w");

	if (!fp || fputs(prog, fp) < 0 || fclose(fp))
		T_FATAL("cannot write %s", f);
	if (t_sh("cd %s && %s -O -g -C link-arg=-fuse-ld=bfd -o bfd prog.rs >/dev/null 2>&1", dir, rustc))
		T_SKIP("%s cannot link with GNU ld (-C link-arg=-fuse-ld=bfd) here", rustc);
	CHECK_EQ_INT(t_sh("cd %s && %s -O -g -o lld prog.rs", dir, rustc), 0);
	if (t_sh("%s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o %s/bfd.data -- %s/bfd >/dev/null 2>&1",
		 PERF, dir, dir))
		T_SKIP("perf record --call-graph dwarf cannot sample cpu-clock here");

	/* GNU ld: the whole chains. */
	snprintf(f, sizeof(f), "%s/bfd.data", dir);
	snprintf(exe, sizeof(exe), "%s/bfd", dir);
	same_script(f, "", "std::rt::lang_start_internal::{closure#0}+0x");
	same_script(f, "", "core::ops::function::FnOnce::call_once+0x");
	same_script(f, "-F ip,sym,srcline", "rt.rs:");
	lang_start_srcline(f, exe);

	/* A file perfev records, read by both. */
	CHECK_EQ_INT(t_sh("timeout -k 2 60 %s record -q -e cpu-clock -c 1000000 --call-graph dwarf "
			  "-o %s/w.data -- %s/bfd >/dev/null 2>&1", t_perfev(), dir, dir), 0);
	snprintf(f, sizeof(f), "%s/w.data", dir);
	same_script(f, "-F comm,tid,ip,sym,dso,srcline", "std::rt::lang_start_internal::{closure#0}");

	/* rust-lld: the frames of the sampled addresses, then whole chains. */
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o %s/lld.data -- %s/lld >/dev/null 2>&1",
			  PERF, dir, dir), 0);
	snprintf(f, sizeof(f), "%s/lld.data", dir);
	same_script(f, "--max-stack 1 -F ip,sym,srcline", " (inlined)");
	/* the whole chains, now that LLD's files unwind (lang_rust_dwarf) */
	same_script(f, "", "std::rt::lang_start_internal::{closure#0}+0x");
	same_script(f, "-F ip,sym,srcline", "rt.rs:");
	snprintf(exe, sizeof(exe), "%s/lld", dir);
	lang_start_srcline(f, exe);

	if (t_failures)
		printf("files kept in %s\n", dir);
	else
		t_sh("rm -rf %s", dir);
	return t_done();
}
