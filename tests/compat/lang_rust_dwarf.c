// SPDX-License-Identifier: GPL-2.0-only
/* Rust programs unwound with --call-graph dwarf: perfev prints the
 * frames perf 6.1 prints, on every linker and layout rustc gives.
 *
 * rustc (1.90 and later on x86_64-linux; 1.95 here) links with its own
 * rust-lld by default.  LLD puts the text in a PT_LOAD whose address is a
 * page further from its file offset than the first segment's
 * (p_offset 0x13110, p_vaddr 0x14110), so map start - pgoff is not the
 * load bias.  perfev looked every CFI up a page off, in another
 * function's rules: chains stopped after the first frame or skipped to a
 * bogus caller (prog::fib+0x31 then main+0x24, or an `e [unknown]`),
 * `main` 10.86% children in perfev's report against perf's 99.32%; the
 * same program linked by GNU ld matched.
 *
 * The program (a recursion and a sort through std's generic code) is
 * built here by rustc -O with the default linker (which must be LLD:
 * when it is not, -C link-arg=-fuse-ld=lld asks for the system's
 * ld.lld) and with GNU ld (-C link-arg=-fuse-ld=bfd), each as a PIE and
 * as a static executable (-C relocation-model=static); readelf checks
 * each has the layout it is built for.  Each is recorded by perf
 * --call-graph dwarf and read by both: `script --no-inline` byte for byte
 * (inline frames are another part's work) and the report lines of main,
 * prog::main, prog::work and prog::fib.  A debug build (rustc -g, no
 * -O) is recorded by perfev record and read by both the same way. */
#include <sys/stat.h>

#include "lang_dwarf.h"

static char dir[64];
static char rustc[256];

static const char prog[] =
	"use std::hint::black_box;\n"
	"#[inline(never)]\n"
	"fn fib(n: u64) -> u64 { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }\n"
	"#[inline(never)]\n"
	"fn work(rounds: u64, sort: bool) -> u64 {\n"
	"    let mut v: Vec<u64> = (0..20000u64).map(|i| i.wrapping_mul(2654435761) % 10007).collect();\n"
	"    let mut t = 0;\n"
	"    for r in 0..rounds {\n"
	"        if sort { v.sort_by(|a, b| (a ^ r).cmp(&(b ^ r))); }\n"
	"        t += fib(black_box(24)) + v[0];\n"
	"    }\n"
	"    t\n"
	"}\n"
	"fn main() {\n"
	"    let n: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(40);\n"
	"    println!(\"{}\", work(n, std::env::args().nth(2).is_none()));\n"
	"}\n";

static const char *const syms[] = { "main", "prog::main", "prog::work", "prog::fib", NULL };

/* rustup's rustc (~/.cargo/bin), else one on PATH; false when none. */
static bool find_rustc(void)
{
	const char *home = getenv("HOME");
	const char *tries[] = { home ? home : "/root", "/root" };

	for (size_t i = 0; i < 2; i++) {
		snprintf(rustc, sizeof(rustc), "%s/.cargo/bin/rustc", tries[i]);
		if (!access(rustc, X_OK) && !t_sh("'%s' --version >/dev/null 2>&1", rustc))
			return true;
	}
	snprintf(rustc, sizeof(rustc), "rustc");
	return !t_sh("rustc --version >/dev/null 2>&1");
}

/* Builds prog.rs into dir/out with flags; checks the layout. */
static bool build(const char *out, const char *flags, bool want_pie, bool want_lld)
{
	char path[128];
	bool pie, split, lld;

	if (t_sh("cd %s && '%s' %s -o %s prog.rs 2>%s.log", dir, rustc, flags, out, out)) {
		T_FAIL("rustc %s failed (see %s/%s.log)", flags, dir, out);
		return false;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, out);
	CHECK_MSG(lang_elf_shape(path, &pie, &split, &lld), "readelf cannot read %s", path);
	printf("%s: rustc %s: %s, %s, text %s\n", out, flags, pie ? "PIE" : "not PIE",
	       lld ? "linked by LLD" : "not linked by LLD",
	       split ? "p_vaddr - p_offset != the first segment's" : "at the first segment's bias");
	CHECK_MSG(pie == want_pie, "%s: expected %s", out, want_pie ? "a PIE" : "no PIE");
	CHECK_MSG(lld == want_lld, "%s: expected %s", out, want_lld ? "LLD" : "GNU ld");
	CHECK_MSG(split == want_lld, "%s: expected the text %s", out,
		  want_lld ? "a page off (LLD's layout)" : "at the first segment's bias");
	return true;
}

/* perfev's script and report on dir/file are perf's, and perf's chains
 * reach prog::work (the recording holds whole stacks). */
static void compare(const char *file)
{
	char *b = lang_script(dir, file, "", "main");
	size_t all, with;

	if (b) {
		lang_chains(b, "prog::work", &all, &with);
		CHECK_MSG(with * 10 >= all * 8, "%s: perf's chains reach prog::work in %zu of %zu samples",
			  file, with, all);
		free(b);
	}
	lang_report(dir, file, syms);
}

/* perf record --call-graph dwarf of dir/out into out.data, compared. */
static void check_perf(const char *out, const char *arg)
{
	char file[128];

	snprintf(file, sizeof(file), "%s.data", out);
	CHECK_EQ_INT(t_sh("cd %s && %s record -q --call-graph dwarf -o %s -- ./%s %s >/dev/null 2>&1",
			  dir, PERF, file, out, arg), 0);
	compare(file);
}

int main(void)
{
	bool pie, split, lld;
	char path[128];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!find_rustc())
		T_SKIP("no rustc (neither ~/.cargo/bin/rustc nor one on PATH)");
	lang_mkdir(dir, sizeof(dir), "rust");
	lang_write(dir, "prog.rs", prog);
	if (t_sh("cd %s && %s record -q --call-graph dwarf -o probe.data -- true >/dev/null 2>&1",
		 dir, PERF))
		T_SKIP("perf record --call-graph dwarf cannot sample here");

	/* rustc's default linker: rust-lld, else the system's ld.lld */
	const char *lld_flags = "-O";
	bool fuse_lld = false;

	if (t_sh("cd %s && '%s' -O -o def prog.rs 2>def.log", dir, rustc))
		T_FATAL("rustc -O failed (see %s/def.log)", dir);
	snprintf(path, sizeof(path), "%s/def", dir);
	lang_elf_shape(path, &pie, &split, &lld);
	if (!lld) {
		printf("rustc's default linker is not LLD here: -C link-arg=-fuse-ld=lld\n");
		if (access("/usr/bin/ld.lld", X_OK))
			T_SKIP("rustc does not link with LLD by default and ld.lld is not installed");
		lld_flags = "-O -C link-arg=-fuse-ld=lld";
		fuse_lld = true;
	}
	char flags[256];

	if (build("lld_pie", lld_flags, true, true))
		check_perf("lld_pie", "150");
	snprintf(flags, sizeof(flags), "%s -C relocation-model=static", lld_flags);
	if (build("lld_static", flags, false, true))
		check_perf("lld_static", "150");
	if (build("bfd_pie", "-O -C link-arg=-fuse-ld=bfd", true, false))
		check_perf("bfd_pie", "150");
	if (build("bfd_static", "-O -C link-arg=-fuse-ld=bfd -C relocation-model=static", false, false))
		check_perf("bfd_static", "150");

	/* a debug build, recorded by perfev */
	if (build("lld_debug", fuse_lld ? "-g -C link-arg=-fuse-ld=lld" : "-g", true, true)) {
		CHECK_EQ_INT(t_sh("cd %s && %s record -q --call-graph dwarf -o dbg.data -- ./lld_debug 150 fib >/dev/null 2>&1",
				  dir, lang_perfev()), 0);
		compare("dbg.data");
	}
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_done();
}
