// SPDX-License-Identifier: GPL-2.0-only
/* perfev record -o - -- CMD wrote the workload's own stdout into the data
 * stream, so `perf report -i -` failed ("failed to process type").  perf
 * 6.1 sends the workload's stdout to stderr in pipe mode: so must we, for
 * -o - and for a FIFO stdout without -o.  In file mode the workload's
 * stdout stays stdout. */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

static char *slurp(const char *name)
{
	char path[128];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return t_slurp(path, &len);
}

static void check_pipe(const char *what, const char *output_opt)
{
	/* The report reads the stream; the workload's line must reach
	 * perfev's stderr, not the stream. */
	int rc = t_sh("{ %s record -q -e cpu-clock %s -- sh -c 'echo hello-from-workload; i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' 2> %s/rec.err; echo $? > %s/rec.rc; } | %s report -i - --stdio > %s/rep.txt 2> %s/rep.err",
		      perfev, output_opt, dir, dir, PERF, dir, dir);
	char *err = slurp("rec.err"), *rep = slurp("rep.txt"), *rerr = slurp("rep.err");
	char *rrc = slurp("rec.rc");

	CHECK_MSG(rrc && !strcmp(rrc, "0\n"), "%s: perfev record exited %s", what, rrc ? rrc : "?");
	CHECK_MSG(rc == 0, "%s: perf report exited %d; it said: %s", what, rc,
		  rerr ? rerr : "");
	free(rrc);
	CHECK_MSG(err && strstr(err, "hello-from-workload\n"),
		  "%s: the workload's stdout is not on stderr: %s", what, err ? err : "");
	CHECK_MSG(rep && strstr(rep, "# Samples: ") && strstr(rep, "of event 'cpu-clock'"),
		  "%s: perf report printed no samples: %.300s", what, rep ? rep : "");
	CHECK_MSG(rep && !strstr(rep, "hello-from-workload"), "%s: the line reached the report", what);
	CHECK_MSG(rerr && !strstr(rerr, "failed to process"), "%s: perf report: %s", what,
		  rerr ? rerr : "");
	printf("%s: ok\n", what);
	free(err);
	free(rep);
	free(rerr);
}

int main(void)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("%s record -q -e cpu-clock -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record cannot sample cpu-clock here");
	if (!realpath(t_perfev(), perfev))
		T_FATAL("no perfev at %s", t_perfev());
	strcpy(dir, "/tmp/perfev-pipeout-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");

	check_pipe("-o -", "-o -");
	check_pipe("stdout a FIFO, no -o", "");

	/* File mode: the workload's stdout is ours. */
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e cpu-clock -o f.data -- sh -c 'echo hello-file' > out.txt 2> err.txt",
			  dir, perfev), 0);
	char *out = slurp("out.txt"), *err = slurp("err.txt");

	CHECK_MSG(out && !strcmp(out, "hello-file\n"), "file mode: stdout holds: %s", out ? out : "");
	CHECK_MSG(err && !strstr(err, "hello-file"), "file mode: the line went to stderr");
	free(out);
	free(err);
	t_sh("rm -rf %s", dir);
	return t_done();
}
