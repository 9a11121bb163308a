/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* perfev/filter.h: which samples a report or a script keeps.
 *
 * One filter, built from perf 6.1's option strings, for every consumer
 * (perfev script, perfev report, the profile model):
 *  - comm, dso, symbols: perf's string lists: entries split at ',' kept
 *    verbatim, "file://PATH" reads one entry a line from PATH;
 *  - pid, tid: comma-separated decimal numbers;
 *  - cpu: perf's CPU list ("0-3,6"), each below PEV_FILTER_MAX_CPUS;
 *  - time: perf's --time: "START,STOP" in seconds with up to 9 decimals,
 *    either end open ("1.5," / ",2"); several ranges in increasing order
 *    separated by spaces ("1,1.5 2,2.5"); or percent ranges of the span
 *    between the file's first and last sample: "10%" (the first 10%),
 *    "10%/2" (the second slice of 10%), "0%-10%", and comma-separated
 *    lists of either ("10%/1,10%/3", "0%-10%,30%-40%").  Ends are
 *    inclusive; a sample with time 0 always passes (perf's rule).
 *
 * Everything is parsed once by pev_filter_new(); matching does no
 * allocation and no string copy: sorted lists, binary search, a CPU
 * bitmap.  A filter is immutable after pev_filter_set_sample_time(), so
 * one filter can be read by several threads. */
#ifndef PERFEV_FILTER_H
#define PERFEV_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PEV_FILTER_MAX_CPUS	4096	/* perf's MAX_NR_CPUS */

/* The option strings as the user gave them; NULL: no such filter. */
struct pev_filter_opts {
	size_t size;		/* sizeof(struct pev_filter_opts) */
	const char *comm;	/* --comm */
	const char *pid;	/* --pid */
	const char *tid;	/* --tid */
	const char *cpu;	/* -C/--cpu */
	const char *time;	/* --time */
	const char *dso;	/* --dso / --dsos */
	const char *symbols;	/* --symbols / -S */
};

/* Why a sample was dropped: perf's HIST_FILTER bits, one per filter. */
enum pev_filter_why {
	PEV_FILTER_PASS = 0,
	PEV_FILTER_THREAD = 1u << 0,	/* comm, pid or tid */
	PEV_FILTER_DSO = 1u << 1,
	PEV_FILTER_SYMBOL = 1u << 2,
	PEV_FILTER_CPU = 1u << 3,
	PEV_FILTER_TIME = 1u << 4,
};

/* What the caller must fill in pev_filter_sample for this filter (a
 * report that filters on nothing symbolic need not resolve): a mask of
 * PEV_FILTER_NEED_*. */
#define PEV_FILTER_NEED_COMM	(1u << 0)
#define PEV_FILTER_NEED_DSO	(1u << 1)
#define PEV_FILTER_NEED_SYMBOL	(1u << 2)
#define PEV_FILTER_NEED_CPU	(1u << 3)
#define PEV_FILTER_NEED_TIME	(1u << 4)

/* One sample as the filter sees it: the raw fields and what the caller
 * resolved for its ip. */
struct pev_filter_sample {
	uint64_t time;		/* 0: unknown (passes the time filter) */
	uint32_t cpu;
	bool has_cpu;		/* false: the cpu filter drops it, as perf's bitmap */
	int32_t pid, tid;	/* the thread's (perf: thread->pid_, ->tid) */
	const char *comm;	/* the thread's comm at the sample; NULL: none */
	/* DSO of the map holding ip: perf's short name ("libc.so.6",
	 * "[kernel.kallsyms]") and long name (the path); NULL: no map. */
	const char *dso_short, *dso_long;
	/* Symbol holding the sample's ip; NULL: none.  perf 6.1 also matches
	 * "0x%lx" of the ip itself (not of the symbol's start) against the
	 * --symbols list, when a symbol was found. */
	const char *sym;
	uint64_t ip;
};

struct pev_filter;

/* Parses every option of opts (NULL: a filter that passes everything).
 * NULL and errno on failure: EINVAL with one line naming the option and
 * what is wrong in err (when errlen > 0), ENOENT/EACCES for an unreadable
 * file:// list, ENOMEM.  Free with pev_filter_free(). */
PEV_EXPORT struct pev_filter *pev_filter_new(const struct pev_filter_opts *opts,
					     char *err, size_t errlen);
PEV_EXPORT void pev_filter_free(struct pev_filter *f);

/* True when --time holds percent ranges: they need the file's first and
 * last sample times (pev_filter_set_sample_time) before matching. */
PEV_EXPORT bool pev_filter_needs_sample_time(const struct pev_filter *f);

/* Turns percent ranges into times from the file's SAMPLE_TIME feature
 * (perf's first/last_sample_time).  0; -EINVAL with the reason in err
 * when percent ranges are given and first == last == 0 (perf: "no
 * first/last sample time found"). No-op without percent ranges. */
PEV_EXPORT int pev_filter_set_sample_time(struct pev_filter *f, uint64_t first,
					  uint64_t last, char *err, size_t errlen);

/* The PEV_FILTER_NEED_* mask: which resolved fields (beyond pid and tid,
 * always read) matching reads.  0 with no pid/tid list: the filter passes
 * everything. */
PEV_EXPORT unsigned pev_filter_needs(const struct pev_filter *f);

/* True when a sample at time t (0: unknown) passes --time.  Cheap; call
 * it before resolving anything. */
PEV_EXPORT bool pev_filter_time_ok(const struct pev_filter *f, uint64_t t);

/* True when cpu passes -C (always true without -C). */
PEV_EXPORT bool pev_filter_cpu_ok(const struct pev_filter *f, uint32_t cpu);

/* True when the thread passes --comm, --pid and --tid (comm NULL fails
 * a --comm filter). */
PEV_EXPORT bool pev_filter_thread_ok(const struct pev_filter *f, int32_t pid,
				     int32_t tid, const char *comm);

/* PEV_FILTER_PASS (0) when s passes every filter, else the mask of
 * PEV_FILTER_* that drop it (perf's al->filtered plus time and cpu). */
PEV_EXPORT unsigned pev_filter_match(const struct pev_filter *f,
				     const struct pev_filter_sample *s);

/* The time ranges as resolved (after pev_filter_set_sample_time): n
 * ranges into start[]/end[] (end 0: open) up to max; returns the number
 * the filter holds. For headers and tests. */
PEV_EXPORT size_t pev_filter_time_ranges(const struct pev_filter *f, uint64_t *start,
					 uint64_t *end, size_t max);

#ifdef __cplusplus
}
#endif

#endif
