/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the record tests: run `perfev record` on the test workload
 * (tests/helpers/record_work) and read the file back with the data API. */
#ifndef PEV_TEST_RECORD_UTIL_H
#define PEV_TEST_RECORD_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <perfev/perfev.h>
#include <perfev/data.h>
#include "testutil.h"
#include "cliutil.h"

static inline const char *rt_work(void)
{
	static char path[512];
	const char *b = getenv("PERFEV_BUILD");

	snprintf(path, sizeof(path), "%s/tests/helpers/record_work", b && *b ? b : "build");
	return path;
}

static inline const char *rt_tmp(const char *name)
{
	static char path[4][512];
	static int k;
	char *p = path[k++ & 3];

	snprintf(p, 512, "/tmp/perfev-rt-%d-%s", (int)getpid(), name);
	return p;
}

/* What a file holds. */
struct rt_stats {
	bool ok;			/* opened and read to the end */
	char err[256];
	bool recovered;
	uint64_t records, samples, comm_work, comm_exec, mmap2_work, exits,
		 forks, switches, lost, lost_records, lost_samples, rounds;
	uint64_t work_start, work_end;	/* the workload's text mapping */
	uint64_t ip_in_work;		/* samples whose ip is in it */
	uint64_t chains, chain_in_work;	/* callchains; those with >= 4 ips in it */
	uint64_t regs_user, stack_user, stack_size;
	uint64_t period;		/* of the last sample */
	size_t nr_build_ids;
	bool work_build_id;
};

static inline void rt_read_data(struct pev_data *d, struct rt_stats *s)
{
	struct pev_data_event ev;
	int n;

	s->recovered = pev_data_recovered(d) != NULL;
	while ((n = pev_data_next(d, &ev)) > 0) {
		const struct pev_record *r = &ev.rec;

		s->records++;
		if (ev.decode_error)
			continue;
		switch (r->type) {
		case PERF_RECORD_SAMPLE: {
			const struct pev_sample *sm = &r->u.sample;

			s->samples++;
			s->period = sm->period;
			if (s->work_start && sm->ip >= s->work_start && sm->ip < s->work_end)
				s->ip_in_work++;
			if (sm->fields & PERF_SAMPLE_CALLCHAIN && sm->callchain.nr) {
				uint64_t in = 0;

				s->chains++;
				for (uint64_t i = 0; i < sm->callchain.nr; i++)
					if (sm->callchain.ips[i] >= s->work_start &&
					    sm->callchain.ips[i] < s->work_end)
						in++;
				if (in >= 4)
					s->chain_in_work++;
			}
			if (sm->fields & PERF_SAMPLE_REGS_USER && sm->regs_user.abi)
				s->regs_user++;
			if (sm->fields & PERF_SAMPLE_STACK_USER) {
				s->stack_user++;
				s->stack_size = sm->stack_user.size;
			}
			break;
		}
		case PERF_RECORD_COMM:
			if (!strcmp(r->u.comm.comm, "record_work")) {
				s->comm_work++;
				s->comm_exec += r->u.comm.exec;
			}
			break;
		case PERF_RECORD_MMAP2:
			if (strstr(r->u.mmap.filename, "record_work") &&
			    (r->u.mmap.prot & 4 /* PROT_EXEC */)) {
				s->mmap2_work++;
				s->work_start = r->u.mmap.addr;
				s->work_end = r->u.mmap.addr + r->u.mmap.len;
			}
			break;
		case PERF_RECORD_EXIT: s->exits++; break;
		case PERF_RECORD_FORK: s->forks++; break;
		case PERF_RECORD_SWITCH:
		case PERF_RECORD_SWITCH_CPU_WIDE: s->switches++; break;
		case PERF_RECORD_LOST:
			s->lost += r->u.lost.lost;
			s->lost_records++;
			break;
		case PERF_RECORD_LOST_SAMPLES: s->lost_samples += r->u.lost_samples.lost; break;
		case PEV_RECORD_FINISHED_ROUND: s->rounds++; break;
		}
	}
	s->ok = n == 0;
	if (n < 0)
		snprintf(s->err, sizeof(s->err), "%s", pev_data_error(d));
	const struct pev_data_features *f = pev_data_features(d);

	s->nr_build_ids = f->nr_build_ids;
	for (size_t i = 0; i < f->nr_build_ids; i++)
		if (strstr(f->build_ids[i].filename, "record_work"))
			s->work_build_id = true;
}

static inline struct rt_stats rt_read(const char *path)
{
	struct rt_stats s;
	struct pev_data_open_opts o = { .size = sizeof(o) };

	memset(&s, 0, sizeof(s));
	struct pev_data *d = pev_data_open(path, &o, s.err, sizeof(s.err));

	if (!d)
		return s;
	rt_read_data(d, &s);
	pev_data_close(d);
	return s;
}

/* "Captured and wrote ... (N samples)" from the summary; -1 if absent. */
static inline long long rt_summary_samples(const char *err)
{
	const char *p = strstr(err ? err : "", "samples) ]");

	if (!p)
		return -1;
	while (p > err && p[-1] != '(')
		p--;
	return atoll(p);
}

static inline long long rt_summary_lost(const char *err)
{
	const char *p = strstr(err ? err : "", "Lost ");

	return p ? atoll(p + 5) : 0;
}

#endif
