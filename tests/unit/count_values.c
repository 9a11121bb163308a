// SPDX-License-Identifier: GPL-2.0-only
/* perf's arithmetic on counts: scaling, running fraction, deltas. */
#include <perfev/perfev.h>
#include "testutil.h"

int main(void)
{
	struct pev_count c = { .val = 1000, .ena = 200, .run = 100 };
	double d = -1;

	/* Multiplexed half the time: doubled, as perf_counts_values__scale. */
	CHECK_EQ_INT(pev_count_scale(&c, &d), 1);
	CHECK(d == 2000.0);
	CHECK(pev_count_running_fraction(&c) == 0.5);

	c = (struct pev_count){ .val = 7, .ena = 300, .run = 300 };
	CHECK_EQ_INT(pev_count_scale(&c, &d), 0);
	CHECK(d == 7.0);
	CHECK(pev_count_running_fraction(&c) == 1.0);

	/* Never ran: "<not counted>". */
	c = (struct pev_count){ .val = 7, .ena = 300, .run = 0 };
	CHECK_EQ_INT(pev_count_scale(&c, &d), -1);
	CHECK(d == 0.0);
	CHECK(pev_count_running_fraction(&c) == 0.0);
	c = (struct pev_count){ 0 };
	CHECK(pev_count_running_fraction(&c) == 1.0);
	CHECK_EQ_INT(pev_count_scale(&c, NULL), -1);

	/* Precision: the product is formed in double, not u64 (no overflow). */
	c = (struct pev_count){ .val = UINT64_MAX / 2, .ena = 4000000000ull, .run = 1000000000ull };
	CHECK_EQ_INT(pev_count_scale(&c, &d), 1);
	CHECK(d > 3.68e19 && d < 3.7e19);

	/* Deltas. */
	struct pev_count now = { 150, 2000, 1500, 3, PEV_COUNT_OK, 0 };
	struct pev_count prev = { 100, 1000, 1000, 1, PEV_COUNT_NOT_COUNTED, 0 };
	struct pev_count out;
	pev_count_delta(&now, &prev, &out);
	CHECK_EQ_U64(out.val, 50);
	CHECK_EQ_U64(out.ena, 1000);
	CHECK_EQ_U64(out.run, 500);
	CHECK_EQ_U64(out.lost, 2);
	CHECK_EQ_INT(out.status, PEV_COUNT_OK);
	/* After a reset the counter went backwards: the new value stands. */
	prev.val = 200;
	pev_count_delta(&now, &prev, &now);
	CHECK_EQ_U64(now.val, 150);
	CHECK_EQ_U64(now.ena, 1000);
	return t_done();
}
