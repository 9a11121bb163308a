// SPDX-License-Identifier: GPL-2.0-only
/* The system-description features of a file Linux perf records
 * (/usr/bin/perf record -e cpu-clock -- true): CACHE matches
 * /sys/devices/system/cpu/cpu0/cache/index*, MEM_TOPOLOGY matches
 * /sys/devices/system/memory and /sys/devices/system/node, PMU_CAPS
 * matches the caps/ directories of the PMUs, and re-encoding each parsed
 * feature gives back perf's bytes exactly. */
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../testutil.h"
#include <perfev/perfev.h>

#define PERF "/usr/bin/perf"

/* The first line of a sysfs file, without its newline; NULL if absent. */
static char *sysfs_line(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[256];

	if (!f)
		return NULL;
	char *r = fgets(buf, sizeof(buf), f) ? strdup(buf) : NULL;

	fclose(f);
	if (r)
		r[strcspn(r, "\n")] = 0;
	return r;
}

static unsigned long sysfs_ul(const char *dir, const char *name, int base)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *s = sysfs_line(path);

	if (!s)
		T_FATAL("cannot read %s", path);
	unsigned long v = strtoul(s, NULL, base);

	free(s);
	return v;
}

/* perf writes the features as we would: encode(parse(bytes)) == bytes. */
static void check_reencode(const struct pev_data *d, unsigned feat)
{
	size_t raw_len, len;
	const void *raw = pev_data_feature_raw(d, feat, &raw_len);
	void *p;

	CHECK(raw != NULL);
	if (!raw)
		return;
	CHECK_OK(pev_data_feature_encode(pev_data_features(d), feat, false,
					 &p, &len));
	CHECK_EQ_U64(len, raw_len);
	if (len == raw_len)
		CHECK(!memcmp(p, raw, len));
	free(p);
}

static void check_cache(const struct pev_data_features *f)
{
	const char *base = "/sys/devices/system/cpu/cpu0/cache";
	DIR *dir = opendir(base);
	bool level1 = false;
	int seen = 0;

	if (!dir) {
		printf("# no %s: CACHE not checked against sysfs\n", base);
		return;
	}
	CHECK(pev_data_features_has(f, PEV_FEAT_CACHE));
	for (uint32_t i = 0; i < f->nr_caches; i++)
		level1 |= f->caches[i].level == 1;
	CHECK(level1);
	struct dirent *e;

	while ((e = readdir(dir))) {
		char idx[512], path[600];

		if (strncmp(e->d_name, "index", 5))
			continue;
		snprintf(idx, sizeof(idx), "%s/%s", base, e->d_name);
		snprintf(path, sizeof(path), "%s/level", idx);
		if (access(path, R_OK))
			continue;	/* perf skips it too */
		unsigned long level = sysfs_ul(idx, "level", 10);
		snprintf(path, sizeof(path), "%s/type", idx);
		char *type = sysfs_line(path);
		snprintf(path, sizeof(path), "%s/size", idx);
		char *size = sysfs_line(path);
		snprintf(path, sizeof(path), "%s/shared_cpu_list", idx);
		char *map = sysfs_line(path);
		const struct pev_data_cache *c = NULL;

		for (uint32_t i = 0; i < f->nr_caches && !c; i++)
			if (f->caches[i].level == level && type &&
			    !strcmp(f->caches[i].type, type) && map &&
			    !strcmp(f->caches[i].map, map))
				c = &f->caches[i];
		if (!c) {
			T_FAIL("no CACHE entry for %s (L%lu %s [%s])", idx,
			       level, type ? type : "?", map ? map : "?");
		} else {
			CHECK_EQ_U64(c->line_size,
				     sysfs_ul(idx, "coherency_line_size", 10));
			CHECK_EQ_U64(c->sets, sysfs_ul(idx, "number_of_sets", 10));
			CHECK_EQ_U64(c->ways,
				     sysfs_ul(idx, "ways_of_associativity", 10));
			CHECK_STR(c->size, size);
		}
		seen++;
		free(type);
		free(size);
		free(map);
	}
	closedir(dir);
	CHECK(seen > 0);
}

static void check_mem_topology(const struct pev_data_features *f)
{
	if (access("/sys/devices/system/memory/block_size_bytes", R_OK)) {
		printf("# no memory block sysfs: MEM_TOPOLOGY not checked\n");
		return;
	}
	CHECK(pev_data_features_has(f, PEV_FEAT_MEM_TOPOLOGY));
	CHECK_EQ_U64(f->mem_block_size,
		     sysfs_ul("/sys/devices/system/memory", "block_size_bytes", 16));
	/* each node's memoryN links are exactly the bits of its bitmap */
	for (uint64_t n = 0; n < f->nr_mem_nodes; n++) {
		const struct pev_data_mem_node *m = &f->mem_nodes[n];
		char path[128];
		uint64_t links = 0, bits = 0;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%" PRIu64,
			 m->node);
		DIR *dir = opendir(path);

		if (!dir) {
			T_FAIL("MEM_TOPOLOGY node %" PRIu64 " has no %s", m->node, path);
			continue;
		}
		struct dirent *e;

		while ((e = readdir(dir))) {
			char *end;
			unsigned long i;

			if (strncmp(e->d_name, "memory", 6))
				continue;
			i = strtoul(e->d_name + 6, &end, 10);
			if (end == e->d_name + 6 || *end)
				continue;	/* memory_failure, ... */
			links++;
			if (i >= m->size || !(m->bitmap[i / 64] >> (i % 64) & 1))
				T_FAIL("node %" PRIu64 ": block %lu not in the bitmap",
				       m->node, i);
		}
		closedir(dir);
		for (uint64_t w = 0; w < (m->size + 63) / 64; w++)
			bits += (uint64_t)__builtin_popcountll(m->bitmap[w]);
		CHECK_EQ_U64(bits, links);
	}
	CHECK(f->nr_mem_nodes > 0);
}

/* perf 6.1 writes one entry per PMU, except "cpu", with a non-empty
 * caps/ directory. */
static void check_pmu_caps(const struct pev_data_features *f)
{
	const char *base = "/sys/bus/event_source/devices";
	DIR *dir = opendir(base);
	uint32_t want = 0;

	CHECK(pev_data_features_has(f, PEV_FEAT_PMU_CAPS));
	if (!dir)
		T_FATAL("cannot open %s", base);
	struct dirent *e;

	while ((e = readdir(dir))) {
		char path[512];

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "cpu"))
			continue;
		snprintf(path, sizeof(path), "%s/%s/caps", base, e->d_name);
		DIR *caps = opendir(path);
		uint32_t n = 0;

		if (!caps)
			continue;
		for (struct dirent *c; (c = readdir(caps));)
			n += c->d_name[0] != '.';
		closedir(caps);
		if (!n)
			continue;
		want++;
		const struct pev_data_pmu_caps *p = NULL;

		for (uint32_t i = 0; i < f->nr_pmu_caps && !p; i++)
			if (f->pmu_caps[i].pmu_name &&
			    !strcmp(f->pmu_caps[i].pmu_name, e->d_name))
				p = &f->pmu_caps[i];
		if (!p)
			T_FAIL("PMU_CAPS has no entry for %s", e->d_name);
		else
			CHECK_EQ_U64(p->nr_caps, n);
	}
	closedir(dir);
	CHECK_EQ_U64(f->nr_pmu_caps, want);
}

int main(void)
{
	char dir[] = "/tmp/pev-feat-XXXXXX", cmd[512], path[128];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(cmd, sizeof(cmd),
		 PERF " record -q -e cpu-clock -o %s -- true >%s/err 2>&1",
		 path, dir);
	int st = system(cmd);

	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		snprintf(cmd, sizeof(cmd), "cat %s/err; rm -rf %s", dir, dir);
		if (system(cmd)) {}
		T_SKIP("perf record could not record cpu-clock here");
	}
	char err[512];
	struct pev_data *d = pev_data_open(path, NULL, err, sizeof(err));

	if (!d)
		T_FATAL("open %s: %s", path, err);
	const struct pev_data_features *f = pev_data_features(d);

	check_cache(f);
	check_mem_topology(f);
	check_pmu_caps(f);
	if (pev_data_features_has(f, PEV_FEAT_CACHE))
		check_reencode(d, PEV_FEAT_CACHE);
	if (pev_data_features_has(f, PEV_FEAT_MEM_TOPOLOGY))
		check_reencode(d, PEV_FEAT_MEM_TOPOLOGY);
	check_reencode(d, PEV_FEAT_PMU_CAPS);
	/* BPF_*: kept raw, sizes recorded */
	for (unsigned feat = PEV_FEAT_BPF_PROG_INFO; feat <= PEV_FEAT_BPF_BTF;
	     feat++) {
		size_t raw_len;

		if (!pev_data_feature_raw(d, feat, &raw_len))
			continue;
		CHECK(pev_data_features_has(f, feat));
		CHECK_EQ_U64(feat == PEV_FEAT_BPF_BTF ? f->bpf_btf_size :
			     f->bpf_prog_info_size, raw_len);
	}
	pev_data_close(d);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd)) {}
	return t_done();
}
