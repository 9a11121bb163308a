// SPDX-License-Identifier: GPL-2.0-only
/* perf.data directories (perf record --threads writes DIR/data with the
 * header, attrs, features and the side-band records, and one DIR/data.N
 * of records per reader thread): perfev's readers take the directory as
 * perf's do.  perf records the workload's two threads with -g, and the
 * whole machine with -a -g -z (compressed, one file per CPU); perfev
 * report (several modes, --header-only), script (default and -F with the
 * call chains) and buildid-list -H must print what perf prints on the same
 * directory.  Before, every reader refused it ("Is a directory"). */
#include "report_cmp.h"

static void same_cmd(const char *what, const char *cmd, const char *opts)
{
	size_t la, lb, line, start;
	char pa[128], pb[128];

	CHECK_EQ_INT(t_sh("%s %s %s > %s/a.txt 2>%s/a.err", perfev, cmd, opts, dir, dir), 0);
	CHECK_EQ_INT(t_sh("%s %s %s > %s/b.txt 2>/dev/null", PERF, cmd, opts, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(lb > 0, "%s: perf %s %s printed nothing", what, cmd, opts);
	if (a && b && t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s: %s %s: first difference on line %zu:\nperfev: %.200s\nperf:   %.200s",
		       what, cmd, opts, line, a + start, b + start);
	free(a);
	free(b);
}

/* How many DIR/data.N files hold records (from ls, not from perfev). */
static int nonempty_parts(const char *d)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "find %s -name 'data.[0-9]*' -size +0 | wc -l", d);
	FILE *p = popen(cmd, "r");
	int n = -1;

	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

static void check_dir(const char *what, const char *d, int min_parts, const char *fields)
{
	char in[300];
	static const char *const modes[] = {
		"", "--no-children", "--sort dso,sym -g none", "--sort pid,comm", "-n --sort cpu",
		"--header-only", NULL,
	};

	int parts = nonempty_parts(d);
	CHECK_MSG(parts >= min_parts, "%s: %d data.N files hold records, expected %d or more",
		  what, parts, min_parts);
	for (const char *const *m = modes; *m; m++)
		same_report(what, d, *m);
	snprintf(in, sizeof(in), "-i %s", d);
	same_cmd(what, "script", in);
	snprintf(in, sizeof(in), "-i %s -F %s", d, fields);
	same_cmd(what, "script", in);
	snprintf(in, sizeof(in), "-H -i %s", d);
	same_cmd(what, "buildid-list", in);
}

int main(void)
{
	char d1[128], d2[128], w[512];
	const char *b = getenv("PERFEV_BUILD");

	report_cmp_start("/tmp/perfev-data-dir-XXXXXX", true);
	(void)report_cmp_write;
	snprintf(w, sizeof(w), "%s/examples/workload", b && *b ? b : "build");
	if (access(w, X_OK))
		T_SKIP("%s was not built", w);
	snprintf(d1, sizeof(d1), "%s/probe", dir);
	if (t_sh("%s record --threads -q -e cpu-clock -o %s -- true > /dev/null 2>&1", PERF, d1))
		T_SKIP("perf record --threads does not work here");
	snprintf(d1, sizeof(d1), "%s/threads.dir", dir);
	CHECK_EQ_INT(t_sh("%s record --threads -q -g -e cpu-clock -o %s -- %s -q -t 2 -l 30000000 "
			  "> /dev/null 2>&1", PERF, d1, w), 0);
	check_dir("workload, 2 threads, -g", d1, 1, "comm,tid,time,event,ip,sym,dso");

	snprintf(d2, sizeof(d2), "%s/system.dir", dir);
	if (t_sh("%s record --threads -q -z -a -g -e cpu-clock -o %s -- %s -q -t 2 -l 30000000 "
		 "> /dev/null 2>&1", PERF, d2, w) == 0) {
		check_dir("-a -g -z", d2, 2, "comm,tid,cpu,time,event,ip,sym,dso");
	} else {
		printf("note: perf record -z -a failed (no zstd?); the compressed case is left out\n");
	}
	return report_cmp_end();
}
