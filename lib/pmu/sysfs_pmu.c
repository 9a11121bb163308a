// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* PMUs from sysfs: <root>/bus/event_source/devices/<pmu>/{type, format/,
 * events/, cpumask, cpus, caps/}.  Everything is read with openat() below
 * one directory fd so a PMU is read consistently and paths never overflow. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <perfev/pmu.h>
#include "pmu/sysfs_internal.h"
#include "core/util.h"

#define DEVICES "/bus/event_source/devices"

const char *pev__sysfs_root(const char *root)
{
	return root && *root ? root : "/sys";
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct pev_pmu_format *)a)->name, ((const struct pev_pmu_format *)b)->name);
}

static int cmp_alias(const void *a, const void *b)
{
	return strcmp(((const struct pev_pmu_alias *)a)->name, ((const struct pev_pmu_alias *)b)->name);
}

static int cmp_cap(const void *a, const void *b)
{
	return strcmp(((const struct pev_pmu_cap *)a)->key, ((const struct pev_pmu_cap *)b)->key);
}

/* Open <pmu>/<sub> for listing: NULL with *ret 0 when the PMU has none. */
static DIR *open_subdir(int pmufd, const char *sub, int *ret)
{
	int fd = openat(pmufd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	*ret = 0;
	if (fd < 0) {
		if (errno != ENOENT)
			*ret = -errno;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		*ret = -errno;
		close(fd);
	}
	return d;
}

static int load_formats(struct pev_pmu *pmu, int pmufd, const char *path,
			char *err, size_t errlen)
{
	size_t cap = 0;
	struct dirent *de;
	int ret;
	DIR *d = open_subdir(pmufd, "format", &ret);

	if (!d)
		return ret;
	int fd = dirfd(d);
	while ((de = readdir(d))) {
		char text[256], why[160];
		int word;
		uint64_t mask;

		if (de->d_name[0] == '.')
			continue;
		int n = pev__read_file_at(fd, de->d_name, text, sizeof(text));
		if (n < 0)
			continue;	/* unreadable: not ours to judge */
		if (pev_pmu_format_parse(text, &word, &mask, why, sizeof(why)) < 0) {
			set_err(err, errlen, "bad format file '%s/format/%s' ('%.40s'): %s",
				path, de->d_name, text, why);
			ret = -EINVAL;
			break;
		}
		if ((ret = pev__grow_array(pmu->formats, &cap, pmu->nr_formats + 1, 8)))
			break;
		struct pev_pmu_format *f = &pmu->formats[pmu->nr_formats];
		f->name = strdup(de->d_name);
		if (!f->name) {
			ret = -ENOMEM;
			break;
		}
		f->word = word;
		f->mask = mask;
		pmu->nr_formats++;
	}
	closedir(d);
	if (pmu->nr_formats)
		qsort(pmu->formats, pmu->nr_formats, sizeof(*pmu->formats), cmp_format);
	return ret;
}

static const char *const alias_suffixes[] = { ".scale", ".unit", ".per-pkg", ".snapshot" };

static bool is_alias_side_file(const char *name)
{
	size_t l = strlen(name);

	for (size_t i = 0; i < sizeof(alias_suffixes) / sizeof(alias_suffixes[0]); i++) {
		size_t sl = strlen(alias_suffixes[i]);
		if (l > sl && !strcmp(name + l - sl, alias_suffixes[i]))
			return true;
	}
	return false;
}

/* Read the attribute file <alias><suffix> (its name left in fname):
 * its length, or <= 0 when it is absent or empty. */
static int read_alias_attr(int evfd, const char *alias, const char *suffix,
			   char *fname, size_t fnlen, char *text, size_t size)
{
	snprintf(fname, fnlen, "%s%s", alias, suffix);
	return pev__read_file_at(evfd, fname, text, size);
}

static int load_alias_extras(struct pev_pmu_alias *a, int evfd, const char *path,
			     char *err, size_t errlen)
{
	char fname[512], text[256];

	if (read_alias_attr(evfd, a->name, ".scale", fname, sizeof(fname), text, sizeof(text)) > 0) {
		char *end;
		errno = 0;
		double s = strtod(text, &end);
		if (errno || *end || end == text) {
			set_err(err, errlen, "bad scale file '%s/events/%s' ('%.40s'): expected a number",
				path, fname, text);
			return -EINVAL;
		}
		a->scale = s;
	}
	if (read_alias_attr(evfd, a->name, ".unit", fname, sizeof(fname), text, sizeof(text)) > 0) {
		free(a->unit);
		if (!(a->unit = strdup(text)))
			return -ENOMEM;
	}
	if (read_alias_attr(evfd, a->name, ".per-pkg", fname, sizeof(fname), text, sizeof(text)) > 0)
		a->per_pkg = text[0] == '1';
	if (read_alias_attr(evfd, a->name, ".snapshot", fname, sizeof(fname), text, sizeof(text)) > 0)
		a->snapshot = text[0] == '1';
	return 0;
}

static int load_aliases(struct pev_pmu *pmu, int pmufd, const char *path,
			char *err, size_t errlen)
{
	size_t cap = 0;
	struct dirent *de;
	int ret;
	DIR *d = open_subdir(pmufd, "events", &ret);

	if (!d)
		return ret;
	int fd = dirfd(d);
	while ((de = readdir(d))) {
		char text[1024];

		if (de->d_name[0] == '.' || is_alias_side_file(de->d_name))
			continue;
		if (strlen(de->d_name) > 255)
			continue;
		if (pev__read_file_at(fd, de->d_name, text, sizeof(text)) < 0)
			continue;
		if ((ret = pev__grow_array(pmu->aliases, &cap, pmu->nr_aliases + 1, 8)))
			break;
		struct pev_pmu_alias *a = &pmu->aliases[pmu->nr_aliases];
		memset(a, 0, sizeof(*a));
		a->scale = 1.0;
		a->name = strdup(de->d_name);
		a->terms = strdup(text);
		a->unit = strdup("");
		pmu->nr_aliases++;
		if (!a->name || !a->terms || !a->unit) {
			ret = -ENOMEM;
			break;
		}
		if ((ret = load_alias_extras(a, fd, path, err, errlen)))
			break;
	}
	closedir(d);
	if (pmu->nr_aliases)
		qsort(pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases), cmp_alias);
	return ret;
}

static int load_caps(struct pev_pmu *pmu, int pmufd)
{
	size_t cap = 0;
	struct dirent *de;
	int ret;
	DIR *d = open_subdir(pmufd, "caps", &ret);

	if (!d)
		return ret;
	int fd = dirfd(d);
	while ((de = readdir(d))) {
		char text[1024];

		if (de->d_name[0] == '.')
			continue;
		if (pev__read_file_at(fd, de->d_name, text, sizeof(text)) < 0)
			continue;
		if ((ret = pev__grow_array(pmu->caps, &cap, pmu->nr_caps + 1, 8)))
			break;
		struct pev_pmu_cap *c = &pmu->caps[pmu->nr_caps];
		c->key = strdup(de->d_name);
		c->value = strdup(text);
		pmu->nr_caps++;
		if (!c->key || !c->value) {
			ret = -ENOMEM;
			break;
		}
	}
	closedir(d);
	if (pmu->nr_caps)
		qsort(pmu->caps, pmu->nr_caps, sizeof(*pmu->caps), cmp_cap);
	return ret;
}

static int read_optional_string(int pmufd, const char *name, char **out)
{
	char text[4096];

	if (pev__read_file_at(pmufd, name, text, sizeof(text)) < 0)
		return 0;
	*out = strdup(text);
	return *out ? 0 : -ENOMEM;
}

/* Fill pmu (name already set) from dirfd; returns 0 or -errno. */
static int load_into(struct pev_pmu *pmu, int pmufd, const char *path, char *err, size_t errlen)
{
	char text[64], *end;
	int ret;

	ret = pev__read_file_at(pmufd, "type", text, sizeof(text));
	if (ret < 0) {
		set_err(err, errlen, "cannot read '%s/type': %s", path, strerror(-ret));
		return ret;
	}
	errno = 0;
	unsigned long t = strtoul(text, &end, 10);
	if (errno || end == text || *end || t > UINT32_MAX || text[0] == '-') {
		set_err(err, errlen, "bad type file '%s/type' ('%.20s'): expected a number", path, text);
		return -EINVAL;
	}
	pmu->type = (uint32_t)t;
	if ((ret = load_formats(pmu, pmufd, path, err, errlen)) ||
	    (ret = load_aliases(pmu, pmufd, path, err, errlen)) ||
	    (ret = load_caps(pmu, pmufd)) ||
	    (ret = read_optional_string(pmufd, "cpumask", &pmu->cpumask)) ||
	    (ret = read_optional_string(pmufd, "cpus", &pmu->cpus)))
		return ret;
	return 0;
}

static void pmu_release(struct pev_pmu *pmu)
{
	if (!pmu)
		return;
	free(pmu->name);
	for (size_t i = 0; i < pmu->nr_formats; i++)
		free(pmu->formats[i].name);
	free(pmu->formats);
	for (size_t i = 0; i < pmu->nr_aliases; i++) {
		free(pmu->aliases[i].name);
		free(pmu->aliases[i].terms);
		free(pmu->aliases[i].unit);
	}
	free(pmu->aliases);
	for (size_t i = 0; i < pmu->nr_caps; i++) {
		free(pmu->caps[i].key);
		free(pmu->caps[i].value);
	}
	free(pmu->caps);
	free(pmu->cpumask);
	free(pmu->cpus);
	free(pmu->error);
}

PEV_EXPORT void pev_pmu_free(struct pev_pmu *pmu)
{
	pmu_release(pmu);
	free(pmu);
}

static bool valid_pmu_name(const char *name)
{
	if (!name || !*name || strlen(name) > 255 || name[0] == '.')
		return false;
	return !strchr(name, '/');
}

PEV_EXPORT struct pev_pmu *pev_pmu_load(const char *sysfs_root, const char *name,
					char *err, size_t errlen)
{
	char path[4096];
	struct pev_pmu *pmu;
	int fd, ret;

	if (!valid_pmu_name(name)) {
		set_err(err, errlen, "bad PMU name");
		errno = EINVAL;
		return NULL;
	}
	if (snprintf(path, sizeof(path), "%s" DEVICES "/%s", pev__sysfs_root(sysfs_root), name) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = errno;
		set_err(err, errlen, "no PMU '%s' in %s%s", name, pev__sysfs_root(sysfs_root), DEVICES);
		errno = ret;
		return NULL;
	}
	pmu = calloc(1, sizeof(*pmu));
	if (!pmu || !(pmu->name = strdup(name))) {
		free(pmu);
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	ret = load_into(pmu, fd, path, err, errlen);
	close(fd);
	if (ret) {
		pev_pmu_free(pmu);
		errno = -ret;
		return NULL;
	}
	return pmu;
}

PEV_EXPORT const struct pev_pmu_format *pev_pmu_find_format(const struct pev_pmu *pmu,
							    const char *name)
{
	if (!pmu || !name)
		return NULL;
	for (size_t i = 0; i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

PEV_EXPORT const struct pev_pmu_alias *pev_pmu_find_alias(const struct pev_pmu *pmu,
							  const char *name)
{
	if (!pmu || !name)
		return NULL;
	for (size_t i = 0; i < pmu->nr_aliases; i++)
		if (!strcasecmp(pmu->aliases[i].name, name))
			return &pmu->aliases[i];
	return NULL;
}

PEV_EXPORT const char *pev_pmu_cap(const struct pev_pmu *pmu, const char *key)
{
	if (!pmu || !key)
		return NULL;
	for (size_t i = 0; i < pmu->nr_caps; i++)
		if (!strcmp(pmu->caps[i].key, key))
			return pmu->caps[i].value;
	return NULL;
}

struct pev_pmu_list {
	struct pev_pmu *pmus;
	size_t n;
};

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct pev_pmu *)a)->name, ((const struct pev_pmu *)b)->name);
}

PEV_EXPORT struct pev_pmu_list *pev_pmu_list_load(const char *sysfs_root)
{
	char path[4096];
	struct pev_pmu_list *list;
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int ret = 0;

	if (snprintf(path, sizeof(path), "%s" DEVICES, pev__sysfs_root(sysfs_root)) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	d = opendir(path);
	if (!d)
		return NULL;
	list = calloc(1, sizeof(*list));
	if (!list) {
		closedir(d);
		errno = ENOMEM;
		return NULL;
	}
	while ((de = readdir(d))) {
		char sub[4096 + 256], why[512];

		if (!valid_pmu_name(de->d_name))
			continue;
		int fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		/* Gone meanwhile, or not a directory: not a PMU.  Any other
		 * failure (EMFILE, EACCES) keeps the PMU, with its error. */
		if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
			continue;
		int open_err = fd < 0 ? errno : 0;
		if ((ret = pev__grow_array(list->pmus, &cap, list->n + 1, 8))) {
			if (fd >= 0)
				close(fd);
			break;
		}
		struct pev_pmu *p = &list->pmus[list->n];
		memset(p, 0, sizeof(*p));
		p->name = strdup(de->d_name);
		if (!p->name) {
			close(fd);
			ret = -ENOMEM;
			break;
		}
		list->n++;
		if (open_err) {
			if (!(p->error = strdup(strerror(open_err)))) {
				ret = -ENOMEM;
				break;
			}
			continue;
		}
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		why[0] = '\0';
		int r = load_into(p, fd, sub, why, sizeof(why));
		close(fd);
		if (r == -ENOMEM) {
			ret = r;
			break;
		}
		if (r < 0 && !(p->error = strdup(why[0] ? why : strerror(-r)))) {
			ret = -ENOMEM;
			break;
		}
	}
	closedir(d);
	if (ret) {
		pev_pmu_list_free(list);
		errno = -ret;
		return NULL;
	}
	if (list->n)
		qsort(list->pmus, list->n, sizeof(*list->pmus), cmp_pmu);
	return list;
}

PEV_EXPORT void pev_pmu_list_free(struct pev_pmu_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->n; i++)
		pmu_release(&list->pmus[i]);
	free(list->pmus);
	free(list);
}

PEV_EXPORT size_t pev_pmu_list_count(const struct pev_pmu_list *list)
{
	return list ? list->n : 0;
}

PEV_EXPORT const struct pev_pmu *pev_pmu_list_get(const struct pev_pmu_list *list, size_t i)
{
	return list && i < list->n ? &list->pmus[i] : NULL;
}

PEV_EXPORT const struct pev_pmu *pev_pmu_list_find(const struct pev_pmu_list *list,
						   const char *name)
{
	if (!list || !name)
		return NULL;
	for (size_t i = 0; i < list->n; i++)
		if (!strcmp(list->pmus[i].name, name))
			return &list->pmus[i];
	return NULL;
}

PEV_EXPORT const struct pev_pmu *pev_pmu_list_find_type(const struct pev_pmu_list *list,
							uint32_t type)
{
	if (!list)
		return NULL;
	for (size_t i = 0; i < list->n; i++)
		if (list->pmus[i].type == type && !list->pmus[i].error)
			return &list->pmus[i];
	return NULL;
}
