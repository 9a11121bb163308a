// SPDX-License-Identifier: GPL-2.0-only
/* perfev script against perf script 6.1 (the oracle): the same files
 * (recorded by /usr/bin/perf in file, pipe and -z mode; callchains,
 * tracepoints, switch events) must print byte for byte the same default
 * output, side-band lines and -F selections; -D names every record; bad
 * files fail cleanly with exit 1. */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include <perfev/perfev.h>

#define PERF "/usr/bin/perf"

static char dir[64];
static char perfev[4096], helper[4096];

/* Runs both tools with the same arguments (and stdin) and compares. */
static void same_output(const char *what, const char *args, const char *input)
{
	char in[4200] = "";
	size_t la, lb;

	if (input)
		snprintf(in, sizeof(in), "< %s", input);
	int ra = t_sh("%s script %s %s > %s/a.txt 2> %s/a.err", perfev, args, in, dir, dir);
	int rb = t_sh("%s script %s %s > %s/b.txt 2> %s/b.err", PERF, args, in, dir, dir);
	char pa[128], pb[128];

	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(ra == 0, "%s: perfev script exited %d", what, ra);
	CHECK_MSG(rb == 0, "%s: perf script exited %d", what, rb);
	CHECK_MSG(lb > 0, "%s: perf printed nothing", what);
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start)) {
		T_FAIL("%s: output differs at line %zu:\n  perfev: %.150s\n  perf:   %.150s",
		       what, line, a + start, b + start);
	}
	printf("%s: %zu bytes identical\n", what, la);
	free(a);
	free(b);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_dump(const char *file)
{
	char err[256], path[128];
	struct pev_data *d = pev_data_open(file, NULL, err, sizeof(err));
	struct pev_data_event ev;
	size_t nrec = 0, nsample = 0, len;

	CHECK(d);
	while (d && pev_data_next(d, &ev) > 0) {
		nrec++;
		nsample += ev.rec.type == PERF_RECORD_SAMPLE;
	}
	pev_data_close(d);
	CHECK_EQ_INT(t_sh("%s script -D -i %s > %s/d.txt", perfev, file, dir), 0);
	snprintf(path, sizeof(path), "%s/d.txt", dir);
	char *t = t_slurp(path, &len);

	CHECK_EQ_U64(count(t, "]: event: "), nrec);
	CHECK_EQ_U64(count(t, "PERF_RECORD_SAMPLE("), nsample);
	CHECK(count(t, "PERF_RECORD_MMAP2 ") > 0);
	CHECK(count(t, "PERF_RECORD_COMM") > 0);
	CHECK(count(t, "PERF_RECORD_FINISHED_ROUND") > 0);
	CHECK(count(t, ". ... raw event: size ") == nrec);
	printf("-D: %zu records, %zu samples\n", nrec, nsample);
	free(t);
}

static void test_bad_files(const char *good)
{
	char path[128], errp[128];
	size_t len;

	/* Not a perf.data file at all. */
	snprintf(path, sizeof(path), "%s/garbage.data", dir);
	CHECK_EQ_INT(t_sh("head -c 4096 /dev/urandom > %s", path), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s > /dev/null 2> %s/e.txt", perfev, path, dir), 1);
	snprintf(errp, sizeof(errp), "%s/e.txt", dir);
	char *e = t_slurp(errp, &len);

	CHECK_MSG(!strncmp(e, "perfev: error: ", 15) && strstr(e, "garbage.data"),
		  "message: %s", e);
	free(e);
	/* A missing file. */
	CHECK_EQ_INT(t_sh("%s script -i %s/none.data > /dev/null 2> %s/e.txt", perfev, dir, dir), 1);
	e = t_slurp(errp, &len);
	CHECK_MSG(strstr(e, "cannot open") && strstr(e, "none.data"), "message: %s", e);
	free(e);
	/* A record in the data section claiming size 0: framing error. */
	char err[256];
	struct pev_data *d = pev_data_open(good, NULL, err, sizeof(err));
	uint64_t off = d ? pev_data_data_offset(d) : 0;

	pev_data_close(d);
	snprintf(path, sizeof(path), "%s/broken.data", dir);
	CHECK_EQ_INT(t_sh("cp %s %s", good, path), 0);
	int fd = open(path, O_WRONLY);
	uint16_t zero = 0;

	/* The 40th record or so: walk a few records from the data start. */
	CHECK(fd >= 0 && pwrite(fd, &zero, 2, (off_t)off + 6) == 2);
	close(fd);
	int rc = t_sh("%s script -i %s > /dev/null 2> %s/e.txt", perfev, path, dir);

	CHECK_EQ_INT(rc, 1);
	e = t_slurp(errp, &len);
	CHECK_MSG(!strncmp(e, "perfev: error: ", 15), "message: %s", e);
	free(e);
	/* Unknown -F field: usage error. */
	CHECK_EQ_INT(t_sh("%s script -i %s -F comm,bogus > /dev/null 2>&1", perfev, good), 2);
	/* A field the samples lack: error, like perf. */
	CHECK_EQ_INT(t_sh("%s script -i %s -F comm,addr > /dev/null 2>&1", perfev, good), 1);
}

int main(void)
{
	const char *b = getenv("PERFEV_BUILD");
	char tracefs[256];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("%s record -q -e cpu-clock -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record cannot sample cpu-clock here");
	snprintf(perfev, sizeof(perfev), "%s", getenv("PERFEV") ? getenv("PERFEV") : "build/perfev");
	snprintf(helper, sizeof(helper), "%s/tests/helpers/script_deep", b ? b : "build");
	if (access(helper, X_OK))
		T_FATAL("helper %s is missing", helper);
	strcpy(dir, "/tmp/perfev-script-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");

	/* File mode, callchains. */
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 2000 -g -o %s/f.data -- %s 300 8 2 > /dev/null 2>&1",
			PERF, dir, helper), 0);
	char args[512];

	snprintf(args, sizeof(args), "-i %s/f.data", dir);
	same_output("file -g", args, NULL);
	snprintf(args, sizeof(args), "-i %s/f.data --show-task-events --show-mmap-events", dir);
	same_output("file --show-task/mmap-events", args, NULL);
	snprintf(args, sizeof(args), "-i %s/f.data -F comm,pid,tid,time,ip,sym,dso", dir);
	same_output("file -F comm,pid,tid,time,ip,sym,dso", args, NULL);
	snprintf(args, sizeof(args), "-i %s/f.data -F -period -G", dir);
	same_output("file -F -period -G", args, NULL);
	snprintf(args, sizeof(args), "-i %s/f.data -F +pid --ns", dir);
	same_output("file -F +pid --ns", args, NULL);

	/* Two events: perf's synthesized records carry sample_id id 0,
	 * which belongs to the first event. */
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock,task-clock -F 2000 -g -o %s/m.data -- %s 150 4 2 > /dev/null 2>&1",
			PERF, dir, helper), 0);
	snprintf(args, sizeof(args), "-i %s/m.data --show-task-events --show-mmap-events", dir);
	same_output("two events, synthesized records", args, NULL);

	/* Pipe mode, read with -i -. */
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 2000 -g -o - -- %s 200 6 > %s/p.data 2>/dev/null",
			PERF, helper, dir), 0);
	char in[128];

	snprintf(in, sizeof(in), "%s/p.data", dir);
	same_output("pipe -i -", "-i -", in);

	/* zstd-compressed records. */
	CHECK_EQ_INT(t_sh("%s record -q -z -e cpu-clock -F 2000 -g -o %s/z.data -- %s 200 6 > /dev/null 2>&1",
			PERF, dir, helper), 0);
	snprintf(args, sizeof(args), "-i %s/z.data --show-task-events", dir);
	same_output("-z", args, NULL);

	/* Context switches of the workload, with CPUs.  (Not -a: other
	 * processes' C++ symbols would be printed mangled; see README.) */
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 1000 --sample-cpu -g --switch-events -o %s/s.data -- %s 150 4 2 > /dev/null 2>&1",
			PERF, dir, helper), 0);
	snprintf(args, sizeof(args), "-i %s/s.data --show-switch-events --show-task-events --show-lost-events", dir);
	same_output("switch events", args, NULL);

	/* Tracepoints, fields printed through libtraceevent. */
	if (pev_tracefs_find(tracefs, sizeof(tracefs), true) < 0) {
		printf("tracepoint part skipped: no tracefs\n");
	} else {
		CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_switch -a -o %s/t.data -- sleep 0.2 > /dev/null 2>&1",
				PERF, dir), 0);
		snprintf(args, sizeof(args), "-i %s/t.data", dir);
		same_output("sched:sched_switch", args, NULL);
		size_t len;
		char pa[128];

		snprintf(pa, sizeof(pa), "%s/a.txt", dir);
		char *t = t_slurp(pa, &len);

		CHECK(strstr(t, "sched:sched_switch: prev_comm=") && strstr(t, " ==> next_comm="));
		free(t);
	}

	char f[128];

	snprintf(f, sizeof(f), "%s/f.data", dir);
	test_dump(f);
	test_bad_files(f);
	t_sh("rm -rf %s", dir);
	return t_done();
}
