// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* EINVAL, ENOENT, ENODEV and EOPNOTSUPP: which field the kernel or the PMU
 * refused.  Checks run in the kernel's own order (perf_copy_attr, then
 * perf_event_open, perf_event_alloc and the PMU's event_init, then the
 * group checks), so the first match names the field that failed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <perfev/explain.h>

#include "explain/explain_priv.h"
#include "core/util.h"

#define S_(x) (x)->s

static bool is_hw_type(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
	       a->type == PERF_TYPE_RAW;
}

/* True when no hardware PMU is there to take a hardware event. */
static bool no_hw_pmu(struct pev__xp *x)
{
	if (!x->have_attr || !is_hw_type(&x->a) || S_(x)->has_hw_pmu == 1)
		return false;
	pev__xp_set(x, PEV_EXPLAIN_NO_HW_PMU,
		    S_(x)->has_hw_pmu == 0 ?
		    "this machine has no hardware PMU (virtual machine?)" :
		    "this machine seems to have no hardware PMU (virtual machine?)");
	pev__xp_remedy(x, "try 'cpu-clock' or 'task-clock'");
	return true;
}

bool pev__explain_bad_cpu(struct pev__xp *x)
{
	long n = S_(x)->possible_cpus;
	int cpu = x->c.cpu;

	if (cpu < -1) {
		pev__xp_set(x, PEV_EXPLAIN_CPU_INVALID,
			    "cpu %d is not a CPU number (-1 means any CPU)", cpu);
		pev__xp_remedy(x, "pass -1 or a CPU number from 0");
		return true;
	}
	if (cpu >= 0 && n != PEV_SETTING_UNKNOWN && cpu >= n) {
		pev__xp_set(x, PEV_EXPLAIN_CPU_INVALID,
			    "cpu %d does not exist (this machine has %ld possible CPUs: 0-%ld)",
			    cpu, n, n - 1);
		pev__xp_remedy(x, "pick a CPU from 0 to %ld", n - 1);
		return true;
	}
	return false;
}

static const char *exclude_list(const struct perf_event_attr *a, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s%s%s%s",
		 a->exclude_user ? " exclude_user" : "",
		 a->exclude_kernel ? " exclude_kernel" : "",
		 a->exclude_hv ? " exclude_hv" : "",
		 a->exclude_idle ? " exclude_idle" : "",
		 a->exclude_host ? " exclude_host" : "",
		 a->exclude_guest ? " exclude_guest" : "");
	return buf[0] ? buf + 1 : buf;
}

static bool any_exclude(const struct perf_event_attr *a)
{
	return a->exclude_user || a->exclude_kernel || a->exclude_hv ||
	       a->exclude_idle || a->exclude_host || a->exclude_guest;
}

static bool valid_clockid(int id)
{
	return id == CLOCK_REALTIME || id == CLOCK_MONOTONIC ||
	       id == CLOCK_MONOTONIC_RAW || id == CLOCK_BOOTTIME || id == CLOCK_TAI;
}

/* The generic hardware events and cache events have fixed ranges. */
static bool config_out_of_range(struct pev__xp *x)
{
	const struct perf_event_attr *a = &x->a;

	if (a->type == PERF_TYPE_HARDWARE && (a->config & 0xffffffff) >= PERF_COUNT_HW_MAX) {
		pev__xp_set(x, PEV_EXPLAIN_CONFIG,
			    "config %llu is not a generic hardware event (0-%d)",
			    (unsigned long long)(a->config & 0xffffffff), PERF_COUNT_HW_MAX - 1);
		pev__xp_remedy(x, "'perfev list hw' shows the generic hardware events");
		return true;
	}
	if (a->type == PERF_TYPE_HW_CACHE) {
		uint64_t c = a->config & 0xffffffff;
		if ((c & 0xff) >= PERF_COUNT_HW_CACHE_MAX ||
		    (c >> 8 & 0xff) >= PERF_COUNT_HW_CACHE_OP_MAX ||
		    (c >> 16 & 0xff) >= PERF_COUNT_HW_CACHE_RESULT_MAX || c >> 24) {
			pev__xp_set(x, PEV_EXPLAIN_CONFIG,
				    "config 0x%llx is not a cache event (cache id | op << 8 | result << 16)",
				    (unsigned long long)c);
			pev__xp_remedy(x, "'perfev list cache' shows the cache events");
			return true;
		}
	}
	return false;
}

static bool breakpoint_invalid(struct pev__xp *x)
{
	const struct perf_event_attr *a = &x->a;
	unsigned t = a->bp_type;
	uint64_t len = a->bp_len;

	if (a->type != PERF_TYPE_BREAKPOINT)
		return false;
	if (t == 0 || t > 7 || ((t & 4) && (t & 3))) {
		pev__xp_set(x, PEV_EXPLAIN_BREAKPOINT,
			    "bp_type %u is not valid (r=1, w=2, rw=3, x=4)", t);
		pev__xp_remedy(x, "use 'mem:ADDR:rw', ':w' or ':x'");
		return true;
	}
#if defined(__x86_64__) || defined(__i386__)
	if (t == 1) {
		pev__xp_set(x, PEV_EXPLAIN_BREAKPOINT,
			    "bp_type 1 (read only): x86 has no read-only breakpoints");
		pev__xp_remedy(x, "use a read/write breakpoint ('mem:ADDR:rw')");
		return true;
	}
#endif
	if (t == 4 && len != sizeof(long)) {
		pev__xp_set(x, PEV_EXPLAIN_BREAKPOINT,
			    "bp_len %llu: an execute breakpoint covers one instruction, bp_len must be %zu",
			    (unsigned long long)len, sizeof(long));
		pev__xp_remedy(x, "set bp_len to sizeof(long) (%zu)", sizeof(long));
		return true;
	}
	if (t != 4 && len != 1 && len != 2 && len != 4 && len != 8) {
		pev__xp_set(x, PEV_EXPLAIN_BREAKPOINT,
			    "bp_len %llu is not valid: it must be 1, 2, 4 or 8",
			    (unsigned long long)len);
		pev__xp_remedy(x, "use 'mem:ADDR/LEN' with LEN 1, 2, 4 or 8");
		return true;
	}
	if (pev__explain_kernel_address(a->bp_addr) && a->exclude_kernel) {
		pev__xp_set(x, PEV_EXPLAIN_BREAKPOINT,
			    "bp_addr 0x%llx is a kernel address, but exclude_kernel is set",
			    (unsigned long long)a->bp_addr);
		pev__xp_remedy(x, "clear exclude_kernel (drop ':u'), or watch a user-space address");
		return true;
	}
	if (t != 4 && (a->bp_addr & (len - 1))) {
		pev__xp_set(x, PEV_EXPLAIN_BREAKPOINT,
			    "bp_addr 0x%llx is not aligned to bp_len %llu",
			    (unsigned long long)a->bp_addr, (unsigned long long)len);
		pev__xp_remedy(x, "align the address to the length, or use a smaller length");
		return true;
	}
	return false;
}

#if defined(__x86_64__)
/* perf_reg_validate (x86_64): no segment registers but cs/ss, nothing in
 * the gap between r15 and xmm0. */
static bool regs_bad(uint64_t mask)
{
	uint64_t nosupport = 0xfULL << 12;	/* ds, es, fs, gs */
	uint64_t gap = 0xffULL << 24;		/* bits 24..31 */

	return !mask || (mask & (nosupport | gap));
}
#else
static bool regs_bad(uint64_t mask)
{
	return !mask;
}
#endif

void pev__explain_einval(struct pev__xp *x)
{
	const struct perf_event_attr *a = &x->a;
	const struct pev_system_settings *s = x->s;
	const struct pev_explain_ctx *c = &x->c;
	uint64_t flagword;
	bool cgroup = c->flags & PERF_FLAG_PID_CGROUP;
	bool member = c->group_fd != -1 && !(c->flags & PERF_FLAG_FD_NO_GROUP);
	char buf[128];

	if (c->flags & ~(unsigned long)(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT |
					 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)) {
		pev__xp_set(x, PEV_EXPLAIN_FLAGS, "flags 0x%lx has bits the kernel does not know",
			    c->flags);
		pev__xp_remedy(x, "pass only PERF_FLAG_FD_CLOEXEC, FD_NO_GROUP, FD_OUTPUT and PID_CGROUP");
		return;
	}
	if (!x->have_attr)
		goto target;
	/* perf_copy_attr */
	memcpy(&flagword, (const char *)a + 40, sizeof(flagword));
	if ((flagword >> 38) || a->__reserved_2 || a->__reserved_3) {
		pev__xp_set(x, PEV_EXPLAIN_RESERVED_BITS,
			    "reserved attr bits are set (flag bits 0x%llx, __reserved_2 %u, __reserved_3 %u)",
			    (unsigned long long)(flagword >> 38 << 38), a->__reserved_2, a->__reserved_3);
		pev__xp_remedy(x, "clear them, or use a kernel that knows those bits");
		return;
	}
	if (a->sample_type & ~(uint64_t)(PERF_SAMPLE_MAX - 1)) {
		pev__xp_set(x, PEV_EXPLAIN_SAMPLE_TYPE,
			    "sample_type bits 0x%llx are unknown",
			    (unsigned long long)(a->sample_type & ~(uint64_t)(PERF_SAMPLE_MAX - 1)));
		pev__xp_remedy(x, "clear them, or use a newer kernel");
		return;
	}
	if (a->read_format & ~(uint64_t)(PERF_FORMAT_MAX - 1)) {
		pev__xp_set(x, PEV_EXPLAIN_READ_FORMAT,
			    "read_format bits 0x%llx are unknown",
			    (unsigned long long)(a->read_format & ~(uint64_t)(PERF_FORMAT_MAX - 1)));
		pev__xp_remedy(x, "use only PERF_FORMAT_TOTAL_TIME_ENABLED/RUNNING, ID, GROUP and LOST (Linux >= 6.0)");
		return;
	}
	if ((a->read_format & PERF_FORMAT_LOST) && pev__explain_kernel_before(s, 6, 0)) {
		pev__xp_set(x, PEV_EXPLAIN_READ_FORMAT,
			    "read_format PERF_FORMAT_LOST needs Linux 6.0 (this is %ld.%ld)",
			    s->kernel_major, s->kernel_minor);
		pev__xp_remedy(x, "drop PERF_FORMAT_LOST");
		return;
	}
	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t m = a->branch_sample_type;
		if ((m & ~(uint64_t)(PERF_SAMPLE_BRANCH_MAX - 1)) ||
		    !(m & ~(uint64_t)PERF_SAMPLE_BRANCH_PLM_ALL)) {
			pev__xp_set(x, PEV_EXPLAIN_BRANCH_TYPE,
				    (m & ~(uint64_t)(PERF_SAMPLE_BRANCH_MAX - 1)) ?
				    "branch_sample_type 0x%llx has unknown bits" :
				    "branch_sample_type 0x%llx names no branch type",
				    (unsigned long long)m);
			pev__xp_remedy(x, "set a branch type such as PERF_SAMPLE_BRANCH_ANY ('-j any')");
			return;
		}
	}
	if (((a->sample_type & PERF_SAMPLE_REGS_USER) && regs_bad(a->sample_regs_user)) ||
	    ((a->sample_type & PERF_SAMPLE_REGS_INTR) && regs_bad(a->sample_regs_intr))) {
		bool user = (a->sample_type & PERF_SAMPLE_REGS_USER) && regs_bad(a->sample_regs_user);
		pev__xp_set(x, PEV_EXPLAIN_REGS,
			    "%s 0x%llx names registers this architecture cannot sample",
			    user ? "sample_regs_user" : "sample_regs_intr",
			    (unsigned long long)(user ? a->sample_regs_user : a->sample_regs_intr));
		pev__xp_remedy(x, "'perfev record --user-regs=?' lists the registers");
		return;
	}
	if ((a->sample_type & PERF_SAMPLE_STACK_USER) &&
	    (a->sample_stack_user % 8 || a->sample_stack_user >= 65535)) {
		pev__xp_set(x, PEV_EXPLAIN_STACK_USER_SIZE,
			    "sample_stack_user %u must be a multiple of 8 below 65535",
			    a->sample_stack_user);
		pev__xp_remedy(x, "round it to a multiple of 8 (at most 65528)");
		return;
	}
	if ((a->sample_type & PERF_SAMPLE_WEIGHT) && (a->sample_type & PERF_SAMPLE_WEIGHT_STRUCT)) {
		pev__xp_set(x, PEV_EXPLAIN_WEIGHT,
			    "sample_type has both PERF_SAMPLE_WEIGHT and PERF_SAMPLE_WEIGHT_STRUCT");
		pev__xp_remedy(x, "keep one of them");
		return;
	}
	if (a->inherit_thread && !a->inherit) {
		pev__xp_set(x, PEV_EXPLAIN_INHERIT_THREAD, "inherit_thread is set without inherit");
		pev__xp_remedy(x, "set inherit too, or clear inherit_thread");
		return;
	}
	if (a->remove_on_exec && a->enable_on_exec) {
		pev__xp_set(x, PEV_EXPLAIN_REMOVE_ON_EXEC,
			    "remove_on_exec and enable_on_exec are both set");
		pev__xp_remedy(x, "keep one of them");
		return;
	}
	if (a->sigtrap && !a->remove_on_exec) {
		pev__xp_set(x, PEV_EXPLAIN_SIGTRAP_NO_REMOVE, "sigtrap needs remove_on_exec");
		pev__xp_remedy(x, "set remove_on_exec too");
		return;
	}
	if ((a->sample_type & PERF_SAMPLE_READ) && a->inherit &&
	    (!(a->sample_type & PERF_SAMPLE_TID) || pev__explain_kernel_before(s, 6, 12))) {
		if (pev__explain_kernel_before(s, 6, 12)) {
			pev__xp_set(x, PEV_EXPLAIN_INHERIT_SAMPLE_READ,
				    "inherit with PERF_SAMPLE_READ needs Linux 6.12 (this is %ld.%ld)",
				    s->kernel_major, s->kernel_minor);
			pev__xp_remedy(x, "drop inherit ('--no-inherit') or PERF_SAMPLE_READ");
		} else {
			pev__xp_set(x, PEV_EXPLAIN_INHERIT_SAMPLE_READ,
				    "inherit with PERF_SAMPLE_READ needs PERF_SAMPLE_TID too");
			pev__xp_remedy(x, "add PERF_SAMPLE_TID, or drop inherit ('--no-inherit')");
		}
		return;
	}
	/* perf_event_open */
	if (a->freq && s->max_sample_rate != PEV_SETTING_UNKNOWN &&
	    a->sample_freq > (uint64_t)s->max_sample_rate) {
		pev__xp_set(x, PEV_EXPLAIN_SAMPLE_FREQ,
			    "sample_freq %llu Hz is above kernel.perf_event_max_sample_rate (%ld)",
			    (unsigned long long)a->sample_freq, s->max_sample_rate);
		pev__xp_remedy(x, "use -F %ld or lower, or as root run 'sysctl -w kernel.perf_event_max_sample_rate=%llu'",
			       s->max_sample_rate, (unsigned long long)a->sample_freq);
		return;
	}
	if (!a->freq && (a->sample_period >> 63)) {
		pev__xp_set(x, PEV_EXPLAIN_SAMPLE_PERIOD,
			    "sample_period 0x%llx has bit 63 set",
			    (unsigned long long)a->sample_period);
		pev__xp_remedy(x, "use a period below 2^63");
		return;
	}
target:
	if (cgroup && (c->pid == -1 || c->cpu == -1)) {
		pev__xp_set(x, PEV_EXPLAIN_CGROUP_NEEDS_CPU,
			    "a cgroup event needs a cgroup fd and one CPU (pid %d, cpu %d)",
			    (int)c->pid, c->cpu);
		pev__xp_remedy(x, "open one event per CPU ('-a' or '-C LIST' with '-G')");
		return;
	}
	if (pev__explain_bad_cpu(x))
		return;
	if (c->pid == -1 && c->cpu == -1) {
		pev__xp_set(x, PEV_EXPLAIN_ANY_PID_ANY_CPU,
			    "pid -1 with cpu -1 (every process on every CPU) is not allowed");
		pev__xp_remedy(x, "open one event per CPU (pid -1, cpu 0..N-1), or name a process");
		return;
	}
	if (!x->have_attr)
		goto group;
	if (a->sigtrap && c->pid == -1) {
		pev__xp_set(x, PEV_EXPLAIN_SIGTRAP_NEEDS_TASK,
			    "sigtrap needs a task to signal, not a whole CPU (pid -1)");
		pev__xp_remedy(x, "open it on a thread (pid >= 0)");
		return;
	}
	/* perf_event_alloc and the PMU's event_init */
	if (breakpoint_invalid(x) || config_out_of_range(x))
		return;
	if (a->type == PERF_TYPE_TRACEPOINT) {
		pev__xp_set(x, PEV_EXPLAIN_TRACEPOINT_ID,
			    "no tracepoint has id %llu", (unsigned long long)a->config);
		pev__xp_remedy(x, "take the id from /sys/kernel/tracing/events/SYSTEM/NAME/id, or name the event ('sched:sched_switch')");
		return;
	}
	if (a->use_clockid && !valid_clockid(a->clockid)) {
		pev__xp_set(x, PEV_EXPLAIN_CLOCKID, "clockid %d is not a clock perf supports",
			    a->clockid);
		pev__xp_remedy(x, "use CLOCK_MONOTONIC (1), CLOCK_MONOTONIC_RAW (4), CLOCK_REALTIME (0), CLOCK_BOOTTIME (7) or CLOCK_TAI (11)");
		return;
	}
	if (a->aux_output) {
		pev__xp_set(x, PEV_EXPLAIN_AUX_OUTPUT,
			    "aux_output needs an AUX-area event (e.g. intel_pt) as group leader");
		pev__xp_remedy(x, "drop aux_output, or lead the group with an intel_pt event");
		return;
	}
	/* Dynamic PMUs (uncore, msr, ...) refuse what they cannot do with
	 * EINVAL rather than EOPNOTSUPP. */
	if (a->type >= PERF_TYPE_MAX && a->sample_period) {
		pev__xp_set(x, PEV_EXPLAIN_NO_SAMPLING,
			    "this PMU (type %u) cannot sample, it only counts", a->type);
		pev__xp_remedy(x, "count it ('perfev stat') instead of sampling it");
		return;
	}
	if (a->type >= PERF_TYPE_MAX && any_exclude(a)) {
		pev__xp_set(x, PEV_EXPLAIN_EXCLUDE_UNSUPPORTED,
			    "this PMU (type %u) cannot filter by privilege level (%s)",
			    a->type, exclude_list(a, buf, sizeof(buf)));
		pev__xp_remedy(x, "drop the ':u'/':k' modifiers (exclude_* bits)");
		return;
	}
group:
	if (member && x->have_attr && (a->pinned || a->exclusive)) {
		pev__xp_set(x, PEV_EXPLAIN_GROUP_PINNED,
			    "only a group leader can be %s (this event joins group_fd %d)",
			    a->pinned ? "pinned" : "exclusive", c->group_fd);
		pev__xp_remedy(x, "set pinned/exclusive on the leader only");
		return;
	}
	if (member) {
		pev__xp_set(x, PEV_EXPLAIN_GROUP_MISMATCH,
			    "this event and its group leader (group_fd %d) differ in CPU, task, inherit or clock",
			    c->group_fd);
		pev__xp_remedy(x, "open members with the leader's pid and cpu, and the same inherit and clockid");
		return;
	}
	if (x->have_attr && a->precise_ip && is_hw_type(a)) {
		pev__xp_set(x, PEV_EXPLAIN_PRECISE,
			    "precise_ip=%u (':p' modifiers) is not supported for this event",
			    a->precise_ip);
		pev__xp_remedy(x, "use fewer 'p' modifiers");
		return;
	}
	if (x->have_attr)
		pev__xp_set(x, PEV_EXPLAIN_INVALID,
			    "the kernel or the PMU refused the attr (type %u, config 0x%llx out of range, or a setting the PMU does not support)",
			    a->type, (unsigned long long)a->config);
	else
		pev__xp_set(x, PEV_EXPLAIN_INVALID, "the kernel refused the attr or the arguments");
	pev__xp_remedy(x, "check config against the PMU's format in /sys/bus/event_source/devices/PMU/format");
}

/* The sysfs name of the PMU with this type number, when settings are live. */
static bool pmu_name(unsigned type, char *name, size_t size)
{
	const char *dir = "/sys/bus/event_source/devices";
	char path[512], buf[32];
	struct dirent *e;
	DIR *d = opendir(dir);
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", dir, e->d_name);
		if (pev__read_small(AT_FDCWD, path, buf, sizeof(buf)) >= 0 &&
		    strtoul(buf, NULL, 10) == type) {
			size_t n = strnlen(e->d_name, size - 1);
			memcpy(name, e->d_name, n);
			name[n] = '\0';
			found = true;
		}
	}
	closedir(d);
	return found;
}

static bool cpu_offline(struct pev__xp *x)
{
	char path[96], buf[16];

	if (x->c.cpu < 0)
		return false;
	if (x->live) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", x->c.cpu);
		return pev__read_small(AT_FDCWD, path, buf, sizeof(buf)) >= 0 && buf[0] == '0';
	}
	return S_(x)->online_cpus != PEV_SETTING_UNKNOWN &&
	       S_(x)->possible_cpus != PEV_SETTING_UNKNOWN &&
	       S_(x)->online_cpus < S_(x)->possible_cpus;
}

void pev__explain_noent(struct pev__xp *x, int err)
{
	const struct perf_event_attr *a = &x->a;
	char buf[128];

	if (no_hw_pmu(x))
		return;
	if (err == ENODEV) {
		if (pev__explain_bad_cpu(x))
			return;
		if (cpu_offline(x)) {
			pev__xp_set(x, PEV_EXPLAIN_CPU_OFFLINE, "cpu %d is offline", x->c.cpu);
			pev__xp_remedy(x, "as root run 'echo 1 > /sys/devices/system/cpu/cpu%d/online', or pick an online CPU",
				       x->c.cpu);
			return;
		}
		if (x->c.cpu >= 0)
			pev__xp_set(x, PEV_EXPLAIN_PMU_CPU_MISMATCH,
				    "the event's PMU does not cover cpu %d (a hybrid core type, or a PMU bound to other CPUs), or this CPU lacks a feature it needs",
				    x->c.cpu);
		else
			pev__xp_set(x, PEV_EXPLAIN_PMU_CPU_MISMATCH,
				    "this CPU lacks a feature the event needs, or the PMU only counts on particular CPUs");
		pev__xp_remedy(x, "use a CPU from the PMU's cpumask (/sys/bus/event_source/devices/PMU/cpumask)");
		return;
	}
	if (err == EOPNOTSUPP && x->have_attr) {
		if (a->sample_type & PERF_SAMPLE_BRANCH_STACK) {
			pev__xp_set(x, PEV_EXPLAIN_BRANCH_STACK,
				    "branch stack sampling (PERF_SAMPLE_BRANCH_STACK, '-b'/'-j') is not supported by %s",
				    is_hw_type(a) ? "this CPU's PMU" : "this PMU (only hardware events have branch stacks)");
			pev__xp_remedy(x, "drop '-b'/'-j', or sample a hardware event on a CPU with LBR/BRBE");
			return;
		}
		if (a->aux_output) {
			pev__xp_set(x, PEV_EXPLAIN_AUX_OUTPUT,
				    "aux_output is not supported by this PMU (it needs an AUX-area event such as intel_pt as leader)");
			pev__xp_remedy(x, "drop aux_output");
			return;
		}
		if (a->precise_ip) {
			pev__xp_set(x, PEV_EXPLAIN_PRECISE,
				    "precise_ip=%u (':p' modifiers) is not supported by this PMU",
				    a->precise_ip);
			pev__xp_remedy(x, "use fewer 'p' modifiers (':P' picks the highest that works)");
			return;
		}
		if (a->sample_period && a->type != PERF_TYPE_SOFTWARE &&
		    a->type != PERF_TYPE_TRACEPOINT && a->type != PERF_TYPE_BREAKPOINT) {
			pev__xp_set(x, PEV_EXPLAIN_NO_SAMPLING,
				    "this PMU cannot sample (it has no overflow interrupt)");
			pev__xp_remedy(x, "count it ('perfev stat') instead, or sample 'cpu-clock'");
			return;
		}
		if (a->exclude_user || a->exclude_idle || a->exclude_hv || a->exclude_host ||
		    a->exclude_guest || a->exclude_kernel) {
			pev__xp_set(x, PEV_EXPLAIN_EXCLUDE_UNSUPPORTED,
				    "this PMU cannot honour %s", exclude_list(a, buf, sizeof(buf)));
			pev__xp_remedy(x, "drop the ':u'/':k'/':h' modifiers (exclude_* bits)");
			return;
		}
		pev__xp_set(x, PEV_EXPLAIN_UNKNOWN_EVENT,
			    "the PMU does not support this event or one of its settings");
		pev__xp_remedy(x, "'perfev list' shows the events this machine has");
		return;
	}
	/* ENOENT (or EOPNOTSUPP without an attr) */
	if (!x->have_attr) {
		pev__xp_set(x, PEV_EXPLAIN_UNKNOWN_EVENT, "the kernel does not know this event");
		pev__xp_remedy(x, "'perfev list' shows the events this machine has");
		return;
	}
	if (config_out_of_range(x)) {
		x->out->kind = PEV_EXPLAIN_UNKNOWN_EVENT;
		return;
	}
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
	    a->type == PERF_TYPE_RAW) {
		pev__xp_set(x, PEV_EXPLAIN_UNKNOWN_EVENT,
			    "this CPU's PMU does not support this event");
		pev__xp_remedy(x, "'perfev list' shows the events this CPU has");
		return;
	}
	if (a->type == PERF_TYPE_SOFTWARE) {
		pev__xp_set(x, PEV_EXPLAIN_UNKNOWN_EVENT,
			    "config %llu is not a software event this kernel knows",
			    (unsigned long long)a->config);
		pev__xp_remedy(x, "'perfev list sw' shows the software events");
		return;
	}
	if (a->type == PERF_TYPE_TRACEPOINT) {
		pev__xp_set(x, PEV_EXPLAIN_TRACEPOINT_ID,
			    "no tracepoint has id %llu", (unsigned long long)a->config);
		pev__xp_remedy(x, "take the id from /sys/kernel/tracing/events/SYSTEM/NAME/id");
		return;
	}
	if (a->type >= PERF_TYPE_MAX) {
		char name[64];
		if (x->live && pmu_name(a->type, name, sizeof(name))) {
			pev__xp_set(x, PEV_EXPLAIN_UNKNOWN_EVENT,
				    "the '%s' PMU (type %u) has no event with config 0x%llx",
				    name, a->type, (unsigned long long)a->config);
			pev__xp_remedy(x, "see /sys/bus/event_source/devices/%s/events and format", name);
			return;
		}
		pev__xp_set(x, PEV_EXPLAIN_UNKNOWN_PMU, "no PMU has type %u", a->type);
		pev__xp_remedy(x, "take the type from /sys/bus/event_source/devices/PMU/type");
		return;
	}
	pev__xp_set(x, PEV_EXPLAIN_UNKNOWN_EVENT, "the kernel does not know event type %u",
		    a->type);
	pev__xp_remedy(x, "'perfev list' shows the events this machine has");
}
