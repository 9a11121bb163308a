// SPDX-License-Identifier: GPL-2.0-only
/* Nested, overlapping and recursive regions, exactly, on a tracepoint
 * (getppid) and a uprobe (rt_probe_fn) counted together: an outer region
 * counts its inner regions' hits plus its own; repeats add up and `calls`
 * is exact; overlapping regions each count their own span; a region begun
 * again inside itself counts both calls (the sum of end - begin over its
 * calls), and an end closes the innermost open call of its name; 16
 * levels deep, level k counts the hits of levels k..15. */
#include "region_util.h"

#define DEPTH 16

static void hits(long tp, long up)
{
	call_getppid(tp);
	rt_call_probe(up);
}

int main(void)
{
	static const char *levels[DEPTH] = { "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
					     "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15" };

	setenv("PERFEV_OUTPUT", "none", 1);
	unsetenv("PERFEV_CALIBRATE");
	rt_need_tracepoint();
	rt_need_uprobe();
	CHECK_EQ_INT(pev_region_init(RT_TP_SPEC "," RT_UPROBE_SPEC), 0);
	CHECK_EQ_INT(pev_region_nr_events(), 2);

	/* outer = 5 x (10 + 2 own, + inner's 5); inner = 5 x 5 (tp);
	 * the uprobe: outer 5 x (3 + 7), inner 5 x 7. */
	for (int i = 0; i < 5; i++) {
		pev_region_begin("outer");
		hits(10, 3);
		pev_region_begin("inner");
		hits(5, 7);
		pev_region_end("inner");
		hits(2, 0);
		pev_region_end("outer");
		hits(100, 100);	/* outside */
	}
	RT_CHECK_EXACT("outer", 0, 0, 5, 85);
	RT_CHECK_EXACT("outer", 0, 1, 5, 50);
	RT_CHECK_EXACT("inner", 0, 0, 5, 25);
	RT_CHECK_EXACT("inner", 0, 1, 5, 35);

	/* Inner alone, outside outer: only inner grows. */
	pev_region_begin("inner");
	hits(1, 1);
	pev_region_end("inner");
	RT_CHECK_EXACT("inner", 0, 0, 6, 26);
	RT_CHECK_EXACT("inner", 0, 1, 6, 36);
	RT_CHECK_EXACT("outer", 0, 0, 5, 85);

	/* Overlap: a = 1 + 2, b = 2 + 4. */
	pev_region_begin("ov_a");
	hits(1, 10);
	pev_region_begin("ov_b");
	hits(2, 20);
	pev_region_end("ov_a");
	hits(4, 40);
	pev_region_end("ov_b");
	RT_CHECK_EXACT("ov_a", 0, 0, 1, 3);
	RT_CHECK_EXACT("ov_a", 0, 1, 1, 30);
	RT_CHECK_EXACT("ov_b", 0, 0, 1, 6);
	RT_CHECK_EXACT("ov_b", 0, 1, 1, 60);

	/* Recursion: the inner call counts 5, the outer 10 + 5 + 3. */
	pev_region_begin("rec");
	hits(10, 1);
	pev_region_begin("rec");
	hits(5, 2);
	pev_region_end("rec");
	hits(3, 4);
	pev_region_end("rec");
	RT_CHECK_EXACT("rec", 0, 0, 2, 23);
	RT_CHECK_EXACT("rec", 0, 1, 2, 9);

	/* An end closes the innermost open call of its name: the outer one
	 * is still open, the inner one counted 5 (not 10 + 5). */
	pev_region_begin("rec2");
	hits(10, 1);
	pev_region_begin("rec2");
	hits(5, 2);
	pev_region_end("rec2");
	RT_CHECK_EXACT("rec2", 0, 0, 1, 5);
	RT_CHECK_EXACT("rec2", 0, 1, 1, 2);
	hits(3, 4);
	pev_region_end("rec2");
	RT_CHECK_EXACT("rec2", 0, 0, 2, 23);

	/* Deep: level k opens, hits once, opens level k + 1. */
	for (int rep = 0; rep < 3; rep++) {
		for (int k = 0; k < DEPTH; k++) {
			pev_region_begin(levels[k]);
			hits(1, 2);
		}
		for (int k = DEPTH - 1; k >= 0; k--)
			pev_region_end(levels[k]);
	}
	for (int k = 0; k < DEPTH; k++) {
		RT_CHECK_EXACT(levels[k], 0, 0, 3, 3 * (DEPTH - k));
		RT_CHECK_EXACT(levels[k], 0, 1, 3, 6 * (DEPTH - k));
	}
	return t_done();
}
