// SPDX-License-Identifier: GPL-2.0-only
/* C programs built by clang and linked by LLD (clang -fuse-ld=lld),
 * unwound with --call-graph dwarf: perfev prints the frames perf 6.1
 * prints.
 *
 * LLD starts the text's PT_LOAD a page further in memory than in the
 * file (a small program: the text at file offset 0x680, address 0x1680,
 * mapped from offset 0 at load base + 0x1000), so map start - pgoff is
 * not the load bias; perfev looked the CFI up a page off and lost the
 * callers: no sample reached main, where perf's all do.
 *
 * Built here with clang -O1 -g (no frame pointer) -fuse-ld=lld, as a
 * PIE and with -no-pie, calling into a shared library LLD links too (its
 * text split the same way) and through libc's qsort back into the
 * program; readelf checks each has LLD's layout.  Recorded by perf
 * --call-graph dwarf and by perfev record, each read by both: `script
 * --no-inline` byte for byte and the report lines of main, work,
 * lib_rec and by_key. */
#include "lang_dwarf.h"

#define CLANG "/usr/bin/clang"
#define LLD "/usr/bin/ld.lld"

static char dir[64];

static const char prog[] =
	"#include <stdlib.h>\n"
	"long lib_rec(long d, long n);\n"
	"static volatile long sink;\n"
	"__attribute__((noinline)) static int by_key(const void *a, const void *b)\n"
	"{ long x = *(const long *)a % 1009, y = *(const long *)b % 1009; sink++; return (x > y) - (x < y); }\n"
	"__attribute__((noinline)) long work(long rounds)\n"
	"{ static long v[4096]; long t = 0;\n"
	"  for (long r = 0; r < rounds; r++) {\n"
	"    for (long i = 0; i < 4096; i++) v[i] = (i * 2654435761L) ^ r;\n"
	"    qsort(v, 4096, sizeof(v[0]), by_key);\n"
	"    t += lib_rec(20, 300000) + v[0]; }\n"
	"  return t; }\n"
	"int main(int argc, char **argv)\n"
	"{ return (int)(work(argc > 1 ? atol(argv[1]) : 10) & 1); }\n";

static const char lib[] =
	"static volatile long lsink;\n"
	"__attribute__((noinline)) long lib_rec(long d, long n)\n"
	"{ if (d) return lib_rec(d - 1, n) + 1;\n"
	"  for (long i = 0; i < n; i++) lsink += i; return lsink; }\n";

static const char *const syms[] = { "main", "work", "lib_rec", "by_key", NULL };

/* Builds the library and dir/out with flags, LLD's layout checked. */
static bool build(const char *out, const char *flags, bool want_pie)
{
	char path[128];
	bool pie, split, lld;

	if (t_sh("cd %s && %s -O1 -g -fPIC -shared -fuse-ld=lld -o libw.so w.c 2>lib.log && "
		 "%s -O1 -g -fuse-ld=lld %s -o %s p.c -L. -lw -Wl,-rpath,%s 2>%s.log",
		 dir, CLANG, CLANG, flags, out, dir, out)) {
		T_FAIL("clang -fuse-ld=lld %s failed (see %s/%s.log)", flags, dir, out);
		return false;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, out);
	CHECK_MSG(lang_elf_shape(path, &pie, &split, &lld), "readelf cannot read %s", path);
	printf("%s: clang -fuse-ld=lld %s: %s, %s, text %s\n", out, flags, pie ? "PIE" : "not PIE",
	       lld ? "linked by LLD" : "not linked by LLD",
	       split ? "p_vaddr - p_offset != the first segment's" : "at the first segment's bias");
	CHECK_MSG(pie == want_pie, "%s: expected %s", out, want_pie ? "a PIE" : "no PIE");
	CHECK_MSG(lld && split, "%s: expected LLD's layout", out);
	snprintf(path, sizeof(path), "%s/libw.so", dir);
	CHECK_MSG(lang_elf_shape(path, &pie, &split, &lld) && lld && split,
		  "libw.so: expected LLD's layout");
	return true;
}

/* perfev's script and report on dir/file are perf's, and perf's chains
 * reach main (the recording holds whole stacks). */
static void compare(const char *file)
{
	char *b = lang_script(dir, file, "", "main");
	size_t all, with;

	if (b) {
		lang_chains(b, "main", &all, &with);
		CHECK_MSG(with * 10 >= all * 8, "%s: perf's chains reach main in %zu of %zu samples",
			  file, with, all);
		lang_chains(b, "lib_rec", &all, &with);
		CHECK_MSG(with * 10 >= all, "%s: perf's chains reach lib_rec in %zu of %zu samples",
			  file, with, all);
		free(b);
	}
	lang_report(dir, file, syms);
}

static void check(const char *out, const char *flags, bool want_pie)
{
	char file[128];

	if (!build(out, flags, want_pie))
		return;
	snprintf(file, sizeof(file), "%s.data", out);
	CHECK_EQ_INT(t_sh("cd %s && %s record -q --call-graph dwarf -o %s -- ./%s 60 >/dev/null 2>&1",
			  dir, PERF, file, out), 0);
	compare(file);
	snprintf(file, sizeof(file), "%s.pev.data", out);
	CHECK_EQ_INT(t_sh("cd %s && %s record -q --call-graph dwarf -o %s -- ./%s 60 >/dev/null 2>&1",
			  dir, lang_perfev(), file, out), 0);
	compare(file);
}

int main(void)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (access(CLANG, X_OK))
		T_SKIP("%s is not installed", CLANG);
	if (access(LLD, X_OK))
		T_SKIP("%s is not installed (Debian: lld)", LLD);
	lang_mkdir(dir, sizeof(dir), "clang-lld");
	lang_write(dir, "p.c", prog);
	lang_write(dir, "w.c", lib);
	if (t_sh("cd %s && %s record -q --call-graph dwarf -o probe.data -- true >/dev/null 2>&1",
		 dir, PERF))
		T_SKIP("perf record --call-graph dwarf cannot sample here");
	check("pie", "", true);
	check("nopie", "-no-pie", false);
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_done();
}
