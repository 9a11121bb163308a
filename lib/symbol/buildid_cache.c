/* Adding files to perf's build-id cache, in perf 6.1's layout:
 *
 *   <dir>/<path>/<build id>/elf          a copy (or hard link) of the file
 *   <dir>/[kernel.kallsyms]/<id>/kallsyms the kernel's symbol list
 *   <dir>/.build-id/<id[0:2]>/<id[2:]>   -> ../../<path>/<build id>
 *
 * <dir> is $PERF_BUILDID_DIR, else $HOME/.debug, as perf. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/symbols.h>
#include "symbol/symbols_internal.h"

int pev__buildid_dir(char *buf, size_t size)
{
	const char *d = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	int n;

	if (d && *d)
		n = snprintf(buf, size, "%s", d);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.debug", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* mkdir -p for the directories of path up to (not including) its last
 * component when `parent_only`, else all of it. */
static int mkdirs(char *path, bool parent_only)
{
	char *end = parent_only ? strrchr(path, '/') : path + strlen(path);

	if (!end)
		return 0;
	for (char *p = path + 1; p <= end; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;

		*p = 0;
		int r = mkdir(path, 0755);

		*p = c;
		if (r && errno != EEXIST)
			return -errno;
		if (!c)
			break;
	}
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	char tmp[PATH_MAX + 32], buf[65536];
	int in, out, err = 0;
	ssize_t n;

	if (link(from, to) == 0 || errno == EEXIST)
		return 0;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", to) >= sizeof(tmp))
		return -ENAMETOOLONG;
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = mkstemp(tmp);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				err = w < 0 ? -errno : -EIO;
				break;
			}
			off += w;
		}
		if (err)
			break;
	}
	close(in);
	if (!err)
		fchmod(out, 0755);
	if (close(out) && !err)
		err = -errno;
	if (!err && rename(tmp, to))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

PEV_EXPORT int pev_buildid_cache_add(const char *dir, const char *path,
				     const uint8_t *id, size_t size)
{
	char base[PATH_MAX], d[PATH_MAX], f[PATH_MAX + 16], l[PATH_MAX + 64], t[PATH_MAX + 64];
	char hex[41];
	bool kernel;
	int err;

	if (!path || !id || !size || size > 20 ||
	    (path[0] != '/' && strcmp(path, "[kernel.kallsyms]")))
		return -EINVAL;
	if (dir)
		snprintf(base, sizeof(base), "%s", dir);
	else if ((err = pev__buildid_dir(base, sizeof(base))) < 0)
		return err;
	for (size_t i = 0; i < size; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	kernel = path[0] == '[';
	/* The cached name drops the leading slash: <dir>/usr/bin/ls/<id>. */
	if ((size_t)snprintf(d, sizeof(d), "%s/%s/%s", base, path + (path[0] == '/'), hex) >= sizeof(d))
		return -ENAMETOOLONG;
	if ((err = mkdirs(d, false)) < 0)
		return err;
	snprintf(f, sizeof(f), "%s/%s", d, kernel ? "kallsyms" : "elf");
	if (access(f, F_OK) != 0 &&
	    (err = copy_file(kernel ? "/proc/kallsyms" : path, f)) < 0)
		return err;
	if ((size_t)snprintf(l, sizeof(l), "%s/.build-id/%.2s/%s", base, hex, hex + 2) >= sizeof(l))
		return -ENAMETOOLONG;
	if ((err = mkdirs(l, true)) < 0)
		return err;
	if ((size_t)snprintf(t, sizeof(t), "../../%s/%s", path + (path[0] == '/'), hex) >= sizeof(t))
		return -ENAMETOOLONG;
	if (symlink(t, l) && errno != EEXIST)
		return -errno;
	return 0;
}
