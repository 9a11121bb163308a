// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The perf.data features perf record reads from sysfs alone: CACHE,
 * MEM_TOPOLOGY, CPU_PMU_CAPS and PMU_CAPS, gathered the way perf 6.1 does
 * it (tools/perf/util/header.c build_caches, build_mem_topology,
 * write_*pmu_caps; pmu.c perf_pmu__caps_parse), so that a file perfev
 * records carries the same bytes perf's would.
 *
 * Everything is read relative to one directory fd on the sysfs root, so
 * that tests can point it at a constructed tree. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/data_internal.h"
#include "pmu/sysfs_internal.h"
#include "core/util.h"

/* perf 6.1 looks at cache/index0..index3 only (MAX_CACHE_LVL). */
#define CACHE_INDEXES	4
/* sysfs attributes are at most a page. */
#define ATTR_MAX	4096

/* Reads a sysfs attribute whole and trims blanks at both ends, as perf's
 * strim does.  The length, or -errno. */
static int read_attr(int root, const char *path, char *buf, size_t size)
{
	int len = pev__read_small(root, path, buf, size);

	if (len < 0)
		return len;
	while (len > 0 && isspace((unsigned char)buf[len - 1]))
		buf[--len] = 0;
	size_t lead = strspn(buf, " \t\n");

	if (lead) {
		memmove(buf, buf + lead, (size_t)len - lead + 1);
		len -= (int)lead;
	}
	return len;
}

static char *dup_attr(int root, const char *path, int *err)
{
	char buf[ATTR_MAX + 1];
	int len = read_attr(root, path, buf, sizeof(buf));
	char *s;

	if (len < 0) {
		*err = len;
		return NULL;
	}
	s = strdup(buf);
	if (!s)
		*err = -ENOMEM;
	return s;
}

/* perf's sysfs__read_int: atoi of the contents; only a failed read is an
 * error. */
static int read_u32(int root, const char *path, uint32_t *v)
{
	char buf[64];
	int len = pev__read_small(root, path, buf, sizeof(buf));

	if (len < 0)
		return len;
	*v = (uint32_t)atoi(buf);
	return 0;
}

static DIR *open_dir(int root, const char *path)
{
	int fd = openat(root, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}

/* "<prefix><digits>" exactly: the number (below UINT32_MAX), or -1. */
static int64_t name_index(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;

	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]))
		return -1;
	errno = 0;
	unsigned long v = strtoul(name + n, &end, 10);

	if (*end || errno || v >= UINT32_MAX)
		return -1;
	return (int64_t)v;
}

/* ---- CACHE */

/* perf's cpu__max_cpu(): the highest possible CPU plus one.  Without the
 * "possible" file, the highest cpuN directory plus one. */
static uint32_t max_cpu(int root)
{
	char buf[ATTR_MAX + 1];
	uint32_t max = 0;

	if (pev__read_small(root, "devices/system/cpu/possible", buf,
			    sizeof(buf)) > 0) {
		for (const char *s = buf; *s; ) {
			char *end;
			unsigned long v = strtoul(s, &end, 10);

			if (end == s)
				break;
			if (v < UINT32_MAX && v + 1 > max)
				max = (uint32_t)v + 1;
			s = end + strspn(end, "-,\n");
		}
		if (max)
			return max;
	}
	DIR *d = open_dir(root, "devices/system/cpu");

	for (struct dirent *e; d && (e = readdir(d)); ) {
		int64_t cpu = name_index(e->d_name, "cpu");

		if (cpu >= 0 && (uint32_t)cpu + 1 > max)
			max = (uint32_t)cpu + 1;
	}
	if (d)
		closedir(d);
	return max;
}

static void free_cache_strings(struct pev_data_cache *c)
{
	free(c->type);
	free(c->size);
	free(c->map);
}

/* One cache/indexN directory: 1 when it does not exist (perf's end of the
 * CPU's list), 0 when read, -errno when an attribute is missing (perf
 * then drops the whole feature). */
static int read_cache(int root, uint32_t cpu, unsigned idx,
		      struct pev_data_cache *c)
{
	char dir[96], path[160];
	struct stat st;
	int r = 0;

	snprintf(dir, sizeof(dir), "devices/system/cpu/cpu%u/cache/index%u",
		 cpu, idx);
	if (fstatat(root, dir, &st, 0))
		return 1;
	memset(c, 0, sizeof(*c));
	static const char *const nums[] = {
		"level", "coherency_line_size", "number_of_sets",
		"ways_of_associativity",
	};
	uint32_t *vals[] = { &c->level, &c->line_size, &c->sets, &c->ways };

	for (int i = 0; i < 4 && r == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, nums[i]);
		r = read_u32(root, path, vals[i]);
	}
	static const char *const strs[] = { "type", "size", "shared_cpu_list" };
	char **dst[] = { &c->type, &c->size, &c->map };

	for (int i = 0; i < 3 && r == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, strs[i]);
		*dst[i] = dup_attr(root, path, &r);
	}
	if (r)
		free_cache_strings(c);
	return r;
}

static bool same_cache(const struct pev_data_cache *a,
		       const struct pev_data_cache *b)
{
	return a->level == b->level && a->line_size == b->line_size &&
	       a->sets == b->sets && a->ways == b->ways &&
	       !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

/* Every distinct cache of every possible CPU, in CPU then index order,
 * then ordered by level keeping that order within a level (perf sorts
 * with glibc's qsort, a merge sort, so equal levels keep their order).
 * Present with no entries when no CPU has a cache directory, as perf
 * writes it.  Fills t: 1, or 0 when perf would drop it, or -ENOMEM. */
static int host_caches(int root, struct pev_data_features *t)
{
	uint32_t ncpu = max_cpu(root);
	size_t cap = 0;
	struct pev_data_cache c;
	int r = 0;

	for (uint32_t cpu = 0; cpu < ncpu && r == 0; cpu++) {
		for (unsigned idx = 0; idx < CACHE_INDEXES && r == 0; idx++) {
			r = read_cache(root, cpu, idx, &c);
			if (r == 1) {
				r = 0;
				break;
			}
			if (r < 0)
				break;
			uint32_t i = 0;

			while (i < t->nr_caches && !same_cache(&t->caches[i], &c))
				i++;
			if (i == t->nr_caches &&
			    pev__grow_array(t->caches, &cap, i + 1, 16) == 0) {
				t->caches[t->nr_caches++] = c;
				continue;
			}
			if (i == t->nr_caches)
				r = -ENOMEM;
			free_cache_strings(&c);
		}
	}
	if (r) {
		pev__feat_sys_clear(t, PEV_FEAT_CACHE);
		return r == -ENOMEM ? r : 0;
	}
	/* stable insertion sort by level */
	struct pev_data_cache *v = t->caches;

	for (uint32_t i = 1; i < t->nr_caches; i++) {
		struct pev_data_cache x = v[i];
		uint32_t j = i;

		for (; j > 0 && v[j - 1].level > x.level; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return 1;
}

/* ---- MEM_TOPOLOGY */

/* One node: the memoryN links of node<id>, as a bitmap of highest N + 1
 * bits (1 bit, all clear, for a node without memory, as perf). */
static int read_mem_node(int root, uint32_t id, struct pev_data_mem_node *m)
{
	char path[64];
	uint64_t max = 0;

	snprintf(path, sizeof(path), "devices/system/node/node%u", id);
	DIR *d = open_dir(root, path);

	if (!d)
		return -errno;
	for (struct dirent *e; (e = readdir(d)); ) {
		int64_t b = name_index(e->d_name, "memory");

		if (b >= 0 && (uint64_t)b > max)
			max = (uint64_t)b;
	}
	m->node = id;
	m->size = max + 1;
	m->bitmap = calloc((size_t)(m->size + 63) / 64, 8);
	if (!m->bitmap) {
		closedir(d);
		return -ENOMEM;
	}
	rewinddir(d);
	for (struct dirent *e; (e = readdir(d)); ) {
		int64_t b = name_index(e->d_name, "memory");

		if (b >= 0)
			m->bitmap[b / 64] |= 1ULL << (b % 64);
	}
	closedir(d);
	return 0;
}

/* Nodes by id, each with its blocks; dropped (0) when block_size_bytes,
 * the node directory or a node cannot be read, as perf drops it. */
static int host_mem_topology(int root, struct pev_data_features *t)
{
	char buf[64];
	size_t cap = 0;
	int r = 0;

	if (pev__read_small(root, "devices/system/memory/block_size_bytes",
			    buf, sizeof(buf)) < 0)
		return 0;
	DIR *d = open_dir(root, "devices/system/node");

	if (!d)
		return 0;
	t->mem_block_size = strtoull(buf, NULL, 16);
	for (struct dirent *e; r == 0 && (e = readdir(d)); ) {
		int64_t id = name_index(e->d_name, "node");

		if (id < 0)
			continue;
		if (pev__grow_array(t->mem_nodes, &cap, t->nr_mem_nodes + 1, 4)) {
			r = -ENOMEM;
			break;
		}
		r = read_mem_node(root, (uint32_t)id,
				  &t->mem_nodes[t->nr_mem_nodes]);
		if (r == 0)
			t->nr_mem_nodes++;
	}
	closedir(d);
	if (r) {
		pev__feat_sys_clear(t, PEV_FEAT_MEM_TOPOLOGY);
		return r == -ENOMEM ? r : 0;
	}
	/* by node id (ids are unique, so any sort gives perf's order) */
	struct pev_data_mem_node *v = t->mem_nodes;

	for (uint64_t i = 1; i < t->nr_mem_nodes; i++) {
		struct pev_data_mem_node x = v[i];
		uint64_t j = i;

		for (; j > 0 && v[j - 1].node > x.node; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return 1;
}

/* ---- CPU_PMU_CAPS, PMU_CAPS */

/* perf_pmu__caps_parse: every readable file of <pmu>/caps in directory
 * order; the value is the first line (at most 127 bytes, fgets) less its
 * last byte.  Fills p (zeroed): 0, also when there is no caps directory;
 * -errno when it is there but cannot be opened (perf then leaves the PMU
 * out); -ENOMEM.  p's entries stay consistent for freeing either way. */
static int read_caps(int root, const char *pmu, struct pev_data_pmu_caps *p)
{
	char path[512];
	struct stat st;
	size_t cap = 0;
	int r = 0;

	snprintf(path, sizeof(path), "bus/event_source/devices/%s/caps", pmu);
	if (fstatat(root, path, &st, 0))
		return 0;
	DIR *d = open_dir(root, path);

	if (!d)
		return errno ? -errno : -EINVAL;
	for (struct dirent *e; r == 0 && (e = readdir(d)); ) {
		char file[800], val[128];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
		int len = pev__read_small(root, file, val, sizeof(val));

		if (len <= 0)
			continue;
		char *nl = memchr(val, '\n', (size_t)len);

		if (nl)
			len = (int)(nl - val) + 1;
		len = (int)strnlen(val, (size_t)len);
		if (!len)
			continue;
		if (pev__grow_array(p->caps, &cap, p->nr_caps + 1, 8)) {
			r = -ENOMEM;
			break;
		}
		struct pev_data_pmu_cap *c = &p->caps[p->nr_caps++];

		c->name = strdup(e->d_name);
		c->value = strndup(val, (size_t)len - 1);
		if (!c->name || !c->value)
			r = -ENOMEM;
	}
	closedir(d);
	return r;
}

/* perf 6.1 knows a PMU only when its type reads; "cpu_*" PMUs count only
 * when they are hybrid core PMUs (a "cpus" file that starts with a
 * number). */
static bool pmu_usable(int root, const char *name, bool *hybrid)
{
	char path[512], buf[64];

	snprintf(path, sizeof(path), "bus/event_source/devices/%s/type", name);
	if (pev__read_small(root, path, buf, sizeof(buf)) <= 0 ||
	    !isdigit((unsigned char)buf[strspn(buf, " \t\n")]))
		return false;
	*hybrid = false;
	if (strncmp(name, "cpu_", 4))
		return true;
	snprintf(path, sizeof(path), "bus/event_source/devices/%s/cpus", name);
	*hybrid = pev__read_small(root, path, buf, sizeof(buf)) > 0 &&
		  isdigit((unsigned char)buf[strspn(buf, " \t\n")]);
	return *hybrid;
}

/* PMU_CAPS: every PMU but "cpu" with at least one cap, hybrid core PMUs
 * first (perf writes them first for older readers), each group in
 * directory order (perf 6.1's PMU list order after its scan of sysfs).
 * Always present, with zero entries when no PMU has caps.  1 or -ENOMEM. */
static int host_pmu_caps(int root, struct pev_data_features *t)
{
	DIR *d = open_dir(root, "bus/event_source/devices");
	size_t cap = 0, hcap = 0;
	bool *hyb = NULL;
	int r = 0;

	for (struct dirent *e; d && r == 0 && (e = readdir(d)); ) {
		bool hybrid;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "cpu") ||
		    !pmu_usable(root, e->d_name, &hybrid))
			continue;
		if (pev__grow_array(t->pmu_caps, &cap, t->nr_pmu_caps + 1, 8) ||
		    pev__grow_array(hyb, &hcap, t->nr_pmu_caps + 1, 8)) {
			r = -ENOMEM;
			break;
		}
		struct pev_data_pmu_caps *p = &t->pmu_caps[t->nr_pmu_caps];

		memset(p, 0, sizeof(*p));
		hyb[t->nr_pmu_caps++] = hybrid;
		r = read_caps(root, e->d_name, p);
		if (r == 0 && p->nr_caps && !(p->pmu_name = strdup(e->d_name)))
			r = -ENOMEM;
		if (r == -ENOMEM)
			break;
		if (r || !p->nr_caps) {		/* no caps: not written */
			r = 0;
			free(p->caps);
			t->nr_pmu_caps--;
		}
	}
	if (d)
		closedir(d);
	if (r) {
		free(hyb);
		pev__feat_sys_clear(t, PEV_FEAT_PMU_CAPS);
		return r;
	}
	/* hybrid ones to the front, both groups keeping their order */
	struct pev_data_pmu_caps *v = t->pmu_caps;

	for (uint32_t i = 1; i < t->nr_pmu_caps; i++) {
		struct pev_data_pmu_caps x = v[i];
		bool xh = hyb[i];
		uint32_t j = i;

		for (; j > 0 && xh && !hyb[j - 1]; j--) {
			v[j] = v[j - 1];
			hyb[j] = hyb[j - 1];
		}
		v[j] = x;
		hyb[j] = xh;
	}
	free(hyb);
	return 1;
}

/* CPU_PMU_CAPS: present when there is a "cpu" PMU, even with no caps, as
 * perf 6.1's write_cpu_pmu_caps.  1, 0 (no "cpu" PMU), -ENOMEM. */
static int host_cpu_pmu_caps(int root, struct pev_data_features *t)
{
	struct pev_data_pmu_caps p = { 0 };
	bool hybrid;

	if (!pmu_usable(root, "cpu", &hybrid))
		return 0;
	int r = read_caps(root, "cpu", &p);

	t->cpu_pmu_caps = p.caps;
	t->nr_cpu_pmu_caps = p.nr_caps;
	if (r) {
		pev__feat_sys_clear(t, PEV_FEAT_CPU_PMU_CAPS);
		return r == -ENOMEM ? r : 0;
	}
	return 1;
}

/* Moves feature `feat` from t into f, replacing what f had. */
static void move_feature(struct pev_data_features *f,
			 struct pev_data_features *t, unsigned feat)
{
	pev__feat_sys_clear(f, feat);
	switch (feat) {
	case PEV_FEAT_CACHE:
		f->caches = t->caches;
		f->nr_caches = t->nr_caches;
		t->caches = NULL;
		break;
	case PEV_FEAT_MEM_TOPOLOGY:
		f->mem_block_size = t->mem_block_size;
		f->mem_nodes = t->mem_nodes;
		f->nr_mem_nodes = t->nr_mem_nodes;
		t->mem_nodes = NULL;
		break;
	case PEV_FEAT_CPU_PMU_CAPS:
		f->cpu_pmu_caps = t->cpu_pmu_caps;
		f->nr_cpu_pmu_caps = t->nr_cpu_pmu_caps;
		t->cpu_pmu_caps = NULL;
		break;
	case PEV_FEAT_PMU_CAPS:
		f->pmu_caps = t->pmu_caps;
		f->nr_pmu_caps = t->nr_pmu_caps;
		t->pmu_caps = NULL;
		break;
	}
	pev_data_features_set(f, feat, true);
}

PEV_EXPORT int pev_data_features_from_sysfs(struct pev_data_features *f,
					    const char *sysfs_root)
{
	static const unsigned feats[] = {
		PEV_FEAT_CACHE, PEV_FEAT_MEM_TOPOLOGY, PEV_FEAT_CPU_PMU_CAPS,
		PEV_FEAT_PMU_CAPS,
	};
	int (*const fill[])(int, struct pev_data_features *) = {
		host_caches, host_mem_topology, host_cpu_pmu_caps,
		host_pmu_caps,
	};
	int root = open(pev__sysfs_root(sysfs_root),
			O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct pev_data_features t = { 0 };
	int got[4], r = 0;

	if (root < 0)
		return -errno;
	/* Build everything aside first, so that running out of memory
	 * leaves f as it was. */
	for (int i = 0; i < 4 && r == 0; i++) {
		got[i] = fill[i](root, &t);
		if (got[i] < 0)
			r = got[i];
	}
	close(root);
	if (r < 0) {
		pev__feat_sys_release(&t);
		return r;
	}
	for (int i = 0; i < 4; i++)
		if (got[i] == 1)
			move_feature(f, &t, feats[i]);
	return 0;
}
