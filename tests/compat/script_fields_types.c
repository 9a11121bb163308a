// SPDX-License-Identifier: GPL-2.0-only
/* perfev script -F with fields that are valid for some event types only,
 * and -F given more than once, against perf script 6.1 on files perf
 * records here (tests/helpers/record_work: cpu-clock with -g;
 * sched:sched_switch with cpu-clock):
 *   - 'trace' (a tracepoint's) and 'bpf-output' (a software or tracepoint
 *     event's) in a list for every type are ignored for the other types
 *     with a warning, and the rest prints: stdout byte for byte perf's,
 *     exit 0 (perfev exited 1: "do not have the data for field 'trace'");
 *   - in a list for one type ("sw:comm,trace") they are refused (perf:
 *     129, perfev: 2, the usage code) with nothing printed;
 *   - "-F comm -F +time", "-F comm,tid -F -tid", "-F sw:comm -F +time":
 *     a +field/-field list changes the list set before it (perfev ignored
 *     the second -F). */
#include <errno.h>
#include <sys/mount.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];

static bool have_tracefs(void)
{
	size_t len;
	char *fs = t_slurp("/proc/filesystems", &len);
	bool known = fs && strstr(fs, "\ttracefs\n") != NULL;

	free(fs);
	if (!access("/sys/kernel/tracing/events/sched/sched_switch/id", R_OK))
		return true;
	if (!known)
		return false;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) && errno != EBUSY)
		return false;
	return !access("/sys/kernel/tracing/events/sched/sched_switch/id", R_OK);
}

static char *slurp_in_dir(const char *name, size_t *len)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return t_slurp(p, len);
}

/* both tools with opts on file: same stdout, both exit 0; perfev's
 * stderr holds warn (when given); perf's stdout holds needle */
static void same(const char *file, const char *opts, const char *needle, const char *warn)
{
	int rb = t_sh("%s script -i %s %s > %s/b.txt 2>/dev/null", PERF, file, opts, dir);
	int ra = t_sh("%s script -i %s %s > %s/a.txt 2> %s/a.err", t_perfev(), file, opts, dir, dir);
	size_t la, lb, le, line, start;
	char *a = slurp_in_dir("a.txt", &la), *b = slurp_in_dir("b.txt", &lb);
	char *e = slurp_in_dir("a.err", &le);

	CHECK_MSG(rb == 0, "%s: perf script exited %d", opts, rb);
	CHECK_MSG(ra == 0, "%s: perfev script exited %d: %.300s", opts, ra, e ? e : "");
	if (needle)
		CHECK_MSG(b && strstr(b, needle), "%s: perf's output lacks '%s'", opts, needle);
	if (warn)
		CHECK_MSG(e && strstr(e, warn), "%s: perfev's stderr lacks '%s': %.300s", opts, warn,
			  e ? e : "");
	else
		CHECK_MSG(e && le == 0, "%s: perfev wrote on stderr: %.300s", opts, e ? e : "");
	if (a && b && t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s: first difference on line %zu:\n  perfev: %.300s\n  perf:   %.300s", opts,
		       line, a + start, b + start);
	else if (a && b)
		printf("%s: %zu bytes identical\n", opts, la);
	free(a);
	free(b);
	free(e);
}

/* both refuse opts: perf with its usage code 129, perfev with 2, and
 * neither prints a sample */
static void refused(const char *file, const char *opts, const char *msg)
{
	int rb = t_sh("%s script -i %s %s > %s/b.txt 2>/dev/null", PERF, file, opts, dir);
	int ra = t_sh("%s script -i %s %s > %s/a.txt 2> %s/a.err", t_perfev(), file, opts, dir, dir);
	size_t la, le;
	char *a = slurp_in_dir("a.txt", &la), *e = slurp_in_dir("a.err", &le);

	CHECK_MSG(rb == 129, "%s: perf script exited %d, not 129", opts, rb);
	CHECK_MSG(ra == 2, "%s: perfev script exited %d, not 2", opts, ra);
	CHECK_MSG(a && la == 0, "%s: perfev printed samples", opts);
	CHECK_MSG(e && strstr(e, msg), "%s: perfev's message lacks '%s': %.300s", opts, msg, e ? e : "");
	printf("%s: refused by both\n", opts);
	free(a);
	free(e);
}

int main(void)
{
	char f[128], work[600];
	static const char trace_warn[] = "'trace' not valid for hardware, software,";
	static const char bpf_warn[] = "'bpf-output' not valid for hardware,";

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("%s record -q -e cpu-clock -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record cannot sample cpu-clock here");
	snprintf(work, sizeof(work), "%s/tests/helpers/record_work",
		 getenv("PERFEV_BUILD") && *getenv("PERFEV_BUILD") ? getenv("PERFEV_BUILD") : "build");
	strcpy(dir, "/tmp/perfev-sft-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");

	/* software events only */
	snprintf(f, sizeof(f), "%s/sw.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- %s -m 100 >/dev/null 2>&1",
			  PERF, f, work), 0);
	same(f, "-F comm,tid,time,trace", " record_work ", trace_warn);
	same(f, "-F comm,tid,time,ip,sym,trace", "rw_spin", trace_warn);
	same(f, "-F +trace", "cpu-clock:", trace_warn);
	same(f, "-F -trace", "cpu-clock:", NULL);
	same(f, "-F comm,tid,bpf-output", "rw_spin", bpf_warn);
	same(f, "-F comm -F +time", ".", NULL);
	same(f, "-F comm,tid -F -tid", "record_work", NULL);
	same(f, "-F sw:comm -F +time", ".", NULL);
	same(f, "-F comm,tid,time -F -time,+period", "100000", NULL);
	refused(f, "-F sw:comm,trace", "'trace' not valid for software events");
	refused(f, "-F hw:bpf-output", "'bpf-output' not valid for hardware events");

	/* a tracepoint with a software event */
	if (!have_tracefs()) {
		printf("no tracefs with sched:sched_switch: the tracepoint part is not run\n");
	} else {
		snprintf(f, sizeof(f), "%s/tp.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_switch -e cpu-clock -o %s -- %s "
				  "-m 100 -s >/dev/null 2>&1", PERF, f, work), 0);
		same(f, "-F comm,tid,time,event,trace", "prev_comm=", trace_warn);
		same(f, "-F comm,event,ip,sym,trace", "prev_comm=", trace_warn);
		same(f, "-F trace:comm,trace -F sw:comm,time", "prev_comm=", NULL);
		same(f, "-F event -F +trace", "prev_comm=", trace_warn);
	}
	t_sh("rm -rf %s", dir);
	return t_done();
}
