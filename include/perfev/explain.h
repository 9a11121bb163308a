/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: why perf_event_open(2) failed and what to do about it.
 * pev_explain() turns an errno, the attr and the target that were passed,
 * and the system's perf settings into one lowercase line:
 *   "cannot open 'cycles': this machine has no hardware PMU (virtual
 *    machine?); try 'cpu-clock' or 'task-clock'"
 * and a kind (enum pev_explain_kind) that callers branch on without
 * matching strings.  The library never prints: the caller shows the text.
 * All functions are thread-safe. */
#ifndef PERFEV_EXPLAIN_H
#define PERFEV_EXPLAIN_H

#include <limits.h>
#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A numeric setting that could not be read. */
#define PEV_SETTING_UNKNOWN LONG_MIN

/* The system state that decides whether an open succeeds.  Fill it with
 * pev_system_settings_read(), or by hand (tests, remote diagnosis) after
 * pev_system_settings_init(). */
struct pev_system_settings {
	size_t size;		/* sizeof(struct pev_system_settings) */
	long paranoid;		/* kernel.perf_event_paranoid (-1..4) */
	long max_sample_rate;	/* kernel.perf_event_max_sample_rate */
	long mlock_kb;		/* kernel.perf_event_mlock_kb */
	long max_stack;		/* kernel.perf_event_max_stack */
	long kptr_restrict;	/* kernel.kptr_restrict */
	long nofile_soft;	/* RLIMIT_NOFILE; LONG_MAX for unlimited */
	long nofile_hard;
	long possible_cpus;	/* highest possible CPU + 1 (nr_cpu_ids) */
	long online_cpus;	/* how many CPUs are online */
	long euid;		/* effective uid */
	long kernel_major;	/* uname release, e.g. 6 and 18 */
	long kernel_minor;
	long attr_size;		/* the kernel's sizeof(perf_event_attr) */
	bool caps_known;	/* the cap_* fields below were read */
	bool cap_perfmon;	/* CapEff: CAP_PERFMON (38) */
	bool cap_sys_admin;	/* CapEff: CAP_SYS_ADMIN (21) */
	bool cap_ipc_lock;	/* CapEff: CAP_IPC_LOCK (14) */
	bool cap_kill;		/* CapEff: CAP_KILL (5) */
	int has_hw_pmu;		/* 1 yes, 0 no, -1 unknown */
	/* Added later: read only when size covers them. */
	int seccomp_mode;	/* /proc/self/status Seccomp: 0 none, 1 strict,
				 * 2 filter; -1 unknown */
	long seccomp_filters;	/* Seccomp_filters: how many filters */
	int probe_err;		/* errno of a trivially allowed open (task-clock,
				 * this process, user space): 0 it opened,
				 * -1 not probed */
};

/* Set size and mark every field unknown (numbers PEV_SETTING_UNKNOWN,
 * caps_known false, has_hw_pmu, seccomp_mode and probe_err -1).  s may be NULL. */
PEV_EXPORT void pev_system_settings_init(struct pev_system_settings *s);

/* Read the live settings: /proc/sys/kernel/perf_event_*, kptr_restrict,
 * getrlimit, /sys/devices/system/cpu/{possible,online}, geteuid,
 * /proc/self/status CapEff and Seccomp, uname, and the probes for the attr
 * size, a hardware PMU and a trivially allowed open (probe_err).  What cannot be read stays unknown.  0, or -EINVAL when s
 * is NULL. */
PEV_EXPORT int pev_system_settings_read(struct pev_system_settings *s);

/* True when the settings grant perfmon privilege: CAP_SYS_ADMIN, or
 * CAP_PERFMON on Linux >= 5.8 (or an unknown kernel version). */
PEV_EXPORT bool pev_system_settings_privileged(const struct pev_system_settings *s);

/* What went wrong, for callers that branch on it.  Stable values; new
 * kinds are added at the end. */
enum pev_explain_kind {
	PEV_EXPLAIN_UNKNOWN = 0,	/* an errno the manual does not list */
	/* E2BIG */
	PEV_EXPLAIN_ATTR_SIZE,		/* attr.size below 64 or above a page */
	PEV_EXPLAIN_ATTR_UNKNOWN_FIELD,	/* a field this kernel does not know is set */
	PEV_EXPLAIN_GROUP_TOO_BIG,	/* the group's read/sample size is too big */
	/* EACCES / EPERM */
	PEV_EXPLAIN_PARANOID_ALL,	/* paranoid >= 3: all perf use denied */
	PEV_EXPLAIN_PARANOID_CPU,	/* system-wide / per-CPU needs paranoid <= 0 */
	PEV_EXPLAIN_PARANOID_KERNEL,	/* kernel space needs paranoid <= 1 */
	PEV_EXPLAIN_PARANOID_TRACEPOINT,/* raw tracepoint data needs paranoid -1 */
	PEV_EXPLAIN_OTHER_USER,		/* another user's process: ptrace permission */
	PEV_EXPLAIN_SIGTRAP_PERM,	/* sigtrap on another process: CAP_KILL */
	PEV_EXPLAIN_NAMESPACES_PERM,	/* attr.namespaces needs CAP_PERFMON */
	PEV_EXPLAIN_BREAKPOINT_KERNEL,	/* breakpoint on a kernel address */
	PEV_EXPLAIN_LOCKDOWN,		/* PERF_SAMPLE_REGS_INTR under lockdown */
	PEV_EXPLAIN_EXCLUDE_UNSUPPORTED,/* an exclude_* bit this PMU cannot honour */
	PEV_EXPLAIN_DENIED,		/* privileged yet denied (LSM, container) */
	/* EBADF, EBUSY, EFAULT, EINTR, EMFILE, ENFILE, ESRCH */
	PEV_EXPLAIN_BAD_GROUP_FD,
	PEV_EXPLAIN_BAD_CGROUP_FD,
	PEV_EXPLAIN_PMU_BUSY,
	PEV_EXPLAIN_BAD_ADDRESS,
	PEV_EXPLAIN_INTERRUPTED,
	PEV_EXPLAIN_TOO_MANY_FILES,	/* EMFILE: RLIMIT_NOFILE */
	PEV_EXPLAIN_SYSTEM_FILES,	/* ENFILE: fs.file-max */
	PEV_EXPLAIN_NO_PROCESS,		/* ESRCH */
	/* ENOENT / ENODEV / EOPNOTSUPP */
	PEV_EXPLAIN_NO_HW_PMU,		/* hardware event, no hardware PMU */
	PEV_EXPLAIN_UNKNOWN_EVENT,	/* type/config this kernel does not know */
	PEV_EXPLAIN_UNKNOWN_PMU,	/* no PMU with that type number */
	PEV_EXPLAIN_PMU_CPU_MISMATCH,	/* the PMU does not cover that CPU */
	PEV_EXPLAIN_CPU_OFFLINE,
	PEV_EXPLAIN_NO_SAMPLING,	/* the PMU has no overflow interrupt */
	PEV_EXPLAIN_BRANCH_STACK,	/* branch stacks unsupported */
	PEV_EXPLAIN_PRECISE,		/* precise_ip unsupported */
	PEV_EXPLAIN_AUX_OUTPUT,		/* aux_output without an AUX leader */
	/* ENOSPC, ENOSYS, EOVERFLOW */
	PEV_EXPLAIN_NO_BP_SLOT,		/* hardware breakpoint slots exhausted */
	PEV_EXPLAIN_NO_PMU_ROOM,
	PEV_EXPLAIN_STACK_USER_UNSUPPORTED,
	PEV_EXPLAIN_NO_PERF_SYSCALL,
	PEV_EXPLAIN_MAX_STACK,		/* sample_max_stack > perf_event_max_stack */
	/* EINVAL, by field */
	PEV_EXPLAIN_FLAGS,		/* unknown PERF_FLAG_* bits */
	PEV_EXPLAIN_RESERVED_BITS,	/* reserved / unknown attr flag bits */
	PEV_EXPLAIN_SAMPLE_TYPE,
	PEV_EXPLAIN_READ_FORMAT,
	PEV_EXPLAIN_BRANCH_TYPE,	/* branch_sample_type */
	PEV_EXPLAIN_REGS,		/* sample_regs_user / sample_regs_intr */
	PEV_EXPLAIN_STACK_USER_SIZE,	/* sample_stack_user not 8-aligned / too big */
	PEV_EXPLAIN_WEIGHT,		/* WEIGHT together with WEIGHT_STRUCT */
	PEV_EXPLAIN_INHERIT_THREAD,	/* inherit_thread without inherit */
	PEV_EXPLAIN_REMOVE_ON_EXEC,	/* remove_on_exec with enable_on_exec */
	PEV_EXPLAIN_SIGTRAP_NO_REMOVE,	/* sigtrap without remove_on_exec */
	PEV_EXPLAIN_SAMPLE_FREQ,	/* sample_freq > perf_event_max_sample_rate */
	PEV_EXPLAIN_SAMPLE_PERIOD,	/* sample_period with bit 63 set */
	PEV_EXPLAIN_CGROUP_NEEDS_CPU,
	PEV_EXPLAIN_CPU_INVALID,	/* cpu >= possible CPUs, or < -1 */
	PEV_EXPLAIN_ANY_PID_ANY_CPU,	/* pid -1 with cpu -1 */
	PEV_EXPLAIN_INHERIT_SAMPLE_READ,
	PEV_EXPLAIN_GROUP_PINNED,	/* pinned/exclusive on a group member */
	PEV_EXPLAIN_SIGTRAP_NEEDS_TASK,
	PEV_EXPLAIN_CLOCKID,
	PEV_EXPLAIN_BREAKPOINT,		/* bp_type / bp_len / bp_addr */
	PEV_EXPLAIN_GROUP_MISMATCH,	/* leader on another CPU/task/clock */
	PEV_EXPLAIN_CONFIG,		/* config out of range */
	PEV_EXPLAIN_TRACEPOINT_ID,	/* no tracepoint with that id */
	PEV_EXPLAIN_INVALID,		/* EINVAL, no field stands out */
	/* EPERM / EACCES / ENOSYS: every perf_event_open of this process is
	 * refused by a seccomp filter (container runtime) */
	PEV_EXPLAIN_SECCOMP,
	PEV_EXPLAIN__COUNT
};

/* A short stable name for a kind ("paranoid-cpu"), or NULL. */
PEV_EXPORT const char *pev_explain_kind_name(enum pev_explain_kind kind);

/* The failed call.  Fields beyond .size read as their defaults, so older
 * callers keep working: .size = sizeof(struct pev_explain_ctx). */
struct pev_explain_ctx {
	size_t size;
	const struct perf_event_attr *attr;	/* as passed (NULL: unknown);
						 * attr->size bytes readable */
	pid_t pid;		/* the perf_event_open arguments, as passed */
	int cpu;
	int group_fd;
	unsigned long flags;
	const char *event_name;	/* for the message; NULL: named from attr */
	const struct pev_system_settings *settings; /* NULL: read live with
						     * pev_system_settings_read() */
	long first_unknown_offset; /* for E2BIG: pev_attr_first_unknown()'s
				    * answer; < 64 (0 or -1): not given */
	bool target_uid_known;	/* owner of pid given below; false: read
				 * /proc/PID/status when settings are live */
	uid_t target_uid;
};

/* The explanation in parts. */
struct pev_explanation {
	enum pev_explain_kind kind;
	int err;		/* the positive errno */
	char reason[320];	/* what went wrong, lowercase, no trailing ';' */
	char remedy[320];	/* what to do, with exact commands; may be "" */
};

/* Explain a failed perf_event_open.  err: the errno, positive or negative.
 * Fills *out (which must not be NULL) and returns its kind (>= 0), or
 * -EINVAL when ctx or out is NULL. */
PEV_EXPORT int pev_explain_detail(int err, const struct pev_explain_ctx *ctx,
				  struct pev_explanation *out);

/* The same as one line, "cannot open 'EVENT': REASON; REMEDY", written to
 * buf (size bytes, always NUL-terminated when size > 0).  Returns the
 * length snprintf would, or -EINVAL when ctx is NULL. */
PEV_EXPORT int pev_explain(int err, const struct pev_explain_ctx *ctx,
			   char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
