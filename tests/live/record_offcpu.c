// SPDX-License-Identifier: GPL-2.0-only
/* perfev record --off-cpu (off-CPU time from sched:sched_switch and the
 * switch records, no BPF), read back by perf 6.1 itself and by perfev:
 * - a workload that sleeps 200 ms five times in oc_sleep_200ms: perf
 *   script finds five offcpu-time samples on that function's stack,
 *   together 1 s (+-5%; on a machine so loaded that the workload's own
 *   clock saw more, within 5% of what it saw), no more than the workload's own clock saw in its
 *   nanosleep calls and at most 2% less; perf report gives the same
 *   period to the function; perfev script and perfev report give exactly
 *   perf's numbers; the same five with --all-user;
 * - two threads (oc_wait_a: 4 x 100 ms, oc_wait_b: 3 x 200 ms), with -g:
 *   each function's samples are all of its thread (the tid the workload
 *   printed), 0.4 s and 0.6 s (+-5%);
 * - system-wide (-a, with kernel threads that have no user stack: perfev
 *   stopped with "cannot write ... Cannot allocate memory"): the same 1 s,
 *   and perf report reads the file without an out-of-order warning;
 * - -p of the running two-thread workload: each thread's samples on its
 *   function (perfev's side band made each thread a process, and perf left
 *   some threads' frames unresolved);
 * - no tracefs (a private mount namespace without it, and no
 *   CAP_SYS_ADMIN to mount one): exit 1 and one error line that says so
 *   and gives the mount command. */
#include <sys/stat.h>
#include <sys/wait.h>

#include "offcpu_util.h"

static char dir[64];

static char *slurp_in_dir(const char *name)
{
	char p[128];
	size_t len;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	char *s = t_slurp(p, &len);

	return s ? s : strdup("");
}

/* `tool script` of file into name; its text. */
static char *script(const char *tool, const char *file, const char *name)
{
	CHECK_EQ_INT(t_sh("%s script " OC_FIELDS " -i %s/%s > %s/%s 2>/dev/null",
			  tool, dir, file, dir, name), 0);
	return slurp_in_dir(name);
}

/* The period `tool report` gives fn in the offcpu-time section. */
static uint64_t report_period(const char *tool, const char *file, const char *fn)
{
	CHECK_EQ_INT(t_sh("%s report -i %s/%s --stdio --no-children -g none --sort sym "
			  "-F period,sym > %s/rep.txt 2>/dev/null", tool, dir, file, dir), 0);
	char *t = slurp_in_dir("rep.txt");
	const char *sec = strstr(t, "of event 'offcpu-time'");
	unsigned long long v = 0;

	for (const char *p = sec; p && *p; p++) {
		const char *eol = strchr(p, '\n');

		if (!strncmp(p, "# Samples:", 10))
			break;	/* the next event's section */
		const char *hit = strstr(p, fn);

		if (hit && (!eol || hit < eol) && sscanf(p, " %llu", &v) == 1)
			break;
		if (!eol)
			break;
		p = eol;
	}
	free(t);
	return v;
}

static void one_thread(void)
{
	struct oc_sum a = { .fn = "oc_sleep_200ms" }, b = a;
	long tid;
	uint64_t slept;

	CHECK_EQ_INT(t_sh("%s record -q --off-cpu -o %s/one.data -- %s > %s/one.out",
			  t_perfev(), dir, oc_work(), dir), 0);
	char *out = slurp_in_dir("one.out");

	if (oc_slept(out, a.fn, &tid, &slept) < 0)
		T_FATAL("the workload printed no 'slept' line: %s", out);
	char *pt = script(OC_PERF, "one.data", "perf.txt");
	char *et = script(t_perfev(), "one.data", "perfev.txt");

	oc_parse(pt, &a, 1);
	oc_parse(et, &b, 1);
	printf("one thread: perf script %u samples, %llu ns on %s; the workload slept %llu ns\n",
	       a.samples, (unsigned long long)a.ns, a.fn, (unsigned long long)slept);
	CHECK_EQ_INT(a.samples, 5);
	CHECK_MSG(oc_expected(a.ns, 1000000000, slept), "off-CPU %llu ns, not 1 s +-5%%",
		  (unsigned long long)a.ns);
	CHECK_MSG(a.ns <= slept && oc_near(a.ns, slept, 2),
		  "off-CPU %llu ns, the workload's nanosleeps %llu ns",
		  (unsigned long long)a.ns, (unsigned long long)slept);
	CHECK_EQ_INT(a.tid, tid);
	CHECK_MSG(b.ns == a.ns && b.samples == a.samples && b.tid == a.tid,
		  "perfev script: %u samples %llu ns tid %ld; perf script: %u %llu %ld",
		  b.samples, (unsigned long long)b.ns, b.tid, a.samples,
		  (unsigned long long)a.ns, a.tid);
	uint64_t rp = report_period(OC_PERF, "one.data", a.fn);
	uint64_t re = report_period(t_perfev(), "one.data", a.fn);

	printf("perf report: %llu, perfev report: %llu\n", (unsigned long long)rp,
	       (unsigned long long)re);
	CHECK_MSG(rp == a.ns, "perf report %llu, perf script %llu", (unsigned long long)rp,
		  (unsigned long long)a.ns);
	CHECK_MSG(re == rp, "perfev report %llu, perf report %llu", (unsigned long long)re,
		  (unsigned long long)rp);
	free(out);
	free(pt);
	free(et);

	/* --all-user excludes the kernel from every event but the tracepoint
	 * (it fires in the kernel: excluded, it gave no offcpu-time at all) */
	CHECK_EQ_INT(t_sh("%s record -q --off-cpu --all-user -o %s/au.data -- %s > %s/au.out",
			  t_perfev(), dir, oc_work(), dir), 0);
	pt = script(OC_PERF, "au.data", "perf5.txt");
	oc_parse(pt, &a, 1);
	printf("--all-user: %u samples on %s\n", a.samples, a.fn);
	CHECK_EQ_INT(a.samples, 5);
	free(pt);
}

static void two_threads(void)
{
	struct oc_sum s[2] = { { .fn = "oc_wait_a" }, { .fn = "oc_wait_b" } }, e[2];
	const uint64_t want[2] = { 400000000, 600000000 };
	const unsigned nr[2] = { 4, 3 };

	CHECK_EQ_INT(t_sh("%s record -q --off-cpu -g -o %s/two.data -- %s -t > %s/two.out",
			  t_perfev(), dir, oc_work(), dir), 0);
	char *out = slurp_in_dir("two.out");
	char *pt = script(OC_PERF, "two.data", "perf2.txt");
	char *et = script(t_perfev(), "two.data", "perfev2.txt");

	memcpy(e, s, sizeof(e));
	oc_parse(pt, s, 2);
	oc_parse(et, e, 2);
	for (int i = 0; i < 2; i++) {
		long tid;
		uint64_t slept;

		if (oc_slept(out, s[i].fn, &tid, &slept) < 0)
			T_FATAL("no 'slept' line for %s: %s", s[i].fn, out);
		printf("%s: tid %ld, %u samples, %llu ns (slept %llu)\n", s[i].fn, s[i].tid,
		       s[i].samples, (unsigned long long)s[i].ns, (unsigned long long)slept);
		CHECK_EQ_INT(s[i].samples, nr[i]);
		CHECK_EQ_INT(s[i].tid, tid);
		CHECK_MSG(oc_expected(s[i].ns, want[i], slept), "%s: %llu ns, not %llu +-5%%", s[i].fn,
			  (unsigned long long)s[i].ns, (unsigned long long)want[i]);
		CHECK_MSG(s[i].ns <= slept, "%s: %llu ns off CPU, slept %llu", s[i].fn,
			  (unsigned long long)s[i].ns, (unsigned long long)slept);
		CHECK_MSG(e[i].ns == s[i].ns && e[i].tid == s[i].tid,
			  "%s: perfev script %llu ns tid %ld", s[i].fn,
			  (unsigned long long)e[i].ns, e[i].tid);
	}
	CHECK(s[0].tid != s[1].tid);
	free(out);
	free(pt);
	free(et);
}

/* -a: every task's switches, kernel threads (no user stack) among them. */
static void system_wide(void)
{
	struct oc_sum a = { .fn = "oc_sleep_200ms" };
	long tid = 0;
	uint64_t slept = 0;

	CHECK_EQ_INT(t_sh("%s record -q --off-cpu -a -o %s/all.data -- %s > %s/all.out",
			  t_perfev(), dir, oc_work(), dir), 0);
	char *out = slurp_in_dir("all.out");
	char *pt = script(OC_PERF, "all.data", "perf3.txt");

	oc_parse(pt, &a, 1);
	printf("-a: %u samples, %llu ns on %s\n", a.samples, (unsigned long long)a.ns, a.fn);
	CHECK(oc_slept(out, a.fn, &tid, &slept) == 0 && a.tid == tid);
	CHECK_EQ_INT(a.samples, 5);
	CHECK_MSG(oc_expected(a.ns, 1000000000, slept), "-a: off-CPU %llu ns, not 1 s +-5%%",
		  (unsigned long long)a.ns);
	/* the samples are written in time order as perf's rounds need them:
	 * perf warns of none out of order (it would: "N out of order events") */
	CHECK_EQ_INT(t_sh("%s report -i %s/all.data --stdio > /dev/null 2> %s/all.err",
			  OC_PERF, dir, dir), 0);
	char *err = slurp_in_dir("all.err");

	CHECK_MSG(!strstr(err, "out of order") && !strstr(err, "rror"), "perf report: %s", err);
	free(err);
	free(out);
	free(pt);
}

/* -p of the running two-thread workload: each thread's samples resolve
 * to its function (perfev synthesized every thread of the process as a
 * process of its own, so perf could not resolve some threads' frames). */
static void attach(void)
{
	struct oc_sum s[2] = { { .fn = "oc_wait_a" }, { .fn = "oc_wait_b" } };
	char path[128];

	snprintf(path, sizeof(path), "%s/p.out", dir);
	fflush(stdout);
	pid_t pid = fork();

	if (pid == 0) {
		if (!freopen(path, "w", stdout))
			_exit(1);
		execl(oc_work(), oc_work(), "-t", "4", (char *)NULL);
		_exit(127);
	}
	t_sleep_ms(50);		/* its threads are there, sleeping 1.6 and 2.4 s */
	CHECK_EQ_INT(t_sh("%s record -q --off-cpu -p %d -o %s/p.data > /dev/null",
			  t_perfev(), (int)pid, dir), 0);
	waitpid(pid, NULL, 0);
	char *out = slurp_in_dir("p.out");
	char *pt = script(OC_PERF, "p.data", "perf4.txt");

	oc_parse(pt, s, 2);
	for (int i = 0; i < 2; i++) {
		long tid = 0;
		uint64_t slept;

		CHECK(oc_slept(out, s[i].fn, &tid, &slept) == 0);
		printf("-p: %s: tid %ld, %u samples, %llu ns\n", s[i].fn, s[i].tid, s[i].samples,
		       (unsigned long long)s[i].ns);
		/* the recording starts late (the process runs already) */
		CHECK_MSG(s[i].samples >= 3 && s[i].tid == tid,
			  "-p: %s: %u samples of tid %ld (the thread is %ld)", s[i].fn,
			  s[i].samples, s[i].tid, tid);
	}
	free(out);
	free(pt);
}

static void no_tracefs(void)
{
	if (access("/usr/bin/unshare", X_OK) || access("/usr/bin/setpriv", X_OK)) {
		printf("no tracefs: skipped, unshare or setpriv is missing\n");
		return;
	}
	/* exit 3 from the shell: tracefs is still there (probe) */
	int rc = t_sh("unshare -m sh -c 'umount -l /sys/kernel/tracing 2>/dev/null; "
		      "umount -l /sys/kernel/debug 2>/dev/null; "
		      "grep -q \" tracefs \" /proc/self/mounts && exit 3; "
		      "exec setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin -- "
		      "%s record --off-cpu -o %s/none.data true' > %s/none.out 2> %s/none.err",
		      t_perfev(), dir, dir, dir);
	char *err = slurp_in_dir("none.err");

	if (rc == 3) {
		printf("no tracefs: skipped, it could not be unmounted in a private namespace\n");
		free(err);
		return;
	}
	printf("no tracefs: exit %d: %s", rc, err);
	CHECK_EQ_INT(rc, 1);
	CHECK_MSG(!strncmp(err, "perfev: error: --off-cpu needs the tracepoint "
			   "'sched:sched_switch', but tracefs is not mounted", 75) &&
		  strstr(err, "'mount -t tracefs nodev /sys/kernel/tracing'") &&
		  strchr(err, '\n') == err + strlen(err) - 1, "the error: %s", err);
	CHECK_MSG(access("/sys/kernel/tracing/events", F_OK) == 0,
		  "tracefs is gone outside the namespace");
	free(err);
}

int main(void)
{
	if (access(OC_PERF, X_OK))
		T_SKIP("%s is not installed", OC_PERF);
	if (access("/sys/kernel/tracing/events/sched/sched_switch/id", R_OK) &&
	    access("/sys/kernel/debug/tracing/events/sched/sched_switch/id", R_OK))
		T_SKIP("no readable sched:sched_switch in tracefs");
	strcpy(dir, "/tmp/perfev-offcpu-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	one_thread();
	two_threads();
	system_wide();
	attach();
	no_tracefs();
	t_sh("rm -rf %s", dir);
	return t_done();
}
