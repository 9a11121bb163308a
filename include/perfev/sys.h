/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: thin system-call layer.  Every function returns >= 0 on
 * success or -errno; none of them allocates.  All are thread-safe. */
#ifndef PERFEV_SYS_H
#define PERFEV_SYS_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* perf_event_open(2) with attr size negotiation.  attr->size 0 means
 * sizeof(struct perf_event_attr).  When the kernel answers E2BIG it writes
 * the size it knows into attr->size: if every byte of ours beyond that size
 * is zero, the call is retried with the kernel's size (and attr->size keeps
 * it); otherwise -E2BIG is returned and attr->size is restored, so the
 * caller can name the field this kernel does not know (pev_attr_first_unknown).
 * flags: PERF_FLAG_FD_CLOEXEC, FD_NO_GROUP, FD_OUTPUT, PID_CGROUP.
 * Returns the new fd. */
PEV_EXPORT int pev_sys_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			    int group_fd, unsigned long flags);

/* Offset of the first non-zero byte of attr at or beyond kernel_size, or
 * -1 when there is none.  attr_size is the size of the caller's buffer. */
PEV_EXPORT long pev_attr_first_unknown(const void *attr, size_t attr_size,
				       size_t kernel_size);

/* ioctls.  `group` adds PERF_IOC_FLAG_GROUP where the manual allows it
 * (ENABLE, DISABLE, RESET, REFRESH has no group form). */
PEV_EXPORT int pev_ioc_enable(int fd, bool group);
PEV_EXPORT int pev_ioc_disable(int fd, bool group);
PEV_EXPORT int pev_ioc_reset(int fd, bool group);
/* Enable for n more overflows, then disable (and POLL_HUP). n must be > 0. */
PEV_EXPORT int pev_ioc_refresh(int fd, int n);
/* New sample period (or frequency with attr.freq); 0 is refused with -EINVAL. */
PEV_EXPORT int pev_ioc_period(int fd, uint64_t period);
/* Send fd's records into target_fd's ring; target_fd -1 stops that. */
PEV_EXPORT int pev_ioc_set_output(int fd, int target_fd);
/* ftrace filter for tracepoints, or address filter for AUX PMUs. */
PEV_EXPORT int pev_ioc_set_filter(int fd, const char *filter);
/* The event's unique id, as in PERF_FORMAT_ID and PERF_SAMPLE_ID. */
PEV_EXPORT int pev_ioc_id(int fd, uint64_t *id);
/* Attach a BPF program (tracepoint/kprobe events). */
PEV_EXPORT int pev_ioc_set_bpf(int fd, int prog_fd);
/* pause != 0: stop writing to the ring (overwrite readers); 0: resume. */
PEV_EXPORT int pev_ioc_pause_output(int fd, bool pause);
/* Which BPF programs are attached to a tracepoint event.  query must have
 * ids_len set to the room in its flexible ids[] array. */
PEV_EXPORT int pev_ioc_query_bpf(int fd, struct perf_event_query_bpf *query);
/* Change attributes of an open event (only breakpoints, as of Linux 4.17). */
PEV_EXPORT int pev_ioc_modify_attributes(int fd, struct perf_event_attr *attr);

/* prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE): every event attached to the
 * calling process (opened with pid = self, whatever their owner). */
PEV_EXPORT int pev_task_events_enable(void);
PEV_EXPORT int pev_task_events_disable(void);

/* /proc/sys/kernel/perf_event_* and friends. */
enum pev_sysctl {
	PEV_SYSCTL_PARANOID,		/* perf_event_paranoid */
	PEV_SYSCTL_MAX_SAMPLE_RATE,	/* perf_event_max_sample_rate */
	PEV_SYSCTL_MLOCK_KB,		/* perf_event_mlock_kb */
	PEV_SYSCTL_MAX_STACK,		/* perf_event_max_stack */
	PEV_SYSCTL_MAX_CONTEXTS,	/* perf_event_max_contexts_per_stack */
	PEV_SYSCTL_CPU_TIME_MAX_PERCENT,/* perf_cpu_time_max_percent */
	PEV_SYSCTL_KPTR_RESTRICT,	/* kptr_restrict */
	PEV_SYSCTL__COUNT
};
/* Path of the file ("/proc/sys/kernel/perf_event_paranoid"), or NULL. */
PEV_EXPORT const char *pev_sysctl_path(enum pev_sysctl which);
/* Its sysctl name ("kernel.perf_event_paranoid"), or NULL. */
PEV_EXPORT const char *pev_sysctl_name(enum pev_sysctl which);
/* Read it: 0 and *value, or -errno (-ENOENT when the kernel lacks it). */
PEV_EXPORT int pev_sysctl_read(enum pev_sysctl which, long *value);
/* Write it (root only); 0 or -errno. */
PEV_EXPORT int pev_sysctl_write(enum pev_sysctl which, long value);

#ifdef __cplusplus
}
#endif
#endif
