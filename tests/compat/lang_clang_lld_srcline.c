// SPDX-License-Identifier: GPL-2.0-only
/* srclines of programs built by clang and linked by LLD, as perf 6.1
 * prints them.
 *
 * clang writes no .debug_aranges, and libdw 0.188's dwarf_addrdie finds
 * a unit through nothing else, so perfev found no line in any clang unit:
 * report --sort srcline printed "??:0" where perf (binutils' addr2line,
 * which falls back to each unit's own DW_AT_low_pc/high_pc or
 * DW_AT_ranges) prints "rec.c:3", and script -F +srcline printed no line.
 *
 * Built here with clang -O1 -g -fno-omit-frame-pointer -fuse-ld=lld (DWARF
 * 5: .debug_addr, .debug_rnglists, DW_FORM_strx, file 0 in the line
 * table; LLD's text segment at another file offset than its address): a
 * PIE program and a shared library it calls (with an inlined helper),
 * and the program linked -no-pie; recorded by perf -g and by perfev -g:
 * report --no-children --sort srcline (and srcline,sym, srcfile),
 * report --children --sort srcline,sym (chain entries looked up at the
 * sampled address plus .text's address - offset, as perf 6.1) and script
 * -F +srcline equal perf's. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];

static const char lib_c[] =
	"static inline unsigned long mix(unsigned long x) { return x * 2654435761u ^ (x >> 7); }\n"
	"__attribute__((noinline)) unsigned long libwork(unsigned long n)\n"
	"{ unsigned long s = 0; for (unsigned long i = 0; i < n; i++) s += mix(i + s); return s; }\n";

static const char rec_c[] =
	"extern unsigned long libwork(unsigned long);\n"
	"static volatile unsigned long sink, arg = 24;\n"
	"__attribute__((noinline)) unsigned long rec(unsigned long n)\n"
	"{ return n < 2 ? n : rec(n - 1) + rec(n - 2); }\n"
	"int main(void)\n"
	"{ for (int i = 0; i < 150; i++) { sink += rec(arg); sink += libwork(150000); } return 0; }\n";

static void write_file(const char *name, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		T_FATAL("cannot write %s", path);
}

/* The same bytes from perfev and perf for one command on file (perf's
 * '#' lines left out of report); perf's output holds needle. */
static void same(const char *file, const char *cmd, const char *opts, const char *needle)
{
	const char *strip = strcmp(cmd, "report") ? "cat" : "grep -v '^#' | grep .";
	char pa[128], pb[128];
	size_t la, lb;

	CHECK_EQ_INT(t_sh("%s %s -i %s %s 2>/dev/null | %s > %s/a.txt", t_perfev(), cmd, file, opts, strip, dir), 0);
	CHECK_EQ_INT(t_sh("%s %s -i %s %s 2>/dev/null | %s > %s/b.txt", PERF, cmd, file, opts, strip, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(a && b, "no output");
	if (!a || !b)
		return;
	CHECK_MSG(lb > 0 && strstr(b, needle), "%s %s '%s': perf's output lacks '%s': %.300s",
		  file, cmd, opts, needle, b);
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s %s '%s': first difference on line %zu:\nperfev: %.400s\nperf:   %.400s",
		       file, cmd, opts, line, a + start, b + start);
	free(a);
	free(b);
}

static void compare(const char *data)
{
	char f[128];

	snprintf(f, sizeof(f), "%s/%s", dir, data);
	same(f, "report", "--stdio --no-children --sort srcline", "rec.c:4");
	same(f, "report", "--stdio --no-children --sort srcline,sym", "lib.c:");
	same(f, "report", "--stdio --no-children --sort srcfile", "rec.c");
	/* children: perf looks a chain entry up at map__rip_2objdump() of
	 * its sampled address, which adds .text's address - offset (LLD's
	 * page, -no-pie's base): "rec+OFF" from there */
	same(f, "report", "--stdio --children --sort srcline,sym -g none", "rec+");
	same(f, "script", "-F +srcline", "rec.c:4");
	same(f, "script", "-F ip,sym,dso,srcline", "lib.c:");
}

int main(void)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("command -v clang >/dev/null && command -v ld.lld >/dev/null"))
		T_SKIP("clang or ld.lld is not installed");
	strcpy(dir, "/tmp/perfev-lldsl-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	write_file("lib.c", lib_c);
	write_file("rec.c", rec_c);
	const char *cf = "clang -O1 -g -fno-omit-frame-pointer -fuse-ld=lld";

	if (t_sh("cd %s && %s -shared -fPIC -o libw.so lib.c", dir, cf))
		T_SKIP("clang -fuse-ld=lld cannot link here");
	CHECK_EQ_INT(t_sh("cd %s && %s -o rec rec.c -L. -lw -Wl,-rpath,%s", dir, cf, dir), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s -no-pie -o rec_np rec.c -L. -lw -Wl,-rpath,%s", dir, cf, dir), 0);
	/* LLD's layout: the text segment's address is not its file offset */
	CHECK_EQ_INT(t_sh("readelf -lW %s/rec | awk '$1 == \"LOAD\" && / E / { o = $2; v = $3; sub(/^0x0*/, \"\", o); sub(/^0x0*/, \"\", v); if (o != v) f = 1 } END { exit !f }'",
			  dir), 0);
	if (t_sh("%s record -q -e cpu-clock -c 1000000 -g -o %s/perf.data -- %s/rec >/dev/null 2>&1",
		 PERF, dir, dir))
		T_SKIP("perf record cannot sample cpu-clock here");
	compare("perf.data");
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -c 1000000 -g -o %s/np.data -- %s/rec_np >/dev/null 2>&1",
			  PERF, dir, dir), 0);
	compare("np.data");
	CHECK_EQ_INT(t_sh("timeout -k 2 60 %s record -q -e cpu-clock -c 1000000 -g -o %s/pev.data -- %s/rec >/dev/null 2>&1",
			  t_perfev(), dir, dir), 0);
	compare("pev.data");

	if (t_failures)
		printf("files kept in %s\n", dir);
	else
		t_sh("rm -rf %s", dir);
	return t_done();
}
