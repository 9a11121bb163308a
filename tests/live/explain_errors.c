// SPDX-License-Identifier: GPL-2.0-only
/* pev_explain against the real kernel: provoke each perf_event_open error
 * reachable here as root, assert the errno the kernel really gives and the
 * kind (and key text) of the explanation, read with live settings. */
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "testutil.h"

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

static int open_ev(struct perf_event_attr *a, pid_t pid, int cpu, int gfd, unsigned long flags)
{
	return pev_sys_open(a, pid, cpu, gfd, flags | PERF_FLAG_FD_CLOEXEC);
}

/* Explain err for this call with live settings; check kind and text. */
static void expect_kind(const char *what, int err, struct perf_event_attr *a, pid_t pid,
			int cpu, int gfd, unsigned long flags, long first_unknown,
			enum pev_explain_kind kind, const char *sub1, const char *sub2)
{
	struct pev_explain_ctx c = {
		.size = sizeof(c), .attr = a, .pid = pid, .cpu = cpu, .group_fd = gfd,
		.flags = flags, .first_unknown_offset = first_unknown,
	};
	struct pev_explanation e;
	char line[1024];

	int k = pev_explain_detail(err, &c, &e);
	pev_explain(err, &c, line, sizeof(line));
	printf("%s: %s\n", what, line);
	CHECK_MSG(k == (int)kind, "%s: kind %s, expected %s", what,
		  pev_explain_kind_name(k), pev_explain_kind_name(kind));
	CHECK_MSG(!sub1 || strstr(line, sub1), "%s: '%s' missing", what, sub1);
	CHECK_MSG(!sub2 || strstr(line, sub2), "%s: '%s' missing", what, sub2);
}

/* Open; the call must fail with want (or want2 when non-zero). */
static int must_fail(const char *what, int fd, int want, int want2)
{
	if (fd >= 0) {
		T_FAIL("%s: opened, expected %s", what, strerror(want));
		close(fd);
		return 0;
	}
	CHECK_MSG(-fd == want || (want2 && -fd == want2), "%s: got %s, expected %s",
		  what, strerror(-fd), strerror(want));
	return -fd;
}

static long sysfs_type(const char *pmu)
{
	char path[128], buf[32];
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	long v = fgets(buf, sizeof(buf), f) ? strtol(buf, NULL, 10) : -1;
	fclose(f);
	return v;
}

static void check_hw(const struct pev_system_settings *s)
{
	struct perf_event_attr a;
	base(&a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	int fd = open_ev(&a, 0, -1, -1, 0);
	if (fd >= 0) {
		printf("note: 'cycles' opens: this machine has a PMU, no-PMU check skipped\n");
		CHECK_EQ_INT(s->has_hw_pmu, 1);
		close(fd);
		return;
	}
	int err = must_fail("cycles", fd, ENOENT, EOPNOTSUPP);
	CHECK_EQ_INT(s->has_hw_pmu, 0);
	expect_kind("cycles", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_NO_HW_PMU,
		    "cannot open 'cycles': this machine has no hardware PMU (virtual machine?)",
		    "'cpu-clock'");
	a.type = PERF_TYPE_HW_CACHE;
	a.config = 0;
	err = must_fail("L1-dcache-loads", open_ev(&a, 0, -1, -1, 0), ENOENT, EOPNOTSUPP);
	expect_kind("L1-dcache-loads", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_NO_HW_PMU,
		    "cannot open 'L1-dcache-loads': this machine has no hardware PMU", NULL);
}

static void check_emfile(void)
{
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		struct rlimit rl;
		struct perf_event_attr a;
		getrlimit(RLIMIT_NOFILE, &rl);
		rl.rlim_cur = 16;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			_exit(2);
		int err = 0;
		for (int i = 0; i < 32 && !err; i++) {
			base(&a);
			int fd = open_ev(&a, 0, -1, -1, 0);
			if (fd < 0)
				err = -fd;
		}
		CHECK_EQ_INT(err, EMFILE);
		expect_kind("emfile", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_TOO_MANY_FILES,
			    "the limit is 16 (RLIMIT_NOFILE soft 16, hard", "ulimit -n");
		fflush(stdout);
		_exit(t_failures ? 1 : 0);
	}
	int st;
	waitpid(p, &st, 0);
	CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "emfile child failed (%d)", st);
}

static void check_e2big(void)
{
	static union { struct perf_event_attr a; unsigned char b[8192]; } big;
	char want[64];
	int ksize = pev_probe_attr_size();

	CHECK_MSG(ksize >= PERF_ATTR_SIZE_VER7, "kernel attr size %d", ksize);
	memset(&big, 0, sizeof(big));
	base(&big.a);
	big.a.size = 4096;
	big.b[200] = 1;
	int fd = open_ev(&big.a, 0, -1, -1, 0);
	int err = must_fail("e2big", fd, E2BIG, 0);
	long off = pev_attr_first_unknown(&big, big.a.size, (size_t)ksize);
	CHECK_EQ_INT(off, 200);
	snprintf(want, sizeof(want), "knows only the first %d bytes", ksize);
	expect_kind("e2big offset", err, &big.a, 0, -1, -1, 0, off, PEV_EXPLAIN_ATTR_UNKNOWN_FIELD,
		    "attr byte 200 (beyond every field", want);
	/* Without the offset: found from the attr and the probed size. */
	expect_kind("e2big found", err, &big.a, 0, -1, -1, 0, -1, PEV_EXPLAIN_ATTR_UNKNOWN_FIELD,
		    "attr byte 200", want);
	/* Too small a size. */
	base(&big.a);
	big.a.size = 32;
	err = must_fail("e2big small", open_ev(&big.a, 0, -1, -1, 0), E2BIG, 0);
	big.a.size = 32;	/* the kernel wrote its size back */
	expect_kind("e2big small", err, &big.a, 0, -1, -1, 0, -1, PEV_EXPLAIN_ATTR_SIZE,
		    "attr.size 32", NULL);
}

static void check_einval(const struct pev_system_settings *s)
{
	struct perf_event_attr a;
	char want[128];
	int err, lead;

	/* sample_freq above the maximum. */
	base(&a);
	a.freq = 1;
	a.sample_freq = (uint64_t)s->max_sample_rate + 1000;
	err = must_fail("freq", open_ev(&a, 0, -1, -1, 0), EINVAL, 0);
	snprintf(want, sizeof(want), "sample_freq %ld Hz is above kernel.perf_event_max_sample_rate (%ld)",
		 s->max_sample_rate + 1000, s->max_sample_rate);
	expect_kind("freq", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_SAMPLE_FREQ, want,
		    "'sysctl -w kernel.perf_event_max_sample_rate=");

	/* A CPU that does not exist. */
	base(&a);
	int cpu = (int)s->possible_cpus + 5;
	err = must_fail("cpu", open_ev(&a, -1, cpu, -1, 0), EINVAL, ENODEV);
	printf("note: cpu %d -> %s\n", cpu, strerror(err));
	snprintf(want, sizeof(want), "cpu %d does not exist (this machine has %ld possible CPUs",
		 cpu, s->possible_cpus);
	expect_kind("cpu", err, &a, -1, cpu, -1, 0, -1, PEV_EXPLAIN_CPU_INVALID, want, NULL);

	/* pid -1 and cpu -1. */
	err = must_fail("any/any", open_ev(&a, -1, -1, -1, 0), EINVAL, 0);
	expect_kind("any/any", err, &a, -1, -1, -1, 0, -1, PEV_EXPLAIN_ANY_PID_ANY_CPU, NULL, NULL);

	/* pinned and exclusive on a group member. */
	base(&a);
	lead = open_ev(&a, 0, -1, -1, 0);
	CHECK_OK(lead);
	a.pinned = 1;
	err = must_fail("pinned member", open_ev(&a, 0, -1, lead, 0), EINVAL, 0);
	expect_kind("pinned member", err, &a, 0, -1, lead, 0, -1, PEV_EXPLAIN_GROUP_PINNED,
		    "only a group leader can be pinned", NULL);
	a.pinned = 0;
	a.exclusive = 1;
	err = must_fail("exclusive member", open_ev(&a, 0, -1, lead, 0), EINVAL, 0);
	expect_kind("exclusive member", err, &a, 0, -1, lead, 0, -1, PEV_EXPLAIN_GROUP_PINNED,
		    "only a group leader can be exclusive", NULL);
	/* A member on another CPU than its leader (the leader follows a task). */
	a.exclusive = 0;
	err = must_fail("group cpu", open_ev(&a, -1, 0, lead, 0), EINVAL, 0);
	expect_kind("group cpu", err, &a, -1, 0, lead, 0, -1, PEV_EXPLAIN_GROUP_MISMATCH,
		    "differ in CPU, task", NULL);
	close(lead);

	/* inherit with PERF_SAMPLE_READ (no TID). */
	base(&a);
	a.inherit = 1;
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_READ;
	int fd = open_ev(&a, 0, -1, -1, 0);
	if (fd >= 0) {
		printf("note: this kernel accepts inherit + PERF_SAMPLE_READ without TID\n");
		close(fd);
	} else {
		err = must_fail("inherit+read", fd, EINVAL, 0);
		expect_kind("inherit+read", err, &a, 0, -1, -1, 0, -1,
			    PEV_EXPLAIN_INHERIT_SAMPLE_READ, "PERF_SAMPLE_READ", NULL);
	}

	/* sigtrap without remove_on_exec; sigtrap on a CPU. */
	base(&a);
	a.sigtrap = 1;
	err = must_fail("sigtrap", open_ev(&a, 0, -1, -1, 0), EINVAL, 0);
	expect_kind("sigtrap", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_SIGTRAP_NO_REMOVE, NULL, NULL);
	a.remove_on_exec = 1;
	err = must_fail("sigtrap cpu", open_ev(&a, -1, 0, -1, 0), EINVAL, 0);
	expect_kind("sigtrap cpu", err, &a, -1, 0, -1, 0, -1, PEV_EXPLAIN_SIGTRAP_NEEDS_TASK, NULL, NULL);

	/* clockid, flags, sample_stack_user alignment, branch type. */
	base(&a);
	a.use_clockid = 1;
	a.clockid = 99;
	err = must_fail("clockid", open_ev(&a, 0, -1, -1, 0), EINVAL, 0);
	expect_kind("clockid", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_CLOCKID, "clockid 99", NULL);
	base(&a);
	err = must_fail("flags", pev_sys_open(&a, 0, -1, -1, 0x100), EINVAL, 0);
	expect_kind("flags", err, &a, 0, -1, -1, 0x100, -1, PEV_EXPLAIN_FLAGS, NULL, NULL);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_USER;
	a.sample_regs_user = 1;
	a.sample_stack_user = 12;
	err = must_fail("stack user", open_ev(&a, 0, -1, -1, 0), EINVAL, 0);
	expect_kind("stack user", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_STACK_USER_SIZE,
		    "sample_stack_user 12", NULL);
	base(&a);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = 1ULL << 50;
	err = must_fail("branch type", open_ev(&a, 0, -1, -1, 0), EINVAL, 0);
	expect_kind("branch type", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_BRANCH_TYPE, NULL, NULL);
	base(&a);
	a.sample_type = 1ULL << 40;
	err = must_fail("sample type", open_ev(&a, 0, -1, -1, 0), EINVAL, 0);
	expect_kind("sample type", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_SAMPLE_TYPE, NULL, NULL);

	/* Breakpoints: odd length, kernel address with exclude_kernel. */
	static long word[4];
	base(&a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.config = 0;
	a.bp_type = 2;
	a.bp_addr = (uintptr_t)&word[0];
	a.bp_len = 3;
	err = must_fail("bp len", open_ev(&a, 0, -1, -1, 0), EINVAL, 0);
	expect_kind("bp len", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_BREAKPOINT, "bp_len 3", NULL);
	a.bp_len = 8;
	a.bp_addr = 0xffffffff81000000ULL;
	err = must_fail("bp kernel :u", open_ev(&a, 0, -1, -1, 0), EINVAL, 0);
	expect_kind("bp kernel :u", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_BREAKPOINT,
		    "is a kernel address", NULL);

	/* A tracepoint id that does not exist. */
	base(&a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = 999999;
	err = must_fail("tracepoint id", open_ev(&a, 0, -1, -1, 0), EINVAL, ENOENT);
	expect_kind("tracepoint id", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_TRACEPOINT_ID,
		    "no tracepoint has id 999999", NULL);

	/* The msr PMU counts only: sampling it is refused. */
	long msr = sysfs_type("msr");
	if (msr < 0) {
		printf("note: no msr PMU, its sampling check skipped\n");
	} else {
		base(&a);
		a.type = (uint32_t)msr;
		a.config = 0;	/* tsc */
		a.exclude_kernel = a.exclude_hv = 0;
		a.sample_period = 1000;
		err = must_fail("msr sampling", open_ev(&a, -1, 0, -1, 0), EINVAL, EOPNOTSUPP);
		expect_kind("msr sampling", err, &a, -1, 0, -1, 0, -1, PEV_EXPLAIN_NO_SAMPLING,
			    "cannot sample", NULL);
		a.sample_period = 0;
		a.exclude_kernel = 1;
		err = must_fail("msr exclude", open_ev(&a, -1, 0, -1, 0), EINVAL, EOPNOTSUPP);
		expect_kind("msr exclude", err, &a, -1, 0, -1, 0, -1, PEV_EXPLAIN_EXCLUDE_UNSUPPORTED,
			    "exclude_kernel", NULL);
	}
}

static void check_misc(const struct pev_system_settings *s)
{
	struct perf_event_attr a;
	char want[128];
	int err;

	/* ESRCH: a pid nobody has. */
	pid_t gone = 0;
	for (pid_t p = 4194000; p > 1000; p -= 7)
		if (kill(p, 0) < 0 && errno == ESRCH) {
			gone = p;
			break;
		}
	CHECK(gone > 0);
	base(&a);
	err = must_fail("esrch", open_ev(&a, gone, -1, -1, 0), ESRCH, 0);
	snprintf(want, sizeof(want), "no process or thread with pid %d", (int)gone);
	expect_kind("esrch", err, &a, gone, -1, -1, 0, -1, PEV_EXPLAIN_NO_PROCESS, want, NULL);

	/* EBADF: group_fd is a file, not a perf event; and a closed fd. */
	int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
	err = must_fail("ebadf file", open_ev(&a, 0, -1, nul, 0), EBADF, 0);
	snprintf(want, sizeof(want), "group_fd %d is not an open perf event", nul);
	expect_kind("ebadf file", err, &a, 0, -1, nul, 0, -1, PEV_EXPLAIN_BAD_GROUP_FD, want, NULL);
	close(nul);
	err = must_fail("ebadf closed", open_ev(&a, 0, -1, nul, 0), EBADF, 0);
	expect_kind("ebadf closed", err, &a, 0, -1, nul, 0, -1, PEV_EXPLAIN_BAD_GROUP_FD, NULL, NULL);

	/* EOVERFLOW: deeper callchains than perf_event_max_stack. */
	base(&a);
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	a.sample_max_stack = (uint16_t)(s->max_stack + 1);
	err = must_fail("eoverflow", open_ev(&a, 0, -1, -1, 0), EOVERFLOW, 0);
	snprintf(want, sizeof(want), "sample_max_stack %ld is above kernel.perf_event_max_stack (%ld)",
		 s->max_stack + 1, s->max_stack);
	expect_kind("eoverflow", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_MAX_STACK, want,
		    "'sysctl -w kernel.perf_event_max_stack=");

	/* ENOSPC: more hardware breakpoints than debug registers. */
	static long words[16];
	int fds[16], n = 0;
	err = 0;
	for (; n < 16; n++) {
		base(&a);
		a.type = PERF_TYPE_BREAKPOINT;
		a.config = 0;
		a.bp_type = 2;
		a.bp_len = 8;
		a.bp_addr = (uintptr_t)&words[n];
		fds[n] = open_ev(&a, 0, -1, -1, 0);
		if (fds[n] < 0) {
			err = -fds[n];
			break;
		}
	}
	printf("note: %d breakpoints opened before %s\n", n, strerror(err));
	CHECK_EQ_INT(err, ENOSPC);
#if defined(__x86_64__) || defined(__i386__)
	CHECK_EQ_INT(n, 4);
#endif
	expect_kind("enospc", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_NO_BP_SLOT,
		    "no free hardware breakpoint slot", NULL);
	while (n-- > 0)
		close(fds[n]);

	/* EOPNOTSUPP: branch stacks and aux_output on a software event. */
	base(&a);
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	err = must_fail("branch stack", open_ev(&a, 0, -1, -1, 0), EOPNOTSUPP, 0);
	expect_kind("branch stack", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_BRANCH_STACK,
		    "branch stack sampling", NULL);
	base(&a);
	a.aux_output = 1;
	err = must_fail("aux_output", open_ev(&a, 0, -1, -1, 0), EOPNOTSUPP, EINVAL);
	expect_kind("aux_output", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_AUX_OUTPUT, NULL, NULL);

	/* ENOENT: unknown software config, unknown PMU type. */
	base(&a);
	a.config = 50;
	err = must_fail("sw 50", open_ev(&a, 0, -1, -1, 0), ENOENT, 0);
	expect_kind("sw 50", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_UNKNOWN_EVENT,
		    "config 50 is not a software event", NULL);
	base(&a);
	a.type = 1000;
	err = must_fail("type 1000", open_ev(&a, 0, -1, -1, 0), ENOENT, 0);
	expect_kind("type 1000", err, &a, 0, -1, -1, 0, -1, PEV_EXPLAIN_UNKNOWN_PMU,
		    "no PMU has type 1000", NULL);
}

int main(void)
{
	struct pev_system_settings s;

	if (access("/proc/sys/kernel/perf_event_paranoid", F_OK))
		T_SKIP("no /proc/sys/kernel/perf_event_paranoid: kernel without perf events");
	CHECK_OK(pev_system_settings_read(&s));
	CHECK(s.paranoid != PEV_SETTING_UNKNOWN);
	CHECK(s.max_sample_rate > 0);
	CHECK(s.max_stack > 0);
	CHECK(s.possible_cpus >= 1 && s.online_cpus >= 1 && s.online_cpus <= s.possible_cpus);
	CHECK_EQ_INT(s.euid, geteuid());
	CHECK(s.caps_known);
	CHECK(s.kernel_major >= 3);
	if (geteuid() == 0)
		CHECK(s.cap_sys_admin);
	CHECK(pev_system_settings_privileged(&s) == (s.cap_sys_admin || s.cap_perfmon));

	check_hw(&s);
	check_emfile();
	check_e2big();
	check_einval(&s);
	check_misc(&s);
	return t_done();
}
