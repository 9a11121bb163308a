// SPDX-License-Identifier: GPL-2.0-only
/* The control page on a constructed page: the seqlock retries when the
 * lock changes mid-read, counter arithmetic (pmc_width sign extension),
 * enabled/running extension, and time conversion with known numbers. */
#include <perfev/perfev.h>
#include "testutil.h"

static struct perf_event_mmap_page pg;
static int pmc_calls, bump_times;
static uint32_t pmc_idx_seen;

/* Plays the kernel updating the page while we read it. */
static uint64_t fake_pmc(uint32_t idx, void *user)
{
	(void)user;
	pmc_calls++;
	pmc_idx_seen = idx;
	if (bump_times) {
		bump_times--;
		pg.lock += 2;
		pg.offset += 1000;
	}
	return 0xFFFFFFFFFFF0ull;	/* -16 as a 48-bit counter */
}

static uint64_t fake_cycles(void *user)
{
	return *(uint64_t *)user;
}

int main(void)
{
	uint64_t cyc = 2048;
	struct pev_user_page_hw hw = { .size = sizeof(hw), .read_pmc = fake_pmc,
				       .read_cycles = fake_cycles, .user = &cyc };
	struct pev_user_page_snapshot s;
	struct pev_user_count c;

	memset(&pg, 0, sizeof(pg));
	pg.lock = 4;
	pg.index = 3;
	pg.offset = 1000;
	pg.pmc_width = 48;
	pg.cap_user_rdpmc = 1;
	pg.time_enabled = 10000;
	pg.time_running = 10000;

	/* Counter arithmetic: offset + sign-extended pmc. */
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_EQ_INT(pmc_idx_seen, 2);
	CHECK_EQ_INT(s.retries, 0);
	CHECK_OK(pev_user_page_count(&s, &c));
	CHECK_EQ_U64(c.value, 984);
	CHECK(!c.from_read);
	pg.pmc_width = 64;	/* no sign extension */
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_OK(pev_user_page_count(&s, &c));
	CHECK_EQ_U64(c.value, 1000 + 0xFFFFFFFFFFF0ull);
	pg.pmc_width = 48;

	/* The lock changes during the first pass: the second pass's values. */
	pmc_calls = 0;
	bump_times = 1;
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_EQ_INT(pmc_calls, 2);
	CHECK_EQ_INT(s.retries, 1);
	CHECK_EQ_INT(s.offset, 2000);
	CHECK_OK(pev_user_page_count(&s, &c));
	CHECK_EQ_U64(c.value, 1984);
	/* It never settles: -EAGAIN, not a torn value. */
	bump_times = 1000000;
	CHECK_EQ_INT(pev_user_page_read_hw(&pg, &hw, &s), -EAGAIN);
	bump_times = 0;
	/* An odd lock (update in progress) is never accepted. */
	pg.lock = 7;
	CHECK_EQ_INT(pev_user_page_read_hw(&pg, &hw, &s), -EAGAIN);
	pg.lock = 8;

	/* No counter: index 0, or no rdpmc capability. */
	pg.index = 0;
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_EQ_INT(pev_user_page_count(&s, &c), -EOPNOTSUPP);
	pg.index = 3;
	pg.cap_user_rdpmc = 0;
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK_EQ_INT(pev_user_page_count(&s, &c), -EOPNOTSUPP);
	pg.cap_user_rdpmc = 1;

	/* enabled/running extended when they differ: 1 ns per cycle
	 * (mult 1024, shift 10), time_offset -500: delta = 2048 - 500. */
	pg.cap_user_time = 1;
	pg.time_mult = 1024;
	pg.time_shift = 10;
	pg.time_offset = (uint64_t)-500;
	pg.time_running = 6000;
	CHECK_OK(pev_user_page_read_hw(&pg, &hw, &s));
	CHECK(s.cycles_valid && s.cycles == 2048);
	CHECK_OK(pev_user_page_count(&s, &c));
	CHECK_EQ_U64(c.enabled, 11548);
	CHECK_EQ_U64(c.running, 7548);

	/* Time conversion, the manual's split form: 1.5 ns per cycle. */
	struct pev_time_conv tc = { .time_shift = 10, .time_mult = 1536,
				    .time_zero = 1000000, .cap_user_time_zero = 1 };
	CHECK_EQ_U64(pev_time_conv_scale(&tc, 4096 + 5), 6151);
	CHECK_EQ_U64(pev_time_conv_to_perf_time(&tc, 4096 + 5), 1006151);
	CHECK_EQ_U64(pev_time_conv_from_perf_time(&tc, 1006151), 4100);
	CHECK_EQ_U64(pev_time_conv_from_perf_time(&tc, 1000000 + 1536 * 7), 7 << 10);
	/* Where cyc * mult would overflow 64 bits. */
	CHECK_EQ_U64(pev_time_conv_scale(&tc, (1ull << 60) + 123), 1536ull * (1ull << 50) + 184);
	tc.time_offset = 77;
	CHECK_EQ_U64(pev_time_conv_delta(&tc, 4096 + 5), 77 + 6151);

	/* cap_user_time_short: a 32-bit counter widened from time_cycles. */
	struct pev_time_conv ts = { .time_shift = 1, .time_mult = 1, .time_zero = 5,
				    .time_cycles = 0x100000100ull, .time_mask = 0xffffffffull,
				    .cap_user_time_zero = 1, .cap_user_time_short = 1 };
	CHECK_EQ_U64(pev_time_conv_to_perf_time(&ts, 0x300), 5 + 0x100000300ull / 2);
	CHECK_EQ_U64(pev_time_conv_to_perf_time(&ts, 0x50), 5 + (0x100000100ull + 0xffffff50ull) / 2);

	/* The page's fields through the seqlock reader. */
	pg.cap_user_time_zero = 1;
	pg.cap_user_time_short = 1;
	pg.time_zero = 42;
	pg.time_cycles = 9;
	pg.time_mask = 0xff;
	struct pev_time_conv got;
	CHECK_OK(pev_user_page_time_conv(&pg, &got));
	CHECK(got.cap_user_time && got.cap_user_time_zero && got.cap_user_time_short);
	CHECK_EQ_U64(got.time_zero, 42);
	CHECK_EQ_U64(got.time_cycles, 9);
	CHECK_EQ_U64(got.time_mask, 0xff);
	CHECK_EQ_U64(got.time_mult, 1024);
	CHECK_EQ_U64(got.time_offset, (uint64_t)-500);
	pg.cap_user_time_short = 0;
	CHECK_OK(pev_user_page_time_conv(&pg, &got));
	CHECK(!got.cap_user_time_short && got.time_mask == 0);
	CHECK_EQ_INT(pev_user_page_read_hw(NULL, &hw, &s), -EINVAL);
	return t_done();
}
