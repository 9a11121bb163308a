/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers for the perf.data tests: records built by hand, files in
 * memory (memfd). */
#ifndef PEV_TEST_DATA_UTIL_H
#define PEV_TEST_DATA_UTIL_H

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/perfev.h>

#define DU_SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
			PERF_SAMPLE_PERIOD)

static inline void du_attr(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = config;
	a->sample_period = 1000;
	a->sample_type = DU_SAMPLE_TYPE;
	a->sample_id_all = 1;
	a->mmap = a->comm = a->task = 1;
}

/* A sample for DU_SAMPLE_TYPE; returns its size (56 bytes + header). */
static inline size_t du_sample(void *buf, uint64_t id, uint64_t ip,
			       uint32_t pid, uint32_t tid, uint64_t time,
			       uint32_t cpu, uint64_t period)
{
	uint64_t v[7] = { 0, id, ip, (uint64_t)pid | (uint64_t)tid << 32,
			  time, cpu, period };
	struct perf_event_header h = { PERF_RECORD_SAMPLE,
				       PERF_RECORD_MISC_USER, sizeof(v) };

	memcpy(v, &h, 8);
	memcpy(buf, v, sizeof(v));
	return sizeof(v);
}

/* A COMM with the trailer of attr a. */
static inline size_t du_comm(void *buf, const struct perf_event_attr *a,
			     uint64_t id, uint32_t pid, uint32_t tid,
			     const char *comm, uint64_t time)
{
	unsigned char *p = buf;
	size_t n = (strlen(comm) + 1 + 7) & ~(size_t)7;
	uint32_t pt[2] = { pid, tid };

	memcpy(p + 8, pt, 8);
	memset(p + 16, 0, n);
	memcpy(p + 16, comm, strlen(comm));
	size_t t = pev_synth_sample_id(a, pid, tid, time, id, 0, p + 16 + n);
	struct perf_event_header h = { PERF_RECORD_COMM, 0,
				       (uint16_t)(16 + n + t) };

	memcpy(p, &h, 8);
	return h.size;
}

static inline int du_memfd(void)
{
	int fd = memfd_create("perf.data", 0);

	if (fd < 0)
		T_FATAL("memfd_create: %s", strerror(errno));
	return fd;
}

/* The whole content of fd, malloc'ed. */
static inline unsigned char *du_slurp(int fd, size_t *len)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		T_FATAL("fstat");
	unsigned char *p = malloc((size_t)st.st_size + 1);

	if (pread(fd, p, (size_t)st.st_size, 0) != st.st_size)
		T_FATAL("pread");
	*len = (size_t)st.st_size;
	return p;
}

/* The system-description features (CACHE, MEM_TOPOLOGY, CPU_PMU_CAPS,
 * PMU_CAPS, HYBRID_TOPOLOGY, DIR_FORMAT, AUXTRACE) with fixed values;
 * du_check_sys_features asserts them after a round trip (`pipe`: the
 * ones perf never sends as HEADER_FEATURE records must be absent). */
static inline void du_fill_sys_features(struct pev_data_features *f)
{
	static const struct { uint32_t l, ls, s, w; const char *t, *sz, *m; }
		c[3] = { { 1, 64, 64, 12, "Data", "48K", "0" },
			 { 2, 64, 1024, 16, "Unified", "1024K", "0-1" },
			 { 3, 128, 32768, 16, "Unified", "32768K", "0-63" } };
	/* pev_data_features_from_host() may have filled some of these
	 * already: hand what f holds for them to a struct that frees it. */
	struct pev_data_features old = { 0 };

	old.caches = f->caches;
	old.nr_caches = f->nr_caches;
	old.mem_nodes = f->mem_nodes;
	old.nr_mem_nodes = f->nr_mem_nodes;
	old.cpu_pmu_caps = f->cpu_pmu_caps;
	old.nr_cpu_pmu_caps = f->nr_cpu_pmu_caps;
	old.pmu_caps = f->pmu_caps;
	old.nr_pmu_caps = f->nr_pmu_caps;
	old.hybrid_nodes = f->hybrid_nodes;
	old.nr_hybrid_nodes = f->nr_hybrid_nodes;
	old.auxtrace_index = f->auxtrace_index;
	old.nr_auxtrace_index = f->nr_auxtrace_index;
	pev_data_features_release(&old);

	f->caches = calloc(3, sizeof(*f->caches));
	for (int i = 0; i < 3; i++) {
		f->caches[i].level = c[i].l;
		f->caches[i].line_size = c[i].ls;
		f->caches[i].sets = c[i].s;
		f->caches[i].ways = c[i].w;
		f->caches[i].type = strdup(c[i].t);
		f->caches[i].size = strdup(c[i].sz);
		f->caches[i].map = strdup(c[i].m);
	}
	f->nr_caches = 3;
	pev_data_features_set(f, PEV_FEAT_CACHE, true);

	f->mem_block_size = 0x8000000;
	f->nr_mem_nodes = 2;
	f->mem_nodes = calloc(2, sizeof(*f->mem_nodes));
	f->mem_nodes[0].node = 0;
	f->mem_nodes[0].size = 200;		/* 4 words, last one partial */
	f->mem_nodes[0].bitmap = calloc(4, 8);
	f->mem_nodes[0].bitmap[0] = 0xffffffffff00ffffULL;
	f->mem_nodes[0].bitmap[3] = 0xff;
	f->mem_nodes[1].node = 3;
	f->mem_nodes[1].size = 64;
	f->mem_nodes[1].bitmap = calloc(1, 8);
	f->mem_nodes[1].bitmap[0] = 0x8000000000000001ULL;
	pev_data_features_set(f, PEV_FEAT_MEM_TOPOLOGY, true);

	f->nr_cpu_pmu_caps = 2;
	f->cpu_pmu_caps = calloc(2, sizeof(*f->cpu_pmu_caps));
	f->cpu_pmu_caps[0].name = strdup("branches");
	f->cpu_pmu_caps[0].value = strdup("32");
	f->cpu_pmu_caps[1].name = strdup("pmu_name");
	f->cpu_pmu_caps[1].value = strdup("skylake");
	pev_data_features_set(f, PEV_FEAT_CPU_PMU_CAPS, true);

	f->nr_pmu_caps = 2;
	f->pmu_caps = calloc(2, sizeof(*f->pmu_caps));
	f->pmu_caps[0].pmu_name = strdup("cpu_core");
	f->pmu_caps[0].nr_caps = 1;
	f->pmu_caps[0].caps = calloc(1, sizeof(*f->pmu_caps[0].caps));
	f->pmu_caps[0].caps[0].name = strdup("max_precise");
	f->pmu_caps[0].caps[0].value = strdup("3");
	f->pmu_caps[1].pmu_name = strdup("empty_pmu");	/* no caps */
	f->pmu_caps[1].caps = NULL;
	pev_data_features_set(f, PEV_FEAT_PMU_CAPS, true);

	f->nr_hybrid_nodes = 2;
	f->hybrid_nodes = calloc(2, sizeof(*f->hybrid_nodes));
	f->hybrid_nodes[0].pmu_name = strdup("cpu_core");
	f->hybrid_nodes[0].cpus = strdup("0-15");
	f->hybrid_nodes[1].pmu_name = strdup("cpu_atom");
	f->hybrid_nodes[1].cpus = strdup("16-23");
	pev_data_features_set(f, PEV_FEAT_HYBRID_TOPOLOGY, true);

	f->dir_format_version = 1;
	pev_data_features_set(f, PEV_FEAT_DIR_FORMAT, true);

	f->nr_auxtrace_index = 3;
	f->auxtrace_index = calloc(3, sizeof(*f->auxtrace_index));
	for (int i = 0; i < 3; i++) {
		f->auxtrace_index[i].file_offset = 0x1000 + (uint64_t)i * 0x10000;
		f->auxtrace_index[i].size = 0x200000000ULL + (uint64_t)i;
	}
	pev_data_features_set(f, PEV_FEAT_AUXTRACE, true);
}

static inline void du_check_sys_features(const struct pev_data_features *f,
					 bool pipe)
{
	if (pipe) {
		CHECK(!pev_data_features_has(f, PEV_FEAT_CACHE));
		CHECK(!pev_data_features_has(f, PEV_FEAT_HYBRID_TOPOLOGY));
		CHECK(!pev_data_features_has(f, PEV_FEAT_DIR_FORMAT));
		CHECK(!pev_data_features_has(f, PEV_FEAT_AUXTRACE));
	}
	CHECK(pev_data_features_has(f, PEV_FEAT_CACHE) != pipe);
	CHECK_EQ_U64(f->nr_caches, pipe ? 0 : 3);
	if (f->nr_caches == 3) {
		CHECK_EQ_U64(f->caches[0].level, 1);
		CHECK_EQ_U64(f->caches[0].ways, 12);
		CHECK_STR(f->caches[0].type, "Data");
		CHECK_STR(f->caches[0].map, "0");
		CHECK_EQ_U64(f->caches[2].level, 3);
		CHECK_EQ_U64(f->caches[2].line_size, 128);
		CHECK_EQ_U64(f->caches[2].sets, 32768);
		CHECK_STR(f->caches[2].size, "32768K");
		CHECK_STR(f->caches[2].map, "0-63");
	}
	CHECK(pev_data_features_has(f, PEV_FEAT_MEM_TOPOLOGY));
	CHECK_EQ_U64(f->mem_block_size, 0x8000000);
	CHECK_EQ_U64(f->nr_mem_nodes, 2);
	if (f->nr_mem_nodes == 2) {
		CHECK_EQ_U64(f->mem_nodes[0].size, 200);
		CHECK_EQ_U64(f->mem_nodes[0].bitmap[0], 0xffffffffff00ffffULL);
		CHECK_EQ_U64(f->mem_nodes[0].bitmap[1], 0);
		CHECK_EQ_U64(f->mem_nodes[0].bitmap[3], 0xff);
		CHECK_EQ_U64(f->mem_nodes[1].node, 3);
		CHECK_EQ_U64(f->mem_nodes[1].size, 64);
		CHECK_EQ_U64(f->mem_nodes[1].bitmap[0], 0x8000000000000001ULL);
	}
	CHECK(pev_data_features_has(f, PEV_FEAT_CPU_PMU_CAPS));
	CHECK_EQ_U64(f->nr_cpu_pmu_caps, 2);
	if (f->nr_cpu_pmu_caps == 2) {
		CHECK_STR(f->cpu_pmu_caps[0].name, "branches");
		CHECK_STR(f->cpu_pmu_caps[0].value, "32");
		CHECK_STR(f->cpu_pmu_caps[1].value, "skylake");
	}
	CHECK(pev_data_features_has(f, PEV_FEAT_PMU_CAPS));
	CHECK_EQ_U64(f->nr_pmu_caps, 2);
	if (f->nr_pmu_caps == 2) {
		CHECK_STR(f->pmu_caps[0].pmu_name, "cpu_core");
		CHECK_EQ_U64(f->pmu_caps[0].nr_caps, 1);
		if (f->pmu_caps[0].nr_caps == 1) {
			CHECK_STR(f->pmu_caps[0].caps[0].name, "max_precise");
			CHECK_STR(f->pmu_caps[0].caps[0].value, "3");
		}
		CHECK_STR(f->pmu_caps[1].pmu_name, "empty_pmu");
		CHECK_EQ_U64(f->pmu_caps[1].nr_caps, 0);
	}
	if (pipe)
		return;
	CHECK(pev_data_features_has(f, PEV_FEAT_HYBRID_TOPOLOGY));
	CHECK_EQ_U64(f->nr_hybrid_nodes, 2);
	if (f->nr_hybrid_nodes == 2) {
		CHECK_STR(f->hybrid_nodes[1].pmu_name, "cpu_atom");
		CHECK_STR(f->hybrid_nodes[1].cpus, "16-23");
	}
	CHECK(pev_data_features_has(f, PEV_FEAT_DIR_FORMAT));
	CHECK_EQ_U64(f->dir_format_version, 1);
	CHECK(pev_data_features_has(f, PEV_FEAT_AUXTRACE));
	CHECK_EQ_U64(f->nr_auxtrace_index, 3);
	if (f->nr_auxtrace_index == 3) {
		CHECK_EQ_U64(f->auxtrace_index[2].file_offset, 0x21000);
		CHECK_EQ_U64(f->auxtrace_index[2].size, 0x200000002ULL);
	}
}

#endif
