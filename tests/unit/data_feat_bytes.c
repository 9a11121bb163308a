// SPDX-License-Identifier: GPL-2.0-only
/* Feature sections against bytes written by hand from perf 6.1's layout
 * (tools/perf/util/header.c: do_write_string pads to 64 with a u32 length
 * first; NRCPUS is avail then online; CPU_TOPOLOGY is the core (socket)
 * sibling lists, the thread sibling lists, {core_id, socket_id} per CPU,
 * then the die lists and die_id per CPU; NUMA_TOPOLOGY is nr, then per
 * node {node, mem_total, mem_free, cpus}).  The parser must read them,
 * in both byte orders, and the encoder must write exactly them: a writer
 * and reader that agree with each other but not with perf fail here. */
#include <byteswap.h>
#include <perfev/perfev.h>
#include "testutil.h"

static unsigned char buf[4096];
static size_t len;
static bool swap;

static void u32(uint32_t v)
{
	if (swap)
		v = bswap_32(v);
	memcpy(buf + len, &v, 4);
	len += 4;
}

static void u64(uint64_t v)
{
	if (swap)
		v = bswap_64(v);
	memcpy(buf + len, &v, 8);
	len += 8;
}

/* perf's do_write_string: u32 padded length (strlen + 1 rounded up to
 * 64), the string, zeros. */
static void str(const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 63) / 64 * 64;

	u32((uint32_t)padded);
	memset(buf + len, 0, padded);
	memcpy(buf + len, s, n - 1);
	len += padded;
}

static void build(unsigned feat)
{
	len = 0;
	switch (feat) {
	case PEV_FEAT_NRCPUS:
		u32(2);		/* avail */
		u32(1);		/* online */
		break;
	case PEV_FEAT_CPUDESC:
		str("AMD EPYC 7B13 64-Core Processor");
		break;
	case PEV_FEAT_CPU_TOPOLOGY:
		u32(1);
		str("0-1");	/* sibling sockets */
		u32(2);
		str("0");	/* sibling threads */
		str("1");
		u32(5);		/* CPU 0: core 5, socket 2 */
		u32(2);
		u32(7);		/* CPU 1: core 7, socket 2 */
		u32(2);
		u32(1);
		str("0-1");	/* sibling dies */
		u32(1);		/* die ids */
		u32(1);
		break;
	case PEV_FEAT_NUMA_TOPOLOGY:
		u32(1);
		u32(0);
		u64(4679896);	/* total kB */
		u64(3643192);	/* free kB */
		str("0-1");
		break;
	}
}

static void check_values(const struct pev_data_features *f)
{
	CHECK_EQ_INT(f->nr_cpus_avail, 2);
	CHECK_EQ_INT(f->nr_cpus_online, 1);
	CHECK_STR(f->cpudesc, "AMD EPYC 7B13 64-Core Processor");
	CHECK_EQ_INT(f->nr_core_siblings, 1);
	CHECK_EQ_INT(f->nr_thread_siblings, 2);
	if (f->nr_core_siblings == 1 && f->nr_thread_siblings == 2) {
		CHECK_STR(f->core_siblings[0], "0-1");
		CHECK_STR(f->thread_siblings[1], "1");
	}
	CHECK_EQ_INT(f->nr_topo_cpus, 2);
	if (f->nr_topo_cpus == 2) {
		CHECK_EQ_INT(f->topo_cpus[0].core_id, 5);
		CHECK_EQ_INT(f->topo_cpus[0].socket_id, 2);
		CHECK_EQ_INT(f->topo_cpus[1].core_id, 7);
		CHECK_EQ_INT(f->topo_cpus[1].socket_id, 2);
		CHECK_EQ_INT(f->topo_cpus[1].die_id, 1);
	}
	CHECK(f->has_dies);
	CHECK_EQ_INT(f->nr_die_siblings, 1);
	CHECK_EQ_INT(f->nr_numa_nodes, 1);
	if (f->nr_numa_nodes == 1) {
		CHECK_EQ_U64(f->numa_nodes[0].node, 0);
		CHECK_EQ_U64(f->numa_nodes[0].mem_total, 4679896);
		CHECK_EQ_U64(f->numa_nodes[0].mem_free, 3643192);
		CHECK_STR(f->numa_nodes[0].cpus, "0-1");
	}
}

int main(void)
{
	static const unsigned feats[] = { PEV_FEAT_NRCPUS, PEV_FEAT_CPUDESC,
					  PEV_FEAT_CPU_TOPOLOGY, PEV_FEAT_NUMA_TOPOLOGY };

	for (int order = 0; order < 2; order++) {
		struct pev_data_features f;

		memset(&f, 0, sizeof(f));
		swap = order == 1;
		for (size_t i = 0; i < 4; i++) {
			build(feats[i]);
			CHECK_MSG(pev_data_feature_parse(&f, feats[i], buf, len, swap) == 0,
				  "parse %s (%s)", pev_feat_name(feats[i]), swap ? "swapped" : "native");
		}
		check_values(&f);
		/* and the encoder writes perf's bytes back */
		for (size_t i = 0; i < 4; i++) {
			void *out = NULL;
			size_t olen = 0;

			build(feats[i]);
			CHECK_OK(pev_data_feature_encode(&f, feats[i], swap, &out, &olen));
			CHECK_MSG(olen == len && out && !memcmp(out, buf, len),
				  "%s (%s): %zu bytes encoded, %zu by hand%s",
				  pev_feat_name(feats[i]), swap ? "foreign" : "native", olen, len,
				  olen == len ? ", contents differ" : "");
			free(out);
		}
		pev_data_features_release(&f);
	}
	return t_done();
}
