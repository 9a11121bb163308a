// SPDX-License-Identifier: GPL-2.0-only
/* The pager and the progress line (see pager.h for the rules). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/pager.h"
#include "common/signals.h"

static pid_t pager_pid = -1;

/* True when PATH holds an executable `name`. */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		if (n && (size_t)snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, name) <
			 sizeof(buf) && !access(buf, X_OK))
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

static const char *pager_command(void)
{
	const char *p = getenv("PERF_PAGER");

	if (!p)
		p = getenv("PAGER");
	if (!p) {
		if (!in_path("less"))
			return NULL;
		p = "less";
	}
	if (!*p || !strcmp(p, "cat"))
		return NULL;
	return p;
}

/* A fatal signal while paging: let the pager finish drawing, then die of
 * the signal (git's wait_for_pager_signal).  Not signals.c's handler: the
 * commands that page never wait for anything, so there is no loop to see
 * a flag, and dying in the handler is the end wanted. */
static void on_fatal_signal(int sig)
{
	pager_finish();
	signals_die(sig);
}

bool pager_start(bool allowed)
{
	const char *cmd;
	int fds[2];
	pid_t pid;

	if (!allowed || pager_pid > 0 || !isatty(STDOUT_FILENO))
		return false;
	cmd = pager_command();
	if (!cmd)
		return false;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return false;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (!pid) {
		dup2(fds[0], STDIN_FILENO);
		setenv("LESS", "FRSX", 0);
		setenv("LV", "-c", 0);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	dup2(fds[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(fds[1], STDERR_FILENO);
	close(fds[0]);
	close(fds[1]);
	pager_pid = pid;
	/* q in the pager closes the pipe: writes fail with EPIPE, which the
	 * commands treat as a quiet end. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_fatal_signal);
	signal(SIGTERM, on_fatal_signal);
	signal(SIGHUP, on_fatal_signal);
	atexit(pager_finish);
	return true;
}

bool pager_active(void)
{
	return pager_pid > 0;
}

void pager_finish(void)
{
	pid_t pid = pager_pid;

	if (pid <= 0)
		return;
	pager_pid = -1;
	fflush(stdout);
	fflush(stderr);
	/* EOF for the pager: close every copy of the pipe we hold. */
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void progress_init(struct progress *p, const char *title, uint64_t total)
{
	memset(p, 0, sizeof(*p));
	p->title = title;
	p->total = total;
	p->on = total >= PROGRESS_MIN_BYTES && isatty(STDERR_FILENO) && !pager_active();
	p->next = total / 1000;
}

void progress_draw(struct progress *p, uint64_t done)
{
	uint64_t t = now_ns();

	p->next = done + p->total / 1000;
	if (p->drawn && t - p->last_ns < 100000000ull)
		return;
	p->last_ns = t;
	p->drawn = true;
	fprintf(stderr, "\r%s: %3u%% (%llu of %llu MiB)\033[K", p->title,
		(unsigned)(p->total ? done * 100 / p->total : 0),
		(unsigned long long)(done >> 20), (unsigned long long)(p->total >> 20));
	fflush(stderr);
}

void progress_done(struct progress *p)
{
	if (p->on && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->on = p->drawn = false;
}
