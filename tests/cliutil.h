/* SPDX-License-Identifier: GPL-2.0-only */
/* Run the perfev binary (or any program) from a test and capture its
 * output.  The runner exports PERFEV (path of the binary). */
#ifndef PEV_CLIUTIL_H
#define PEV_CLIUTIL_H

#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

struct t_run {
	char *out;	/* stdout, NUL-terminated (malloc'd) */
	char *err;	/* stderr, NUL-terminated (malloc'd) */
	int status;	/* raw wait status */
	int exit_code;	/* WEXITSTATUS, or 128+signal */
};

static inline const char *t_perfev(void)
{
	const char *p = getenv("PERFEV");
	return p && *p ? p : "build/perfev";
}

static inline void t_run_free(struct t_run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

static inline int t_append(char **buf, size_t *len, int fd)
{
	char tmp[4096];
	ssize_t n = read(fd, tmp, sizeof(tmp));
	if (n <= 0)
		return 0;
	char *nb = realloc(*buf, *len + (size_t)n + 1);
	if (!nb)
		return 0;
	memcpy(nb + *len, tmp, (size_t)n);
	*len += (size_t)n;
	nb[*len] = '\0';
	*buf = nb;
	return 1;
}

/* Run argv (argv[0] is looked up in PATH unless it has a '/'), feeding
 * `input` (may be NULL) on stdin.  Returns 0, or -1 if it could not run. */
static inline int t_run_argv(char *const argv[], const char *input, struct t_run *r)
{
	int po[2], pe[2], pi[2];

	memset(r, 0, sizeof(*r));
	if (pipe(po) || pipe(pe) || pipe(pi))
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(pi[0], 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]); close(pe[0]); close(pi[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(po[1]); close(pe[1]); close(pi[0]);
	if (input) {
		size_t l = strlen(input);
		if (write(pi[1], input, l) != (ssize_t)l) { /* ignore */ }
	}
	close(pi[1]);
	size_t lo = 0, le = 0;
	r->out = calloc(1, 1);
	r->err = calloc(1, 1);
	struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
	int open_fds = 2;
	while (open_fds) {
		if (poll(fds, 2, -1) < 0)
			break;
		for (int k = 0; k < 2; k++) {
			if (fds[k].fd >= 0 && (fds[k].revents & (POLLIN | POLLHUP))) {
				if (!t_append(k ? &r->err : &r->out, k ? &le : &lo, fds[k].fd)) {
					close(fds[k].fd);
					fds[k].fd = -1;
					open_fds--;
				}
			}
		}
	}
	waitpid(pid, &r->status, 0);
	r->exit_code = WIFEXITED(r->status) ? WEXITSTATUS(r->status)
		     : 128 + WTERMSIG(r->status);
	return 0;
}

/* Run a shell command line built like printf; its exit status, or 128+N
 * when it died of signal N. */
static inline int t_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int t_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* Where two outputs first differ: *line (1-based) and *start, the offset
 * of that line in both; false when they are the same. */
static inline bool t_first_diff(const char *a, size_t la, const char *b,
				size_t lb, size_t *line, size_t *start)
{
	size_t i = 0;

	*line = 1;
	*start = 0;
	if (la == lb && !memcmp(a, b, la))
		return false;
	while (i < la && i < lb && a[i] == b[i]) {
		if (a[i] == '\n') {
			++*line;
			*start = i + 1;
		}
		i++;
	}
	return true;
}

/* A whole file, NUL-terminated (malloc'ed; an empty string when it cannot
 * be read); *len gets its size. */
static inline char *t_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);

	while (f && b) {
		if (n + 4096 > cap)
			b = realloc(b, cap *= 2);
		size_t r = fread(b + n, 1, cap - n - 1, f);

		if (!r)
			break;
		n += r;
	}
	if (f)
		fclose(f);
	if (b)
		b[n] = 0;
	*len = n;
	return b;
}

/* The file name in folder dir, as t_slurp (NULL when unreadable). */
static inline char *t_slurp_in(const char *dir, const char *name)
{
	char p[4096];
	size_t len;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return t_slurp(p, &len);
}

/* Run perfev with the given arguments (NULL-terminated). */
#define T_RUN_PERFEV(r, ...) \
	t_run_argv((char *const[]){ (char *)t_perfev(), __VA_ARGS__, NULL }, NULL, (r))

#endif
