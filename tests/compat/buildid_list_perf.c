// SPDX-License-Identifier: GPL-2.0-only
/* perfev buildid-list against perf buildid-list 6.1: the same lines, byte
 * for byte, with and without -H, on files recorded by perf (a program
 * with JIT code in a perf map, whose hit map has no build id and shows as
 * blanks under -H; /bin/true, whose vDSO is in the header but never hit)
 * and on a pipe; -k prints the running kernel's id, -m its maps; usage errors exit 2,
 * a missing file 1. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

static void same(const char *what, const char *pre, const char *args)
{
	char pa[128], pb[128];
	size_t la, lb;

	int ra = t_sh("cd %s && %s HOME=%s %s buildid-list %s > a.txt 2>/dev/null", dir, pre, dir, perfev, args);
	/* perf names a vDSO it read from a pipe after the temporary file it
	 * wrote it to (/tmp/perf-vdso.so-XXXXXX, gone by then): perfev says
	 * [vdso]. */
	int rb = t_sh("cd %s && %s HOME=%s %s buildid-list %s > b0.txt 2>/dev/null", dir, pre, dir, PERF, args);

	t_sh("sed 's|/tmp/perf-vdso.so-[A-Za-z0-9]*$|[vdso]|' %s/b0.txt > %s/b.txt", dir, dir);

	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(ra == 0 && rb == 0, "%s: exit %d (perf %d)", what, ra, rb);
	CHECK_MSG(lb > 0, "%s: perf printed nothing", what);
	CHECK_MSG(la == lb && !memcmp(a, b, la), "%s differs:\n-- perfev:\n%s-- perf:\n%s", what, a, b);
	printf("%s: %zu bytes identical\n", what, la);
	free(a);
	free(b);
}

int main(void)
{
	const char *bd = getenv("PERFEV_BUILD");
	char build[4096], helper[4200];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!realpath(t_perfev(), perfev) || !realpath(bd ? bd : "build", build))
		T_FATAL("perfev binary %s is missing", t_perfev());
	snprintf(helper, sizeof(helper), "%s/tests/helpers/jit_sled", build);
	snprintf(dir, sizeof(dir), "/tmp/pev-bidl-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	CHECK_EQ_INT(t_sh("cd %s && printf '+0 2000 the_sled\\n' > map.txt && HOME=%s timeout -k 2 60 %s record -q "
			  "-e task-clock -o jit.data -- %s map.txt 400 > /dev/null 2>&1", dir, dir, PERF, helper), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 60 %s record -q -e task-clock -o true.data -- /bin/true "
			  "> /dev/null 2>&1", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 60 %s record -q -e task-clock -o - -- %s map.txt 300 "
			  "> pipe.data 2>/dev/null", dir, dir, PERF, helper), 0);
	same("jit", "", "-i jit.data");
	same("jit -H", "", "-i jit.data -H");
	same("true", "", "-i true.data");
	same("true --with-hits", "", "--with-hits -i true.data");
	same("pipe", "", "-i - < pipe.data");
	same("pipe -H", "", "-H -i - < pipe.data");
	same("pipe on stdin", "cat pipe.data |", "");
	same("-k", "", "-k");
	same("-m", "", "-m");
	CHECK_EQ_INT(t_sh("cd %s && %s buildid-list --bogus > /dev/null 2>&1", dir, perfev), 2);
	CHECK_EQ_INT(t_sh("cd %s && %s buildid-list extra > /dev/null 2>&1", dir, perfev), 2);
	CHECK_EQ_INT(t_sh("cd %s && %s buildid-list -i none.data > /dev/null 2>&1", dir, perfev), 1);
	/* The JIT's map files. */
	t_sh("for f in %s/jit.data; do %s script -i $f -F pid 2>/dev/null | sort -u | "
	     "while read p; do rm -f /tmp/perf-$p.map; done; done", dir, PERF);
	t_sh("%s script -i - -F pid < %s/pipe.data 2>/dev/null | sort -u | while read p; do rm -f /tmp/perf-$p.map; done",
	     PERF, dir);
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
