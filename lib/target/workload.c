// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* A launched command that starts counted at its exec: fork a child that
 * blocks until released, let the caller open counters on it (disabled,
 * enable_on_exec), then release it to execvp.  An exec failure travels
 * back as an errno through a close-on-exec pipe: EOF there means the exec
 * succeeded. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfev/target.h>

struct pev_workload {
	pid_t pid;
	int go_fd;	/* our end of the "go" socket; closed by start */
	int err_fd;	/* read end of the exec-errno pipe */
	bool started;
	bool reaped;
	int status;
};

extern char **environ;

/* execvp's PATH search, done by the child while the parent is still
 * opening counters: each miss of execvp is a failed execve (tens of µs
 * here), which would otherwise lie between "go" and the workload's start.
 * Async-signal-safe calls only.  Leaves out[0] = 0 (use execvp) unless
 * argv0 is found as an executable regular file in an absolute PATH entry
 * that comes before any relative one (child_setup may change directory). */
static void resolve(const char *argv0, char *out, size_t size)
{
	const char *path = NULL;
	size_t n = strlen(argv0);
	struct stat st;

	out[0] = 0;
	if (strchr(argv0, '/'))
		return;
	for (char **e = environ; e && *e; e++)
		if (!strncmp(*e, "PATH=", 5)) {
			path = *e + 5;
			break;
		}
	while (path && *path == '/') {
		const char *end = strchr(path, ':');
		size_t d = end ? (size_t)(end - path) : strlen(path);

		if (d + 1 + n + 1 > size)
			break;
		memcpy(out, path, d);
		out[d] = '/';
		memcpy(out + d + 1, argv0, n + 1);
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
			return;
		path = end ? end + 1 : NULL;
	}
	out[0] = 0;
}

static void child(int go, int err, char *const argv[],
		  const struct pev_workload_opts *o)
{
	char c, file[4096];
	ssize_t r;
	int e;

	/* Only async-signal-safe calls from here on: the parent may have
	 * other threads. */
	resolve(argv[0], file, sizeof(file));
	do
		r = read(go, &c, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)	/* the parent gave up on us */
		_exit(127);
	close(go);
	if (o && o->child_setup)
		o->child_setup(o->child_arg);
	if (file[0])
		execv(file, argv);
	/* Not found ahead, or that exec failed (a script without #!, which
	 * execvp hands to /bin/sh; a file changed meanwhile): execvp decides. */
	execvp(argv[0], argv);
	e = errno;
	r = write(err, &e, sizeof(e));
	(void)r;
	_exit(127);
}

PEV_EXPORT struct pev_workload *pev_workload_new(char *const argv[],
						 const struct pev_workload_opts *opts)
{
	struct pev_workload *w;
	int go[2], err[2], e;

	if (!argv || !argv[0] || !argv[0][0]) {
		errno = EINVAL;
		return NULL;
	}
	if (opts && opts->size < sizeof(size_t)) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	/* A socket, not a pipe, for "go": send(MSG_NOSIGNAL) to a child that
	 * already died fails with EPIPE instead of killing us with SIGPIPE. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) < 0)
		goto fail_free;
	if (pipe2(err, O_CLOEXEC) < 0)
		goto fail_go;
	w->pid = fork();
	if (w->pid < 0)
		goto fail_err;
	if (w->pid == 0) {
		close(go[0]);
		close(err[0]);
		child(go[1], err[1], argv, opts);
	}
	close(go[1]);
	close(err[1]);
	w->go_fd = go[0];
	w->err_fd = err[0];
	return w;

fail_err:
	e = errno;
	close(err[0]);
	close(err[1]);
	errno = e;
fail_go:
	e = errno;
	close(go[0]);
	close(go[1]);
	errno = e;
fail_free:
	e = errno;
	free(w);
	errno = e;
	return NULL;
}

PEV_EXPORT pid_t pev_workload_pid(const struct pev_workload *w)
{
	return w->pid;
}

static int reap(struct pev_workload *w, int flags)
{
	int st;
	pid_t r;

	if (w->reaped)
		return 1;
	r = waitpid(w->pid, &st, flags);
	if (r < 0)
		return -errno;
	if (r == 0)
		return 0;
	w->reaped = true;
	w->status = st;
	return 1;
}

PEV_EXPORT int pev_workload_start(struct pev_workload *w)
{
	ssize_t r;
	int e = 0;

	if (w->started)
		return -EALREADY;
	w->started = true;
	r = send(w->go_fd, "g", 1, MSG_NOSIGNAL);
	e = r == 1 ? 0 : errno;
	close(w->go_fd);
	w->go_fd = -1;
	if (e) {
		close(w->err_fd);
		w->err_fd = -1;
		return -e;
	}
	do
		r = read(w->err_fd, &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (r == 0)
		return 0;	/* the exec closed the pipe: it succeeded */
	if (r != (ssize_t)sizeof(e) || e <= 0)
		e = EIO;
	/* The child exits right after telling us; reap it now. */
	while (reap(w, 0) == -EINTR)
		;
	return -e;
}

PEV_EXPORT int pev_workload_wait(struct pev_workload *w, int *wstatus)
{
	int r = reap(w, 0);

	if (r < 0)
		return r;
	if (wstatus)
		*wstatus = w->status;
	return 0;
}

PEV_EXPORT int pev_workload_poll(struct pev_workload *w, int *wstatus)
{
	int r = reap(w, WNOHANG);

	if (r > 0 && wstatus)
		*wstatus = w->status;
	return r;
}

PEV_EXPORT int pev_workload_kill(struct pev_workload *w, int sig)
{
	if (w->reaped)
		return -ESRCH;
	return kill(w->pid, sig) < 0 ? -errno : 0;
}

PEV_EXPORT int pev_wait_status_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

PEV_EXPORT void pev_workload_free(struct pev_workload *w)
{
	if (!w)
		return;
	if (!w->started && !w->reaped) {
		kill(w->pid, SIGKILL);
		while (reap(w, 0) == -EINTR)
			;
	}
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	free(w);
}
