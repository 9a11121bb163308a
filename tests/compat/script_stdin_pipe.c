// SPDX-License-Identifier: GPL-2.0-only
/* perfev script without -i reads the pipe on its stdin, as perf script
 * does (perf's check_pipe: no -i and a FIFO on stdin means "-"):
 * `perf record -o - CMD | perfev script` used to print an unrelated
 * ./perf.data instead.  In a directory holding a perf.data of another
 * event (task-clock), the piped cpu-clock stream must be printed, byte for
 * byte as perf script prints it; stdin redirected from a regular file, and
 * an explicit -i, still read the file, as in perf. */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];
static char bin[4096];	/* perfev, absolute: the commands cd into dir */

static char *slurp_in_dir(const char *name)
{
	char p[128];
	size_t len;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return t_slurp(p, &len);
}

/* a.txt against b.txt; both non-empty, identical, of `event`. */
static void same(const char *what, const char *event, const char *other)
{
	char *a = slurp_in_dir("a.txt"), *b = slurp_in_dir("b.txt");

	CHECK_MSG(*b && strstr(b, event) && !strstr(b, other), "%s: perf printed:\n%.300s",
		  what, b);
	CHECK_MSG(!strcmp(a, b), "%s:\nperfev:\n%.300s\nperf:\n%.300s", what, a, b);
	free(a);
	free(b);
}

int main(void)
{
	const char *work = "sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'";

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!realpath(t_perfev(), bin))
		T_FATAL("no perfev binary at %s", t_perfev());
	strcpy(dir, "/tmp/perfev-stdin-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	if (t_sh("cd %s && %s record -q -e task-clock -F 1000 -o perf.data -- %s >/dev/null 2>&1",
		 dir, PERF, work))
		T_SKIP("perf record cannot sample task-clock here");

	/* The pipe: tee keeps a copy for perf script to read afterwards. */
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e cpu-clock -F 1000 -o - -- %s 2>/dev/null | "
			  "tee p.data | %s script -F comm,tid,time,event,ip > a.txt 2>a.err",
			  dir, PERF, work, bin), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s script -F comm,tid,time,event,ip -i - < p.data > b.txt 2>/dev/null",
			  dir, PERF), 0);
	same("perf record -o - | perfev script", "cpu-clock:", "task-clock:");

	/* A pipe from a file, through cat: a FIFO too. */
	CHECK_EQ_INT(t_sh("cd %s && cat p.data | %s script -F comm,tid,time,event,ip > a.txt 2>a.err",
			  dir, bin), 0);
	same("cat p.data | perfev script", "cpu-clock:", "task-clock:");

	/* A regular file on stdin is not a pipe: ./perf.data, in both. */
	CHECK_EQ_INT(t_sh("cd %s && %s script -F comm,tid,time,event,ip < p.data > a.txt 2>a.err",
			  dir, bin), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s script -F comm,tid,time,event,ip < p.data > b.txt 2>/dev/null",
			  dir, PERF), 0);
	same("perfev script < p.data", "task-clock:", "cpu-clock:");

	/* -i names the input, whatever stdin is. */
	CHECK_EQ_INT(t_sh("cd %s && cat p.data | %s script -i perf.data -F comm,tid,time,event,ip "
			  "> a.txt 2>a.err", dir, bin), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s script -i perf.data -F comm,tid,time,event,ip > b.txt 2>/dev/null",
			  dir, PERF), 0);
	same("cat p.data | perfev script -i perf.data", "task-clock:", "cpu-clock:");
	t_sh("rm -rf %s", dir);
	return t_done();
}
