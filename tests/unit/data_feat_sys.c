// SPDX-License-Identifier: GPL-2.0-only
/* The system-description feature payloads (CACHE, MEM_TOPOLOGY,
 * CPU_PMU_CAPS, PMU_CAPS, HYBRID_TOPOLOGY, DIR_FORMAT, AUXTRACE, BPF_*):
 * encode -> parse in both byte orders, perf's exact byte layout, and
 * rejection of every truncated or inconsistent payload. */
#include "../testutil.h"
#include "data_util.h"

static const unsigned feats[] = {
	PEV_FEAT_CACHE, PEV_FEAT_MEM_TOPOLOGY, PEV_FEAT_CPU_PMU_CAPS,
	PEV_FEAT_PMU_CAPS, PEV_FEAT_HYBRID_TOPOLOGY, PEV_FEAT_DIR_FORMAT,
	PEV_FEAT_AUXTRACE,
};
#define NFEATS (sizeof(feats) / sizeof(feats[0]))

static uint32_t rd32(const unsigned char *p, bool foreign)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return foreign ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const unsigned char *p, bool foreign)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return foreign ? __builtin_bswap64(v) : v;
}

/* Every feature: encode, parse back, compare; every proper prefix of the
 * payload is rejected and leaves the struct without the feature. */
static void roundtrip(bool foreign)
{
	struct pev_data_features src = { 0 }, dst = { 0 };
	void *pl[NFEATS];
	size_t len[NFEATS];

	du_fill_sys_features(&src);
	for (size_t i = 0; i < NFEATS; i++) {
		CHECK_OK(pev_data_feature_encode(&src, feats[i], foreign,
						 &pl[i], &len[i]));
		CHECK_OK(pev_data_feature_parse(&dst, feats[i], pl[i], len[i],
						foreign));
	}
	du_check_sys_features(&dst, false);
	pev_data_features_release(&dst);

	for (size_t i = 0; i < NFEATS; i++) {
		for (size_t cut = 0; cut < len[i]; cut++) {
			struct pev_data_features t = { 0 };
			int r = pev_data_feature_parse(&t, feats[i], pl[i], cut,
						       foreign);

			/* AUXTRACE with whole entries cut off is still short
			 * of its count; all must fail */
			if (r != -EBADMSG)
				T_FAIL("feature %u cut at %zu/%zu: %d",
				       feats[i], cut, len[i], r);
			CHECK(!pev_data_features_has(&t, feats[i]));
			CHECK(t.caches == NULL && t.mem_nodes == NULL &&
			      t.cpu_pmu_caps == NULL && t.pmu_caps == NULL &&
			      t.hybrid_nodes == NULL && t.auxtrace_index == NULL);
			pev_data_features_release(&t);
		}
		free(pl[i]);
	}
	pev_data_features_release(&src);
}

/* The bytes are perf's: spot-check the layout of each payload. */
static void layout(bool foreign)
{
	struct pev_data_features f = { 0 };
	unsigned char *p;
	size_t len;

	du_fill_sys_features(&f);
	CHECK_OK(pev_data_feature_encode(&f, PEV_FEAT_CACHE, foreign,
					 (void **)&p, &len));
	/* version, nr, then level/line/sets/ways and 3 strings of 64 */
	CHECK_EQ_U64(len, 8 + 3 * (16 + 3 * (4 + 64)));
	CHECK_EQ_U64(rd32(p, foreign), 1);
	CHECK_EQ_U64(rd32(p + 4, foreign), 3);
	CHECK_EQ_U64(rd32(p + 8, foreign), 1);
	CHECK_EQ_U64(rd32(p + 12, foreign), 64);
	CHECK_EQ_U64(rd32(p + 16, foreign), 64);
	CHECK_EQ_U64(rd32(p + 20, foreign), 12);
	CHECK_EQ_U64(rd32(p + 24, foreign), 64);
	CHECK(!memcmp(p + 28, "Data\0", 5));
	free(p);

	CHECK_OK(pev_data_feature_encode(&f, PEV_FEAT_MEM_TOPOLOGY, foreign,
					 (void **)&p, &len));
	/* 24 header bytes; node 0: node, size, size, 4 words; node 3: 1 word */
	CHECK_EQ_U64(len, 24 + (24 + 32) + (24 + 8));
	CHECK_EQ_U64(rd64(p, foreign), 1);
	CHECK_EQ_U64(rd64(p + 8, foreign), 0x8000000);
	CHECK_EQ_U64(rd64(p + 16, foreign), 2);
	CHECK_EQ_U64(rd64(p + 24, foreign), 0);
	CHECK_EQ_U64(rd64(p + 32, foreign), 200);
	CHECK_EQ_U64(rd64(p + 40, foreign), 200);
	CHECK_EQ_U64(rd64(p + 48, foreign), 0xffffffffff00ffffULL);
	CHECK_EQ_U64(rd64(p + 80, foreign), 3);
	free(p);

	CHECK_OK(pev_data_feature_encode(&f, PEV_FEAT_PMU_CAPS, foreign,
					 (void **)&p, &len));
	/* nr_pmus; {nr_caps, name, value, pmu_name}; {0, pmu_name} */
	CHECK_EQ_U64(len, 4 + (4 + 3 * 68) + (4 + 68));
	CHECK_EQ_U64(rd32(p, foreign), 2);
	CHECK_EQ_U64(rd32(p + 4, foreign), 1);
	CHECK(!memcmp(p + 12, "max_precise", 12));
	CHECK(!memcmp(p + 4 + 4 + 2 * 68 + 4, "cpu_core", 9));
	CHECK_EQ_U64(rd32(p + 4 + 4 + 3 * 68, foreign), 0);
	free(p);

	CHECK_OK(pev_data_feature_encode(&f, PEV_FEAT_CPU_PMU_CAPS, foreign,
					 (void **)&p, &len));
	CHECK_EQ_U64(len, 4 + 4 * 68);
	CHECK_EQ_U64(rd32(p, foreign), 2);
	free(p);

	CHECK_OK(pev_data_feature_encode(&f, PEV_FEAT_HYBRID_TOPOLOGY, foreign,
					 (void **)&p, &len));
	CHECK_EQ_U64(len, 4 + 4 * 68);
	CHECK(!memcmp(p + 8, "cpu_core", 9));
	CHECK(!memcmp(p + 8 + 68, "0-15", 5));
	free(p);

	CHECK_OK(pev_data_feature_encode(&f, PEV_FEAT_DIR_FORMAT, foreign,
					 (void **)&p, &len));
	CHECK_EQ_U64(len, 8);
	CHECK_EQ_U64(rd64(p, foreign), 1);
	free(p);

	CHECK_OK(pev_data_feature_encode(&f, PEV_FEAT_AUXTRACE, foreign,
					 (void **)&p, &len));
	CHECK_EQ_U64(len, 8 + 3 * 16);
	CHECK_EQ_U64(rd64(p, foreign), 3);
	CHECK_EQ_U64(rd64(p + 8, foreign), 0x1000);
	CHECK_EQ_U64(rd64(p + 16, foreign), 0x200000000ULL);
	free(p);
	pev_data_features_release(&f);
}

/* Counts the payload cannot hold, bad versions, duplicates, BPF sizes. */
static void rejects(void)
{
	struct pev_data_features f = { 0 };
	unsigned char buf[64] = { 0 };
	uint32_t u32;
	uint64_t u64;

	/* CACHE version 2 */
	u32 = 2;
	memcpy(buf, &u32, 4);
	CHECK_EQ_INT(pev_data_feature_parse(&f, PEV_FEAT_CACHE, buf, 8, false),
		     -EBADMSG);
	/* CACHE nr 0xffffffff in 64 bytes: no allocation of 4G entries */
	u32 = 1;
	memcpy(buf, &u32, 4);
	u32 = 0xffffffff;
	memcpy(buf + 4, &u32, 4);
	CHECK_EQ_INT(pev_data_feature_parse(&f, PEV_FEAT_CACHE, buf, 64, false),
		     -EBADMSG);
	/* an empty CACHE is fine */
	CHECK_OK(pev_data_feature_parse(&f, PEV_FEAT_CACHE, "\1\0\0\0\0\0\0\0",
					8, false));
	CHECK(pev_data_features_has(&f, PEV_FEAT_CACHE));
	CHECK_EQ_U64(f.nr_caches, 0);

	/* MEM_TOPOLOGY: a bitmap of 2^64-1 bits */
	memset(buf, 0, sizeof(buf));
	u64 = 1;
	memcpy(buf, &u64, 8);
	memcpy(buf + 16, &u64, 8);		/* one node */
	u64 = UINT64_MAX;
	memcpy(buf + 32, &u64, 8);
	memcpy(buf + 40, &u64, 8);
	CHECK_EQ_INT(pev_data_feature_parse(&f, PEV_FEAT_MEM_TOPOLOGY, buf, 64,
					    false), -EBADMSG);
	/* nr_nodes 2^61: rejected by the size check */
	u64 = 1ULL << 61;
	memcpy(buf + 16, &u64, 8);
	CHECK_EQ_INT(pev_data_feature_parse(&f, PEV_FEAT_MEM_TOPOLOGY, buf, 64,
					    false), -EBADMSG);
	CHECK(!pev_data_features_has(&f, PEV_FEAT_MEM_TOPOLOGY));

	/* AUXTRACE count larger than the entries */
	u64 = 3;
	memcpy(buf, &u64, 8);
	CHECK_EQ_INT(pev_data_feature_parse(&f, PEV_FEAT_AUXTRACE, buf, 40,
					    false), -EBADMSG);
	CHECK_EQ_INT(pev_data_feature_parse(&f, PEV_FEAT_AUXTRACE, buf, 56,
					    false), 0);
	CHECK_EQ_U64(f.nr_auxtrace_index, 3);
	/* a second AUXTRACE (a pipe repeating it) is refused */
	CHECK_EQ_INT(pev_data_feature_parse(&f, PEV_FEAT_AUXTRACE, buf, 56,
					    false), -EBADMSG);

	/* BPF_*: sizes only, nothing to write back */
	CHECK_OK(pev_data_feature_parse(&f, PEV_FEAT_BPF_PROG_INFO, buf, 12,
					false));
	CHECK_OK(pev_data_feature_parse(&f, PEV_FEAT_BPF_BTF, buf, 4, false));
	CHECK_EQ_U64(f.bpf_prog_info_size, 12);
	CHECK_EQ_U64(f.bpf_btf_size, 4);
	void *p;
	size_t len;

	CHECK_EQ_INT(pev_data_feature_encode(&f, PEV_FEAT_BPF_BTF, false, &p,
					     &len), -ENOENT);
	pev_data_features_release(&f);
	CHECK_EQ_U64(f.nr_auxtrace_index, 0);
	CHECK(f.auxtrace_index == NULL);
}

int main(void)
{
	roundtrip(false);
	roundtrip(true);
	layout(false);
	layout(true);
	rejects();
	return t_done();
}
