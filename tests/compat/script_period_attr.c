// SPDX-License-Identifier: GPL-2.0-only
/* A file recorded with -c (no PERIOD in the samples): perf script prints
 * the attr's period in its default output and for -F period; perfev
 * script dropped the column and refused -F period.  Both tools read a
 * file perf record writes; perfev script must print what perf prints. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];

static void same_output(const char *file, const char *fields)
{
	char pa[128], pb[128];
	size_t la, lb;

	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/a.txt 2>/dev/null", t_perfev(), file,
			  fields, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/b.txt 2>/dev/null", PERF, file,
			  fields, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(lb > 0 && strstr(b, " 100000 "), "perf script: %.300s", b);
	CHECK_MSG(la == lb && !memcmp(a, b, la), "'%s':\nperfev:\n%.400s\nperf:\n%.400s",
		  fields, a, b);
	free(a);
	free(b);
}

int main(void)
{
	char f[128];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	strcpy(dir, "/tmp/perfev-cper-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(f, sizeof(f), "%s/c.data", dir);
	if (t_sh("%s record -q -e cpu-clock -c 100000 -o %s -- sh -c "
		 "'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' >/dev/null 2>&1", PERF, f))
		T_SKIP("perf record cannot sample cpu-clock here");
	same_output(f, "-F comm,tid,period");
	same_output(f, "-F comm,tid,time,period,event");
	t_sh("rm -rf %s", dir);
	return t_done();
}
