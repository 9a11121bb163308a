// SPDX-License-Identifier: GPL-2.0-only
/* pev_explain: one case per errno of perf_event_open(2) and per EINVAL
 * field, with hand-made system settings (deterministic, no kernel). */
#include <time.h>
#include <perfev/perfev.h>
#include "testutil.h"

typedef void (*mut_fn)(struct perf_event_attr *a, struct pev_explain_ctx *c,
		       struct pev_system_settings *s);

struct tcase {
	const char *name;
	int err;
	mut_fn mut;
	enum pev_explain_kind kind;
	const char *want[4];	/* substrings of the full line */
};

#define M(fn, body) static void fn(struct perf_event_attr *a, struct pev_explain_ctx *c, \
				   struct pev_system_settings *s) { (void)a; (void)c; (void)s; body; }

static void base_settings(struct pev_system_settings *s)
{
	pev_system_settings_init(s);
	s->paranoid = 2;
	s->max_sample_rate = 100000;
	s->mlock_kb = 516;
	s->max_stack = 127;
	s->kptr_restrict = 0;
	s->nofile_soft = 1024;
	s->nofile_hard = 4096;
	s->possible_cpus = 2;
	s->online_cpus = 2;
	s->euid = 1000;
	s->kernel_major = 6;
	s->kernel_minor = 18;
	s->attr_size = 136;
	s->caps_known = true;
	s->has_hw_pmu = 0;
}

M(m_none, )
/* E2BIG */
M(m_size_small, a->size = 32)
M(m_size_page, a->size = 8192)
M(m_unknown_cfg3, s->attr_size = 128; c->first_unknown_offset = 128)
M(m_unknown_far, c->first_unknown_offset = 5000)
M(m_group_big, )
/* EACCES / EPERM */
M(m_cpu_wide, c->pid = -1; c->cpu = 0)
M(m_cpu_wide_kernel, c->pid = -1; c->cpu = 0; a->exclude_kernel = 0)
M(m_kernel, a->exclude_kernel = 0)
M(m_kernel_old, a->exclude_kernel = 0; s->kernel_major = 5; s->kernel_minor = 4)
M(m_kernel_kptr, a->exclude_kernel = 0; a->sample_period = 4000; s->kptr_restrict = 1)
M(m_tp_raw, a->type = PERF_TYPE_TRACEPOINT; a->config = 300; a->sample_period = 1;
  a->sample_type = PERF_SAMPLE_RAW; c->pid = -1; c->cpu = 0)
M(m_paranoid3, s->paranoid = 3)
M(m_paranoid4_cpu, s->paranoid = 4; c->pid = -1; c->cpu = 1)
M(m_paranoid_unknown_cpu, s->paranoid = PEV_SETTING_UNKNOWN; c->pid = -1; c->cpu = 1)
M(m_other_user, c->pid = 1234; c->target_uid_known = true; c->target_uid = 0)
M(m_perfmon_cpu, s->cap_perfmon = true; c->pid = -1; c->cpu = 0)
M(m_perfmon_old_cpu, s->cap_perfmon = true; s->kernel_major = 5; s->kernel_minor = 4;
  c->pid = -1; c->cpu = 0)
M(m_bp_kernel, a->type = PERF_TYPE_BREAKPOINT; a->bp_type = 2; a->bp_len = 8;
  a->bp_addr = 0xffffffff81000000ULL; a->exclude_kernel = 0; s->paranoid = -1)
M(m_perm_exclude, s->cap_sys_admin = true; a->type = PERF_TYPE_HARDWARE; s->has_hw_pmu = 1;
  a->exclude_idle = 1; s->seccomp_mode = 0; s->probe_err = 0)
/* perf_event_open blocked wholesale: the trivial probe got the same errno. */
M(m_seccomp_eperm, s->seccomp_mode = 2; s->seccomp_filters = 3; s->probe_err = EPERM;
  a->exclude_guest = 1)
M(m_seccomp_cpu, s->seccomp_mode = 2; s->seccomp_filters = 1; s->probe_err = EPERM;
  c->pid = -1; c->cpu = 0)
M(m_seccomp_enosys, s->seccomp_mode = 2; s->seccomp_filters = 1; s->probe_err = ENOSYS)
M(m_seccomp_enosys_unprobed, s->seccomp_mode = 2; s->seccomp_filters = 1)
M(m_lsm_all, s->seccomp_mode = 0; s->probe_err = EACCES; a->exclude_guest = 1)
/* Exclude bits set, but the probe shows perf_event_open refused wholesale
 * without seccomp (paranoid 3 here): not an exclude problem. */
M(m_exclude_no_evidence, s->cap_sys_admin = true; a->type = PERF_TYPE_HARDWARE;
  s->has_hw_pmu = 1; a->exclude_idle = 1; s->seccomp_mode = 0; s->probe_err = -1)
M(m_seccomp_paranoid_unknown, s->seccomp_mode = 2; s->probe_err = EPERM;
  s->paranoid = PEV_SETTING_UNKNOWN)
M(m_enosys_no_seccomp, s->seccomp_mode = 0; s->probe_err = ENOSYS;
  s->paranoid = PEV_SETTING_UNKNOWN)
M(m_sigtrap_other, a->sigtrap = 1; a->remove_on_exec = 1; c->pid = 1234;
  c->target_uid_known = true; c->target_uid = 0)
M(m_namespaces, a->namespaces = 1)
M(m_lockdown, s->cap_sys_admin = true; a->sample_period = 1;
  a->sample_type = PERF_SAMPLE_REGS_INTR; a->sample_regs_intr = 1; a->exclude_kernel = 0;
  a->exclude_hv = 0)
M(m_denied_plain, s->paranoid = 2)
/* EBADF .. ESRCH */
M(m_group_fd, c->group_fd = 7)
M(m_cgroup_fd, c->flags = PERF_FLAG_PID_CGROUP; c->pid = 42; c->cpu = 0)
M(m_exclusive, a->exclusive = 1)
M(m_nofile_same, s->nofile_soft = 1024; s->nofile_hard = 1024)
M(m_nofile_unl, s->nofile_soft = 1024; s->nofile_hard = LONG_MAX)
M(m_cycles, a->type = PERF_TYPE_HARDWARE; a->config = PERF_COUNT_HW_CPU_CYCLES)
M(m_cache, a->type = PERF_TYPE_HW_CACHE; a->config = 0x10000)
M(m_raw, a->type = PERF_TYPE_RAW; a->config = 0x3c)
M(m_sw_offline, s->online_cpus = 1; c->cpu = 1)
M(m_mismatch, s->has_hw_pmu = 1; a->type = PERF_TYPE_RAW; a->config = 0x3c; c->cpu = 1)
M(m_sw_unknown, a->config = 50)
M(m_type_99, a->type = 99)
M(m_hw_cfg20, s->has_hw_pmu = 1; a->type = PERF_TYPE_HARDWARE; a->config = 20)
M(m_hw_unsupported, s->has_hw_pmu = 1; a->type = PERF_TYPE_HARDWARE;
  a->config = PERF_COUNT_HW_REF_CPU_CYCLES)
M(m_tp_noent, a->type = PERF_TYPE_TRACEPOINT; a->config = 999999)
M(m_branch_sw, a->sample_period = 1; a->sample_type = PERF_SAMPLE_BRANCH_STACK;
  a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY)
M(m_precise, s->has_hw_pmu = 1; a->type = PERF_TYPE_HARDWARE; a->precise_ip = 3;
  a->sample_period = 100000)
M(m_msr_sample, a->type = 9; a->exclude_kernel = 0; a->exclude_hv = 0; a->sample_period = 1000)
M(m_hw_exclude, s->has_hw_pmu = 1; a->type = PERF_TYPE_HARDWARE; a->exclude_guest = 1)
M(m_aux_output, a->aux_output = 1)
M(m_bp, a->type = PERF_TYPE_BREAKPOINT; a->bp_type = 2; a->bp_len = 8; a->bp_addr = 0x1000)
M(m_stack_user, a->sample_period = 1; a->sample_type = PERF_SAMPLE_STACK_USER;
  a->sample_stack_user = 8192)
M(m_max_stack, a->sample_period = 1; a->sample_type = PERF_SAMPLE_CALLCHAIN;
  a->sample_max_stack = 1000)
M(m_esrch, c->pid = 999999)
/* EINVAL */
M(m_flags, c->flags = 0x100)
M(m_reserved, { uint64_t w; memcpy(&w, (char *)a + 40, 8); w |= 1ULL << 40;
  memcpy((char *)a + 40, &w, 8); })
M(m_reserved3, a->__reserved_3 = 5)
M(m_sample_type, a->sample_type = 1ULL << 40)
M(m_read_format, a->read_format = 1ULL << 10)
M(m_format_lost_old, a->read_format = PERF_FORMAT_LOST; s->kernel_major = 5; s->kernel_minor = 19)
M(m_branch_bits, a->sample_period = 1; a->sample_type = PERF_SAMPLE_BRANCH_STACK;
  a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | 1ULL << 50)
M(m_branch_none, a->sample_period = 1; a->sample_type = PERF_SAMPLE_BRANCH_STACK;
  a->branch_sample_type = PERF_SAMPLE_BRANCH_USER)
M(m_regs_zero, a->sample_period = 1; a->sample_type = PERF_SAMPLE_REGS_USER;
  a->sample_regs_user = 0)
M(m_stack_align, a->sample_period = 1; a->sample_type = PERF_SAMPLE_STACK_USER |
  PERF_SAMPLE_REGS_USER; a->sample_regs_user = 1; a->sample_stack_user = 12)
M(m_weight, a->sample_period = 1; a->sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)
M(m_inherit_thread, a->inherit_thread = 1)
M(m_roe_eoe, a->remove_on_exec = 1; a->enable_on_exec = 1)
M(m_sigtrap, a->sigtrap = 1)
M(m_inherit_read, a->inherit = 1; a->sample_period = 1000; a->sample_type = PERF_SAMPLE_READ)
M(m_inherit_read_old, a->inherit = 1; a->sample_period = 1000;
  a->sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID; s->kernel_major = 6; s->kernel_minor = 1)
M(m_freq, a->freq = 1; a->sample_freq = 101000)
M(m_freq_and_cpu, a->freq = 1; a->sample_freq = 101000; c->cpu = 9)
M(m_period63, a->sample_period = 1ULL << 63)
M(m_cgroup_nocpu, c->flags = PERF_FLAG_PID_CGROUP; c->pid = 5; c->cpu = -1)
M(m_cpu7, c->pid = -1; c->cpu = 7)
M(m_cpu_neg, c->cpu = -2)
M(m_any_any, c->pid = -1; c->cpu = -1)
M(m_pinned_member, a->pinned = 1; c->group_fd = 3)
M(m_excl_member, a->exclusive = 1; c->group_fd = 3)
M(m_no_group_flag, a->pinned = 1; c->group_fd = 3; c->flags = PERF_FLAG_FD_NO_GROUP)
M(m_sigtrap_cpu, a->sigtrap = 1; a->remove_on_exec = 1; c->pid = -1; c->cpu = 0)
M(m_clockid, a->use_clockid = 1; a->clockid = 99)
M(m_clockid_ok_mismatch, a->use_clockid = 1; a->clockid = CLOCK_MONOTONIC_RAW; c->group_fd = 4)
#if defined(__x86_64__) || defined(__i386__)	/* only x86 refuses read-only breakpoints */
M(m_bp_read, a->type = PERF_TYPE_BREAKPOINT; a->bp_type = 1; a->bp_len = 4; a->bp_addr = 0x1000)
#endif
M(m_bp_len3, a->type = PERF_TYPE_BREAKPOINT; a->bp_type = 2; a->bp_len = 3; a->bp_addr = 0x1000)
M(m_bp_align, a->type = PERF_TYPE_BREAKPOINT; a->bp_type = 3; a->bp_len = 8; a->bp_addr = 0x1004)
M(m_bp_exec, a->type = PERF_TYPE_BREAKPOINT; a->bp_type = 4; a->bp_len = 4; a->bp_addr = 0x1000)
M(m_bp_type0, a->type = PERF_TYPE_BREAKPOINT; a->bp_type = 0; a->bp_len = 4; a->bp_addr = 0x1000)
M(m_bp_kernel_u, a->type = PERF_TYPE_BREAKPOINT; a->bp_type = 2; a->bp_len = 8;
  a->bp_addr = 0xffffffff81000000ULL)
M(m_group_mismatch, c->group_fd = 3; c->pid = 0; c->cpu = 1)
M(m_cache_bad, a->type = PERF_TYPE_HW_CACHE; a->config = 0x090000; s->has_hw_pmu = 1)
M(m_tp_inval, a->type = PERF_TYPE_TRACEPOINT; a->config = 999999)
M(m_msr_exclude, a->type = 9)
M(m_precise_inval, s->has_hw_pmu = 1; a->type = PERF_TYPE_HARDWARE; a->precise_ip = 2)

static const struct tcase cases[] = {
	{ "e2big size small", E2BIG, m_size_small, PEV_EXPLAIN_ATTR_SIZE,
	  { "attr.size 32 is below the smallest attr (64 bytes)", "sizeof(struct perf_event_attr)" } },
	{ "e2big size page", E2BIG, m_size_page, PEV_EXPLAIN_ATTR_SIZE, { "attr.size 8192 is above a page" } },
	{ "e2big config3", E2BIG, m_unknown_cfg3, PEV_EXPLAIN_ATTR_UNKNOWN_FIELD,
	  { "attr byte 128 (config3, Linux 6.3) is set", "knows only the first 128 bytes", "use a kernel >= 6.3" } },
	{ "e2big far", E2BIG, m_unknown_far, PEV_EXPLAIN_ATTR_UNKNOWN_FIELD,
	  { "attr byte 5000 (beyond every field", "first 136 bytes", "leave that byte zero" } },
	{ "e2big group", E2BIG, m_group_big, PEV_EXPLAIN_GROUP_TOO_BIG, { "too many events in one group", "split" } },

	{ "eacces cpu-wide", EACCES, m_cpu_wide, PEV_EXPLAIN_PARANOID_CPU,
	  { "system-wide (per-CPU) counting (pid -1, cpu 0) needs CAP_PERFMON or kernel.perf_event_paranoid <= 0, and it is 2",
	    "as root run 'sysctl -w kernel.perf_event_paranoid=0'", "your own processes" } },
	{ "eacces cpu-wide kernel", EACCES, m_cpu_wide_kernel, PEV_EXPLAIN_PARANOID_CPU,
	  { "'sysctl -w kernel.perf_event_paranoid=0'" } },
	{ "eacces kernel", EACCES, m_kernel, PEV_EXPLAIN_PARANOID_KERNEL,
	  { "counting kernel space (exclude_kernel=0) needs CAP_PERFMON or kernel.perf_event_paranoid <= 1, and it is 2",
	    "':u' modifier", "as root run 'sysctl -w kernel.perf_event_paranoid=1'" } },
	{ "eacces kernel 5.4", EACCES, m_kernel_old, PEV_EXPLAIN_PARANOID_KERNEL,
	  { "needs CAP_SYS_ADMIN or", "give the program CAP_SYS_ADMIN" } },
	{ "eacces kernel kptr", EACCES, m_kernel_kptr, PEV_EXPLAIN_PARANOID_KERNEL,
	  { "kernel.kptr_restrict=1", "'sysctl -w kernel.kptr_restrict=0'" } },
	{ "eacces tracepoint raw", EACCES, m_tp_raw, PEV_EXPLAIN_PARANOID_TRACEPOINT,
	  { "raw tracepoint data (PERF_SAMPLE_RAW)", "and it is 2", "'sysctl -w kernel.perf_event_paranoid=-1'" } },
	{ "eacces paranoid 3", EACCES, m_paranoid3, PEV_EXPLAIN_PARANOID_ALL,
	  { "kernel.perf_event_paranoid is 3", "denies all perf use", "'sysctl -w kernel.perf_event_paranoid=2'" } },
	{ "eacces paranoid 4 cpu", EACCES, m_paranoid4_cpu, PEV_EXPLAIN_PARANOID_CPU,
	  { "cpu 1", "and it is 4", "=0'" } },
	{ "eacces paranoid unknown", EACCES, m_paranoid_unknown_cpu, PEV_EXPLAIN_PARANOID_CPU,
	  { "its value could not be read", "=0'" } },
	{ "eacces other user", EACCES, m_other_user, PEV_EXPLAIN_OTHER_USER,
	  { "process 1234 belongs to another user (uid 0)", "ptrace", "run as that user or as root" } },
	{ "eacces perfmon", EACCES, m_perfmon_cpu, PEV_EXPLAIN_DENIED,
	  { "although the process has CAP_PERFMON", "security module" } },
	{ "eacces perfmon on 5.4", EACCES, m_perfmon_old_cpu, PEV_EXPLAIN_PARANOID_CPU,
	  { "needs CAP_SYS_ADMIN", "=0'" } },
	{ "eperm bp kernel", EPERM, m_bp_kernel, PEV_EXPLAIN_BREAKPOINT_KERNEL,
	  { "breakpoint on kernel address 0xffffffff81000000 needs CAP_SYS_ADMIN", "run as root" } },
	{ "eperm exclude", EPERM, m_perm_exclude, PEV_EXPLAIN_EXCLUDE_UNSUPPORTED,
	  { "exclude_idle=1", "drop the" } },
	{ "eperm seccomp", EPERM, m_seccomp_eperm, PEV_EXPLAIN_SECCOMP,
	  { "blocked by a seccomp filter (Seccomp: 2, 3 filters in /proc/self/status",
	    "gets EPERM", "--security-opt seccomp=unconfined" } },
	{ "eperm seccomp before paranoid", EPERM, m_seccomp_cpu, PEV_EXPLAIN_SECCOMP,
	  { "seccomp filter (Seccomp: 2, 1 filter in" } },
	{ "enosys seccomp", ENOSYS, m_seccomp_enosys, PEV_EXPLAIN_SECCOMP,
	  { "blocked by a seccomp filter", "gets ENOSYS", "allow perf_event_open" } },
	{ "enosys seccomp unprobed", ENOSYS, m_seccomp_enosys_unprobed, PEV_EXPLAIN_SECCOMP,
	  { "seccomp filter" } },
	{ "eacces all refused, no seccomp", EACCES, m_lsm_all, PEV_EXPLAIN_DENIED,
	  { "every perf_event_open of this process is refused (EACCES)",
	    "kernel.perf_event_paranoid 2 allows", "security module" } },
	{ "eperm exclude unproven", EPERM, m_exclude_no_evidence, PEV_EXPLAIN_DENIED,
	  { "security module" } },
	{ "eperm seccomp, paranoid unknown", EPERM, m_seccomp_paranoid_unknown, PEV_EXPLAIN_DENIED,
	  { "kernel.perf_event_paranoid: its value could not be read" } },
	{ "enosys no seccomp", ENOSYS, m_enosys_no_seccomp, PEV_EXPLAIN_NO_PERF_SYSCALL,
	  { "CONFIG_PERF_EVENTS" } },
	{ "eacces sigtrap", EACCES, m_sigtrap_other, PEV_EXPLAIN_SIGTRAP_PERM,
	  { "sigtrap on process 1234", "CAP_KILL" } },
	{ "eacces namespaces", EACCES, m_namespaces, PEV_EXPLAIN_NAMESPACES_PERM,
	  { "namespace records", "CAP_PERFMON" } },
	{ "eperm lockdown", EPERM, m_lockdown, PEV_EXPLAIN_LOCKDOWN, { "lockdown", "PERF_SAMPLE_REGS_INTR" } },
	{ "eacces unexplained", EACCES, m_denied_plain, PEV_EXPLAIN_DENIED,
	  { "permission denied (kernel.perf_event_paranoid: it is 2)" } },

	{ "ebadf", EBADF, m_group_fd, PEV_EXPLAIN_BAD_GROUP_FD,
	  { "group_fd 7 is not an open perf event file descriptor", "or -1 for no group" } },
	{ "ebadf cgroup", EBADF, m_cgroup_fd, PEV_EXPLAIN_BAD_CGROUP_FD,
	  { "cgroup file descriptor 42", "/sys/fs/cgroup" } },
	{ "ebusy", EBUSY, m_none, PEV_EXPLAIN_PMU_BUSY, { "another event already has exclusive access to the PMU" } },
	{ "ebusy exclusive", EBUSY, m_exclusive, PEV_EXPLAIN_PMU_BUSY, { "this event asks for exclusive use", "drop 'exclusive'" } },
	{ "efault", EFAULT, m_none, PEV_EXPLAIN_BAD_ADDRESS, { "not readable" } },
	{ "eintr", EINTR, m_none, PEV_EXPLAIN_INTERRUPTED, { "interrupted", "uprobe", "retry" } },
	{ "emfile", EMFILE, m_none, PEV_EXPLAIN_TOO_MANY_FILES,
	  { "limit is 1024 (RLIMIT_NOFILE soft 1024, hard 4096)", "raise it with 'ulimit -n 4096'" } },
	{ "emfile at hard", EMFILE, m_nofile_same, PEV_EXPLAIN_TOO_MANY_FILES,
	  { "soft 1024, hard 1024", "'ulimit -Hn 4096 && ulimit -n 4096'" } },
	{ "emfile unlimited hard", EMFILE, m_nofile_unl, PEV_EXPLAIN_TOO_MANY_FILES,
	  { "hard unlimited", "'ulimit -n unlimited'" } },
	{ "enfile", ENFILE, m_none, PEV_EXPLAIN_SYSTEM_FILES, { "fs.file-max" } },
	{ "esrch", ESRCH, m_esrch, PEV_EXPLAIN_NO_PROCESS, { "no process or thread with pid 999999", "'ps -p 999999 -L'" } },
	{ "enospc bp", ENOSPC, m_bp, PEV_EXPLAIN_NO_BP_SLOT, { "no free hardware breakpoint slot", "4 on x86" } },
	{ "enospc", ENOSPC, m_none, PEV_EXPLAIN_NO_PMU_ROOM, { "no room" } },
	{ "enosys stack", ENOSYS, m_stack_user, PEV_EXPLAIN_STACK_USER_UNSUPPORTED, { "PERF_SAMPLE_STACK_USER", "--call-graph fp" } },
	{ "enosys", ENOSYS, m_none, PEV_EXPLAIN_NO_PERF_SYSCALL, { "CONFIG_PERF_EVENTS", "seccomp" } },
	{ "eoverflow", EOVERFLOW, m_max_stack, PEV_EXPLAIN_MAX_STACK,
	  { "sample_max_stack 1000 is above kernel.perf_event_max_stack (127)", "at most 127 frames",
	    "'sysctl -w kernel.perf_event_max_stack=1000'" } },
	{ "enomem", ENOMEM, m_none, PEV_EXPLAIN_UNKNOWN, { "cannot allocate memory (errno 12)" } },

	{ "enoent cycles", ENOENT, m_cycles, PEV_EXPLAIN_NO_HW_PMU,
	  { "cannot open 'cycles': this machine has no hardware PMU (virtual machine?); try 'cpu-clock' or 'task-clock'" } },
	{ "enoent cache", ENOENT, m_cache, PEV_EXPLAIN_NO_HW_PMU, { "no hardware PMU" } },
	{ "eopnotsupp raw", EOPNOTSUPP, m_raw, PEV_EXPLAIN_NO_HW_PMU, { "cannot open 'r3c': this machine has no hardware PMU" } },
	{ "enodev cycles", ENODEV, m_cycles, PEV_EXPLAIN_NO_HW_PMU, { "no hardware PMU" } },
	{ "enoent sw", ENOENT, m_sw_unknown, PEV_EXPLAIN_UNKNOWN_EVENT, { "config 50 is not a software event" } },
	{ "enoent type 99", ENOENT, m_type_99, PEV_EXPLAIN_UNKNOWN_PMU, { "no PMU has type 99", "/type" } },
	{ "enoent hw config", ENOENT, m_hw_cfg20, PEV_EXPLAIN_UNKNOWN_EVENT, { "config 20 is not a generic hardware event (0-9)" } },
	{ "enoent hw unsupported", ENOENT, m_hw_unsupported, PEV_EXPLAIN_UNKNOWN_EVENT,
	  { "cannot open 'ref-cycles': this CPU's PMU does not support this event" } },
	{ "enoent tracepoint", ENOENT, m_tp_noent, PEV_EXPLAIN_TRACEPOINT_ID, { "no tracepoint has id 999999" } },
	{ "enodev offline", ENODEV, m_sw_offline, PEV_EXPLAIN_CPU_OFFLINE,
	  { "cpu 1 is offline", "/sys/devices/system/cpu/cpu1/online" } },
	{ "enodev mismatch", ENODEV, m_mismatch, PEV_EXPLAIN_PMU_CPU_MISMATCH, { "does not cover cpu 1", "cpumask" } },
	{ "enodev cpu7", ENODEV, m_cpu7, PEV_EXPLAIN_CPU_INVALID, { "cpu 7 does not exist" } },
	{ "eopnotsupp branch", EOPNOTSUPP, m_branch_sw, PEV_EXPLAIN_BRANCH_STACK,
	  { "branch stack sampling", "only hardware events have branch stacks" } },
	{ "eopnotsupp precise", EOPNOTSUPP, m_precise, PEV_EXPLAIN_PRECISE, { "precise_ip=3", "fewer 'p'" } },
	{ "eopnotsupp sampling", EOPNOTSUPP, m_msr_sample, PEV_EXPLAIN_NO_SAMPLING, { "cannot sample", "perfev stat" } },
	{ "eopnotsupp exclude", EOPNOTSUPP, m_hw_exclude, PEV_EXPLAIN_EXCLUDE_UNSUPPORTED, { "exclude_guest" } },
	{ "eopnotsupp aux_output", EOPNOTSUPP, m_aux_output, PEV_EXPLAIN_AUX_OUTPUT, { "aux_output" } },

	{ "einval flags", EINVAL, m_flags, PEV_EXPLAIN_FLAGS, { "flags 0x100" } },
	{ "einval reserved", EINVAL, m_reserved, PEV_EXPLAIN_RESERVED_BITS, { "flag bits 0x10000000000" } },
	{ "einval reserved3", EINVAL, m_reserved3, PEV_EXPLAIN_RESERVED_BITS, { "__reserved_3 5" } },
	{ "einval sample_type", EINVAL, m_sample_type, PEV_EXPLAIN_SAMPLE_TYPE, { "sample_type bits 0x10000000000 are unknown" } },
	{ "einval read_format", EINVAL, m_read_format, PEV_EXPLAIN_READ_FORMAT, { "read_format bits 0x400" } },
	{ "einval format lost old", EINVAL, m_format_lost_old, PEV_EXPLAIN_READ_FORMAT, { "needs Linux 6.0 (this is 5.19)" } },
	{ "einval branch bits", EINVAL, m_branch_bits, PEV_EXPLAIN_BRANCH_TYPE, { "has unknown bits" } },
	{ "einval branch none", EINVAL, m_branch_none, PEV_EXPLAIN_BRANCH_TYPE, { "names no branch type", "'-j any'" } },
	{ "einval regs", EINVAL, m_regs_zero, PEV_EXPLAIN_REGS, { "sample_regs_user 0x0" } },
	{ "einval stack align", EINVAL, m_stack_align, PEV_EXPLAIN_STACK_USER_SIZE, { "sample_stack_user 12 must be a multiple of 8" } },
	{ "einval weight", EINVAL, m_weight, PEV_EXPLAIN_WEIGHT, { "PERF_SAMPLE_WEIGHT_STRUCT" } },
	{ "einval inherit_thread", EINVAL, m_inherit_thread, PEV_EXPLAIN_INHERIT_THREAD, { "inherit_thread is set without inherit" } },
	{ "einval remove_on_exec", EINVAL, m_roe_eoe, PEV_EXPLAIN_REMOVE_ON_EXEC, { "enable_on_exec" } },
	{ "einval sigtrap", EINVAL, m_sigtrap, PEV_EXPLAIN_SIGTRAP_NO_REMOVE, { "sigtrap needs remove_on_exec" } },
	{ "einval inherit read", EINVAL, m_inherit_read, PEV_EXPLAIN_INHERIT_SAMPLE_READ,
	  { "inherit with PERF_SAMPLE_READ needs PERF_SAMPLE_TID", "add PERF_SAMPLE_TID" } },
	{ "einval inherit read 6.1", EINVAL, m_inherit_read_old, PEV_EXPLAIN_INHERIT_SAMPLE_READ,
	  { "needs Linux 6.12 (this is 6.1)" } },
	{ "einval freq", EINVAL, m_freq, PEV_EXPLAIN_SAMPLE_FREQ,
	  { "sample_freq 101000 Hz is above kernel.perf_event_max_sample_rate (100000)", "use -F 100000 or lower",
	    "as root run 'sysctl -w kernel.perf_event_max_sample_rate=101000'" } },
	{ "einval freq before cpu", EINVAL, m_freq_and_cpu, PEV_EXPLAIN_SAMPLE_FREQ, { "sample_freq 101000" } },
	{ "einval period", EINVAL, m_period63, PEV_EXPLAIN_SAMPLE_PERIOD, { "bit 63" } },
	{ "einval cgroup", EINVAL, m_cgroup_nocpu, PEV_EXPLAIN_CGROUP_NEEDS_CPU, { "needs a cgroup fd and one CPU" } },
	{ "einval cpu7", EINVAL, m_cpu7, PEV_EXPLAIN_CPU_INVALID,
	  { "cpu 7 does not exist (this machine has 2 possible CPUs: 0-1)", "pick a CPU from 0 to 1" } },
	{ "einval cpu -2", EINVAL, m_cpu_neg, PEV_EXPLAIN_CPU_INVALID, { "cpu -2 is not a CPU number" } },
	{ "einval any any", EINVAL, m_any_any, PEV_EXPLAIN_ANY_PID_ANY_CPU, { "pid -1 with cpu -1", "one event per CPU" } },
	{ "einval pinned member", EINVAL, m_pinned_member, PEV_EXPLAIN_GROUP_PINNED,
	  { "only a group leader can be pinned (this event joins group_fd 3)" } },
	{ "einval exclusive member", EINVAL, m_excl_member, PEV_EXPLAIN_GROUP_PINNED, { "only a group leader can be exclusive" } },
	{ "einval fd_no_group", EINVAL, m_no_group_flag, PEV_EXPLAIN_INVALID, { "refused" } },
	{ "einval sigtrap cpu", EINVAL, m_sigtrap_cpu, PEV_EXPLAIN_SIGTRAP_NEEDS_TASK, { "sigtrap needs a task" } },
	{ "einval clockid", EINVAL, m_clockid, PEV_EXPLAIN_CLOCKID, { "clockid 99", "CLOCK_MONOTONIC (1)" } },
	{ "einval group mismatch clock", EINVAL, m_clockid_ok_mismatch, PEV_EXPLAIN_GROUP_MISMATCH, { "group_fd 4" } },
#if defined(__x86_64__) || defined(__i386__)
	{ "einval bp read", EINVAL, m_bp_read, PEV_EXPLAIN_BREAKPOINT, { "x86 has no read-only breakpoints", "'mem:ADDR:rw'" } },
#endif
	{ "einval bp len", EINVAL, m_bp_len3, PEV_EXPLAIN_BREAKPOINT, { "bp_len 3 is not valid: it must be 1, 2, 4 or 8" } },
	{ "einval bp align", EINVAL, m_bp_align, PEV_EXPLAIN_BREAKPOINT, { "bp_addr 0x1004 is not aligned to bp_len 8" } },
	{ "einval bp exec", EINVAL, m_bp_exec, PEV_EXPLAIN_BREAKPOINT, { "an execute breakpoint" } },
	{ "einval bp type0", EINVAL, m_bp_type0, PEV_EXPLAIN_BREAKPOINT, { "bp_type 0 is not valid" } },
	{ "einval bp kernel :u", EINVAL, m_bp_kernel_u, PEV_EXPLAIN_BREAKPOINT,
	  { "bp_addr 0xffffffff81000000 is a kernel address, but exclude_kernel is set" } },
	{ "einval group mismatch", EINVAL, m_group_mismatch, PEV_EXPLAIN_GROUP_MISMATCH,
	  { "group leader (group_fd 3) differ in CPU, task", "leader's pid and cpu" } },
	{ "einval hw config", EINVAL, m_hw_cfg20, PEV_EXPLAIN_CONFIG, { "config 20 is not a generic hardware event" } },
	{ "einval cache config", EINVAL, m_cache_bad, PEV_EXPLAIN_CONFIG, { "config 0x90000 is not a cache event" } },
	{ "einval tracepoint", EINVAL, m_tp_inval, PEV_EXPLAIN_TRACEPOINT_ID, { "no tracepoint has id 999999" } },
	{ "einval msr sample", EINVAL, m_msr_sample, PEV_EXPLAIN_NO_SAMPLING, { "PMU (type 9) cannot sample" } },
	{ "einval msr exclude", EINVAL, m_msr_exclude, PEV_EXPLAIN_EXCLUDE_UNSUPPORTED,
	  { "cannot filter by privilege level (exclude_kernel exclude_hv)" } },
	{ "einval aux_output", EINVAL, m_aux_output, PEV_EXPLAIN_AUX_OUTPUT, { "AUX-area event" } },
	{ "einval precise", EINVAL, m_precise_inval, PEV_EXPLAIN_PRECISE, { "precise_ip=2" } },
	{ "einval generic", EINVAL, m_none, PEV_EXPLAIN_INVALID, { "refused the attr", "/format" } },
};

static void run_case(const struct tcase *t, int sign)
{
	struct pev_system_settings s;
	struct perf_event_attr a;
	struct pev_explain_ctx c;
	struct pev_explanation e;
	char line[1024];

	base_settings(&s);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.attr = &a;
	c.pid = 0;
	c.cpu = -1;
	c.group_fd = -1;
	c.settings = &s;
	c.first_unknown_offset = -1;
	t->mut(&a, &c, &s);

	int k = pev_explain_detail(sign * t->err, &c, &e);
	CHECK_MSG(k == (int)t->kind, "%s: kind %s, expected %s (%s; %s)", t->name,
		  pev_explain_kind_name(k), pev_explain_kind_name(t->kind), e.reason, e.remedy);
	CHECK_EQ_INT(e.err, t->err);
	int n = pev_explain(sign * t->err, &c, line, sizeof(line));
	CHECK_EQ_INT(n, strlen(line));
	CHECK_MSG(!strncmp(line, "cannot open '", 13), "%s: %s", t->name, line);
	CHECK_MSG(strstr(line, e.reason) != NULL, "%s: reason not in line", t->name);
	for (int i = 0; i < 4 && t->want[i]; i++)
		CHECK_MSG(strstr(line, t->want[i]) != NULL, "%s: '%s' not in \"%s\"",
			  t->name, t->want[i], line);
	/* A seccomp block names no other cause. */
	if (t->kind == PEV_EXPLAIN_SECCOMP)
		CHECK_MSG(!strstr(line, "exclude") && !strstr(line, "paranoid") &&
			  !strstr(line, "CONFIG_PERF_EVENTS"), "%s: another cause named: %s",
			  t->name, line);
	/* The library's style: lowercase start, no trailing punctuation. */
	CHECK_MSG(e.reason[0] && !(e.reason[0] >= 'A' && e.reason[0] <= 'Z') &&
		  !strchr(".;", e.reason[strlen(e.reason) - 1]), "%s: reason style: %s",
		  t->name, e.reason);
}

int main(void)
{
	size_t ncases = sizeof(cases) / sizeof(cases[0]);
	bool errno_seen[200] = { false };

	for (size_t i = 0; i < ncases; i++) {
		run_case(&cases[i], 1);
		run_case(&cases[i], -1);	/* -errno is accepted too */
		if (cases[i].err < 200)
			errno_seen[cases[i].err] = true;
	}
	/* At least one case for every errno the manual lists. */
	static const int manual[] = { E2BIG, EACCES, EBADF, EBUSY, EFAULT, EINTR, EINVAL,
				      EMFILE, ENODEV, ENOENT, ENOSPC, ENOSYS, EOPNOTSUPP,
				      EOVERFLOW, EPERM, ESRCH };
	for (size_t i = 0; i < sizeof(manual) / sizeof(manual[0]); i++)
		CHECK_MSG(errno_seen[manual[i]], "no case for errno %d", manual[i]);
	/* Every kind has a distinct name, and each is reached by a case. */
	for (int k = 0; k < PEV_EXPLAIN__COUNT; k++) {
		const char *nm = pev_explain_kind_name(k);
		CHECK_MSG(nm != NULL, "kind %d has no name", k);
		for (int j = 0; nm && j < k; j++)
			CHECK_MSG(strcmp(nm, pev_explain_kind_name(j)), "kind name %s twice", nm);
		bool reached = false;
		for (size_t i = 0; i < ncases; i++)
			reached |= cases[i].kind == (enum pev_explain_kind)k;
		CHECK_MSG(reached, "kind %s has no case", nm);
	}
	CHECK(pev_explain_kind_name(PEV_EXPLAIN__COUNT) == NULL);
	return t_done();
}
