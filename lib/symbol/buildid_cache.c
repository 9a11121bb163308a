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
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/data.h>
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

/* Hard link, else a copy of mode `mode` (perf's copyfile_mode: the
 * source's mode for the DSO, 0755 for the others). */
static int copy_file(const char *from, const char *to, mode_t mode)
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
		fchmod(out, mode & 07777);
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
	struct stat st;

	if (kernel || stat(path, &st) < 0)
		st.st_mode = 0755;
	if (access(f, F_OK) != 0 &&
	    (err = vdso ? write_vdso(f, id, size, vdso32) :
	     copy_file(kernel ? "/proc/kallsyms" : path, f, st.st_mode)) < 0)
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
		    (err = copy_file(real, f, 0755)) < 0)
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

PEV_EXPORT int pev_buildid_cache_dir(const char *dir, char *buf, size_t size)
{
	if (!buf || !size)
		return -EINVAL;
	if (!dir)
		return pev__buildid_dir(buf, size);
	if ((size_t)snprintf(buf, size, "%s", dir) >= size)
		return -ENAMETOOLONG;
	return 0;
}

static bool all_hex(const char *s, size_t min, size_t max)
{
	size_t n = 0;

	while (isxdigit((unsigned char)s[n]) && n <= max)
		n++;
	return n >= min && n <= max && !s[n];
}

/* rm -rf: the directory `path` and everything under it (symbolic links
 * removed, not followed). */
static int rm_rf(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int err = 0;

	if (!d)
		return errno == ENOTDIR ? (unlink(path) ? -errno : 0) : -errno;
	while ((e = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >= sizeof(sub)) {
			err = -ENAMETOOLONG;
			break;
		}
		if (lstat(sub, &st) < 0) {
			err = -errno;
			break;
		}
		if ((err = S_ISDIR(st.st_mode) ? rm_rf(sub) : (unlink(sub) ? -errno : 0)) < 0)
			break;
	}
	closedir(d);
	if (!err && rmdir(path))
		err = -errno;
	return err;
}

/* <base>/.build-id/xx/<rest> for a hex id. */
static int link_name(const char *base, const char *hex, char *buf, size_t size)
{
	if (!all_hex(hex, 3, 40))
		return -EINVAL;
	if ((size_t)snprintf(buf, size, "%s/.build-id/%.2s/%s", base, hex, hex + 2) >= size)
		return -ENAMETOOLONG;
	return 0;
}

PEV_EXPORT int pev_buildid_cache_remove(const char *dir, const char *sbuild_id)
{
	char base[PATH_MAX], l[PATH_MAX + 64], t[PATH_MAX], full[2 * PATH_MAX + 64];
	ssize_t n;
	int err;

	if (!sbuild_id)
		return -EINVAL;
	if ((err = pev_buildid_cache_dir(dir, base, sizeof(base))) < 0 ||
	    (err = link_name(base, sbuild_id, l, sizeof(l))) < 0)
		return err;
	/* As perf: a link whose directory is gone counts as not cached. */
	if (access(l, F_OK))
		return -errno;
	if ((n = readlink(l, t, sizeof(t) - 1)) < 0)
		return -errno;
	t[n] = 0;
	if (unlink(l))
		return -errno;
	/* The link is relative to its own folder (../../<path>/<id>). */
	snprintf(full, sizeof(full), "%.*s/%s", (int)(strrchr(l, '/') - l), l, t);
	return rm_rf(full);
}

/* The name a link <base>/.build-id/xx/<rest> was cached under: its
 * target less the leading "../.." and the trailing "/<id>". */
static int origname(const char *link, char *buf, size_t size)
{
	char t[PATH_MAX];
	ssize_t n = readlink(link, t, sizeof(t) - 1);
	char *slash;
	size_t off = 5;		/* strlen("../..") */

	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	t[n] = 0;
	slash = strrchr(t, '/');
	if (!slash || slash <= t + off)
		return -EINVAL;
	*slash = 0;
	if (t[off + 1] == '[')	/* "../../[kernel.kallsyms]": no slash */
		off++;
	if ((size_t)snprintf(buf, size, "%s", t + off) >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* Whether the file cached under `name` still has build id `hex` (perf's
 * build_id_cache__valid_id: files and the running kernel only). */
static bool valid_id(const char *hex, const char *name)
{
	uint8_t id[20];
	char now[41];
	int n;

	if (!strcmp(name, "[kernel.kallsyms]"))
		n = pev_kernel_build_id(id, sizeof(id));
	else if (name[0] == '/')
		n = pev_elf_build_id(name, id, sizeof(id));
	else
		return false;
	if (n <= 0)
		return false;
	for (int i = 0; i < n && i < 20; i++)
		snprintf(now + 2 * i, 3, "%02x", id[i]);
	return !strcmp(now, hex);
}

struct names {
	char **v;
	size_t nr, cap;
};

static int names_add(struct names *s, char *str)
{
	if (!str)
		return -ENOMEM;
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v) {
			free(str);
			return -ENOMEM;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->nr++] = str;
	return 0;
}

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->v[i]);
	free(s->v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, without duplicates (perf's strlist). */
static void names_sort(struct names *s)
{
	size_t o = 0;

	if (!s->nr)
		return;		/* s->v may be NULL */
	qsort(s->v, s->nr, sizeof(*s->v), cmp_str);
	for (size_t i = 0; i < s->nr; i++) {
		if (o && !strcmp(s->v[o - 1], s->v[i]))
			free(s->v[i]);
		else
			s->v[o++] = s->v[i];
	}
	s->nr = o;
}

PEV_EXPORT int pev_buildid_cache_list(const char *dir, bool valid_only,
				      pev_buildid_cache_fn fn, void *arg)
{
	char base[PATH_MAX], top[PATH_MAX + 16], sub[PATH_MAX + 32];
	struct names ids = { 0 };
	struct dirent *e, *f;
	DIR *d, *dd;
	int err;

	if (!fn)
		return -EINVAL;
	if ((err = pev_buildid_cache_dir(dir, base, sizeof(base))) < 0)
		return err;
	snprintf(top, sizeof(top), "%s/.build-id", base);
	if (!(d = opendir(top)))
		return errno == ENOENT ? 0 : -errno;
	while (!err && (e = readdir(d))) {
		/* perf's filters: two hex digits, then 30..38 of them */
		if (strlen(e->d_name) != 2 || !all_hex(e->d_name, 2, 2))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", top, e->d_name);
		if (!(dd = opendir(sub)))
			continue;
		while (!err && (f = readdir(dd))) {
			char *s;

			if (!all_hex(f->d_name, 30, 38) ||
			    asprintf(&s, "%s%s", e->d_name, f->d_name) < 0)
				continue;
			err = names_add(&ids, s);
		}
		closedir(dd);
	}
	closedir(d);
	names_sort(&ids);
	for (size_t i = 0; !err && i < ids.nr; i++) {
		char l[PATH_MAX + 64], name[PATH_MAX];
		bool have;

		if (link_name(base, ids.v[i], l, sizeof(l)) < 0)
			continue;
		have = origname(l, name, sizeof(name)) == 0;
		if (valid_only && (!have || !valid_id(ids.v[i], name)))
			continue;
		err = fn(ids.v[i], have ? name : NULL, arg);
	}
	names_free(&ids);
	return err;
}

PEV_EXPORT int pev_buildid_cache_path_ids(const char *dir, const char *path,
					  pev_buildid_cache_fn fn, void *arg)
{
	char base[PATH_MAX], real[PATH_MAX], d[2 * PATH_MAX + 8];
	struct names ids = { 0 };
	struct dirent *e;
	DIR *dd;
	int err;

	if (!path || !fn)
		return -EINVAL;
	if ((err = pev_buildid_cache_dir(dir, base, sizeof(base))) < 0)
		return err;
	/* perf's cachedir: the real path, else the name as given */
	if ((size_t)snprintf(d, sizeof(d), "%s%s", base, realpath(path, real) ? real : path) >=
	    sizeof(d))
		return -ENAMETOOLONG;
	if (!(dd = opendir(d)))
		return -errno;
	while (!err && (e = readdir(dd)))
		if (e->d_name[0] != '.')
			err = names_add(&ids, strdup(e->d_name));
	closedir(dd);
	names_sort(&ids);
	for (size_t i = 0; !err && i < ids.nr; i++)
		err = fn(ids.v[i], NULL, arg);
	names_free(&ids);
	return err;
}
