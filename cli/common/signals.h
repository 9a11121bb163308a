/* SPDX-License-Identifier: GPL-2.0-only */
/* The signals of the commands that run something and wait for it (stat,
 * record): one handler for SIGINT, SIGTERM and SIGCHLD, installed without
 * SA_RESTART; the three stay blocked except inside the waits (ppoll with
 * signals_wait_mask), so none slips in between a check and the wait, and
 * a Ctrl-C or SIGTERM ends any wait at once.  After the work, perfev dies
 * of the SIGINT/SIGTERM that stopped it (signals_exit_by), as perf does.
 *
 * The pager (common/pager.c) has its own handler: it runs in commands that
 * never wait, and dies in the handler itself (signals_die is its end too). */
#ifndef PEV_CLI_SIGNALS_H
#define PEV_CLI_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/* SIGPIPE and SIGXFSZ ignored as well: a write to a closed pipe or past
 * RLIMIT_FSIZE fails with EPIPE / EFBIG, reported, instead of killing. */
#define SIGNALS_IGNORE_IO 1u

/* Installs the handler and blocks the three, remembering the dispositions
 * and the mask before (what signals_restore and signals_child_setup put
 * back).  A workload forked before keeps perfev's own; one forked after
 * must run signals_child_setup in its child. */
void signals_install(unsigned flags);
/* Flushes every stream (a signal pending now is delivered by the restored
 * action: what was counted must be out first), then the dispositions and
 * the mask from before signals_install. */
void signals_restore(void);
/* SIGINT or SIGTERM caught since signals_install (the last), else 0. */
int signals_stop(void);
/* SIGCHLD caught since signals_install. */
bool signals_child_exited(void);
/* The mask a wait runs with: the current one with SIGCHLD open, and
 * SIGINT and SIGTERM too when stop. */
void signals_wait_mask(sigset_t *open, bool stop);
/* A pev_workload_opts child_setup (arg unused), in the child before its
 * exec: the dispositions and the mask perfev was started with. */
void signals_child_setup(void *arg);
/* system(3) with the mask perfev was started with. */
int signals_system(const char *cmd);
/* Dies of sig: default action, unblocked, raised.  Async-signal-safe (a
 * handler may end with it); returns only when sig's default is not to
 * end the process. */
void signals_die(int sig);
/* stdout and stderr flushed, then signals_die(sig). */
void signals_exit_by(int sig);

#endif
