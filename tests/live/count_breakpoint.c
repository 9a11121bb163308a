// SPDX-License-Identifier: GPL-2.0-only
/* Hardware breakpoints count exactly: a write watchpoint on a variable
 * written N times, an execute breakpoint on a function called N times. */
#include <linux/hw_breakpoint.h>
#include "count_util.h"

static volatile long watched;

__attribute__((noinline)) static void target_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static int count_bp(uint32_t bp_type, uint64_t addr, uint64_t len, void (*work)(long), long n,
		    uint64_t *out)
{
	struct perf_event_attr a = { 0 };
	struct pev_target *t = pev_target_new_self();
	struct pev_counters *c = new_set(t, false);

	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = bp_type;
	a.bp_addr = addr;
	a.bp_len = len;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	CHECK_EQ_INT(pev_counters_add(c, &a, "bp", -1), 0);
	int r = pev_counters_open(c);
	T_SKIP_UNLESS_KERNEL_CAN(r, &a, 0, -1, "hardware breakpoint");
	CHECK_OK(pev_counters_enable(c));
	work(n);
	CHECK_OK(pev_counters_disable(c));
	work(n);	/* not counted */
	CHECK_OK(pev_counters_read(c));
	*out = total(c, 0);
	pev_counters_free(c);
	pev_target_free(t);
	return 0;
}

static void write_n(long n)
{
	for (long i = 0; i < n; i++)
		watched = i;
}

static void call_n(long n)
{
	for (long i = 0; i < n; i++)
		target_fn();
}

int main(void)
{
	uint64_t v = 0;
	int r = count_bp(HW_BREAKPOINT_W, (uintptr_t)&watched, sizeof(watched), write_n, 1234, &v);

	CHECK_OK(r);
	CHECK_EQ_U64(v, 1234);

	r = count_bp(HW_BREAKPOINT_W, (uintptr_t)&watched, 4, write_n, 321, &v);
	CHECK_OK(r);
	CHECK_EQ_U64(v, 321);

	r = count_bp(HW_BREAKPOINT_X, (uintptr_t)target_fn, sizeof(long), call_n, 999, &v);
	CHECK_OK(r);
	CHECK_EQ_U64(v, 999);
	return t_done();
}
