// SPDX-License-Identifier: GPL-2.0-only
/* perfev report's trace key (a tracepoint sample's formatted output, as
 * perf 6.1 prints it through libtraceevent) against perf report --stdio,
 * byte for byte, on files recorded by /usr/bin/perf at test time: dd
 * traced with sched:sched_switch and raw_syscalls:sys_enter, with
 * syscalls:sys_enter_write next to cpu-clock (the trace key prints "N/A"
 * for the software event), and sched_switch with -g (children mode).
 * Also perf's default sort order for a file of tracepoints only:
 * "trace", and its column width when an entry was never compared on the
 * key (a single entry).  perf's closing random tip is left out of the comparison. */
#include <errno.h>
#include <sys/mount.h>

#include "report_cmp.h"

/* tracefs, mounted at /sys/kernel/tracing if it is not (left mounted:
 * other tests use it); false when this kernel has none. */
static bool have_tracefs(void)
{
	size_t len;
	char *fs = t_slurp("/proc/filesystems", &len);
	bool known = fs && strstr(fs, "\ttracefs\n") != NULL;

	free(fs);
	if (!access("/sys/kernel/tracing/events/header_page", R_OK))
		return true;
	if (!known)
		return false;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) && errno != EBUSY)
		T_SKIP("tracefs is not mounted and cannot be mounted: %s", strerror(errno));
	return !access("/sys/kernel/tracing/events/header_page", R_OK);
}

static const char *const tp_opts[] = {
	"", "-s trace,comm", "-s comm,trace -n", "-s pid,trace --percent-limit 1", NULL,
};
static const char *const mix_opts[] = { "-s trace", "-s trace,sym", NULL };
static const char *const g_opts[] = { "", "-s comm,trace", NULL };

static void modes(const char *what, const char *file, const char *const *opts)
{
	char o[160];

	for (size_t i = 0; opts[i]; i++) {
		same_report(what, file, opts[i]);
		snprintf(o, sizeof(o), "%s --no-children", opts[i]);
		same_report(what, file, o);
	}
}

int main(void)
{
	char file[256];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-rtrace-XXXXXX", false);
	if (!have_tracefs())
		T_SKIP("this kernel has no tracefs (/proc/filesystems)");
	snprintf(file, sizeof(file), "%s/tp.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_switch -e raw_syscalls:sys_enter -o %s -- dd if=/dev/zero of=/dev/null count=1500 > /dev/null 2>&1",
			  PERF, file), 0);
	/* not vacuous: perf prints the system calls' formatted output */
	CHECK_MSG(!t_sh("%s report --stdio -i %s 2>/dev/null | grep -q '%%  NR 0 (0, '", PERF, file),
		  "perf printed no read() system call in the trace column");
	modes("sched_switch + raw_syscalls", file, tp_opts);
	snprintf(file, sizeof(file), "%s/mix.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e syscalls:sys_enter_write -e cpu-clock -o %s -- dd if=/dev/zero of=/dev/null count=1500 bs=512 > /dev/null 2>&1",
			  PERF, file), 0);
	modes("sys_enter_write + cpu-clock", file, mix_opts);
	snprintf(file, sizeof(file), "%s/tpg.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e sched:sched_switch -o %s -- dd if=/dev/zero of=/dev/null count=20000 bs=1k > /dev/null 2>&1",
			  PERF, file), 0);
	modes("sched_switch -g", file, g_opts);
	/* one sample, one entry: perf never compares it on the trace key,
	 * so never formats it before sizing the column: the output is cut
	 * to the header's width ("error_code: " of "error_code: 0x00...") */
	snprintf(file, sizeof(file), "%s/one.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e syscalls:sys_enter_exit_group -o %s -- true > /dev/null 2>&1",
			  PERF, file), 0);
	same_report("one exit_group", file, "");
	same_report("one exit_group", file, "-s comm,trace");
	/* the same with a call chain: in children mode perf compares the
	 * entry with the chain entries of its own sample, so formats it */
	snprintf(file, sizeof(file), "%s/one-g.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e syscalls:sys_enter_exit_group -o %s -- true > /dev/null 2>&1",
			  PERF, file), 0);
	modes("one exit_group -g", file, (const char *const[]){ "", "-s comm,trace", NULL });
	/* no sample at all (no task is created): perf prints two header
	 * lines, no table and no tip, and its error on stderr (the -g
	 * sched_switch file above is such a file when dd never switched) */
	snprintf(file, sizeof(file), "%s/none.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_wakeup_new -o %s -- true > /dev/null 2>&1",
			  PERF, file), 0);
	modes("no sample", file, (const char *const[]){ "", NULL });
	{
		char pa[128], pb[128];
		size_t la, lb;

		snprintf(pa, sizeof(pa), "%s/a.err", dir);
		snprintf(pb, sizeof(pb), "%s/b.err", dir);
		char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

		CHECK_MSG(b && strstr(b, "data has no samples!"), "perf did not say the file has no samples: %s",
			  b ? b : "(nothing)");
		CHECK_MSG(a && b && !strcmp(a, b), "no sample: stderr differs:\n  perfev: %s\n  perf:   %s",
			  a ? a : "", b ? b : "");
		free(a);
		free(b);
	}
	/* three samples, one entry: the second and third samples' lookups
	 * compare with it, so perf formats it */
	snprintf(file, sizeof(file), "%s/three.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e syscalls:sys_enter_exit_group -o %s -- sh -c '/bin/true; /bin/true' > /dev/null 2>&1",
			  PERF, file), 0);
	same_report("three exit_groups", file, "");
	return report_cmp_end();
}
