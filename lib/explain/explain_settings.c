// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The live system settings that decide whether perf_event_open succeeds:
 * sysctls, limits, CPUs, credentials and capabilities, kernel version. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <perfev/explain.h>
#include <perfev/probe.h>
#include <perfev/sys.h>

#include "explain/explain_priv.h"
#include "core/util.h"

PEV_EXPORT void pev_system_settings_init(struct pev_system_settings *s)
{
	if (!s)
		return;
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->paranoid = s->max_sample_rate = s->mlock_kb = s->max_stack =
		s->kptr_restrict = s->nofile_soft = s->nofile_hard =
		s->possible_cpus = s->online_cpus = s->euid =
		s->kernel_major = s->kernel_minor = s->attr_size =
		PEV_SETTING_UNKNOWN;
	s->caps_known = false;
	s->has_hw_pmu = -1;
	s->seccomp_mode = -1;
	s->seccomp_filters = PEV_SETTING_UNKNOWN;
	s->probe_err = -1;
}

static long sysctl_or_unknown(enum pev_sysctl which)
{
	long v;

	return pev_sysctl_read(which, &v) == 0 ? v : PEV_SETTING_UNKNOWN;
}

/* A CPU list ("0-3,8,10-11"): how many CPUs it names and the highest. */
static int cpulist(const char *text, long *count, long *highest)
{
	const char *p = text;
	long n = 0, hi = -1;

	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b;
		if (end == p || a < 0)
			return -EINVAL;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return -EINVAL;
			p = end;
		}
		n += b - a + 1;
		if (b > hi)
			hi = b;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	*count = n;
	*highest = hi;
	return n ? 0 : -EINVAL;
}

/* The effective capability mask and the seccomp state from
 * /proc/self/status. */
static void proc_status(struct pev_system_settings *s)
{
	char buf[4096];
	const char *p;

	if (pev__read_small(AT_FDCWD, "/proc/self/status", buf, sizeof(buf)) < 0)
		return;
	if ((p = strstr(buf, "\nCapEff:"))) {
		uint64_t caps = strtoull(p + 8, NULL, 16);
		s->caps_known = true;
		s->cap_perfmon = caps >> 38 & 1;
		s->cap_sys_admin = caps >> 21 & 1;
		s->cap_ipc_lock = caps >> 14 & 1;
		s->cap_kill = caps >> 5 & 1;
	}
	/* Seccomp: since 3.8; absent without CONFIG_SECCOMP (then none). */
	if ((p = strstr(buf, "\nSeccomp:")))
		s->seccomp_mode = (int)strtol(p + 9, NULL, 10);
	else
		s->seccomp_mode = 0;
	if ((p = strstr(buf, "\nSeccomp_filters:")))
		s->seccomp_filters = strtol(p + 17, NULL, 10);
}

/* Open what every user may open at paranoid <= 2: task-clock of this
 * process, user space only.  Its errno tells a wholesale block (seccomp,
 * a security module) from a refusal of one event. */
static int probe_trivial_open(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
}

int pev__explain_proc_uid(pid_t pid, uid_t *uid)
{
	char path[64], buf[4096];
	const char *p;
	unsigned long real, eff;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (pev__read_small(AT_FDCWD, path, buf, sizeof(buf)) < 0 ||
	    !(p = strstr(buf, "\nUid:")))
		return -ENOENT;
	/* Uid: real effective saved fs; ptrace compares against all, the
	 * real one is the owner people know. */
	if (sscanf(p + 5, "%lu %lu", &real, &eff) != 2)
		return -EINVAL;
	*uid = (uid_t)real;
	return 0;
}

PEV_EXPORT int pev_system_settings_read(struct pev_system_settings *s)
{
	struct rlimit rl;
	struct utsname u;
	char buf[256];
	long count, hi;

	if (!s)
		return -EINVAL;
	pev_system_settings_init(s);
	s->paranoid = sysctl_or_unknown(PEV_SYSCTL_PARANOID);
	s->max_sample_rate = sysctl_or_unknown(PEV_SYSCTL_MAX_SAMPLE_RATE);
	s->mlock_kb = sysctl_or_unknown(PEV_SYSCTL_MLOCK_KB);
	s->max_stack = sysctl_or_unknown(PEV_SYSCTL_MAX_STACK);
	s->kptr_restrict = sysctl_or_unknown(PEV_SYSCTL_KPTR_RESTRICT);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		s->nofile_soft = rl.rlim_cur == RLIM_INFINITY ? LONG_MAX : (long)rl.rlim_cur;
		s->nofile_hard = rl.rlim_max == RLIM_INFINITY ? LONG_MAX : (long)rl.rlim_max;
	}
	if (pev__read_small(AT_FDCWD, "/sys/devices/system/cpu/possible", buf, sizeof(buf)) >= 0 &&
	    cpulist(buf, &count, &hi) == 0)
		s->possible_cpus = hi + 1;
	if (pev__read_small(AT_FDCWD, "/sys/devices/system/cpu/online", buf, sizeof(buf)) >= 0 &&
	    cpulist(buf, &count, &hi) == 0)
		s->online_cpus = count;
	s->euid = (long)geteuid();
	proc_status(s);
	s->probe_err = probe_trivial_open();
	if (uname(&u) == 0) {
		int major, minor;
		if (sscanf(u.release, "%d.%d", &major, &minor) == 2) {
			s->kernel_major = major;
			s->kernel_minor = minor;
		}
	}
	int sz = pev_probe_attr_size();
	if (sz > 0)
		s->attr_size = sz;
	int hw = pev_probe(PEV_FEAT_HW_PMU);
	s->has_hw_pmu = hw == 0 || hw == 1 ? hw : -1;
	return 0;
}

PEV_EXPORT bool pev_system_settings_privileged(const struct pev_system_settings *s)
{
	if (!s || !s->caps_known)
		return false;
	if (s->cap_sys_admin)
		return true;
	/* CAP_PERFMON exists since 5.8; older kernels only honour SYS_ADMIN. */
	return s->cap_perfmon && !pev__explain_kernel_before(s, 5, 8);
}

bool pev__explain_kernel_before(const struct pev_system_settings *s, long major, long minor)
{
	if (s->kernel_major == PEV_SETTING_UNKNOWN)
		return false;
	return s->kernel_major < major ||
	       (s->kernel_major == major && s->kernel_minor < minor);
}
