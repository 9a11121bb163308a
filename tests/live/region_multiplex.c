// SPDX-License-Identifier: GPL-2.0-only
/* Multiplexed counts are scaled: 16 instructions:u counters (more than any
 * PMU has) over a loop of a known 2 x N user instructions.  Each event that
 * ran at all reports running < enabled for some, fraction running/enabled,
 * and a scaled value within 20% of 2 x N.
 *
 * Only where a hardware PMU opens (probed with a raw perf_event_open):
 * software events never multiplex (the kernel's software context has no
 * counter limit), so on a machine without a PMU nothing can provoke
 * scaling and the test skips; region_output checks the running fraction 1
 * and scaled == raw of unmultiplexed events. */
#include "region_util.h"

#define NEV 16
#define N 100000000ul

/* Exactly 2 user instructions per iteration. */
__attribute__((noinline)) static void loop(unsigned long n)
{
#if defined(__x86_64__)
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#elif defined(__aarch64__)
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#else
	(void)n;
	T_SKIP("no two-instruction loop for this architecture");
#endif
}

int main(void)
{
	char spec[NEV * 16] = "";
	int err = rt_cycles_errno();

	if (err)
		T_SKIP("no hardware PMU here (cycles: %s): software events never multiplex, "
		       "nothing can provoke scaling", strerror(err));
	if (t_probe_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, -1) < 0)
		T_SKIP("the PMU has no instructions event");
	setenv("PERFEV_OUTPUT", "none", 1);
	for (int i = 0; i < NEV; i++)
		strcat(spec, i ? ",instructions:u" : "instructions:u");
	CHECK_EQ_INT(pev_region_init(spec), 0);
	CHECK_EQ_INT(pev_region_nr_events(), NEV);

	pev_region_begin("mux");
	loop(N);
	pev_region_end("mux");

	int multiplexed = 0;
	for (size_t ev = 0; ev < pev_region_nr_events(); ev++) {
		struct pev_region_count c = rt_count("mux", 0, ev);

		printf("ev %zu: raw %" PRIu64 " enabled %" PRIu64 " running %" PRIu64
		       " scaled %.0f fraction %.3f\n", ev, c.raw, c.enabled, c.running, c.scaled, c.fraction);
		CHECK(c.error == 0 && c.calls == 1 && c.running <= c.enabled && c.enabled > 0);
		CHECK(c.fraction > (double)c.running / (double)c.enabled - 1e-9 &&
		      c.fraction < (double)c.running / (double)c.enabled + 1e-9);
		if (c.running < c.enabled)
			multiplexed++;
		if (c.running)
			CHECK_MSG(c.scaled > 0.8 * 2 * N && c.scaled < 1.2 * 2 * N,
				  "ev %zu: scaled %.0f, expected about %lu", ev, c.scaled, 2 * N);
	}
	if (!multiplexed)
		T_SKIP("%d counters ran all the time: the PMU did not multiplex", NEV);
	return t_done();
}
