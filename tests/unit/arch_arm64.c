// SPDX-License-Identifier: GPL-2.0-only
/* arm64 self-monitoring rules on synthetic attrs and control pages:
 *  - pev_arm64_levels: the exception levels each exclude_user /
 *    exclude_kernel / exclude_hv combination counts at on a non-VHE host,
 *    a VHE host and in a guest (Documentation/arch/arm64/perf.rst: under
 *    VHE exclude_hv is ignored and exclude_kernel excludes EL1 and EL2;
 *    without VHE exclude_hv excludes EL2; a guest never counts EL2);
 *  - pev_arm64_counter_reg: control page index - 1 = n selects
 *    PMEVCNTR<n>_EL0, index 32 the cycle counter PMCCNTR_EL0;
 *  - pev_user_page_read_hw + pev_user_page_count on a page as the arm64
 *    kernel fills it, with a read_pmc that plays the PMU registers by
 *    index: pmc_width 32 (upper bits UNKNOWN, sign from bit 31) against
 *    64, and cap_user_time_short (a narrow CNTVCT) time conversion.
 * Every expected value is written out by hand. */
#include <perfev/perfev.h>
#include "testutil.h"

#define L0 PEV_EL0
#define L1 PEV_EL1
#define L2 PEV_EL2

static void t_levels(void)
{
	/* exclude_user, exclude_kernel, exclude_hv; then the levels counted
	 * on a non-VHE host, a VHE host, and in a guest. */
	static const struct { int xu, xk, xh; unsigned nvhe, vhe, guest; } t[] = {
		{ 0, 0, 0, L0 | L1 | L2, L0 | L1 | L2, L0 | L1 },
		{ 0, 0, 1, L0 | L1,      L0 | L1 | L2, L0 | L1 },	/* :uk */
		{ 0, 1, 0, L0 | L2,      L0,           L0 },
		{ 0, 1, 1, L0,           L0,           L0 },		/* :u */
		{ 1, 0, 0, L1 | L2,      L1 | L2,      L1 },
		{ 1, 0, 1, L1,           L1 | L2,      L1 },		/* :k */
		{ 1, 1, 0, L2,           0,            0 },		/* :h */
		{ 1, 1, 1, 0,            0,            0 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_HARDWARE,
					     .exclude_user = t[i].xu, .exclude_kernel = t[i].xk,
					     .exclude_hv = t[i].xh };

		CHECK_MSG(pev_arm64_levels(&a, false, false) == t[i].nvhe,
			  "row %zu non-VHE: %#x, want %#x", i, pev_arm64_levels(&a, false, false),
			  t[i].nvhe);
		CHECK_MSG(pev_arm64_levels(&a, true, false) == t[i].vhe,
			  "row %zu VHE: %#x, want %#x", i, pev_arm64_levels(&a, true, false), t[i].vhe);
		/* VHE or not, a guest's kernel runs at EL1 and EL2 is never
		 * counted. */
		CHECK_MSG(pev_arm64_levels(&a, false, true) == t[i].guest &&
			  pev_arm64_levels(&a, true, true) == t[i].guest,
			  "row %zu guest: %#x, want %#x", i, pev_arm64_levels(&a, false, true),
			  t[i].guest);
	}
	CHECK_EQ_INT(pev_arm64_levels(NULL, false, false), 0);
	CHECK_EQ_INT(PEV_EL0, 1);
	CHECK_EQ_INT(PEV_EL1, 2);
	CHECK_EQ_INT(PEV_EL2, 4);
}

static void t_counter_reg(void)
{
	char buf[32];

	CHECK_EQ_INT(pev_arm64_counter_reg(0, buf, sizeof(buf)), -EINVAL);
	CHECK_OK(pev_arm64_counter_reg(1, buf, sizeof(buf)));
	CHECK_STR(buf, "PMEVCNTR0_EL0");
	CHECK_OK(pev_arm64_counter_reg(3, buf, sizeof(buf)));
	CHECK_STR(buf, "PMEVCNTR2_EL0");
	CHECK_OK(pev_arm64_counter_reg(31, buf, sizeof(buf)));
	CHECK_STR(buf, "PMEVCNTR30_EL0");
	CHECK_OK(pev_arm64_counter_reg(32, buf, sizeof(buf)));
	CHECK_STR(buf, "PMCCNTR_EL0");
	CHECK_EQ_INT(pev_arm64_counter_reg(33, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ_INT(pev_arm64_counter_reg(UINT32_MAX, buf, sizeof(buf)), -EINVAL);
	CHECK_OK(pev_arm64_counter_reg(32, buf, 5));	/* cut, still terminated */
	CHECK_STR(buf, "PMCC");
	CHECK_OK(pev_arm64_counter_reg(7, NULL, 0));
}

/* The PMU's registers: PMEVCNTR<n>_EL0 and PMCCNTR_EL0, and CNTVCT_EL0. */
static struct {
	uint64_t evcntr[31], ccntr, cntvct;
	char last[32];		/* the register the reader asked for */
} pmu;

static uint64_t read_pmc(uint32_t idx, void *user)
{
	(void)user;
	/* read_pmc gets index - 1: the register is the one index names. */
	if (pev_arm64_counter_reg(idx + 1, pmu.last, sizeof(pmu.last)) < 0) {
		snprintf(pmu.last, sizeof(pmu.last), "bad %u", idx);
		return 0;
	}
	return idx == 31 ? pmu.ccntr : pmu.evcntr[idx];
}

static uint64_t read_cntvct(void *user)
{
	(void)user;
	return pmu.cntvct;
}

static const struct pev_user_page_hw hw = {
	.size = sizeof(hw), .read_pmc = read_pmc, .read_cycles = read_cntvct,
};

static void t_user_page(void)
{
	static struct perf_event_mmap_page pg;
	struct pev_user_page_snapshot s;
	struct pev_user_count c;

	for (int n = 0; n < 31; n++)
		pmu.evcntr[n] = 0x100 + (uint64_t)n;
	memset(&pg, 0, sizeof(pg));
	pg.lock = 2;
	pg.cap_user_rdpmc = 1;

	/* The cycle counter: index 32, PMCCNTR_EL0, 64 bits. */
	pg.index = 32;
	pg.pmc_width = 64;
	pg.offset = -1000;
	pmu.ccntr = 5000;
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_STR(pmu.last, "PMCCNTR_EL0");
	CHECK_OK(pev_user_page_count(&s, &c));
	CHECK_EQ_U64(c.value, 4000);

	/* An event counter, 32 bits wide (config1:0 not granted): the upper
	 * half of the register is UNKNOWN, bit 31 is the sign. */
	pg.index = 3;
	pg.pmc_width = 32;
	pg.offset = 1016;
	pmu.evcntr[2] = 0xdeadbeeffffffff0ull;		/* -16 in 32 bits */
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_STR(pmu.last, "PMEVCNTR2_EL0");
	CHECK_OK(pev_user_page_count(&s, &c));
	CHECK_EQ_U64(c.value, 1000);
	pmu.evcntr[2] = 0xabcd00007fffffffull;		/* 2^31 - 1 */
	pg.offset = 1;
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_OK(pev_user_page_count(&s, &c));
	CHECK_EQ_U64(c.value, 0x80000000ull);

	/* The same register as a 64-bit counter (config1:0 granted). */
	pg.pmc_width = 64;
	pg.offset = 16;
	pmu.evcntr[2] = 0xfffffff0ull;
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_OK(pev_user_page_count(&s, &c));
	CHECK_EQ_U64(c.value, 0x100000000ull);

	/* The last event counter. */
	pg.index = 31;
	pg.offset = 0;
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_STR(pmu.last, "PMEVCNTR30_EL0");
	CHECK_OK(pev_user_page_count(&s, &c));
	CHECK_EQ_U64(c.value, 0x100 + 30);

	/* Index 0 (not on a counter now): no register is read. */
	pg.index = 0;
	pmu.last[0] = '\0';
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_STR(pmu.last, "");
	CHECK_EQ_INT(pev_user_page_count(&s, &c), -EOPNOTSUPP);

	/* cap_user_time_short: CNTVCT is 24 bits here and has wrapped since
	 * time_cycles = 0xfffff0 was stored; now it reads 0x10, i.e. 0x20
	 * ticks later: 0x1000010 in the widened count.  mult 80, shift 1:
	 * 40 ns a tick (a 25 MHz counter).
	 *   perf time = time_zero + 40 * 0x1000010 = 1000000 + 671089280
	 *   delta     = time_offset + 671089280 = 500 + 671089280 */
	pg.index = 5;
	pg.pmc_width = 64;
	pg.offset = 0;
	pmu.evcntr[4] = 777;
	pg.cap_user_time = 1;
	pg.cap_user_time_zero = 1;
	pg.cap_user_time_short = 1;
	pg.time_shift = 1;
	pg.time_mult = 80;
	pg.time_zero = 1000000;
	pg.time_offset = 500;
	pg.time_cycles = 0xfffff0;
	pg.time_mask = 0xffffff;
	pg.time_enabled = 3000;
	pg.time_running = 1000;		/* multiplexed: extended both */
	pmu.cntvct = 0x10;
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK(s.cycles_valid);
	CHECK_EQ_U64(s.cycles, 0x10);
	CHECK(s.tc.cap_user_time_short);
	CHECK_EQ_U64(pev_time_conv_to_perf_time(&s.tc, s.cycles), 672089280ull);
	CHECK_EQ_U64(pev_time_conv_delta(&s.tc, s.cycles), 671089780ull);
	CHECK_OK(pev_user_page_count(&s, &c));
	CHECK_EQ_U64(c.value, 777);
	CHECK_EQ_U64(c.enabled, 3000ull + 671089780ull);
	CHECK_EQ_U64(c.running, 1000ull + 671089780ull);

	/* Without cap_user_time_short the raw 0x10 ticks are taken as they
	 * are: 1000000 + 40 * 16. */
	pg.cap_user_time_short = 0;
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_EQ_U64(pev_time_conv_to_perf_time(&s.tc, s.cycles), 1000640ull);
	/* And the inverse gives the ticks back. */
	CHECK_EQ_U64(pev_time_conv_from_perf_time(&s.tc, 1000640ull), 0x10);
}

int main(void)
{
	t_levels();
	t_counter_reg();
	t_user_page();
	return t_done();
}
