// SPDX-License-Identifier: GPL-2.0-only
/* perfev inject -i FILE -o OUT without --jit copies the recording, as perf
 * 6.1's inject does (it used to refuse any input but a pipe stream):
 * perf script and perf report read OUT as they read FILE and as they read
 * perf inject's own output of FILE; a perf.data directory (perf record
 * --threads) is copied into one file perf reads alike; -o - writes a pipe
 * stream perf script reads the same. */
#include <limits.h>

#include "report_cmp.h"

/* perf CMD on a and on b prints the same (perf's random tip cut). */
static void perf_same(const char *what, const char *cmd, const char *a, const char *b)
{
	size_t la, lb, line, start;
	char pa[200], pb[200];

	CHECK_EQ_INT(t_sh("cd %s && %s %s -i %s 2>/dev/null | grep -v '^# (Tip' > out.a", dir, PERF, cmd, a), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s %s -i %s 2>/dev/null | grep -v '^# (Tip' > out.b", dir, PERF, cmd, b), 0);
	snprintf(pa, sizeof(pa), "%s/out.a", dir);
	snprintf(pb, sizeof(pb), "%s/out.b", dir);
	char *x = t_slurp(pa, &la), *y = t_slurp(pb, &lb);

	CHECK_MSG(lb > 100, "%s: perf %s -i %s printed little", what, cmd, b);
	if (x && y && t_first_diff(x, la, y, lb, &line, &start))
		T_FAIL("%s: perf %s: %s and %s differ on line %zu:\n%.200s\n%.200s", what, cmd, a, b,
		       line, x + start, y + start);
	free(x);
	free(y);
}

int main(void)
{
	char w[512];
	const char *bd = getenv("PERFEV_BUILD");

	report_cmp_start("/tmp/perfev-inject-file-XXXXXX", true);
	(void)report_cmp_write;
	snprintf(w, sizeof(w), "%s/examples/workload", bd && *bd ? bd : "build");
	if (access(w, X_OK))
		T_SKIP("%s was not built", w);
	char *wa = realpath(w, NULL), *pa = realpath(perfev, NULL);	/* the cases cd */

	if (!wa || !pa)
		T_FATAL("realpath: %s", strerror(errno));
	snprintf(w, sizeof(w), "%s", wa);
	snprintf(perfev, sizeof(perfev), "%s", pa);
	free(wa);
	free(pa);
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -g -e cpu-clock -o in.data -- %s -q -t 2 -l 20000000 "
			  "> /dev/null 2>&1", dir, PERF, w), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s inject -i in.data -o perf.out > /dev/null 2>&1", dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s inject -i in.data -o pev.out", dir, perfev), 0);
	perf_same("file", "script", "in.data", "pev.out");
	perf_same("file", "script", "perf.out", "pev.out");
	perf_same("file", "report --stdio", "perf.out", "pev.out");
	perf_same("file", "report --stdio --no-children --sort comm,dso,sym", "in.data", "pev.out");

	/* to a pipe stream */
	CHECK_EQ_INT(t_sh("cd %s && %s inject -i in.data -o - > pev.stream", dir, perfev), 0);
	perf_same("stream", "script", "in.data", "pev.stream");

	/* a directory */
	if (t_sh("cd %s && %s record --threads -q -g -e cpu-clock -o in.dir -- %s -q -t 2 -l 20000000 "
		 "> /dev/null 2>&1", dir, PERF, w) == 0) {
		CHECK_EQ_INT(t_sh("cd %s && %s inject -i in.dir -o dir.out", dir, perfev), 0);
		perf_same("directory", "script", "in.dir", "dir.out");
		perf_same("directory", "report --stdio --no-children", "in.dir", "dir.out");
	} else {
		printf("note: perf record --threads failed; the directory case is left out\n");
	}
	return report_cmp_end();
}
