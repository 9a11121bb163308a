// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Adding files to perf's build-id cache, in perf 6.1's layout:
 *
 *   <dir>/<path>/<build id>/elf          a copy (or hard link) of the file
 *   <dir>/[kernel.kallsyms]/<id>/kallsyms the kernel's symbol list
 *   <dir>/[vdso]/<id>/vdso               the vDSO's image (from memory)
 *   <dir>/<path>/<id>/probes             empty (perf's uprobe cache)
 *   <dir>/.build-id/<id[0:2]>/<id[2:]>   -> ../../<path>/<build id>
 *
 * <dir> is $PERF_BUILDID_DIR, else $HOME/.debug, as perf. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
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

/* The vDSO mapped in this process: the same image for every process of
 * the running kernel (perf record saves its own copy too). */
int pev__vdso_image(const void **img, size_t *len)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR), lo, hi;
	char line[512];
	FILE *f;
	int err = -ENOENT;

	if (!base || !(f = fopen("/proc/self/maps", "re")))
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo == base && hi > lo &&
		    strstr(line, "[vdso]")) {
			*img = (const void *)lo;
			*len = hi - lo;
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

/* The build id of a vDSO image (this process's, or the 32-bit one). */
static int vdso_id(bool is32, uint8_t *id, size_t max)
{
	struct pev_elf_info info;
	const void *img;
	size_t len;
	int err = is32 ? pev__vdso32_image(&img, &len) : pev__vdso_image(&img, &len);

	if (err < 0)
		return err;
	if ((err = pev__elf_info_read(NULL, img, len, &info)) < 0)
		return err;
	if (!info.build_id_size)
		return -ENOENT;
	memcpy(id, info.build_id, (size_t)info.build_id_size < max ?
	       (size_t)info.build_id_size : max);
	return info.build_id_size;
}

PEV_EXPORT int pev_vdso_build_id(uint8_t *id, size_t max)
{
	return vdso_id(false, id, max);
}

PEV_EXPORT int pev_vdso32_build_id(uint8_t *id, size_t max)
{
	return vdso_id(true, id, max);
}

/* Writes the running vDSO (or the 32-bit one) to `to` (mode 0600, as
 * perf's copy), when its build id is the one asked for. */
static int write_vdso(const char *to, const uint8_t *id, size_t size, bool is32)
{
	char tmp[PATH_MAX + 32];
	uint8_t run[20];
	const void *img;
	size_t len;
	int fd, err = vdso_id(is32, run, sizeof(run));

	if (err < 0)
		return err;
	if ((size_t)err != size || memcmp(run, id, size))
		return -ESRCH;	/* another kernel's vDSO: not ours to write */
	if ((err = is32 ? pev__vdso32_image(&img, &len) : pev__vdso_image(&img, &len)) < 0)
		return err;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", to) >= sizeof(tmp))
		return -ENAMETOOLONG;
	if ((fd = mkstemp(tmp)) < 0)
		return -errno;
	for (size_t off = 0; off < len && !err;) {
		ssize_t w = write(fd, (const char *)img + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			err = w < 0 ? -errno : -EIO;
		else
			off += (size_t)w;
	}
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, to))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
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
	bool kernel, vdso, vdso32 = path && !strcmp(path, "[vdso32]");
	int err;

	if (!path || !id || !size || size > 20 ||
	    (path[0] != '/' && strcmp(path, "[kernel.kallsyms]") && strcmp(path, "[vdso]") &&
	     !vdso32))
		return -EINVAL;
	/* perf 6.1 caches the 32-bit vDSO under [vdso] too */
	if (vdso32)
		path = "[vdso]";
	if (dir)
		snprintf(base, sizeof(base), "%s", dir);
	else if ((err = pev__buildid_dir(base, sizeof(base))) < 0)
		return err;
	for (size_t i = 0; i < size; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	vdso = !strcmp(path, "[vdso]");
	kernel = path[0] == '[' && !vdso;
	/* The cached name drops the leading slash: <dir>/usr/bin/ls/<id>. */
	if ((size_t)snprintf(d, sizeof(d), "%s/%s/%s", base, path + (path[0] == '/'), hex) >= sizeof(d))
		return -ENAMETOOLONG;
	if ((err = mkdirs(d, false)) < 0)
		return err;
	snprintf(f, sizeof(f), "%s/%s", d, kernel ? "kallsyms" : vdso ? "vdso" : "elf");
	if (access(f, F_OK) != 0 &&
	    (err = vdso ? write_vdso(f, id, size, vdso32) :
	     copy_file(kernel ? "/proc/kallsyms" : path, f)) < 0)
		return err;
	/* perf 6.1 copies the debug file found under
	 * /usr/lib/debug/.build-id/ (not a .gnu_debuglink one) next to a
	 * program or library's copy, as `debug` (not for modules). */
	size_t plen = strlen(path);

	if (!kernel && !vdso && !(plen > 3 && !strcmp(path + plen - 3, ".ko"))) {
		char dbg[PATH_MAX], real[PATH_MAX];

		snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		snprintf(f, sizeof(f), "%s/debug", d);
		if (realpath(dbg, real) && access(real, R_OK) == 0 && access(f, F_OK) != 0 &&
		    (err = copy_file(real, f)) < 0)
			return err;
	}
	/* perf 6.1 starts an empty uprobe cache (`probes`) next to each
	 * file it caches. */
	if (!kernel) {
		int fd;

		snprintf(f, sizeof(f), "%s/probes", d);
		fd = open(f, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
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
