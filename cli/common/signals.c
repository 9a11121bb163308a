// SPDX-License-Identifier: GPL-2.0-only
/* The signals of stat and record: see signals.h. */
#include <stdio.h>
#include <stdlib.h>

#include "common/signals.h"

static volatile sig_atomic_t stop_sig;	/* SIGINT or SIGTERM received */
static volatile sig_atomic_t child_exited;
static bool installed, ignored_io;
static sigset_t saved_mask;		/* the mask before the install */
static struct sigaction saved_int, saved_term, saved_chld, saved_pipe, saved_xfsz;

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		child_exited = 1;
	else
		stop_sig = sig;
}

void signals_install(unsigned flags)
{
	/* No SA_RESTART: a signal must end ppoll(). */
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t set;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &saved_int);
	sigaction(SIGTERM, &sa, &saved_term);
	sigaction(SIGCHLD, &sa, &saved_chld);
	ignored_io = flags & SIGNALS_IGNORE_IO;
	if (ignored_io) {
		struct sigaction ign = { .sa_handler = SIG_IGN };

		sigemptyset(&ign.sa_mask);
		sigaction(SIGPIPE, &ign, &saved_pipe);
		sigaction(SIGXFSZ, &ign, &saved_xfsz);
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &saved_mask);
	installed = true;
}

void signals_restore(void)
{
	if (!installed)
		return;
	fflush(NULL);
	sigaction(SIGINT, &saved_int, NULL);
	sigaction(SIGTERM, &saved_term, NULL);
	sigaction(SIGCHLD, &saved_chld, NULL);
	if (ignored_io) {
		sigaction(SIGPIPE, &saved_pipe, NULL);
		sigaction(SIGXFSZ, &saved_xfsz, NULL);
	}
	sigprocmask(SIG_SETMASK, &saved_mask, NULL);
	installed = false;
}

int signals_stop(void)
{
	return stop_sig;
}

bool signals_child_exited(void)
{
	return child_exited;
}

void signals_wait_mask(sigset_t *open, bool stop)
{
	sigprocmask(SIG_BLOCK, NULL, open);
	sigdelset(open, SIGCHLD);
	if (stop) {
		sigdelset(open, SIGINT);
		sigdelset(open, SIGTERM);
	}
}

void signals_child_setup(void *arg)
{
	(void)arg;
	if (!installed)
		return;
	/* the caught ones go back to their default at the exec; an ignored
	 * one would stay ignored */
	if (ignored_io) {
		sigaction(SIGPIPE, &saved_pipe, NULL);
		sigaction(SIGXFSZ, &saved_xfsz, NULL);
	}
	sigprocmask(SIG_SETMASK, &saved_mask, NULL);
}

int signals_system(const char *cmd)
{
	sigset_t cur;
	int st;

	if (!installed)
		return system(cmd);
	sigprocmask(SIG_SETMASK, &saved_mask, &cur);
	st = system(cmd);
	sigprocmask(SIG_SETMASK, &cur, NULL);
	return st;
}

void signals_die(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t set;

	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

void signals_exit_by(int sig)
{
	fflush(stdout);
	fflush(stderr);
	signals_die(sig);
}
