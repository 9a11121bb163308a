// SPDX-License-Identifier: GPL-2.0-only
/* pev_explain for permission errors, for real: children drop to 'nobody'
 * (65534) and open what kernel.perf_event_paranoid forbids.  The test runs
 * as root, sets perf_event_paranoid to the level each phase needs and puts
 * the original value back on every exit path (exit, fatal check, signal). */
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "testutil.h"

#define NOBODY 65534

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"

static void set_paranoid(long v)
{
	t_sysctl_set(PARANOID, v);
}

static void base(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_TASK_CLOCK;
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

/* Open; it must fail with one of the two errnos; then the live
 * explanation must have this kind and contain sub1 and sub2. */
static void expect(const char *what, struct perf_event_attr *a, pid_t pid, int cpu,
		   int want, int want2, enum pev_explain_kind kind,
		   const char *sub1, const char *sub2)
{
	int fd = pev_sys_open(a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		T_FAIL("%s: opened as uid %d, expected %s", what, (int)geteuid(), strerror(want));
		close(fd);
		return;
	}
	CHECK_MSG(-fd == want || -fd == want2, "%s: got %s, expected %s", what,
		  strerror(-fd), strerror(want));
	struct pev_explain_ctx c = {
		.size = sizeof(c), .attr = a, .pid = pid, .cpu = cpu, .group_fd = -1,
		.flags = PERF_FLAG_FD_CLOEXEC, .first_unknown_offset = -1,
	};
	struct pev_explanation e;
	char line[1024];
	int k = pev_explain_detail(fd, &c, &e);
	pev_explain(fd, &c, line, sizeof(line));
	printf("%s (%s): %s\n", what, strerror(-fd), line);
	CHECK_MSG(k == (int)kind, "%s: kind %s, expected %s", what, pev_explain_kind_name(k),
		  pev_explain_kind_name(kind));
	CHECK_MSG(!sub1 || strstr(line, sub1), "%s: '%s' missing", what, sub1);
	CHECK_MSG(!sub2 || strstr(line, sub2), "%s: '%s' missing", what, sub2);
}

static void must_open(const char *what, struct perf_event_attr *a, pid_t pid, int cpu)
{
	int fd = pev_sys_open(a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK_MSG(fd >= 0, "%s: %s as uid %d", what, fd < 0 ? strerror(-fd) : "", (int)geteuid());
	if (fd >= 0)
		close(fd);
}

/* Run fn in a child that has dropped every privilege; check it passed. */
static void as_nobody(const char *phase, void (*fn)(pid_t root_pid, long arg), long arg)
{
	pid_t root_pid = getpid();

	fflush(stdout);
	pid_t p = fork();
	if (p < 0)
		T_FATAL("fork: %s", strerror(errno));
	if (p == 0) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
			printf("cannot drop privileges: %s\n", strerror(errno));
			fflush(stdout);
			_exit(2);
		}
		struct pev_system_settings s;
		pev_system_settings_read(&s);
		CHECK_EQ_INT(s.euid, NOBODY);
		CHECK(s.caps_known && !s.cap_perfmon && !s.cap_sys_admin);
		fn(root_pid, arg);
		fflush(stdout);
		_exit(t_failures ? 1 : 0);
	}
	int st;
	waitpid(p, &st, 0);
	CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: child failed (status 0x%x)", phase, st);
}

static void phase_paranoid2(pid_t root_pid, long tp_id)
{
	struct perf_event_attr a;

	/* Allowed at 2: own process, user space. */
	base(&a);
	must_open("own user-space", &a, 0, -1);

	base(&a);
	expect("system-wide", &a, -1, 0, EACCES, EPERM, PEV_EXPLAIN_PARANOID_CPU,
	       "needs CAP_PERFMON or kernel.perf_event_paranoid <= 0, and it is 2",
	       "as root run 'sysctl -w kernel.perf_event_paranoid=0'");

	base(&a);
	a.exclude_kernel = 0;
	expect("kernel-space", &a, 0, -1, EACCES, EPERM, PEV_EXPLAIN_PARANOID_KERNEL,
	       "kernel.perf_event_paranoid <= 1, and it is 2",
	       "':u' modifier (exclude_kernel=1), or as root run 'sysctl -w kernel.perf_event_paranoid=1'");

	base(&a);
	a.exclude_kernel = 0;
	expect("system-wide kernel", &a, -1, 0, EACCES, EPERM, PEV_EXPLAIN_PARANOID_CPU,
	       "'sysctl -w kernel.perf_event_paranoid=0'", NULL);

	char want[96];
	snprintf(want, sizeof(want), "process %d belongs to another user (uid 0)", (int)root_pid);
	base(&a);
	expect("other user", &a, root_pid, -1, EACCES, EPERM, PEV_EXPLAIN_OTHER_USER, want,
	       "run as that user or as root");

	base(&a);
	a.sigtrap = 1;
	a.remove_on_exec = 1;
	expect("sigtrap other", &a, root_pid, -1, EACCES, EPERM, PEV_EXPLAIN_SIGTRAP_PERM,
	       "sigtrap on process", NULL);

	base(&a);
	a.namespaces = 1;
	expect("namespaces", &a, 0, -1, EACCES, EPERM, PEV_EXPLAIN_NAMESPACES_PERM,
	       "namespace records", NULL);

	if (tp_id > 0) {
		base(&a);
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = (uint64_t)tp_id;
		a.sample_period = 1;
		a.sample_type = PERF_SAMPLE_RAW;
		expect("raw tracepoint", &a, 0, -1, EPERM, EACCES, PEV_EXPLAIN_PARANOID_TRACEPOINT,
		       "raw tracepoint data", "'sysctl -w kernel.perf_event_paranoid=-1'");
		/* Counting it is allowed at 2. */
		a.sample_period = 0;
		a.sample_type = 0;
		must_open("tracepoint count", &a, 0, -1);
	}
}

static void phase_paranoid1(pid_t root_pid, long unused)
{
	struct perf_event_attr a;

	/* Kernel space is allowed at 1 ... */
	base(&a);
	a.exclude_kernel = 0;
	must_open("kernel-space at 1", &a, 0, -1);
	/* ... but a breakpoint on a kernel address needs CAP_SYS_ADMIN. */
	base(&a);
	a.exclude_kernel = 0;
	a.type = PERF_TYPE_BREAKPOINT;
	a.config = 0;
	a.bp_type = 2;
	a.bp_len = 8;
	a.bp_addr = 0xffffffff81000000ULL;
	expect("kernel breakpoint", &a, 0, -1, EPERM, EACCES, PEV_EXPLAIN_BREAKPOINT_KERNEL,
	       "needs CAP_SYS_ADMIN", NULL);
	/* System-wide is still refused at 1. */
	base(&a);
	expect("system-wide at 1", &a, -1, 0, EACCES, EPERM, PEV_EXPLAIN_PARANOID_CPU,
	       "and it is 1", NULL);
}

/* At -1 the paranoid checks are gone: what they refused at 2 opens, and
 * what is still refused is explained by its own cause, never paranoid. */
static void phase_paranoid_minus1(pid_t root_pid, long tp_id)
{
	struct perf_event_attr a;

	base(&a);
	must_open("system-wide at -1", &a, -1, 0);
	base(&a);
	a.exclude_kernel = 0;
	must_open("kernel-space at -1", &a, 0, -1);
	if (tp_id > 0) {
		base(&a);
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = (uint64_t)tp_id;
		a.sample_period = 1;
		a.sample_type = PERF_SAMPLE_RAW;
		must_open("raw tracepoint at -1", &a, -1, 0);
	}
	char want[96];
	snprintf(want, sizeof(want), "process %d belongs to another user (uid 0)", (int)root_pid);
	base(&a);
	expect("other user at -1", &a, root_pid, -1, EACCES, EPERM, PEV_EXPLAIN_OTHER_USER, want,
	       "run as that user or as root");
	/* The settings say -1 and no seccomp; the probe opened. */
	struct pev_system_settings s;
	pev_system_settings_read(&s);
	CHECK_EQ_INT(s.paranoid, -1);
	CHECK_EQ_INT(s.probe_err, 0);
}

static void phase_paranoid3(pid_t root_pid, long unused)
{
	struct perf_event_attr a;

	base(&a);
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		printf("note: paranoid 3 acts as 2 on this kernel (no Debian/Android patch)\n");
		close(fd);
		return;
	}
	expect("paranoid 3", &a, 0, -1, EACCES, EPERM, PEV_EXPLAIN_PARANOID_ALL,
	       "kernel.perf_event_paranoid is 3", "'sysctl -w kernel.perf_event_paranoid=2'");
}

/* sched:sched_switch's id, mounting tracefs where it is missing. */
static long tracepoint_id(void)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/events/sched/sched_switch/id",
		"/sys/kernel/debug/tracing/events/sched/sched_switch/id",
	};
	for (int attempt = 0; attempt < 2; attempt++) {
		for (size_t i = 0; i < 2; i++) {
			FILE *f = fopen(paths[i], "r");
			char buf[32];
			if (!f)
				continue;
			long v = fgets(buf, sizeof(buf), f) ? strtol(buf, NULL, 10) : -1;
			fclose(f);
			if (v > 0)
				return v;
		}
		/* Left mounted: the normal state of a system, and other tests
		 * may be using it by now. */
		if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) < 0)
			break;
	}
	return -1;
}

int main(void)
{
	long cur;

	if (geteuid() != 0)
		T_SKIP("needs root: drops to uid %d and sets kernel.perf_event_paranoid", NOBODY);
	if (pev_sysctl_read(PEV_SYSCTL_PARANOID, &cur) < 0)
		T_SKIP("no kernel.perf_event_paranoid: kernel without perf events");

	long tp = tracepoint_id();
	if (tp < 0)
		printf("note: no tracefs: the raw tracepoint check is skipped\n");

	set_paranoid(2);
	as_nobody("paranoid 2", phase_paranoid2, tp);
	set_paranoid(1);
	as_nobody("paranoid 1", phase_paranoid1, 0);
	set_paranoid(3);
	as_nobody("paranoid 3", phase_paranoid3, 0);
	set_paranoid(-1);
	as_nobody("paranoid -1", phase_paranoid_minus1, tp);

	t_sysctl_restore();
	long after = PEV_SETTING_UNKNOWN;
	CHECK_OK(pev_sysctl_read(PEV_SYSCTL_PARANOID, &after));
	CHECK_EQ_INT(after, cur);
	return t_done();
}
