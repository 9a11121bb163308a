/* Small helpers shared across lib/. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "util.h"

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
