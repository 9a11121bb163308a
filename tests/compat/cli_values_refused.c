// SPDX-License-Identifier: GPL-2.0-only
/* Option values that were accepted but meant nothing, checked on the
 * command line with perf 6.1 beside:
 * - perfev record -c 0 (perf silently samples at 4000 Hz instead), -c
 *   with garbage, -c and -F together (perf: "cannot set frequency and
 *   period at the same time"): exit 2 with one error line, no file;
 * - perfev record -C/-p/-t with lists that cannot be parsed: exit 2
 *   (perf prints its usage), not 1 as a target that failed;
 * - perfev record -m 3: rounded up to 4 pages with perf's notice;
 * - perfev script -F with an empty field ("ip,sym,,,", which perf skips)
 *   or no field at all (perf: "Cannot set fields to 'none'"): exit 2;
 *   "sw:" prints nothing for software events, as perf does; a second
 *   plain -F warns that it overrides the first (perf: "Overriding previous
 *   field request"); --max-stack -5 is a usage error, a --kallsyms file
 *   that cannot be read an error (perf: "Invalid file"). */
#include <sys/stat.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];
static char bin[4096];	/* perfev, absolute: the commands cd into dir */

/* perfev ARGS (a shell fragment, run in dir); its exit code, its stderr
 * in err. */
static int perfev(char *err, size_t size, const char *args)
{
	char p[128];
	size_t len;
	int rc = t_sh("cd %s && %s %s > out.txt 2> err.txt", dir, bin, args);

	snprintf(p, sizeof(p), "%s/err.txt", dir);
	char *e = t_slurp(p, &len);

	snprintf(err, size, "%s", e);
	free(e);
	return rc;
}

/* Exit 2 and one line "perfev: error: ...msg...". */
static void refused(const char *args, const char *msg)
{
	char err[2048];
	int rc = perfev(err, sizeof(err), args);
	const char *nl = strchr(err, '\n');

	CHECK_MSG(rc == 2 && !strncmp(err, "perfev: error: ", 15) && strstr(err, msg) &&
		  nl && !nl[1], "'%s': exit %d, stderr: %s", args, rc, err);
}

static void refused_F(const char *fields, const char *file, const char *msg)
{
	char args[512];

	snprintf(args, sizeof(args), "script -F '%s' -i %s", fields, file);
	refused(args, msg);
}

int main(void)
{
	char err[2048], f[128];
	struct stat st;

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!realpath(t_perfev(), bin))
		T_FATAL("no perfev binary at %s", t_perfev());
	strcpy(dir, "/tmp/perfev-vals-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(f, sizeof(f), "%s/c.data", dir);
	if (t_sh("%s record -q -e cpu-clock -c 100000 -o %s -- sh -c "
		 "'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1", PERF, f))
		T_SKIP("perf record cannot sample cpu-clock here");

	/* perf's own answers, so that a perf that changed is noticed. */
	CHECK_EQ_INT(t_sh("%s record -c 5 -F 100 -e cpu-clock -o %s/p.data -- true 2>%s/perf.err",
			  PERF, dir, dir), 234);
	CHECK_EQ_INT(t_sh("grep -q 'cannot set frequency and period at the same time' %s/perf.err",
			  dir), 0);

#define REC(opts) "record -e cpu-clock " opts " -o r.data -- true"
	refused(REC("-c 0"), "invalid period '0'");
	refused(REC("-c abc"), "invalid period 'abc'");
	refused(REC("-c -5"), "invalid period '-5'");
	refused(REC("-c 99999999999999999999999"), "invalid period");
	refused(REC("-c 5 -F 100"), "'-c' and '-F' exclude each other");
	refused(REC("-F 100 -c 5"), "'-c' and '-F' exclude each other");
	refused(REC("-F max -c 5"), "'-c' and '-F' exclude each other");
	refused(REC("-F 0"), "invalid frequency '0'");
	refused(REC("-m 0"), "invalid mmap size '0'");
	refused(REC("--mmap-pages abc"), "invalid mmap size 'abc'");
	/* Lists that cannot be parsed: usage errors (perf prints its usage
	 * for -C abc and -t abc), not targets that fail later (exit 1). */
	refused(REC("-C abc"), "invalid CPU list 'abc'");
	refused(REC("-C 1-0"), "invalid CPU list '1-0'");
	refused("record -e cpu-clock -p abc -o r.data", "invalid pid list 'abc'");
	refused("record -e cpu-clock -p 1,,2 -o r.data", "invalid pid list '1,,2'");
	refused("record -e cpu-clock -t 0 -o r.data", "invalid tid list '0'");
	CHECK_MSG(t_sh("test -e %s/r.data", dir) != 0, "a refused command wrote r.data");

	/* -m 3: perf's "rounding mmap pages size to 16K (4 pages)". */
	CHECK_EQ_INT(t_sh("%s record -e cpu-clock -m 3 -o %s/p.data -- true 2>%s/perf.err >/dev/null",
			  PERF, dir, dir), 0);
	CHECK_EQ_INT(perfev(err, sizeof(err), "record -e cpu-clock -m 3 -o m.data -- true"), 0);
	char want[128], *pe;
	size_t len;

	snprintf(want, sizeof(want), "%s/perf.err", dir);
	pe = t_slurp(want, &len);
	char *line = strstr(pe, "rounding mmap pages size to ");

	CHECK_MSG(line, "perf: %s", pe);
	if (line) {
		line[strcspn(line, "\n")] = 0;
		CHECK_MSG(strstr(err, line), "perfev: %s, perf: %s", err, line);
	}
	free(pe);
	snprintf(want, sizeof(want), "%s/m.data", dir);
	CHECK(stat(want, &st) == 0 && st.st_size > 0);

	/* script -F */
	char args[512];

	refused_F("ip,sym,,,", f, "empty field in -F 'ip,sym,,,'");
	refused_F("ip,,sym", f, "empty field");
	refused_F(",ip", f, "empty field");
	refused_F("sw:ip,sym,", f, "empty field");
	refused_F("+", f, "empty field");
	refused_F("", f, "gives no field");
	CHECK_EQ_INT(t_sh("%s script -F '' -i %s >/dev/null 2>&1", PERF, f), 129);
	/* "sw:": no line for software events, in both. */
	CHECK_EQ_INT(t_sh("%s script -F sw: -i %s > %s/b.txt 2>/dev/null", PERF, f, dir), 0);
	snprintf(args, sizeof(args), "script -F sw: -i %s", f);
	CHECK_EQ_INT(perfev(err, sizeof(err), args), 0);
	CHECK_EQ_INT(t_sh("cmp -s %s/b.txt %s/out.txt", dir, dir), 0);
	CHECK_EQ_INT(t_sh("test -s %s/b.txt", dir), 1);
	/* A second plain -F replaces the first, with a warning as perf's
	 * "Overriding previous field request for all events." */
	CHECK_EQ_INT(t_sh("%s script -F comm -F ip -i %s 2>&1 >/dev/null | "
			  "grep -q 'Overriding previous field request for all events'", PERF, f), 0);
	snprintf(args, sizeof(args), "script -F comm -F ip -i %s", f);
	CHECK_EQ_INT(perfev(err, sizeof(err), args), 0);
	CHECK_MSG(!strncmp(err, "perfev: warning: ", 17) && strstr(err, "overrides the previous -F"),
		  "stderr: %s", err);
	/* --max-stack below 0 (perf: "expects an unsigned numerical value"),
	 * a kallsyms file that cannot be read (perf: "Invalid file"). */
	CHECK_EQ_INT(t_sh("%s script --max-stack -5 -i %s >/dev/null 2>&1", PERF, f), 129);
	snprintf(args, sizeof(args), "script --max-stack -5 -i %s", f);
	refused(args, "invalid --max-stack -5");
	CHECK(t_sh("%s script --kallsyms %s/none -i %s >/dev/null 2>&1", PERF, dir, f) != 0);
	snprintf(args, sizeof(args), "script --kallsyms none -i %s", f);
	CHECK_EQ_INT(perfev(err, sizeof(err), args), 1);
	CHECK_MSG(strstr(err, "perfev: error: cannot read the kallsyms file 'none'"), "%s", err);
	/* Good lists still work, and print what perf prints. */
	CHECK_EQ_INT(t_sh("%s script -F comm,tid,period -i %s > %s/b.txt 2>/dev/null", PERF, f, dir), 0);
	snprintf(args, sizeof(args), "script -F comm,tid,period -i %s", f);
	CHECK_EQ_INT(perfev(err, sizeof(err), args), 0);
	CHECK_EQ_INT(t_sh("cmp -s %s/b.txt %s/out.txt && test -s %s/b.txt", dir, dir, dir), 0);
	t_sh("rm -rf %s", dir);
	return t_done();
}
