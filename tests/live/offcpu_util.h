/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the --off-cpu tests: the workload (tests/helpers/offcpu_work),
 * and the offcpu-time samples as a `script` command prints them with
 * -F tid,event,period,ip,sym: a header line per sample, then its call
 * chain, one frame per line starting with a tab. */
#ifndef PEV_TEST_OFFCPU_UTIL_H
#define PEV_TEST_OFFCPU_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "cliutil.h"

#define OC_PERF "/usr/bin/perf"
#define OC_FIELDS "-F tid,event,period,ip,sym"

static inline const char *oc_work(void)
{
	static char path[512];
	const char *b = getenv("PERFEV_BUILD");

	snprintf(path, sizeof(path), "%s/tests/helpers/offcpu_work", b && *b ? b : "build");
	return path;
}

/* What the samples of offcpu-time say about one function. */
struct oc_sum {
	const char *fn;		/* on the chain */
	uint64_t ns;		/* sum of the periods */
	unsigned samples;
	long tid;		/* of the samples; -1 when several */
};

/* Sums the offcpu-time samples of `text` whose chain has sums[i].fn. */
static inline void oc_parse(const char *text, struct oc_sum *sums, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		sums[i].ns = sums[i].samples = 0;
		sums[i].tid = 0;
	}
	for (const char *p = text; p && *p; ) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		long tid;
		unsigned long long period;
		char ev[64];

		if (*p != '\t' && sscanf(p, "%ld %llu %63s", &tid, &period, ev) == 3 &&
		    !strcmp(ev, "offcpu-time:")) {
			/* the chain: the lines after it that start with a tab */
			const char *q = eol ? eol + 1 : p + len;
			const char *end = q;

			while (*end == '\t') {
				const char *e2 = strchr(end, '\n');

				end = e2 ? e2 + 1 : end + strlen(end);
			}
			for (size_t i = 0; i < n; i++) {
				const char *hit = q;
				size_t fl = strlen(sums[i].fn);
				bool found = false;

				while ((hit = strstr(hit, sums[i].fn)) && hit < end) {
					if (hit[-1] == ' ' && (hit[fl] == '\n' || hit[fl] == '+' ||
							       hit[fl] == ' ')) {
						found = true;
						break;
					}
					hit += fl;
				}
				if (!found)
					continue;
				sums[i].ns += period;
				sums[i].samples++;
				sums[i].tid = sums[i].tid == 0 || sums[i].tid == tid ? tid : -1;
			}
			p = end;
			continue;
		}
		p = eol ? eol + 1 : p + len;
	}
}

/* The workload's own "slept <tid> <fn> <ns>" line for fn: 0 and tid/ns,
 * or -1. */
static inline int oc_slept(const char *out, const char *fn, long *tid, uint64_t *ns)
{
	for (const char *p = out; p && (p = strstr(p, "slept ")); p++) {
		char name[64];
		unsigned long long v;

		if (sscanf(p, "slept %ld %63s %llu", tid, name, &v) == 3 && !strcmp(name, fn)) {
			*ns = v;
			return 0;
		}
	}
	return -1;
}

/* |got - want| <= pct % of want */
static inline bool oc_near(uint64_t got, uint64_t want, double pct)
{
	double d = (double)got - (double)want;

	return (d < 0 ? -d : d) <= (double)want * pct / 100.0;
}

/* got (off CPU, from the recording) against want (the workload asked)
 * and slept (what its own clock saw in the system calls, run-queue waits
 * after each wake-up included): within 5% of want, unless the machine was
 * so loaded that slept itself is not; then within 5% of slept, and not
 * more (a thread preempted on its way out of the call is runnable, not
 * off CPU, as in perf's BPF version). */
static inline bool oc_expected(uint64_t got, uint64_t want, uint64_t slept)
{
	if (oc_near(slept, want, 5))
		return oc_near(got, want, 5);
	printf("(loaded machine: the workload slept %llu ns for %llu asked)\n",
	       (unsigned long long)slept, (unsigned long long)want);
	return got <= slept && oc_near(got, slept, 5);
}

#endif
