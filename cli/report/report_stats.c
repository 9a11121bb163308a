// SPDX-License-Identifier: GPL-2.0-only
/* perfev report --stats (record counts per type, perf's "Aggregated stats")
 * and -T/--threads (the per-thread counts of PERF_RECORD_READ, recorded
 * with `perf record -s`), gathered while the profile reads the file. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* perf 6.1 names record types below PERF_RECORD_HEADER_MAX (83): the
 * kernel's up to AUX_OUTPUT_HW_ID (21) and its own from ATTR (64) to
 * FINISHED_INIT (82); the others are UNKNOWN and not printed. */
#define STATS_MAX 83

static bool perf61_type(unsigned t)
{
	return (t >= 1 && t <= 21) || (t >= 64 && t < STATS_MAX);
}

static int add_read(struct report_stats *s, const struct pev_record *rec)
{
	const uint8_t *raw = rec->raw;
	uint32_t pid, tid;
	uint64_t value;
	unsigned ev = rec->attr_index >= 0 ? (unsigned)rec->attr_index : 0;
	size_t t, c;

	if (rec->size < 24 || rec->attr_index < 0)
		return 0;
	memcpy(&pid, raw + 8, 4);
	memcpy(&tid, raw + 12, 4);
	memcpy(&value, raw + 16, 8);
	for (c = 0; c < s->ncounters && s->counter_ev[c] != ev; c++)
		;
	if (c == s->ncounters) {
		if (c == REPORT_MAX_COUNTERS)
			return 0;
		s->counter_ev[s->ncounters++] = ev;
	}
	for (t = 0; t < s->nthreads && (s->threads[t].pid != pid || s->threads[t].tid != tid); t++)
		;
	if (t == s->nthreads) {
		void *n = realloc(s->threads, (t + 1) * sizeof(*s->threads));

		if (!n)
			return -1;
		s->threads = n;
		memset(&s->threads[t], 0, sizeof(s->threads[t]));
		s->threads[t].pid = pid;
		s->threads[t].tid = tid;
		s->nthreads++;
	}
	s->threads[t].value[c] += value;	/* perf sums a thread's reads */
	return 0;
}

/* perf counts a COMPRESSED record and the records in it: the reader
 * hands out the latter, each with the offset of its COMPRESSED record;
 * a set of those offsets counts the former. */
static int count_compressed(struct report_stats *s, uint64_t off)
{
	if (2 * (s->ncomp + 1) > s->comp_cap) {
		size_t cap = s->comp_cap ? 2 * s->comp_cap : 256;
		uint64_t *n = calloc(cap, sizeof(*n)), *old = s->comp;

		if (!n)
			return -1;
		s->comp = n;
		s->comp_cap = cap;
		s->ncomp = 0;
		for (size_t i = 0; old && i < cap / 2; i++)
			if (old[i])
				count_compressed(s, old[i] - 1);
		free(old);
	}
	size_t i = (size_t)((off * 0x9e3779b97f4a7c15ull) >> 20) & (s->comp_cap - 1);

	while (s->comp[i] && s->comp[i] != off + 1)
		i = (i + 1) & (s->comp_cap - 1);
	if (!s->comp[i]) {
		s->comp[i] = off + 1;
		s->ncomp++;
	}
	return 0;
}

int report_read(struct report *r, void (*progress)(uint64_t done, void *arg), void *arg)
{
	struct report_stats *s = &r->st;
	struct pev_data_event ev;
	uint64_t n = 0;
	int rc;

	if (r->stats || r->threads) {
		s->nevents = pev_decoder_nr_attrs(pev_data_decoder(r->data));
		s->ev_samples = calloc(s->nevents ? s->nevents : 1, sizeof(*s->ev_samples));
		if (!s->ev_samples)
			return -12;
	}
	while ((rc = pev_data_next_ordered(r->data, &ev)) > 0) {
		const struct pev_record *rec = &ev.rec;

		if (progress && !(++n & 0xffff))
			progress(ev.offset, arg);
		/* perf 6.1 counts them (nr_unknown_events) and stops */
		if (!pev_record_type_name(rec->type) && !s->unknown++)
			s->unknown_type = rec->type;
		if (!r->stats && !r->threads) {
			if (!ev.decode_error && (rc = pev_profile_add(r->prof, rec)) < 0)
				return rc;
			continue;
		}
		if (rec->type < STATS_MAX) {
			s->nr[0]++;
			s->nr[rec->type]++;
		}
		if (rec->type == PERF_RECORD_SAMPLE && rec->attr_index >= 0 &&
		    (size_t)rec->attr_index < s->nevents)
			s->ev_samples[rec->attr_index]++;
		if (ev.compressed && r->stats && count_compressed(s, ev.offset) < 0)
			return -12;
		if (ev.decode_error)
			continue;
		if (rec->type == PERF_RECORD_READ && r->threads && add_read(s, rec) < 0)
			return -12;
		if (r->stats)
			continue;	/* perf --stats aggregates nothing */
		rc = pev_profile_add(r->prof, rec);
		if (rc < 0)
			return rc;
	}
	return rc;
}

static void print_counts(FILE *o, const uint64_t *nr, uint64_t total)
{
	for (unsigned t = 0; t < STATS_MAX; t++) {
		const char *name = t ? pev_record_type_name(t) : "TOTAL";

		if (!name || (t && !perf61_type(t)) || !nr[t])
			continue;
		if (t && total)
			fprintf(o, "%16s events: %10u  (%4.1f%%)\n", name, (unsigned)nr[t],
				100.0 * (double)nr[t] / (double)total);
		else
			fprintf(o, "%16s events: %10u\n", name, (unsigned)nr[t]);
	}
}

void report_print_stats(struct report *r)
{
	struct report_stats *s = &r->st;
	FILE *o = r->out;

	s->nr[PEV_RECORD_COMPRESSED] += s->ncomp;
	s->nr[0] += s->ncomp;
	fputs("\nAggregated stats:\n", o);
	print_counts(o, s->nr, s->nr[0]);
	for (size_t i = 0; i < s->nevents; i++) {
		uint64_t nr[STATS_MAX] = { 0 };
		char nbuf[128];
		const char *name = report_event_name(r, i, nbuf, sizeof(nbuf));

		nr[PERF_RECORD_SAMPLE] = s->ev_samples[i];
		fprintf(o, "%s stats:\n", name);
		print_counts(o, nr, 0);
	}
}

static int digits(uint64_t v)
{
	return snprintf(NULL, 0, "%" PRIu64, v);
}

void report_print_threads(struct report *r)
{
	struct report_stats *s = &r->st;
	FILE *o = r->out;
	int pidw = 3, tidw = 3, cw[REPORT_MAX_COUNTERS];
	const char *names[REPORT_MAX_COUNTERS];

	for (size_t c = 0; c < s->ncounters; c++) {
		names[c] = pev_data_event_name(r->data, s->counter_ev[c]);
		if (!names[c])
			names[c] = "unknown";
		cw[c] = (int)strlen(names[c]);
	}
	for (size_t t = 0; t < s->nthreads; t++) {
		int w = snprintf(NULL, 0, "%d", (int)s->threads[t].pid);

		if (w > pidw)
			pidw = w;
		w = snprintf(NULL, 0, "%d", (int)s->threads[t].tid);
		if (w > tidw)
			tidw = w;
		for (size_t c = 0; c < s->ncounters; c++)
			if (digits(s->threads[t].value[c]) > cw[c])
				cw[c] = digits(s->threads[t].value[c]);
	}
	fprintf(o, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (size_t c = 0; c < s->ncounters; c++)
		fprintf(o, "  %*s", cw[c], names[c]);
	fputc('\n', o);
	for (size_t t = 0; t < s->nthreads; t++) {
		fprintf(o, "  %*d  %*d", pidw, (int)s->threads[t].pid, tidw,
			(int)s->threads[t].tid);
		for (size_t c = 0; c < s->ncounters; c++)
			fprintf(o, "  %*" PRIu64, cw[c], s->threads[t].value[c]);
		fputc('\n', o);
	}
}

void report_stats_free(struct report *r)
{
	free(r->st.ev_samples);
	free(r->st.threads);
	free(r->st.comp);
}
