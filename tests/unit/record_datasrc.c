// SPDX-License-Identifier: GPL-2.0-only
/* data_src, transaction and weight decoding, and their text as perf
 * prints them. */
#include "record_build.h"

static void check_fmt(uint64_t v, const char *want)
{
	char buf[256];
	int n = pev_data_src_format(v, buf, sizeof(buf));
	CHECK_STR(buf, want);
	CHECK_EQ_INT(n, strlen(want));
	/* Truncation keeps snprintf semantics. */
	char small[10];
	CHECK_EQ_INT(pev_data_src_format(v, small, sizeof(small)), strlen(want));
	CHECK_EQ_INT(strlen(small), 9);
	CHECK(!strncmp(small, want, 9));
	CHECK_EQ_INT(pev_data_src_format(v, NULL, 0), strlen(want));
}

int main(void)
{
	/* A load that hit L1 (what a PEBS load sample looks like). */
	uint64_t v = PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L1) |
		     PERF_MEM_S(SNOOP, NONE) | PERF_MEM_S(LOCK, NA) * 0 |
		     PERF_MEM_S(TLB, HIT) | PERF_MEM_S(TLB, L1) | PERF_MEM_S(TLB, L2);
	CHECK_EQ_U64(v, 0x68100142);
	struct pev_data_src d = pev_data_src_decode(v);
	CHECK_EQ_U64(d.mem_op, PERF_MEM_OP_LOAD);
	CHECK_EQ_U64(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1);
	CHECK_EQ_U64(d.mem_snoop, PERF_MEM_SNOOP_NONE);
	CHECK_EQ_U64(d.mem_lock, 0);
	CHECK_EQ_U64(d.mem_dtlb, PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1 | PERF_MEM_TLB_L2);
	CHECK_EQ_U64(d.mem_lvl_num, 0);
	check_fmt(v, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A");

	/* Every newer field at once. */
	v = PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, MISS) | PERF_MEM_S(LVLNUM, L3) |
	    PERF_MEM_S(REMOTE, REMOTE) | PERF_MEM_S(HOPS, 1) |
	    PERF_MEM_S(SNOOP, HITM) | PERF_MEM_S(SNOOPX, PEER) |
	    PERF_MEM_S(LOCK, LOCKED) | PERF_MEM_S(TLB, MISS) | PERF_MEM_S(TLB, WK) |
	    PERF_MEM_S(BLK, DATA) | PERF_MEM_S(BLK, ADDR);
	d = pev_data_src_decode(v);
	CHECK_EQ_U64(d.mem_op, PERF_MEM_OP_STORE);
	CHECK_EQ_U64(d.mem_lvl_num, PERF_MEM_LVLNUM_L3);
	CHECK_EQ_U64(d.mem_remote, 1);
	CHECK_EQ_U64(d.mem_hops, PERF_MEM_HOPS_1);
	CHECK_EQ_U64(d.mem_snoopx, PERF_MEM_SNOOPX_PEER);
	CHECK_EQ_U64(d.mem_blk, PERF_MEM_BLK_DATA | PERF_MEM_BLK_ADDR);
	CHECK_EQ_U64(d.mem_lock, PERF_MEM_LOCK_LOCKED);
	check_fmt(v, "|OP STORE|LVL Remote node, same socket L3 miss|SNP HitM or Peer"
		     "|TLB Walker miss|LCK Yes|BLK  Data Addr");

	check_fmt(0, "|OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	v = PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) |
	    PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, NA) | PERF_MEM_S(BLK, NA);
	check_fmt(v, "|OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A");
	/* Several legacy levels; an lvl_num this build has no name for. */
	v = PERF_MEM_S(OP, PFETCH) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L2) |
	    PERF_MEM_S(LVL, L3) | PERF_MEM_S(SNOOP, HIT) | PERF_MEM_S(SNOOP, MISS);
	check_fmt(v, "|OP PFETCH|LVL L2 or L3 hit|SNP Hit or Miss|TLB N/A|LCK No|BLK  N/A");
	v = PERF_MEM_S(OP, EXEC) | (7ULL << PERF_MEM_LVLNUM_SHIFT);
	/* perf 6.1 names level numbers 9..15 only, the others "L<n>"; the
	 * legacy bits and the number are joined by " or " */
	check_fmt(v, "|OP EXEC|LVL L7|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	v = PERF_MEM_S(LVL, NA) | ((uint64_t)PERF_MEM_LVLNUM_NA << PERF_MEM_LVLNUM_SHIFT);
	check_fmt(v, "|OP No|LVL N/A or N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	v = PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L2) |
	    PERF_MEM_S(LVLNUM, L2) | PERF_MEM_S(SNOOPX, FWD);
	check_fmt(v, "|OP LOAD|LVL L2 or L2 hit|SNP Fwd|TLB N/A|LCK No|BLK  N/A");
	/* The parts alone (perf report's mem, snoop, tlb, locked, blocked) */
	char part[64];
	CHECK_EQ_INT(pev_data_src_format_part(v, PEV_DATA_SRC_LVL, part, sizeof(part)), 12);
	CHECK_STR(part, "L2 or L2 hit");
	pev_data_src_format_part(PERF_MEM_S(LVLNUM, CXL), PEV_DATA_SRC_LVL, part, sizeof(part));
	CHECK_STR(part, "CXL");
	pev_data_src_format_part(PERF_MEM_S(SNOOP, HIT) | PERF_MEM_S(SNOOPX, PEER),
				 PEV_DATA_SRC_SNOOP, part, sizeof(part));
	CHECK_STR(part, "Hit or Peer");
	pev_data_src_format_part(0, PEV_DATA_SRC_BLK, part, sizeof(part));
	CHECK_STR(part, " N/A");
	pev_data_src_format_part(PERF_MEM_S(LOCK, LOCKED), PEV_DATA_SRC_LOCK, part, sizeof(part));
	CHECK_STR(part, "Yes");
	v = PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) |
	    ((uint64_t)PERF_MEM_LVLNUM_ANY_CACHE << PERF_MEM_LVLNUM_SHIFT);
	check_fmt(v, "|OP LOAD|LVL Any cache hit|SNP N/A|TLB N/A|LCK No|BLK  N/A");

	/* Transactions: flags and the abort code in bits 32..63. */
	struct pev_txn t = pev_txn_decode(0x0000003f00000016ULL);
	CHECK_EQ_U64(t.flags, PERF_TXN_TRANSACTION | PERF_TXN_SYNC | PERF_TXN_RETRY);
	CHECK_EQ_U64(t.abort_code, 0x3f);
	char buf[128];
	CHECK_EQ_INT(pev_txn_format(0x0000003f00000016ULL, buf, sizeof(buf)),
		     strlen("TX SYNC RETRY :3f"));
	CHECK_STR(buf, "TX SYNC RETRY :3f");
	pev_txn_format(PERF_TXN_ELISION | PERF_TXN_CONFLICT, buf, sizeof(buf));
	CHECK_STR(buf, "EL CON NEITHER ");
	pev_txn_format(PERF_TXN_ASYNC | PERF_TXN_CAPACITY_WRITE | PERF_TXN_CAPACITY_READ,
		       buf, sizeof(buf));
	CHECK_STR(buf, "ASYNC CAP-WRITE CAP-READ ");
	pev_txn_format(0, buf, sizeof(buf));
	CHECK_STR(buf, "");

	struct pev_weight w = pev_weight_decode(0x0003000200000001ULL);
	CHECK_EQ_U64(w.var1_dw, 1);
	CHECK_EQ_U64(w.var2_w, 2);
	CHECK_EQ_U64(w.var3_w, 3);
	return t_done();
}
