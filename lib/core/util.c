// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Small helpers shared across lib/. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>


#include "core/util.h"

int pev__read_small(int dirfd, const char *path, char *buf, size_t size)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = -errno;
			close(fd);
			return e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (int)len;
}

int pev__read_file_at(int dirfd, const char *name, char *buf, size_t size)
{
	int len = pev__read_small(dirfd, name, buf, size);

	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		buf[--len] = '\0';
	return len;
}

int pev__grow(void *arrp, size_t *cap, size_t need, size_t elem, size_t first)
{
	void *arr, *na;
	size_t nc;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : (first ? first : 1);
	while (nc < need) {
		if (nc > SIZE_MAX / 2)
			return -ENOMEM;
		nc *= 2;
	}
	if (nc > SIZE_MAX / elem)
		return -ENOMEM;
	/* arrp points at a T *; copy it as bytes rather than store through
	 * a void ** (all object pointers share one representation here). */
	memcpy(&arr, arrp, sizeof(arr));
	na = realloc(arr, nc * elem);
	if (!na)
		return -ENOMEM;
	memcpy(arrp, &na, sizeof(na));
	*cap = nc;
	return 0;
}
