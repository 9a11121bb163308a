// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat: derived metrics ("CPUs utilized", "/sec" rates, "GHz",
 * "insn per cycle", branch and cache miss ratios, stalled cycles), as
 * perf's stat-shadow.c prints them beside each event. */
#include <stdio.h>
#include <linux/perf_event.h>

#include "stat/stat.h"

enum stat_ev_kind stat_ev_classify(uint32_t type, uint64_t config)
{
	if (type == PERF_TYPE_SOFTWARE)
		return config == PERF_COUNT_SW_TASK_CLOCK || config == PERF_COUNT_SW_CPU_CLOCK
		       ? STAT_EV_CLOCK : STAT_EV_OTHER;
	if (type == PERF_TYPE_HW_CACHE) {
		/* id | op << 8 | result << 16: perf's metrics use the reads */
		static const enum stat_ev_kind acc[] = {
			[PERF_COUNT_HW_CACHE_L1D] = STAT_EV_L1D_LOADS,
			[PERF_COUNT_HW_CACHE_L1I] = STAT_EV_L1I_LOADS,
			[PERF_COUNT_HW_CACHE_LL] = STAT_EV_LL_LOADS,
			[PERF_COUNT_HW_CACHE_DTLB] = STAT_EV_DTLB_LOADS,
			[PERF_COUNT_HW_CACHE_ITLB] = STAT_EV_ITLB_LOADS,
		};
		uint64_t c = config & 0xffffffffULL, id = c & 0xff, op = (c >> 8) & 0xff;
		uint64_t res = (c >> 16) & 0xff;
		if (c >> 24 || id > PERF_COUNT_HW_CACHE_ITLB || op != PERF_COUNT_HW_CACHE_OP_READ)
			return STAT_EV_OTHER;
		if (res == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
			return acc[id];
		/* each miss kind follows its access kind */
		return res == PERF_COUNT_HW_CACHE_RESULT_MISS ? acc[id] + 1 : STAT_EV_OTHER;
	}
	if (type != PERF_TYPE_HARDWARE)
		return STAT_EV_OTHER;
	/* Hybrid CPUs put the PMU type in the upper 32 bits. */
	switch (config & 0xffffffffULL) {
	case PERF_COUNT_HW_CPU_CYCLES:		return STAT_EV_CYCLES;
	case PERF_COUNT_HW_INSTRUCTIONS:	return STAT_EV_INSTRUCTIONS;
	case PERF_COUNT_HW_BRANCH_INSTRUCTIONS:	return STAT_EV_BRANCHES;
	case PERF_COUNT_HW_BRANCH_MISSES:	return STAT_EV_BRANCH_MISSES;
	case PERF_COUNT_HW_CACHE_REFERENCES:	return STAT_EV_CACHE_REFS;
	case PERF_COUNT_HW_CACHE_MISSES:	return STAT_EV_CACHE_MISSES;
	case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND: return STAT_EV_STALLED_FRONT;
	case PERF_COUNT_HW_STALLED_CYCLES_BACKEND:  return STAT_EV_STALLED_BACK;
	default:				return STAT_EV_OTHER;
	}
}

void stat_shadow_init(struct stat_shadow *s, double wall_ns)
{
	for (int k = 0; k < STAT_EV__COUNT; k++)
		s->v[k] = -1;
	s->wall_ns = wall_ns;
}

void stat_shadow_add(struct stat_shadow *s, enum stat_ev_kind k, double v)
{
	if (k > STAT_EV_OTHER && k < STAT_EV__COUNT && s->v[k] < 0 && v >= 0)
		s->v[k] = v;
}

static struct stat_metric metric(const char *fmt, double v, const char *unit)
{
	return (struct stat_metric){ fmt, v, unit };
}

/* A percentage of a base event, when the base was counted. */
static struct stat_metric ratio_pct(double v, double base, const char *unit)
{
	return metric("%7.2f%%", base > 0 ? 100.0 * v / base : 0, unit);
}

/* count per second of task time, with perf's K/M/G steps. */
static struct stat_metric rate(double v, double clock_ns)
{
	double r = clock_ns > 0 ? 1e9 * v / clock_ns : 0;

	if (r > 1e9)
		return metric("%8.3f", r / 1e9, "G/sec");
	if (r > 1e6)
		return metric("%8.3f", r / 1e6, "M/sec");
	if (r > 1e3)
		return metric("%8.3f", r / 1e3, "K/sec");
	return metric("%8.3f", r, "/sec");
}

struct stat_metric stat_metric_for(const struct stat_shadow *s, enum stat_ev_kind k, double v)
{
	double clock = s->v[STAT_EV_CLOCK], cycles = s->v[STAT_EV_CYCLES];
	struct stat_metric none = metric(NULL, 0, NULL);

	/* perf's order: the hardware events have their own metric (or none
	 * when its base is missing); every other event gets a rate when a
	 * clock was counted. */
	switch (k) {
	case STAT_EV_CLOCK:
		return metric("%8.3f", s->wall_ns > 0 ? v / s->wall_ns : 0, "CPUs utilized");
	case STAT_EV_CYCLES:
		return clock > 0 ? metric("%8.3f", v / clock, "GHz") : none;
	case STAT_EV_INSTRUCTIONS:
		return cycles > 0 ? metric("%7.2f ", v / cycles, "insn per cycle") : none;
	case STAT_EV_BRANCH_MISSES:
		return s->v[STAT_EV_BRANCHES] >= 0
		       ? ratio_pct(v, s->v[STAT_EV_BRANCHES], "of all branches") : none;
	case STAT_EV_CACHE_MISSES:
		return s->v[STAT_EV_CACHE_REFS] >= 0
		       ? ratio_pct(v, s->v[STAT_EV_CACHE_REFS], "of all cache refs") : none;
	case STAT_EV_STALLED_FRONT:
		return ratio_pct(v, cycles, "frontend cycles idle");
	case STAT_EV_STALLED_BACK:
		return ratio_pct(v, cycles, "backend cycles idle");
	case STAT_EV_L1D_MISSES:
	case STAT_EV_L1I_MISSES:
	case STAT_EV_LL_MISSES:
	case STAT_EV_DTLB_MISSES:
	case STAT_EV_ITLB_MISSES: {
		/* perf's print_*_misses: a share of the matching reads */
		static const char *const what[] = {
			[STAT_EV_L1D_MISSES] = "of all L1-dcache accesses",
			[STAT_EV_L1I_MISSES] = "of all L1-icache accesses",
			[STAT_EV_LL_MISSES] = "of all LL-cache accesses",
			[STAT_EV_DTLB_MISSES] = "of all dTLB cache accesses",
			[STAT_EV_ITLB_MISSES] = "of all iTLB cache accesses",
		};
		double base = s->v[k - 1];
		return base >= 0 ? ratio_pct(v, base, what[k]) : none;
	}
	default:
		return clock >= 0 ? rate(v, clock) : none;
	}
}

int stat_metric_format(char *buf, size_t size, const struct stat_metric *m)
{
	/* m->fmt always comes from the fixed formats above. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	return snprintf(buf, size, m->fmt, m->value);
#pragma GCC diagnostic pop
}
