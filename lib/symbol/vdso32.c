// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The 32-bit vDSO image, for the symbols of a 32-bit process's
 * "[vdso32]" when the build-id cache has no copy: a 64-bit process has
 * none mapped, so perfev-read-vdso32 (libexec/, built -m32) writes its
 * own.  perf 6.1 does the same with its perf-read-vdso32. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "symbol/symbols_internal.h"

#define VDSO32_MAX (1u << 20)

/* The helper: $PERFEV_READ_VDSO32, else next to this executable, else
 * the install's libexec folders. */
static bool helper_path(char *buf, size_t size)
{
	const char *env = getenv("PERFEV_READ_VDSO32");
	char exe[4096];
	ssize_t n;

	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return access(buf, X_OK) == 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');

		if (slash) {
			*slash = 0;
			snprintf(buf, size, "%s/perfev-read-vdso32", exe);
			if (access(buf, X_OK) == 0)
				return true;
		}
	}
	static const char *const dirs[] = { "/usr/local/libexec/perfev", "/usr/libexec/perfev" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(buf, size, "%s/perfev-read-vdso32", dirs[i]);
		if (access(buf, X_OK) == 0)
			return true;
	}
	return false;
}

/* The image, read once per process (pthread_once): written only by
 * vdso32_read, read-only after. */
static pthread_once_t vdso32_once = PTHREAD_ONCE_INIT;
static char *image;
static size_t image_len;

static void vdso32_read(void)
{
	char path[4200];
	int fds[2];

	if (!helper_path(path, sizeof(path)) || pipe2(fds, O_CLOEXEC) < 0)
		return;
	pid_t pid = fork();

	if (pid == 0) {
		dup2(fds[1], 1);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char *b = pid > 0 ? malloc(VDSO32_MAX) : NULL;
	size_t got = 0;
	ssize_t r;

	while (b && got < VDSO32_MAX &&
	       (r = read(fds[0], b + got, VDSO32_MAX - got)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		got += (size_t)r;
	}
	close(fds[0]);
	int st = 0;

	if (pid > 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	if (b && pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && got >= 52 &&
	    !memcmp(b, "\177ELF", 4)) {
		image = b;
		image_len = got;
	} else {
		free(b);
	}
}

int pev__vdso32_image(const void **img, size_t *len)
{
	pthread_once(&vdso32_once, vdso32_read);
	if (!image)
		return -ENOENT;
	*img = image;
	*len = image_len;
	return 0;
}
