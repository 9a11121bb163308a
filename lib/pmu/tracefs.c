// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* tracefs: find or mount it, list tracepoints and read their ids. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <perfev/tracefs.h>
#include "pmu/sysfs_internal.h"
#include "core/util.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif

#define TRACEFS_DEFAULT "/sys/kernel/tracing"
#define TRACEFS_DEBUG "/sys/kernel/debug/tracing"

static bool is_tracefs(const char *path)
{
	struct statfs sfs;
	char ev[256];
	struct stat st;

	if (statfs(path, &sfs) == 0 && (unsigned long)sfs.f_type == TRACEFS_MAGIC)
		return true;
	/* The debugfs path is an automount point: looking inside mounts it. */
	snprintf(ev, sizeof(ev), "%s/events", path);
	return stat(ev, &st) == 0 && S_ISDIR(st.st_mode) &&
	       statfs(ev, &sfs) == 0 && (unsigned long)sfs.f_type == TRACEFS_MAGIC;
}

static int copy_path(char *buf, size_t size, const char *path)
{
	size_t l = strlen(path);

	if (l + 1 > size)
		return -ENAMETOOLONG;
	memcpy(buf, path, l + 1);
	return (int)l;
}

PEV_EXPORT int pev_tracefs_mount(void)
{
	if (is_tracefs(TRACEFS_DEFAULT))
		return 0;
	if (mount("nodev", TRACEFS_DEFAULT, "tracefs", 0, NULL) < 0) {
		/* Another thread or process may have won the race. */
		if (errno == EBUSY && is_tracefs(TRACEFS_DEFAULT))
			return 0;
		return -errno;
	}
	return 0;
}

PEV_EXPORT int pev_tracefs_find(char *buf, size_t size, bool mount_if_needed)
{
	int ret;

	if (!buf)
		return -EINVAL;
	if (is_tracefs(TRACEFS_DEFAULT))
		return copy_path(buf, size, TRACEFS_DEFAULT);
	if (is_tracefs(TRACEFS_DEBUG))
		return copy_path(buf, size, TRACEFS_DEBUG);
	if (!mount_if_needed)
		return -ENOENT;
	if ((ret = pev_tracefs_mount()) < 0)
		return ret;
	return copy_path(buf, size, TRACEFS_DEFAULT);
}

static bool valid_component(const char *s)
{
	return s && *s && strlen(s) < 256 && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

PEV_EXPORT int64_t pev_tracepoint_id(const char *tracefs, const char *sys, const char *name)
{
	char path[4096], text[32], *end;
	int fd, n;

	if (!tracefs || !valid_component(sys) || !valid_component(name))
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/events/%s/%s", tracefs, sys, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pev__read_file_at(fd, "id", text, sizeof(text));
	close(fd);
	if (n < 0)
		return n;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (errno || end == text || *end || v < 0)
		return -EINVAL;
	return v;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Sorted names of the subdirectories of dirfd/sub matching glob. */
static int list_dirs(int dirfd, const char *sub, const char *glob, char ***out, size_t *nout)
{
	int fd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char **v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int e = -errno;
		close(fd);
		return e;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (glob && fnmatch(glob, de->d_name, 0))
			continue;
		if (pev__grow_array(v, &cap, n + 1, 64))
			goto nomem;
		if (!(v[n] = strdup(de->d_name)))
			goto nomem;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	*nout = n;
	return 0;
nomem:
	closedir(d);
	free_names(v, n);
	return -ENOMEM;
}

PEV_EXPORT int pev_tracepoint_foreach(const char *tracefs, const char *sys_glob,
				      const char *name_glob, pev_tracepoint_cb cb, void *user)
{
	char **sys = NULL;
	size_t nsys = 0;
	int evfd, ret, count = 0;

	if (!tracefs || !cb)
		return -EINVAL;
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/events", tracefs) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	evfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (evfd < 0)
		return -errno;
	ret = list_dirs(evfd, ".", sys_glob, &sys, &nsys);
	for (size_t i = 0; ret == 0 && i < nsys; i++) {
		char **ev = NULL;
		size_t nev = 0;

		if (list_dirs(evfd, sys[i], name_glob, &ev, &nev) < 0)
			continue;	/* a file such as "enable", not a subsystem */
		for (size_t j = 0; j < nev && ret == 0; j++) {
			int r = cb(sys[i], ev[j], user);
			if (r)
				ret = r;
			else
				count++;
		}
		free_names(ev, nev);
	}
	free_names(sys, nsys);
	close(evfd);
	return ret ? ret : count;
}
