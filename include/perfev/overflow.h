/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: overflow notification by signal.
 *
 * Two kernel mechanisms:
 *  - O_ASYNC on the event fd (pev_overflow_signal_setup): the kernel sends
 *    the chosen signal, with si_code POLL_IN and si_fd = the event fd, each
 *    time it would wake a poll()er (every wakeup_events samples or
 *    wakeup_watermark bytes; with no ring, every overflow); with
 *    PERF_EVENT_IOC_REFRESH(n) the n-th overflow sends POLL_HUP instead
 *    and disables the event.
 *  - attr.sigtrap (Linux 5.13, pev_attr_sigtrap): a synchronous SIGTRAP
 *    to the thread that overflowed, si_code TRAP_PERF, with attr.sig_data
 *    in si_perf_data and attr.type in si_perf_type (pev_siginfo_perf).
 *
 * Handlers: install with sigaction(SA_SIGINFO); use only async-signal-safe
 * calls (pev_siginfo_perf and pev_ioc_refresh/enable/disable are: plain
 * field reads and ioctl(2)); do not read the ring from the handler unless
 * the reader is otherwise idle, since a pev_ring is not reentrant.  A
 * realtime signal (SIGRTMIN+n) is queued once per notification, a
 * standard signal may merge several into one delivery. */
#ifndef PERFEV_OVERFLOW_H
#define PERFEV_OVERFLOW_H

#include <signal.h>
#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The si_code of a sigtrap signal (asm-generic/siginfo.h, Linux 5.13). */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

/* Deliver fd's overflow notifications as signal signo to thread tid
 * (0 = the calling thread): fcntl F_SETOWN_EX (F_OWNER_TID), F_SETSIG
 * (so that si_fd and si_code are filled in), then O_ASYNC.  signo must be
 * a valid signal other than 0.  0 or -errno. */
PEV_EXPORT int pev_overflow_signal_setup(int fd, int signo, pid_t tid);
/* Stop signal delivery for fd (clears O_ASYNC).  0 or -errno. */
PEV_EXPORT int pev_overflow_signal_clear(int fd);

/* Make attr send SIGTRAP on each overflow to the thread it happened on:
 * sigtrap = 1, remove_on_exec = 1 (the kernel requires it), and sig_data.
 * The event must be per task (pid != -1); with inherit, also set
 * inherit_thread (the kernel refuses sigtrap across processes). */
PEV_EXPORT void pev_attr_sigtrap(struct perf_event_attr *attr, uint64_t sig_data);

/* The perf fields of a SIGTRAP siginfo (glibc 2.36 does not name them). */
struct pev_sigtrap_info {
	uint64_t data;		/* si_perf_data: attr.sig_data (long-sized:
				 * truncated to 32 bits on 32-bit ABIs) */
	uint32_t type;		/* si_perf_type: attr.type */
	uint32_t flags;		/* si_perf_flags: TRAP_PERF_FLAG_ASYNC (1) when
				 * delivered after the fact */
	void *addr;		/* si_addr: the sample address (PERF_SAMPLE_ADDR;
				 * bp_addr for breakpoints), else 0 */
};
/* Fill *out from si when it is a perf sigtrap (si_signo SIGTRAP, si_code
 * TRAP_PERF): 0, else -EINVAL.  Async-signal-safe. */
PEV_EXPORT int pev_siginfo_perf(const siginfo_t *si, struct pev_sigtrap_info *out);

#ifdef __cplusplus
}
#endif
#endif
