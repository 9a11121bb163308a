// SPDX-License-Identifier: GPL-2.0-only
/* perfev evlist against perf evlist 6.1: the same lines, byte for byte,
 * with each option and their combinations (-v, -F, -g, --trace-fields),
 * on files perf recorded (several software events, a group
 * {task-clock,page-faults} and a named one, a tracepoint, -F 999 against
 * -c 10000, a pipe stream, also a FIFO still being written, a directory
 * from perf record --threads) and on a file perfev recorded; the tip line
 * names perfev's command where perf's names perf's.  Bad input: a missing,
 * empty or non-perf file is one error line and exit 1; a file cut in its
 * data section prints what perf prints, then a warning and exit 3; usage
 * errors (-g with -v or -F, an extra argument, an unknown option) exit 2;
 * a full disk on stdout is one error line and exit 1. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

/* PRE perfev evlist ARGS against PRE perf evlist ARGS (the tip's "perf
 * evlist" read as "perfev evlist"): the same bytes, both exit 0. */
static void same_pre(const char *pre, const char *args)
{
	char pa[128], pb[128];
	size_t la, lb;
	int ra = t_sh("cd %s && %s %s evlist %s > a.txt 2> a.err", dir, pre, perfev, args);
	int rb = t_sh("cd %s && %s %s evlist %s 2>/dev/null > b0.txt", dir, pre, PERF, args);

	t_sh("sed 's/^# Tip: use .perf evlist /# Tip: use '\\''perfev evlist /' %s/b0.txt > %s/b.txt", dir, dir);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(ra == 0 && rb == 0, "%s evlist %s: exit %d (perf %d)", pre, args, ra, rb);
	CHECK_MSG(a && b && lb > 0, "%s evlist %s: perf printed nothing", pre, args);
	if (a && b)
		CHECK_MSG(la == lb && !memcmp(a, b, la), "%s evlist %s differs:\n-- perfev:\n%s-- perf:\n%s",
			  pre, args, a, b);
	free(a);
	free(b);
}

static void same(const char *args)
{
	same_pre("", args);
}

/* perfev evlist FILE OPTS against perf's for each of opts (NULL-ended). */
static void same_each(const char *file, const char *const *opts)
{
	char args[256];

	for (size_t i = 0; opts[i]; i++) {
		snprintf(args, sizeof(args), "%s %s", file, opts[i]);
		same(args);
	}
}

/* perfev evlist ARGS exits rc with one "perfev: error:" line naming what
 * (for rc 3 one warning; for rc 2 the usage may follow). */
static void bad(const char *args, int rc, const char *what)
{
	char p[128];
	size_t l;
	int r = t_sh("cd %s && %s evlist %s > a.txt 2> a.err", dir, perfev, args);

	snprintf(p, sizeof(p), "%s/a.err", dir);
	char *e = t_slurp(p, &l);

	CHECK_MSG(r == rc, "evlist %s: exit %d, expected %d (stderr: %s)", args, r, rc, e ? e : "");
	if (e) {
		size_t lines = 0;

		for (size_t i = 0; i < l; i++)
			lines += e[i] == '\n';
		CHECK_MSG((lines == 1 || rc == 2) && strstr(e, what) &&
			  !strncmp(e, rc == 3 ? "perfev: warning: " : "perfev: error: ", rc == 3 ? 17 : 15),
			  "evlist %s: expected one line naming '%s', got:\n%s", args, what, e);
	}
	free(e);
}

int main(void)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	snprintf(dir, sizeof(dir), "/tmp/pev-evlist-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	/* perf: a group, a tracepoint and a :u event at -F 999; a named
	 * group at -c 10000; a pipe stream.  perfev: a group, a tracepoint
	 * and a :u event at -c 10000. */
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 30 %s record -q -F 999 -o pf.data "
			  "-e '{task-clock,page-faults}' -e sched:sched_switch -e cpu-clock:u -- /bin/true "
			  "> /dev/null 2>&1", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 30 %s record -q -c 10000 -o pc.data "
			  "-e task-clock -e 'g1{cpu-clock,page-faults}' -- /bin/true > /dev/null 2>&1",
			  dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 30 %s record -q --threads -o dir.data "
			  "-e '{task-clock,page-faults}' -- /bin/true > /dev/null 2>&1", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 30 %s record -q -o - -e task-clock,page-faults "
			  "-- /bin/true > pipe.data 2>/dev/null", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 30 %s record -q -c 10000 -o v.data "
			  "-e '{task-clock,page-faults}' -e sched:sched_switch -e cpu-clock:u -- /bin/true "
			  "> /dev/null 2>&1", dir, dir, perfev), 0);
	if (t_failures)
		return 1;
	/* every option and the combinations perf accepts on the file with
	 * a group and a tracepoint; the rest on the others (few runs: the
	 * test also runs under valgrind) */
	same_each("-i pf.data", (const char *const[]){ "", "-v", "-F", "-g", "--trace-fields", "-v -F",
		  "-v --trace-fields", "-F --trace-fields", "-g --trace-fields", NULL });
	same_each("-i pc.data", (const char *const[]){ "", "-v", "-F", "-g", NULL });
	same_each("-i v.data", (const char *const[]){ "-v", "-g", "-F --trace-fields", NULL });
	/* a pipe without tracepoints, groups or modifiers: there perf 6.1
	 * names events from their attrs ("unknown tracepoint",
	 * "page-faults:uH"), shows no group, and perfev the recorded names
	 * and groups */
	same_each("-i - < pipe.data", (const char *const[]){ "-v", "-g", NULL });
	same("-i dir.data -v");		/* a directory (perf record --threads) */
	same("-i dir.data -g");
	same_pre("cat pipe.data |", "");	/* a pipe on stdin is read without -i */
	/* A stream still being written (a FIFO whose writer waits after the
	 * first records): read up to its first kernel record, as perf does,
	 * not to its end (which never comes before the writer is killed). */
	t_sh("cd %s && %s evlist -v -i pipe.data > live0.txt 2>/dev/null", dir, PERF);
	CHECK_MSG(t_sh("cd %s && mkfifo live && { (cat pipe.data; exec sleep 60) > live & echo $! > w.pid; } && "
		       "timeout 20 %s evlist -v -i live > live.txt; r=$?; kill $(cat w.pid); exit $r",
		       dir, perfev) == 0, "evlist -i FIFO did not end while its writer was still running");
	CHECK_MSG(t_sh("cd %s && cmp -s live.txt live0.txt && test -s live0.txt", dir) == 0,
		  "evlist -i FIFO: not perf's output on the whole stream");
	same("-f -i pf.data");
	t_sh("cd %s && cp pc.data perf.data", dir);
	same("");			/* ./perf.data by default */

	/* A file cut in its data section (perf 6.1 reads one without
	 * tracepoints; 100 bytes after the section's start, from
	 * the header's data.offset): what perf prints, then a warning naming
	 * the file, exit 3. */
	t_sh("cd %s && head -c $(($(od -An -t u8 -j 40 -N 8 pc.data) + 100)) pc.data > cut.data", dir);
	t_sh("cd %s && %s evlist -i cut.data -v > cb.txt 2>/dev/null && %s evlist -i cut.data -v > ca.txt 2>/dev/null; "
	     "echo $? > ca.rc", dir, PERF, perfev);
	CHECK_EQ_INT(t_sh("cd %s && cmp -s ca.txt cb.txt && test -s cb.txt && test $(cat ca.rc) = 3", dir), 0);
	bad("-i cut.data", 3, "'cut.data' is cut short");
	bad("-i none.data", 1, "'none.data': no such file");
	t_sh("cd %s && : > empty.data && head -c 5000 /etc/services > text.data", dir);
	bad("-i empty.data", 1, "'empty.data'");
	bad("-i text.data", 1, "'text.data'");
	/* a full disk on stdout: one line (main's last flush said it again) */
	char full[128];
	size_t fl;

	snprintf(full, sizeof(full), "%s/full.err", dir);
	CHECK_EQ_INT(t_sh("cd %s && %s evlist -v -i pf.data > /dev/full 2> full.err", dir, perfev), 1);
	char *fe = t_slurp(full, &fl);

	CHECK_MSG(fe && !strcmp(fe, "perfev: error: cannot write the output: No space left on device\n"),
		  "evlist > /dev/full: expected one error line, got:\n%s", fe ? fe : "");
	free(fe);
	bad("-g -v -i pf.data", 2, "-g/--group");
	bad("-g -F -i pf.data", 2, "-g/--group");
	bad("-i pf.data extra", 2, "'extra'");
	bad("--bogus", 2, "bogus");
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	else
		printf("kept %s\n", dir);
	return t_failures ? 1 : 0;
}
