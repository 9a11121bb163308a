// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The symbolic event tables: hardware and software names with perf's
 * aliases, and the hw-cache grammar (type-op-result) with perf's alias
 * spellings and its table of valid type/op combinations. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <perfev/event.h>
#include "event/event_internal.h"

#define HW(n, a, c, d) { n, a, PEV_CLASS_HW, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, d }
#define SW(n, a, c, d) { n, a, PEV_CLASS_SW, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, d }

/* Sorted by name within each class, as perf list prints them. */
static const struct pev_symbolic_event symbols[] = {
	HW("branch-instructions", "branches", BRANCH_INSTRUCTIONS, "retired branch instructions"),
	HW("branch-misses", NULL, BRANCH_MISSES, "mispredicted branch instructions"),
	HW("bus-cycles", NULL, BUS_CYCLES, "bus cycles"),
	HW("cache-misses", NULL, CACHE_MISSES, "cache misses (usually last-level cache)"),
	HW("cache-references", NULL, CACHE_REFERENCES, "cache accesses (usually last-level cache)"),
	HW("cpu-cycles", "cycles", CPU_CYCLES, "cpu cycles"),
	HW("instructions", NULL, INSTRUCTIONS, "retired instructions"),
	HW("ref-cycles", NULL, REF_CPU_CYCLES, "cpu cycles at a constant reference rate"),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND,
	   "cycles stalled in the back end"),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND,
	   "cycles stalled in the front end"),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS, "alignment faults fixed up by the kernel"),
	SW("bpf-output", NULL, BPF_OUTPUT, "output from bpf programs (bpf_perf_event_output)"),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES, "context switches to a task in another cgroup"),
	SW("context-switches", "cs", CONTEXT_SWITCHES, "context switches"),
	SW("cpu-clock", NULL, CPU_CLOCK, "per-cpu high-resolution timer (msec)"),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS, "migrations of the task to another cpu"),
	SW("dummy", NULL, DUMMY, "counts nothing; carries side-band records"),
	SW("emulation-faults", NULL, EMULATION_FAULTS, "instructions emulated by the kernel"),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ, "page faults that needed i/o"),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN, "page faults served without i/o"),
	SW("page-faults", "faults", PAGE_FAULTS, "page faults"),
	SW("task-clock", NULL, TASK_CLOCK, "per-task high-resolution timer (msec)"),
};
#define NSYMBOLS (sizeof(symbols) / sizeof(symbols[0]))

/* perf's spellings (tools/perf/util/evsel.c); the first is the one perf
 * list prints. */
static const char *const cache_type[PERF_COUNT_HW_CACHE_MAX][5] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};
static const char *const cache_op[PERF_COUNT_HW_CACHE_OP_MAX][5] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};
static const char *const cache_result[PERF_COUNT_HW_CACHE_RESULT_MAX][5] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};
#define R (1u << PERF_COUNT_HW_CACHE_OP_READ)
#define W (1u << PERF_COUNT_HW_CACHE_OP_WRITE)
#define P (1u << PERF_COUNT_HW_CACHE_OP_PREFETCH)
static const unsigned cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	R | W | P, R | P, R | W | P, R | W | P, R, R, R | W | P,
};
static const char *const op_plural[] = { "loads", "stores", "prefetches" };

/* Match one of the spellings in tab as a case-insensitive prefix of s
 * ending at '-' or at s+len; the longest wins.  Returns the row or -1. */
static int match_part(const char *s, size_t len, const char *const (*tab)[5], int rows,
		      size_t *used)
{
	int best = -1;
	size_t bestlen = 0;

	for (int i = 0; i < rows; i++)
		for (int j = 0; j < 5 && tab[i][j]; j++) {
			size_t l = strlen(tab[i][j]);
			if (l <= len && l > bestlen && !strncasecmp(s, tab[i][j], l) &&
			    (l == len || s[l] == '-')) {
				best = i;
				bestlen = l;
			}
		}
	*used = bestlen;
	return best;
}

int pev__cache_parse(const char *s, size_t len, uint64_t *config, char *why, size_t whylen)
{
	size_t used;
	int type, op = -1, res = -1;

	type = match_part(s, len, cache_type, PERF_COUNT_HW_CACHE_MAX, &used);
	if (type < 0)
		return 0;
	s += used;
	len -= used;
	for (int i = 0; i < 2 && len; i++) {
		int k;
		if (*s != '-')
			return 0;
		s++;
		len--;
		if (op < 0 && (k = match_part(s, len, cache_op, PERF_COUNT_HW_CACHE_OP_MAX, &used)) >= 0) {
			op = k;
		} else if (res < 0 && (k = match_part(s, len, cache_result,
						      PERF_COUNT_HW_CACHE_RESULT_MAX, &used)) >= 0) {
			res = k;
		} else {
			return 0;
		}
		s += used;
		len -= used;
	}
	if (len)
		return 0;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (res < 0)
		res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!(cache_valid_ops[type] & (1u << op))) {
		snprintf(why, whylen, "%s has no %s; valid for %s:%s%s%s", cache_type[type][0],
			 op_plural[op], cache_type[type][0],
			 cache_valid_ops[type] & R ? " loads" : "",
			 cache_valid_ops[type] & W ? " stores" : "",
			 cache_valid_ops[type] & P ? " prefetches" : "");
		return -EINVAL;
	}
	*config = (uint64_t)type | (uint64_t)op << 8 | (uint64_t)res << 16;
	return 1;
}

const struct pev_symbolic_event *pev__symbol_find(const char *s, size_t len)
{
	for (size_t i = 0; i < NSYMBOLS; i++) {
		const struct pev_symbolic_event *e = &symbols[i];
		if ((strlen(e->name) == len && !memcmp(e->name, s, len)) ||
		    (e->alias && strlen(e->alias) == len && !memcmp(e->alias, s, len)))
			return e;
	}
	return NULL;
}

/* The hw-cache names perf list prints, built once. */
#define NCACHE_MAX (PERF_COUNT_HW_CACHE_MAX * PERF_COUNT_HW_CACHE_OP_MAX * PERF_COUNT_HW_CACHE_RESULT_MAX)
static struct pev_symbolic_event cache_events[NCACHE_MAX];
static char cache_names[NCACHE_MAX][40];
static char cache_descs[NCACHE_MAX][64];
static size_t ncache;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void build_cache_table(void)
{
	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++)
		for (int o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX; o++) {
			if (!(cache_valid_ops[t] & (1u << o)))
				continue;
			for (int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				struct pev_symbolic_event *e = &cache_events[ncache];
				if (r == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
					snprintf(cache_names[ncache], sizeof(cache_names[0]), "%s-%s",
						 cache_type[t][0], cache_op[o][1]);
				else
					snprintf(cache_names[ncache], sizeof(cache_names[0]), "%s-%s-%s",
						 cache_type[t][0], cache_op[o][0], cache_result[r][0]);
				snprintf(cache_descs[ncache], sizeof(cache_descs[0]), "%s %s %s",
					 cache_type[t][0], op_plural[o],
					 r == PERF_COUNT_HW_CACHE_RESULT_ACCESS ? "(accesses)" : "that missed");
				e->name = cache_names[ncache];
				e->alias = NULL;
				e->cls = PEV_CLASS_CACHE;
				e->type = PERF_TYPE_HW_CACHE;
				e->config = (uint64_t)t | (uint64_t)o << 8 | (uint64_t)r << 16;
				e->desc = cache_descs[ncache];
				ncache++;
			}
		}
}

PEV_EXPORT const struct pev_symbolic_event *pev_symbolic_event(size_t i)
{
	if (i < NSYMBOLS)
		return &symbols[i];
	pthread_once(&cache_once, build_cache_table);
	i -= NSYMBOLS;
	return i < ncache ? &cache_events[i] : NULL;
}
