/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: what to count — the calling thread, processes, threads, a
 * launched command, CPUs, or a cgroup — and the launched command itself.
 *
 * A target is a fixed map of "thread slots" × "CPU slots" on which each
 * event is opened (perf's thread_map × cpu_map):
 *   self        threads {0}          cpus {-1}
 *   pids / tids threads {tid...}     cpus {-1}      (inherit applies)
 *   all threads threads {every tid}  cpus {-1}      (the same, system-wide)
 *   workload    threads {child pid}  cpus {-1}      (enable_on_exec)
 *   cpus        threads {-1}         cpus {list}
 *   cgroup      threads {cgroup fd}  cpus {list}    (PERF_FLAG_PID_CGROUP)
 * so pev_target_nr_threads() and pev_target_nr_cpus() are always >= 1.
 * Targets are immutable after creation and may be shared between threads. */
#ifndef PERFEV_TARGET_H
#define PERFEV_TARGET_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest CPU number a CPU list may name (exclusive). */
#define PEV_MAX_CPUS 8192

enum pev_target_kind {
	PEV_TARGET_SELF,	/* the calling thread (pid 0) and, with
				 * inherit, the threads/children it creates */
	PEV_TARGET_TASKS,	/* listed processes (all their threads) or
				 * listed threads */
	PEV_TARGET_WORKLOAD,	/* a command started by pev_workload */
	PEV_TARGET_CPUS,	/* system-wide on a CPU list */
	PEV_TARGET_CGROUP,	/* a cgroup v2 directory, per CPU */
};

struct pev_target;
struct pev_workload;

/* ---- CPU and id lists (pure, bounds-checked) ---- */

/* Parse a CPU list such as "0-3,5,7-8" (what sysfs "online" and perf -C
 * use; a trailing newline is accepted) into ascending, de-duplicated CPU
 * numbers.  Writes up to max entries to cpus (cpus may be NULL when max is
 * 0) and returns how many CPUs the list names, so a caller can size the
 * array by calling twice.  -EINVAL for bad syntax, a reversed range, or a
 * CPU >= PEV_MAX_CPUS; -ERANGE when the list names more than max CPUs and
 * cpus is not NULL. */
PEV_EXPORT int pev_cpulist_parse(const char *list, int *cpus, size_t max);

/* Online CPUs from /sys/devices/system/cpu/online; same return rule. */
PEV_EXPORT int pev_cpus_online(int *cpus, size_t max);

/* Parse a comma-separated list of positive ids ("12,345"; perf -p/-t
 * syntax, spaces allowed after commas).  Same return rule as
 * pev_cpulist_parse; -EINVAL for anything but positive decimal numbers. */
PEV_EXPORT int pev_idlist_parse(const char *list, pid_t *ids, size_t max);

/* ---- targets ---- */

/* The calling thread (pid 0, any CPU).  NULL and errno on failure. */
PEV_EXPORT struct pev_target *pev_target_new_self(void);

/* Processes: every thread of each pid, read from /proc/PID/task at this
 * call (threads created later are followed only through inherit).
 * -ESRCH (errno) when a pid does not exist. */
PEV_EXPORT struct pev_target *pev_target_new_pids(const pid_t *pids, size_t n);

/* Threads: exactly these tids.  -ESRCH when one does not exist. */
PEV_EXPORT struct pev_target *pev_target_new_tids(const pid_t *tids, size_t n);

/* Every thread of the system: each process listed in /proc at this call,
 * its threads from /proc/PID/task (perf's thread map of stat --per-thread
 * -a).  Threads created later are followed only through inherit; one that
 * has exited when the counters open is left out, as for pids.  NULL and
 * errno on failure (-ESRCH when /proc lists no process). */
PEV_EXPORT struct pev_target *pev_target_new_all_threads(void);

/* The child of a workload created by pev_workload_new() (not yet started).
 * Counters opened on this target get enable_on_exec=1, so counting starts
 * at the exec.  The workload must outlive the target. */
PEV_EXPORT struct pev_target *pev_target_new_workload(struct pev_workload *w);

/* System-wide on CPUs: cpulist as for pev_cpulist_parse, or NULL for all
 * online CPUs.  -EINVAL on a bad list, -ENODEV when a CPU is not online. */
PEV_EXPORT struct pev_target *pev_target_new_cpus(const char *cpulist);

/* A cgroup v2: name is relative to the cgroup2 mount ("user.slice/x"), or
 * an absolute path of a directory.  Counted per CPU on cpulist (NULL: all
 * online).  The target holds the directory open (O_RDONLY) until freed.
 * -ENODEV (errno) when no cgroup2 file system is mounted; -ENOENT when the
 * directory does not exist. */
PEV_EXPORT struct pev_target *pev_target_new_cgroup(const char *name,
						    const char *cpulist);

/* The first cgroup2 mount point from /proc/self/mounts (octal escapes
 * undone) into out: 0, -ENODEV when none is mounted (or its path does not
 * fit in size), -errno when /proc cannot be read. */
PEV_EXPORT int pev_cgroup2_mount(char *out, size_t size);

PEV_EXPORT void pev_target_free(struct pev_target *t);

PEV_EXPORT enum pev_target_kind pev_target_kind(const struct pev_target *t);

/* True for self / tasks / workload targets: those count tasks, so inherit
 * and enable_on_exec apply. */
PEV_EXPORT bool pev_target_is_task(const struct pev_target *t);

/* Thread slots: the pid argument for perf_event_open — a tid, 0 for self,
 * -1 for CPU targets, the cgroup fd for cgroup targets.  Out of range: -1. */
PEV_EXPORT size_t pev_target_nr_threads(const struct pev_target *t);
PEV_EXPORT pid_t pev_target_thread(const struct pev_target *t, size_t i);

/* CPU slots: the cpu argument — a CPU number, or -1 for task targets. */
PEV_EXPORT size_t pev_target_nr_cpus(const struct pev_target *t);
PEV_EXPORT int pev_target_cpu(const struct pev_target *t, size_t i);

/* Slot index of a CPU number, or -1 when the target does not have it. */
PEV_EXPORT int pev_target_cpu_index(const struct pev_target *t, int cpu);

/* The flags to add to perf_event_open for this target
 * (PERF_FLAG_PID_CGROUP for cgroups, else 0). */
PEV_EXPORT unsigned long pev_target_open_flags(const struct pev_target *t);

/* The workload behind a workload target, else NULL. */
PEV_EXPORT struct pev_workload *pev_target_workload(const struct pev_target *t);

/* ---- launched command ---- */

/* Options for pev_workload_new; .size = sizeof(struct pev_workload_opts). */
struct pev_workload_opts {
	size_t size;
	/* Runs in the child after pev_workload_start() released it, right
	 * before execvp (so after counters were opened on it): e.g. to
	 * change directory or close fds.  Must be async-signal-safe. */
	void (*child_setup)(void *arg);
	void *child_arg;
};

/* Fork a child that waits (blocked in read on a pipe) until
 * pev_workload_start(); argv[0] is looked up in PATH (execvp).  Open the
 * counters on it between new and start.  NULL and errno on failure
 * (-EINVAL for an empty argv).  Not thread-safe; one owner. */
PEV_EXPORT struct pev_workload *pev_workload_new(char *const argv[],
						 const struct pev_workload_opts *opts);

/* The child's pid (> 0). */
PEV_EXPORT pid_t pev_workload_pid(const struct pev_workload *w);

/* Release the child to exec.  Returns 0 once the exec succeeded, or the
 * exec's -errno (e.g. -ENOENT for a missing command, -EACCES): the child
 * reports it through a close-on-exec pipe, and is reaped here.
 * -EALREADY on a second call. */
PEV_EXPORT int pev_workload_start(struct pev_workload *w);

/* Wait for the child to end.  0 and *wstatus (the raw waitpid status, may
 * be NULL), or -errno; -EINTR when a signal interrupted the wait (call
 * again).  After a failed exec this returns the status of that child (exit
 * 127).  Repeated calls return the same status. */
PEV_EXPORT int pev_workload_wait(struct pev_workload *w, int *wstatus);

/* Non-blocking: 1 and *wstatus when the child has ended, 0 when it runs. */
PEV_EXPORT int pev_workload_poll(struct pev_workload *w, int *wstatus);

/* Send a signal to the child (while it is not reaped).  0 or -errno. */
PEV_EXPORT int pev_workload_kill(struct pev_workload *w, int sig);

/* perf's exit code for a wait status: the exit status, or 128+N for death
 * by signal N. */
PEV_EXPORT int pev_wait_status_code(int wstatus);

/* A child never started is killed (SIGKILL) and reaped; a started one that
 * still runs is left running (not reaped).  Accepts NULL. */
PEV_EXPORT void pev_workload_free(struct pev_workload *w);

#ifdef __cplusplus
}
#endif
#endif
