// SPDX-License-Identifier: GPL-2.0-only
/* perfev script on tracepoint samples with call chains, as perf 6.1 prints
 * them (perfev printed the tracepoint line alone, its comm padded to 16,
 * and no call chain): when a tracepoint event of the file has call chains,
 * perf adds ip, sym, symoff and dso to the tracepoint fields and prints
 * the chain under each sample.  Files recorded by perf itself (alone and
 * with a second event), read with and without -G (no chain: back to the
 * plain line), and perfev's --off-cpu file (tracepoint samples without
 * RAW, so without fields).  A bpf-output event whose samples have no RAW
 * (perf's and perfev's offcpu-time) still ends with perf's empty
 * "BPF output" line (perfev printed nothing). */
#include <errno.h>
#include <sys/mount.h>

#include "../live/record_util.h"

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
		T_SKIP("tracefs is not mounted and cannot be mounted: %s", strerror(errno));
	return !access("/sys/kernel/tracing/events/sched/sched_switch/id", R_OK);
}

static char *slurp_in_dir(const char *name)
{
	char p[128];
	size_t len;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return t_slurp(p, &len);
}

static void same_script(const char *what, const char *file, const char *opts)
{
	int rb = t_sh("%s script %s -i %s > %s/b.txt 2>/dev/null", PERF, opts, file, dir);
	int ra = t_sh("%s script %s -i %s > %s/a.txt 2>&1", t_perfev(), opts, file, dir);
	char *a = slurp_in_dir("a.txt"), *b = slurp_in_dir("b.txt");

	CHECK_EQ_INT(rb, 0);
	CHECK_EQ_INT(ra, 0);
	if (a && b && strcmp(a, b)) {
		size_t i = 0, start = 0;

		while (a[i] && a[i] == b[i])
			if (a[i++] == '\n')
				start = i;
		T_FAIL("%s: perfev script differs:\n  perfev: %.300s\n  perf:   %.300s",
		       what, a + start, b + start);
	} else if (a && b) {
		printf("%s: same %zu bytes as perf script\n", what, strlen(b));
	}
	free(a);
	free(b);
}

int main(void)
{
	char f[128], work[600];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!have_tracefs())
		T_SKIP("this kernel has no tracefs (/proc/filesystems)");
	snprintf(work, sizeof(work), "%s/tests/helpers/offcpu_work",
		 getenv("PERFEV_BUILD") && *getenv("PERFEV_BUILD") ? getenv("PERFEV_BUILD") : "build");
	strcpy(dir, "/tmp/perfev-stc-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");

	snprintf(f, sizeof(f), "%s/g.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_switch -g -o %s -- %s >/dev/null 2>&1",
			  PERF, f, work), 0);
	same_script("-g", f, "");
	same_script("-g, script -G", f, "-G");

	snprintf(f, sizeof(f), "%s/u.data", dir);
	/* with a second event: the sample ids, IDENTIFIER */
	CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_switch -g -e cpu-clock -o %s -- %s "
			  ">/dev/null 2>&1", PERF, f, work), 0);
	same_script("-g with cpu-clock", f, "");
	/* perfev's own --off-cpu file: tracepoint without RAW, offcpu-time
	 * (a bpf-output event without RAW). */
	snprintf(f, sizeof(f), "%s/o.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --off-cpu -o %s -- %s >/dev/null 2>&1",
			  t_perfev(), f, work), 0);
	same_script("--off-cpu", f, "");
	same_script("--off-cpu, -F", f, "-F comm,tid,time,event,period,ip,sym");
	t_sh("rm -rf %s", dir);
	return t_done();
}
