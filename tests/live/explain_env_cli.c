// SPDX-License-Identifier: GPL-2.0-only
/* perfev's errors in restrictive environments, each created for real; the
 * message must name its own cause (with the numbers and the exact command)
 * and no other's:
 * - an unprivileged user (setpriv to nobody) with and without CAP_PERFMON,
 *   under kernel.perf_event_paranoid 2 and -1;
 * - RLIMIT_MEMLOCK and kernel.perf_event_mlock_kb too small for the ring;
 * - RLIMIT_NOFILE of 32 with many events on every CPU;
 * - tracefs not mounted and not mountable (private mount namespace);
 * - a cgroup that does not exist.
 * Sysctls are set just around the command that needs them and restored on
 * every exit path. */
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "testutil.h"
#include "cliutil.h"

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define MLOCK_KB "/proc/sys/kernel/perf_event_mlock_kb"

static char dir[] = "/tmp/pev_env_XXXXXX";
static char data[300];

static long read_long(const char *path)
{
	size_t n;
	char *s = t_slurp(path, &n);
	long v = n ? strtol(s, NULL, 10) : LONG_MIN;
	free(s);
	return v;
}

/* Run a shell command line; stdout and stderr captured. */
static void sh(struct t_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sh(struct t_run *r, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (t_run_argv((char *const[]){ "sh", "-c", cmd, NULL }, NULL, r) < 0)
		T_FATAL("cannot run sh");
	printf("$ %s\nexit %d\n%s", cmd, r->exit_code, r->err);
}

/* The message has every string of want and none of bad; exit code rc. */
static void expect(const char *what, struct t_run *r, int rc, const char *const *want,
		   const char *const *bad)
{
	CHECK_MSG(r->exit_code == rc, "%s: exit %d, expected %d", what, r->exit_code, rc);
	for (int i = 0; want && want[i]; i++)
		CHECK_MSG(strstr(r->err, want[i]), "%s: '%s' missing", what, want[i]);
	for (int i = 0; bad && bad[i]; i++)
		CHECK_MSG(!strstr(r->err, bad[i]), "%s: names another cause ('%s')", what, bad[i]);
	t_run_free(r);
}

#define W(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NOBODY "setpriv --reuid=nobody --regid=nogroup --clear-groups"
#define NOBODY_PERFMON NOBODY " --inh-caps=+perfmon --ambient-caps=+perfmon"

static const char *pe;

static void unprivileged(void)
{
	struct t_run r;
	struct utsname u;
	int major = 0, minor = 0;

	uname(&u);
	sscanf(u.release, "%d.%d", &major, &minor);

	t_sysctl_set(PARANOID, 2);
	sh(&r, NOBODY " %s stat -a -e cpu-clock -- true", pe);
	expect("nobody, paranoid 2, -a", &r, 1,
	       W("cannot open 'cpu-clock'", "needs CAP_PERFMON or kernel.perf_event_paranoid <= 0, and it is 2",
		 "'sysctl -w kernel.perf_event_paranoid=0'"),
	       W("seccomp", "exclude", "security module"));
	/* task-clock alone falls back to user space as in perf (the test
	 * unpriv_fallback); ':k' leaves it nothing to fall back to. */
	sh(&r, NOBODY " %s stat -e task-clock:k -- true", pe);
	expect("nobody, paranoid 2, kernel space", &r, 1,
	       W("kernel.perf_event_paranoid <= 1, and it is 2",
		 "'sysctl -w kernel.perf_event_paranoid=1'", "':u'"),
	       W("seccomp", "security module"));
	sh(&r, NOBODY " %s record -o %s -a -e cpu-clock -- true", pe, data);
	expect("nobody, paranoid 2, record -a", &r, 1,
	       W("kernel.perf_event_paranoid <= 0, and it is 2", "CAP_PERFMON"),
	       W("seccomp", "exclude"));
	/* Another user's process: ptrace, not paranoid. */
	sh(&r, NOBODY " %s stat -p 1 -e task-clock:u -- sleep 0.1", pe);
	expect("nobody, paranoid 2, pid 1", &r, 1,
	       W("process 1 belongs to another user (uid 0)", "run as that user or as root"),
	       W("paranoid", "seccomp"));
	/* The user space of its own processes is open to everyone at 2. */
	sh(&r, NOBODY " %s stat -e task-clock:u -- true", pe);
	expect("nobody, paranoid 2, own user space", &r, 0, NULL, W("error"));

	/* CAP_PERFMON (Linux >= 5.8) lifts the paranoid checks. */
	if (major > 5 || (major == 5 && minor >= 8)) {
		sh(&r, NOBODY_PERFMON " %s stat -a -e cpu-clock -- true", pe);
		expect("nobody + CAP_PERFMON, paranoid 2, -a", &r, 0, NULL, W("error"));
		sh(&r, NOBODY_PERFMON " %s stat -e task-clock -- true", pe);
		expect("nobody + CAP_PERFMON, paranoid 2, kernel", &r, 0, NULL, W("error"));
	} else {
		printf("Linux %d.%d has no CAP_PERFMON: not checked\n", major, minor);
	}

	t_sysctl_set(PARANOID, -1);
	sh(&r, NOBODY " %s stat -a -e cpu-clock -- true", pe);
	expect("nobody, paranoid -1, -a", &r, 0, NULL, W("error"));
	/* Still refused at -1: another user's process (ptrace). */
	sh(&r, NOBODY " %s stat -p 1 -e task-clock -- sleep 0.1", pe);
	expect("nobody, paranoid -1, pid 1", &r, 1,
	       W("process 1 belongs to another user (uid 0)"), W("paranoid", "seccomp"));
	t_sysctl_restore();
}

static void memlock(void)
{
	struct t_run r;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), ps = sysconf(_SC_PAGESIZE);
	long mlock = read_long(MLOCK_KB);
	char want[256], want2[128], want3[128];

	/* RLIMIT_MEMLOCK 16 KiB, the sysctl as it is: 1024 pages per CPU ring
	 * are far beyond both.  Root has CAP_IPC_LOCK: run as nobody (user
	 * space only, allowed at paranoid 2). */
	t_sysctl_set(PARANOID, 2);
	sh(&r, "ulimit -l 16 && exec " NOBODY " %s record -o %s -m 1024 -e task-clock:u -- true",
	   pe, data);
	long ring_kb = 1025 * ps / 1024, asked = ring_kb * ncpu, allowed = mlock * ncpu + 16;
	snprintf(want, sizeof(want),
		 "1024 data pages asked (%ld KiB per ring, %ld KiB for %ld ring%s), but this user may lock %ld KiB (kernel.perf_event_mlock_kb %ld KiB x %ld CPUs + RLIMIT_MEMLOCK 16 KiB)",
		 ring_kb, asked, ncpu, ncpu == 1 ? "" : "s", allowed, mlock, ncpu);
	snprintf(want2, sizeof(want2), "'ulimit -l %ld'", asked - mlock * ncpu);
	snprintf(want3, sizeof(want3), "'sysctl -w kernel.perf_event_mlock_kb=%ld'",
		 (asked + ncpu - 1) / ncpu);
	expect("RLIMIT_MEMLOCK 16 KiB, -m 1024", &r, 1, W(want, want2, want3, "use -m "),
	       W("paranoid", "seccomp", "exclude"));

	/* The sysctl at 8 KiB per CPU, RLIMIT_MEMLOCK 0: -m 16 does not fit. */
	t_sysctl_set(MLOCK_KB, 8);
	sh(&r, "ulimit -l 0 && exec " NOBODY " %s record -o %s -m 16 -e task-clock:u -- true",
	   pe, data);
	t_sysctl_restore();
	ring_kb = 17 * ps / 1024;
	snprintf(want, sizeof(want),
		 "16 data pages asked (%ld KiB per ring, %ld KiB for %ld ring%s), but this user may lock %ld KiB (kernel.perf_event_mlock_kb 8 KiB x %ld CPUs + RLIMIT_MEMLOCK 0 KiB)",
		 ring_kb, ring_kb * ncpu, ncpu, ncpu == 1 ? "" : "s", 8 * ncpu, ncpu);
	snprintf(want3, sizeof(want3), "'sysctl -w kernel.perf_event_mlock_kb=%ld'", ring_kb);
	expect("perf_event_mlock_kb 8, -m 16", &r, 1, W(want, want3, "use -m 1 or less"),
	       W("paranoid", "seccomp"));
	CHECK_EQ_INT(read_long(MLOCK_KB), mlock);
}

static void nofile(void)
{
	struct t_run r;
	const char *evs = "task-clock,cpu-clock,page-faults,context-switches,cpu-migrations,"
			  "minor-faults,major-faults,alignment-faults,emulation-faults,dummy,"
			  "task-clock,cpu-clock,page-faults,context-switches,cpu-migrations,"
			  "minor-faults,major-faults,alignment-faults,emulation-faults,dummy";

	/* 20 events on every CPU need more than 32 descriptors from 2 CPUs on. */
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("one CPU: RLIMIT_NOFILE cases not checked\n");
		return;
	}
	/* valgrind keeps descriptors of its own at the top of the range and
	 * shows the program a lower limit (20 of 32): the numbers are its. */
	const char *lim = getenv("PERFEV_VALGRIND") ? "RLIMIT_NOFILE soft " :
		"RLIMIT_NOFILE soft 32, hard 32";

	/* As perf 6.1: fatal, one line (not "<not supported>" for events
	 * that are supported, and not exit 0 with counts missing). */
	sh(&r, "ulimit -n 32 && exec %s stat -a -e %s -- true", pe, evs);
	CHECK_MSG(!strstr(r.err, "<not supported>") && !strstr(r.err, "warning"),
		  "stat -a, 32 files: events shown as not supported");
	CHECK_MSG(strstr(r.err, "perfev: error:") && !strstr(strstr(r.err, "perfev: error:") + 1,
							     "perfev: error:"),
		  "stat -a, 32 files: not one error line");
	expect("stat -a, 32 files", &r, 1,
	       W("too many open files", lim, "ulimit -n"),
	       W("paranoid", "seccomp"));
	sh(&r, "ulimit -n 32 && exec %s record -o %s -a -e %s -- true", pe, data, evs);
	expect("record -a, 32 files", &r, 1,
	       W("too many open files", lim, "ulimit -n"),
	       W("paranoid", "seccomp"));
}

/* in a private mount namespace: tracefs unmounted, both of its places */
#define UMOUNT_TRACEFS "mount --make-rprivate / && umount /sys/kernel/tracing 2>/dev/null; " \
		       "umount /sys/kernel/debug 2>/dev/null; "

static void no_tracefs_cases(void)
{
	struct t_run r;
	const char *umount = UMOUNT_TRACEFS;
	const char *const bad[] = { "unknown tracepoint", "paranoid", NULL };

	/* Independent probe: a private mount namespace can be made here. */
	if (t_sh("unshare -m true >/dev/null 2>&1")) {
		printf("unshare -m fails here: tracefs cases not checked\n");
		return;
	}
	/* Not mountable: an empty read-only tmpfs over /sys/kernel. */
	sh(&r, "exec unshare -m sh -c '%s mount -t tmpfs -o ro,size=4k none /sys/kernel && "
	   "exec %s stat -e sched:sched_switch -- true'", umount, pe);
	expect("no tracefs, /sys/kernel read-only", &r, 2,
	       W("tracefs is not mounted", "'mount -t tracefs nodev /sys/kernel/tracing'"), bad);
	/* Not mountable: a seccomp filter refuses mount(2). */
	char helper[512];
	const char *b = getenv("PERFEV_BUILD");
	snprintf(helper, sizeof(helper), "%s/tests/helpers/seccomp_deny", b && *b ? b : "build");
	sh(&r, "exec unshare -m sh -c '%s exec %s EPERM mount -- %s record -o %s -e sched:sched_switch -- true'",
	   umount, helper, pe, data);
	expect("no tracefs, mount refused", &r, 2,
	       W("tracefs is not mounted", "mounting it failed (Operation not permitted)",
		 "'mount -t tracefs nodev /sys/kernel/tracing'"), bad);
	/* Mounted but readable only by root (mode 0700): as nobody. */
	sh(&r, "exec unshare -m sh -c '%s mount -t tracefs -o mode=700 nodev /sys/kernel/tracing && "
	   "exec " NOBODY " %s stat -e sched:sched_switch -- true'", umount, pe);
	expect("tracefs mode 0700, nobody", &r, 2,
	       W("cannot read /sys/kernel/tracing/events: permission denied",
		 "'mount -o remount,mode=755,gid=GROUP /sys/kernel/tracing'"), bad);

	/* mode=755 opens the directories, but are the event files then
	 * readable by others?  Probed here, as nobody, in such a mount. */
	const char *m755 = "mount -t tracefs -o mode=755,gid=0 nodev /sys/kernel/tracing";
	const char *const bad_glob[] = { "unknown tracepoint", "paranoid", "no tracepoint matches", NULL };

	if (t_sh("unshare -m sh -c '%s %s && " NOBODY " cat /sys/kernel/tracing/events/sched/sched_switch/id' "
		 ">/dev/null 2>&1", umount, m755) == 0) {
		printf("tracefs mode 755: its files are readable by others here; the file cases not checked\n");
		return;
	}
	sh(&r, "exec unshare -m sh -c '%s %s && exec " NOBODY " %s stat -e sched:sched_switch -- true'",
	   umount, m755, pe);
	expect("tracefs mode 755, files 0440 root, nobody", &r, 2,
	       W("cannot read the id of 'sched:sched_switch' in /sys/kernel/tracing: Permission denied",
		 "'mount -o remount,mode=755,gid=GROUP /sys/kernel/tracing' for a GROUP this user is in"),
	       bad_glob);
	/* a glob whose every match is unreadable is not "no match" */
	sh(&r, "exec unshare -m sh -c '%s %s && exec " NOBODY " %s record -o %s -e \"sched:sched_sw*\" -- true'",
	   umount, m755, pe, data);
	expect("tracefs mode 755, a glob, nobody", &r, 2,
	       W("cannot read the id of 'sched:sched_sw", "Permission denied", "gid=GROUP"), bad_glob);
	/* the advice works: gid= with nobody's group */
	struct group *g = getgrnam("nogroup");

	if (!g) {
		printf("no group nogroup: the gid= advice not checked\n");
		return;
	}
	sh(&r, "exec unshare -m sh -c '%s mount -t tracefs -o mode=755,gid=%u nodev /sys/kernel/tracing && "
	   "exec " NOBODY " %s stat -x, -e sched:sched_switch -- true'", umount, (unsigned)g->gr_gid, pe);
	expect("tracefs mode 755 gid nogroup, nobody", &r, 0, W("sched:sched_switch"),
	       (const char *const[]){ "error", NULL });
}

/* tracefs has one superblock: a mount in a private namespace with mode=
 * or gid= changes them for the machine's mount too.  They are put back
 * as they were (read here before). */
static void no_tracefs(void)
{
	struct stat st;

	if (stat("/sys/kernel/tracing/events", &st) || stat("/sys/kernel/tracing", &st)) {
		printf("tracefs not mounted at /sys/kernel/tracing: its mode cannot be restored, cases not checked\n");
		return;
	}
	no_tracefs_cases();
	CHECK_EQ_INT(t_sh("unshare -m sh -c '" UMOUNT_TRACEFS
			  "mount -t tracefs -o mode=%o,gid=%u nodev /sys/kernel/tracing'",
			  (unsigned)(st.st_mode & 07777), (unsigned)st.st_gid), 0);
	struct stat now;

	CHECK(stat("/sys/kernel/tracing", &now) == 0 && now.st_mode == st.st_mode && now.st_gid == st.st_gid);
}

static void no_cgroup(void)
{
	struct t_run r;
	char mnt[512] = "", want[700];

	/* The cgroup2 mount, from /proc/self/mounts read here. */
	FILE *f = fopen("/proc/self/mounts", "r");
	char dev[256], path[512], type[64];
	while (f && fscanf(f, "%255s %511s %63s %*[^\n]", dev, path, type) == 3)
		if (!strcmp(type, "cgroup2") && !mnt[0])
			snprintf(mnt, sizeof(mnt), "%s", path);
	if (f)
		fclose(f);
	if (!mnt[0]) {
		printf("no cgroup2 mount: -G cases not checked\n");
		return;
	}
	snprintf(want, sizeof(want), "no such cgroup: %s/pev_nosuch is not a directory; name a directory under %s",
		 mnt, mnt);
	sh(&r, "%s stat -G pev_nosuch -a -e task-clock -- true", pe);
	expect("stat -G pev_nosuch", &r, 1, W("cannot count in cgroup 'pev_nosuch'", want), NULL);
	sh(&r, "%s record -o %s -G pev_nosuch -a -e task-clock -- true", pe, data);
	expect("record -G pev_nosuch", &r, 1, W("cannot record cgroup 'pev_nosuch'", want), NULL);
}

int main(void)
{
	if (geteuid() != 0)
		T_SKIP("needs root (sysctls, setpriv, mount namespaces)");
	if (t_sh("command -v setpriv >/dev/null"))
		T_SKIP("setpriv (util-linux) is not installed");
	if (read_long(PARANOID) == LONG_MIN || read_long(MLOCK_KB) == LONG_MIN)
		T_SKIP("no %s or %s", PARANOID, MLOCK_KB);
	pe = t_perfev();
	if (pe[0] != '/') {
		static char abs[4096];
		if (!getcwd(abs, sizeof(abs) - strlen(pe) - 2))
			T_FATAL("getcwd");
		strcat(abs, "/");
		strcat(abs, pe);
		pe = abs;
	}
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	chmod(dir, 0777);
	snprintf(data, sizeof(data), "%s/perf.data", dir);

	unprivileged();
	memlock();
	nofile();
	no_tracefs();
	no_cgroup();

	unlink(data);
	rmdir(dir);
	return t_done();
}
