// SPDX-License-Identifier: GPL-2.0-only
/* --symfs DIR that lacks the libraries: perfev names what perf 6.1 names.
 *
 * perf's --symfs DIR moves the build-id cache to DIR/.debug too
 * (symbol__config_symfs), so a library missing under DIR has no symbols
 * and its samples print as addresses.  perfev kept reading ~/.debug, and
 * from its cached `debug` file (a debug-only file: every PT_LOAD with
 * p_offset 0 and p_filesz 0) took the program headers that map file
 * offsets to addresses: libc's and ld.so's samples got the names of
 * functions 0x26000 further on (round_and_return, mbrtoc8,
 * _dl_audit_symbind_alt, tls_get_addr_tail, update_active).  Now the
 * cache is DIR/.debug, a debug-only file never maps offsets, and a cached
 * debug file takes its program headers (and PLT) from the cached `elf`
 * copy, as perf takes its runtime image from there.
 *
 * A program built here spends its time in libc; perf records it (its
 * build-id cache in a HOME of the test's own, which perf record fills:
 * libc's and ld.so's `elf`, and `debug` where the machine has libc6-dbg).
 * With the same HOME, perfev report --sort dso,sym and script equal
 * perf's under:
 *  - a symfs holding the program only (libc and ld.so unresolved);
 *  - the same symfs with DIR/.debug a copy of that cache (libc named from
 *    the cache: its debug file where there is one, else its dynamic
 *    symbols). */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"
#define GCC "/usr/bin/gcc"

static char dir[64];

static const char prog[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"static volatile double sink;\n"
	"int main(void)\n"
	"{ char b[64]; for (int i = 0; i < 300000; i++) {\n"
	"  snprintf(b, sizeof(b), \"%g\", i * 1.37); sink += strtod(b, 0); } return 0; }\n";

/* perfev and perf on file with these options under HOME=dir/h: the same
 * bytes (report's '#' lines left out); perf's output holds each needle. */
static void same(const char *cmd, const char *opts, const char *n1, const char *n2)
{
	const char *strip = strcmp(cmd, "report") ? "cat" : "grep -v '^#' | grep .";
	char pa[128], pb[128];
	size_t la, lb;

	CHECK_EQ_INT(t_sh("HOME=%s/h %s %s -i %s/w.data %s 2>/dev/null | %s > %s/a.txt",
			  dir, t_perfev(), cmd, dir, opts, strip, dir), 0);
	CHECK_EQ_INT(t_sh("HOME=%s/h %s %s -i %s/w.data %s 2>/dev/null | %s > %s/b.txt",
			  dir, PERF, cmd, dir, opts, strip, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(a && b, "no output");
	if (!a || !b)
		return;
	CHECK_MSG(lb > 0 && strstr(b, n1) && (!n2 || strstr(b, n2)),
		  "%s '%s': perf's output lacks '%s' or '%s': %.300s", cmd, opts, n1, n2 ? n2 : "", b);
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s '%s': first difference on line %zu:\nperfev: %.400s\nperf:   %.400s",
		       cmd, opts, line, a + start, b + start);
	free(a);
	free(b);
}

int main(void)
{
	char f[160];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (access(GCC, X_OK))
		T_SKIP("%s is not installed", GCC);
	strcpy(dir, "/tmp/perfev-symfs-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(f, sizeof(f), "%s/w.c", dir);
	FILE *fp = fopen(f, "w");

	if (!fp || fputs(prog, fp) < 0 || fclose(fp))
		T_FATAL("cannot write %s", f);
	CHECK_EQ_INT(t_sh("cd %s && %s -O1 -g -o w w.c && mkdir h", dir, GCC), 0);
	if (t_sh("cd %s && HOME=%s/h %s record -q -e cpu-clock -c 200000 -o w.data ./w >/dev/null 2>&1",
		 dir, dir, PERF))
		T_SKIP("perf record cannot sample cpu-clock here");
	/* perf record filled the cache with libc's copy */
	CHECK_EQ_INT(t_sh("test -n \"$(find %s/h/.debug -path '*libc.so*' -name elf)\"", dir), 0);

	/* A symfs with the program alone. */
	CHECK_EQ_INT(t_sh("cd %s && mkdir -p sf%s && cp w sf%s/", dir, dir, dir), 0);
	snprintf(f, sizeof(f), "--symfs %s/sf --stdio --sort dso,sym", dir);
	same("report", f, "libc.so.6", "[.] 0x0000");
	snprintf(f, sizeof(f), "--symfs %s/sf --stdio --sort sym", dir);
	same("report", f, "[.] main", NULL);
	snprintf(f, sizeof(f), "--symfs %s/sf", dir);
	same("script", f, "libc.so.6", NULL);

	/* The same with the cache copied to DIR/.debug. */
	CHECK_EQ_INT(t_sh("cd %s && cp -a h/.debug sf/.debug", dir), 0);
	snprintf(f, sizeof(f), "--symfs %s/sf --stdio --sort dso,sym", dir);
	same("report", f, "libc.so.6", NULL);
	snprintf(f, sizeof(f), "--symfs %s/sf -F ip,sym,dso", dir);
	same("script", f, "libc.so.6", NULL);

	if (t_failures)
		printf("files kept in %s\n", dir);
	else
		t_sh("rm -rf %s", dir);
	return t_done();
}
