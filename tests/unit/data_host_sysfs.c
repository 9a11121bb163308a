// SPDX-License-Identifier: GPL-2.0-only
/* pev_data_features_from_sysfs() on constructed sysfs trees: CACHE,
 * MEM_TOPOLOGY, CPU_PMU_CAPS and PMU_CAPS come out as perf 6.1 record
 * gathers them (which entries, in which order, with which values), and a
 * tree that lacks what perf needs leaves the feature out as perf does. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include <perfev/perfev.h>

static char root[64];

/* Writes root/rel (creating its directories) with the given contents. */
static void put(const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		T_FATAL("cannot write %s", path);
	close(fd);
}

static void dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/x", root, rel);
	put(path + strlen(root) + 1, "");
	unlink(path);
}

static void cache(unsigned cpu, unsigned idx, const char *level,
		  const char *type, const char *size, const char *map,
		  const char *line, const char *sets, const char *ways)
{
	char base[96], p[160];
	const char *names[] = { "level", "type", "size", "shared_cpu_list",
				"coherency_line_size", "number_of_sets",
				"ways_of_associativity" };
	const char *vals[] = { level, type, size, map, line, sets, ways };

	snprintf(base, sizeof(base), "devices/system/cpu/cpu%u/cache/index%u",
		 cpu, idx);
	for (int i = 0; i < 7; i++) {
		if (!vals[i])
			continue;
		snprintf(p, sizeof(p), "%s/%s", base, names[i]);
		put(p, vals[i]);
	}
}

/* The usual per-core L1/L2 and one shared L3 of a 4-CPU machine. */
static void cpu_caches(unsigned cpu)
{
	char own[8], pair[8];

	snprintf(own, sizeof(own), "%u\n", cpu);
	snprintf(pair, sizeof(pair), "%u-%u\n", cpu / 2 * 2, cpu / 2 * 2 + 1);
	cache(cpu, 0, "1\n", "Data\n", "48K\n", own, "64\n", "64\n", "12\n");
	cache(cpu, 1, "1\n", "Instruction\n", "32K\n", own, "64\n", "64\n", "8\n");
	cache(cpu, 2, "2\n", "Unified\n", "1024K\n", pair, "64\n", "2048\n", "8\n");
	cache(cpu, 3, "3\n", "Unified\n", "32768K\n", "0-3\n", "64\n",
	      "32768\n", "16\n");
}

static void check_cache(const struct pev_data_cache *c, uint32_t level,
			const char *type, const char *size, const char *map,
			uint32_t line, uint32_t sets, uint32_t ways)
{
	CHECK_EQ_U64(c->level, level);
	CHECK_STR(c->type, type);
	CHECK_STR(c->size, size);
	CHECK_STR(c->map, map);
	CHECK_EQ_U64(c->line_size, line);
	CHECK_EQ_U64(c->sets, sets);
	CHECK_EQ_U64(c->ways, ways);
}

static const char *cap_value(const struct pev_data_pmu_cap *caps, uint32_t n,
			     const char *name)
{
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(caps[i].name, name))
			return caps[i].value;
	return NULL;
}

static void build_full_tree(void)
{
	put("devices/system/cpu/possible", "0-3\n");
	for (unsigned cpu = 0; cpu < 3; cpu++)
		cpu_caches(cpu);
	/* cpu3 is offline: no cache directory, so it adds nothing.  The
	 * L3 shared with it still comes once. */
	dir("devices/system/cpu/cpu3");
	/* perf reads index0..3 only */
	cache(0, 4, "4\n", "Unified\n", "128M\n", "0-3\n", "64\n", "1\n", "1\n");
	/* blanks around values are trimmed */
	put("devices/system/cpu/cpu1/cache/index1/size", "  32K \n");

	put("devices/system/memory/block_size_bytes", "8000000\n");
	dir("devices/system/memory/memory0");
	dir("devices/system/node/node0/memory0");
	dir("devices/system/node/node0/memory1");
	dir("devices/system/node/node0/memory5");
	dir("devices/system/node/node0/memory_failure");	/* not a block */
	put("devices/system/node/node0/cpulist", "0-3\n");
	dir("devices/system/node/node10/memory64");	/* sorts after node2 */
	dir("devices/system/node/node2");		/* no memory */
	put("devices/system/node/possible", "0-10\n");	/* not a node */

	const char *dev = "bus/event_source/devices";
	char p[256];
#define PUT(rel, text) (snprintf(p, sizeof(p), "%s/%s", dev, rel), put(p, text))
	PUT("cpu/type", "4\n");
	PUT("cpu/caps/max_precise", "2\n");
	PUT("cpu/caps/branches", "16\n");
	PUT("ibs_op/type", "11\n");
	PUT("ibs_op/caps/zen4_ibs_extensions", "1\n");
	/* perf keeps the first line and drops its last byte (the newline;
	 * here, without one, the "c") */
	PUT("ibs_op/caps/multi", "first\nsecond\n");
	PUT("ibs_op/caps/nonl", "abc");
	PUT("ibs_op/caps/empty", "");			/* no line: skipped */
	PUT("cpu_core/type", "8\n");
	PUT("cpu_core/cpus", "0-1\n");
	PUT("cpu_core/caps/pmu_name", "alderlake_hybrid\n");
	PUT("cpu_fake/type", "12\n");			/* cpu_ but not hybrid */
	PUT("cpu_fake/caps/x", "1\n");
	PUT("notype/caps/x", "1\n");			/* no type: no PMU */
	PUT("software/type", "1\n");			/* no caps dir */
	PUT("power/type", "14\n");
	PUT("power/caps/a", "x\n");
	PUT("amd_iommu_0/type", "15\n");
	PUT("amd_iommu_0/caps/b", "y\n");
	PUT("emptycaps/type", "13\n");
	snprintf(p, sizeof(p), "%s/emptycaps/caps", dev);
	dir(p);
#undef PUT
}

static void test_full(void)
{
	struct pev_data_features f = { 0 };

	build_full_tree();
	CHECK_OK(pev_data_features_from_sysfs(&f, root));

	/* CPU order, then by level; within a level the CPU order stays */
	CHECK(pev_data_features_has(&f, PEV_FEAT_CACHE));
	CHECK_EQ_U64(f.nr_caches, 9);
	if (f.nr_caches == 9) {
		const struct pev_data_cache *c = f.caches;

		check_cache(&c[0], 1, "Data", "48K", "0", 64, 64, 12);
		check_cache(&c[1], 1, "Instruction", "32K", "0", 64, 64, 8);
		check_cache(&c[2], 1, "Data", "48K", "1", 64, 64, 12);
		check_cache(&c[3], 1, "Instruction", "32K", "1", 64, 64, 8);
		check_cache(&c[4], 1, "Data", "48K", "2", 64, 64, 12);
		check_cache(&c[5], 1, "Instruction", "32K", "2", 64, 64, 8);
		check_cache(&c[6], 2, "Unified", "1024K", "0-1", 64, 2048, 8);
		check_cache(&c[7], 2, "Unified", "1024K", "2-3", 64, 2048, 8);
		check_cache(&c[8], 3, "Unified", "32768K", "0-3", 64, 32768, 16);
	}

	CHECK(pev_data_features_has(&f, PEV_FEAT_MEM_TOPOLOGY));
	CHECK_EQ_U64(f.mem_block_size, 0x8000000);
	CHECK_EQ_U64(f.nr_mem_nodes, 3);
	if (f.nr_mem_nodes == 3) {
		const struct pev_data_mem_node *m = f.mem_nodes;

		CHECK_EQ_U64(m[0].node, 0);
		CHECK_EQ_U64(m[0].size, 6);
		CHECK_EQ_U64(m[0].bitmap[0], 0x23);
		CHECK_EQ_U64(m[1].node, 2);
		CHECK_EQ_U64(m[1].size, 1);
		CHECK_EQ_U64(m[1].bitmap[0], 0);
		CHECK_EQ_U64(m[2].node, 10);
		CHECK_EQ_U64(m[2].size, 65);
		CHECK_EQ_U64(m[2].bitmap[0], 0);
		CHECK_EQ_U64(m[2].bitmap[1], 1);
	}

	CHECK(pev_data_features_has(&f, PEV_FEAT_CPU_PMU_CAPS));
	CHECK_EQ_U64(f.nr_cpu_pmu_caps, 2);
	CHECK_STR(cap_value(f.cpu_pmu_caps, f.nr_cpu_pmu_caps, "max_precise"), "2");
	CHECK_STR(cap_value(f.cpu_pmu_caps, f.nr_cpu_pmu_caps, "branches"), "16");

	/* the hybrid core PMU first, then the others in directory order;
	 * "cpu", non-hybrid "cpu_*", PMUs without a type and PMUs without
	 * caps are not there */
	CHECK(pev_data_features_has(&f, PEV_FEAT_PMU_CAPS));
	const char *want[4] = { "cpu_core" };
	int nwant = 1;
	char devs[128];

	snprintf(devs, sizeof(devs), "%s/bus/event_source/devices", root);
	DIR *d = opendir(devs);

	for (struct dirent *e; d && (e = readdir(d)) && nwant < 4; )
		if (!strcmp(e->d_name, "ibs_op") || !strcmp(e->d_name, "power") ||
		    !strcmp(e->d_name, "amd_iommu_0"))
			want[nwant++] = strdup(e->d_name);
	if (d)
		closedir(d);
	CHECK_EQ_U64(nwant, 4);
	CHECK_EQ_U64(f.nr_pmu_caps, 4);
	for (uint32_t i = 0; i < f.nr_pmu_caps && (int)i < nwant; i++) {
		const struct pev_data_pmu_caps *p = &f.pmu_caps[i];

		CHECK_STR(p->pmu_name, want[i]);
		if (!strcmp(want[i], "cpu_core")) {
			CHECK_EQ_U64(p->nr_caps, 1);
			CHECK_STR(cap_value(p->caps, p->nr_caps, "pmu_name"),
				  "alderlake_hybrid");
		} else if (!strcmp(want[i], "ibs_op")) {
			CHECK_EQ_U64(p->nr_caps, 3);
			CHECK_STR(cap_value(p->caps, p->nr_caps,
					    "zen4_ibs_extensions"), "1");
			CHECK_STR(cap_value(p->caps, p->nr_caps, "multi"), "first");
			CHECK_STR(cap_value(p->caps, p->nr_caps, "nonl"), "ab");
		} else {
			CHECK_EQ_U64(p->nr_caps, 1);
		}
	}
	for (int i = 1; i < nwant; i++)
		free((char *)want[i]);

	/* what we read survives the file layout */
	static const unsigned feats[] = { PEV_FEAT_CACHE, PEV_FEAT_MEM_TOPOLOGY,
					  PEV_FEAT_CPU_PMU_CAPS,
					  PEV_FEAT_PMU_CAPS };
	for (int i = 0; i < 4; i++) {
		struct pev_data_features g = { 0 };
		void *a, *b;
		size_t la, lb;

		CHECK_OK(pev_data_feature_encode(&f, feats[i], false, &a, &la));
		CHECK_OK(pev_data_feature_parse(&g, feats[i], a, la, false));
		CHECK_OK(pev_data_feature_encode(&g, feats[i], false, &b, &lb));
		CHECK(la == lb && !memcmp(a, b, la));
		free(a);
		free(b);
		pev_data_features_release(&g);
	}

	/* Calling again on a tree with other PMU caps replaces those; a
	 * feature the tree cannot give (CACHE, an attribute is missing)
	 * keeps what f had. */
	char p[256];

	snprintf(p, sizeof(p), "%s/devices/system/cpu/cpu2/cache/index2/"
		 "number_of_sets", root);
	unlink(p);
	snprintf(p, sizeof(p), "%s/bus/event_source/devices/ibs_op/caps/"
		 "zen4_ibs_extensions", root);
	unlink(p);
	CHECK_OK(pev_data_features_from_sysfs(&f, root));
	CHECK_EQ_U64(f.nr_caches, 9);
	CHECK_EQ_U64(f.nr_pmu_caps, 4);
	for (uint32_t i = 0; i < f.nr_pmu_caps; i++)
		if (!strcmp(f.pmu_caps[i].pmu_name, "ibs_op"))
			CHECK_EQ_U64(f.pmu_caps[i].nr_caps, 2);
	pev_data_features_release(&f);

	/* ... and on a fresh struct that tree gives no CACHE at all */
	CHECK_OK(pev_data_features_from_sysfs(&f, root));
	CHECK(!pev_data_features_has(&f, PEV_FEAT_CACHE));
	CHECK(f.caches == NULL);
	CHECK(pev_data_features_has(&f, PEV_FEAT_MEM_TOPOLOGY));
	pev_data_features_release(&f);
}

/* An empty tree: perf still writes CACHE (no entries) and PMU_CAPS (no
 * PMUs); MEM_TOPOLOGY and CPU_PMU_CAPS are left out. */
static void test_empty(void)
{
	struct pev_data_features f = { 0 };
	void *a;
	size_t la;

	CHECK_OK(pev_data_features_from_sysfs(&f, root));
	CHECK(pev_data_features_has(&f, PEV_FEAT_CACHE));
	CHECK_EQ_U64(f.nr_caches, 0);
	CHECK(!pev_data_features_has(&f, PEV_FEAT_MEM_TOPOLOGY));
	CHECK(!pev_data_features_has(&f, PEV_FEAT_CPU_PMU_CAPS));
	CHECK(pev_data_features_has(&f, PEV_FEAT_PMU_CAPS));
	CHECK_EQ_U64(f.nr_pmu_caps, 0);
	/* perf's bytes: u32 version 1, u32 count 0; u32 0 */
	CHECK_OK(pev_data_feature_encode(&f, PEV_FEAT_CACHE, false, &a, &la));
	CHECK(la == 8 && !memcmp(a, "\1\0\0\0\0\0\0\0", 8));
	free(a);
	CHECK_OK(pev_data_feature_encode(&f, PEV_FEAT_PMU_CAPS, false, &a, &la));
	CHECK(la == 4 && !memcmp(a, "\0\0\0\0", 4));
	free(a);
	pev_data_features_release(&f);

	/* a "cpu" PMU without caps/ still gives CPU_PMU_CAPS, empty */
	put("bus/event_source/devices/cpu/type", "4\n");
	/* a node directory that cannot be listed drops MEM_TOPOLOGY */
	put("devices/system/memory/block_size_bytes", "8000000\n");
	put("devices/system/node/node0", "not a directory\n");
	CHECK_OK(pev_data_features_from_sysfs(&f, root));
	CHECK(pev_data_features_has(&f, PEV_FEAT_CPU_PMU_CAPS));
	CHECK_EQ_U64(f.nr_cpu_pmu_caps, 0);
	CHECK(!pev_data_features_has(&f, PEV_FEAT_MEM_TOPOLOGY));
	pev_data_features_release(&f);
}

int main(void)
{
	struct pev_data_features f = { 0 };
	char cmd[128];

	strcpy(root, "/tmp/pev-sysfs-XXXXXX");
	if (!mkdtemp(root))
		T_FATAL("mkdtemp");
	test_empty();
	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir %s", root, root);
	if (system(cmd))
		T_FATAL("%s", cmd);
	test_full();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd)) {}
	/* an unreadable root fills nothing */
	CHECK_EQ_INT(pev_data_features_from_sysfs(&f, root), -ENOENT);
	for (unsigned i = 0; i < PEV_FEAT_BITS; i++)
		CHECK(!pev_data_features_has(&f, i));
	return t_done();
}
