// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Regions: the counts read back (pev_region_get) and the report (text on
 * stderr, or text/JSON/CSV where PERFEV_OUTPUT says). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "region/region_internal.h"

PEV_EXPORT size_t pev_region_nr_events(void)
{
	return atomic_load(&pev__reg.state) ? (size_t)pev__reg.nr_events : 0;
}

PEV_EXPORT const char *pev_region_event_name(size_t ev)
{
	if (!atomic_load(&pev__reg.state) || ev >= (size_t)pev__reg.nr_events)
		return NULL;
	return pev__reg.ev[ev].name;
}

/* A consistent copy of one region's counts (the owner may be adding). */
static void copy_region(const struct reg_thread *t, const struct reg_region *r,
			uint64_t *calls, uint64_t *sum)
{
	size_t n = (size_t)pev__reg.nr_events * 3;

	for (int tries = 0; tries < 10000; tries++) {
		unsigned s = atomic_load_explicit(&t->seq, memory_order_acquire);

		if (s & 1)
			continue;
		*calls = r->calls;
		memcpy(sum, r->sum, n * sizeof(*sum));
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&t->seq, memory_order_relaxed) == s)
			return;
	}
}

/* The i-th region of t in creation order (chunks are newest first). */
static const struct reg_region *region_at(const struct reg_thread *t, int i)
{
	int nchunks = (t->nr_regions + REG_CHUNK - 1) / REG_CHUNK, want = i / REG_CHUNK;
	const struct reg_chunk *c = t->chunks;

	for (int k = nchunks - 1; c && k > want; k--)
		c = c->next;
	return c ? &c->r[i % REG_CHUNK] : NULL;
}

static const struct reg_region *thread_region(const struct reg_thread *t, const char *name)
{
	int n = atomic_load_explicit((const _Atomic int *)&t->nr_regions, memory_order_acquire);

	for (int i = 0; i < n; i++) {
		const struct reg_region *r = region_at(t, i);
		if (r && !strcmp(r->name, name))
			return r;
	}
	return NULL;
}

/* Add one thread's counts of event ev (or only the calls for ev -1). */
static void fill(struct pev_region_count *o, uint64_t calls, const uint64_t *sum,
		 const struct reg_thread *t, int ev)
{
	o->calls += calls;
	if (ev < 0)
		return;
	o->raw += sum[ev * 3];
	o->enabled += sum[ev * 3 + 1];
	o->running += sum[ev * 3 + 2];
	o->overhead += t->overhead[ev] * (double)calls;
	if (t->err[ev] && !o->error)
		o->error = t->err[ev];
}

static void finish(struct pev_region_count *o)
{
	double v = (double)o->raw;

	if (o->calls)
		o->overhead /= (double)o->calls;
	/* Equal times (both 0 too: reads within one time slice of a page
	 * without cap_user_time) need no scaling; running 0 alone is perf's
	 * <not counted>. */
	if (o->running == 0 && o->enabled)
		v = 0;
	else if (o->running != o->enabled)
		v = v * (double)o->enabled / (double)o->running;
	v -= o->overhead * (double)o->calls;
	o->scaled = v > 0 ? v : 0;
	o->fraction = o->enabled ? (double)o->running / (double)o->enabled : 1.0;
}

PEV_EXPORT int pev_region_get(const char *name, pid_t tid, size_t ev,
				struct pev_region_count *out)
{
	struct reg_global *g = &pev__reg;
	struct pev_region_count o = { .size = sizeof(o) };
	uint64_t *sum;
	bool found = false;
	int e = (int)ev;

	if (!name || !out)
		return -EINVAL;
	if (!atomic_load(&g->state) || (g->nr_events ? ev >= (size_t)g->nr_events : ev != 0))
		return atomic_load(&g->state) ? -ERANGE : -ENOENT;
	if (!g->nr_events)
		e = -1;
	if (tid == 0)
		tid = (pid_t)syscall(SYS_gettid);
	sum = calloc((size_t)g->nr_events * 3 + 1, sizeof(*sum));
	if (!sum)
		return -ENOMEM;
	pthread_mutex_lock(&g->lock);
	for (const struct reg_thread *t = g->threads; t; t = t->next) {
		const struct reg_region *r;
		uint64_t calls = 0;

		if (tid != -1 && t->tid != tid)
			continue;
		r = thread_region(t, name);
		if (!r)
			continue;
		copy_region(t, r, &calls, sum);
		fill(&o, calls, sum, t, e);
		found = true;
	}
	pthread_mutex_unlock(&g->lock);
	free(sum);
	if (!found)
		return -ENOENT;
	finish(&o);
	memcpy(out, &o, out->size && out->size < sizeof(o) ? out->size : sizeof(o));
	return 0;
}

/* ---- the report ---- */

enum fmt { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_NONE };

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A number as JSON and CSV write it: ns resolution for msec values, the
 * shortest exact form otherwise. */
static void num(FILE *f, const struct reg_event *ev, double v)
{
	if (!strcmp(ev->unit, "msec"))
		fprintf(f, "%.6f", v);
	else
		fprintf(f, "%.15g", v);
}

/* The value in the unit it is printed in: msec for the clocks. */
static double shown(const struct reg_event *ev, double v)
{
	if (!strcmp(ev->unit, "msec"))
		return v / 1e6;
	return v * ev->scale;
}

static void text_row(FILE *f, const struct reg_event *ev, const struct pev_region_count *c)
{
	char val[64];

	if (c->error)
		snprintf(val, sizeof(val), "<not supported>");
	else if (c->calls && !c->running && c->enabled)
		snprintf(val, sizeof(val), "<not counted>");
	else if (!strcmp(ev->unit, "msec"))
		snprintf(val, sizeof(val), "%.6f", shown(ev, c->scaled));
	else if (ev->scale != 1.0)
		snprintf(val, sizeof(val), "%.2f", shown(ev, c->scaled));
	else
		snprintf(val, sizeof(val), "%.0f", c->scaled);
	fprintf(f, "  %20s %-5s %-28s", val, ev->unit, ev->name);
	if (c->error) {
		fprintf(f, " (%s)\n", strerror(c->error));
		return;
	}
	fprintf(f, " (%6.2f%%)", 100.0 * c->fraction);
	if (c->overhead > 0)
		fprintf(f, "  [overhead %g/call subtracted]", shown(ev, c->overhead));
	fputc('\n', f);
}

static void write_one(FILE *f, enum fmt fmt, const struct reg_thread *t,
		      const struct reg_region *r, uint64_t *sum, bool *first)
{
	struct reg_global *g = &pev__reg;
	uint64_t calls = 0;
	int n = g->nr_events;

	copy_region(t, r, &calls, sum);
	if (fmt == FMT_TEXT) {
		fprintf(f, "\n region \"%s\", thread %d (%s): %llu call%s\n\n", r->name,
			(int)t->tid, t->comm, (unsigned long long)calls, calls == 1 ? "" : "s");
	} else if (fmt == FMT_JSON) {
		fprintf(f, "%s\n  {\"region\": ", *first ? "" : ",");
		json_str(f, r->name);
		fprintf(f, ", \"tid\": %d, \"comm\": ", (int)t->tid);
		json_str(f, t->comm);
		fprintf(f, ", \"calls\": %llu, \"counters\": [", (unsigned long long)calls);
	}
	*first = false;
	if (fmt == FMT_CSV && !n) {
		csv_str(f, r->name);
		fprintf(f, ",%d,", (int)t->tid);
		csv_str(f, t->comm);
		fprintf(f, ",%llu,,,,,,,,,\n", (unsigned long long)calls);
	}
	for (int e = 0; e < n; e++) {
		const struct reg_event *ev = &g->ev[e];
		struct pev_region_count c = { .size = sizeof(c) };

		fill(&c, calls, sum, t, e);
		finish(&c);
		if (fmt == FMT_TEXT) {
			text_row(f, ev, &c);
		} else if (fmt == FMT_JSON) {
			fprintf(f, "%s\n    {\"event\": ", e ? "," : "");
			json_str(f, ev->name);
			fprintf(f, ", \"unit\": ");
			json_str(f, ev->unit);
			fprintf(f, ", \"value\": ");
			num(f, ev, shown(ev, c.scaled));
			fprintf(f, ", \"raw\": %llu, \"enabled\": %llu, \"running\": %llu, "
				"\"fraction\": %.6f, \"overhead\": ", (unsigned long long)c.raw,
				(unsigned long long)c.enabled, (unsigned long long)c.running,
				c.fraction);
			num(f, ev, shown(ev, c.overhead));
			fprintf(f, ", \"error\": ");
			if (c.error)
				json_str(f, strerror(c.error));
			else
				fputs("null", f);
			fputc('}', f);
		} else {
			csv_str(f, r->name);
			fprintf(f, ",%d,", (int)t->tid);
			csv_str(f, t->comm);
			fprintf(f, ",%llu,", (unsigned long long)calls);
			csv_str(f, ev->name);
			fputc(',', f);
			num(f, ev, shown(ev, c.scaled));
			fputc(',', f);
			csv_str(f, ev->unit);
			fprintf(f, ",%llu,%llu,%llu,%.6f,", (unsigned long long)c.raw,
				(unsigned long long)c.enabled, (unsigned long long)c.running,
				c.fraction);
			num(f, ev, shown(ev, c.overhead));
			fputc(',', f);
			if (c.error)
				csv_str(f, strerror(c.error));
			fputc('\n', f);
		}
	}
	if (fmt == FMT_JSON)
		fprintf(f, "%s]}", n ? "\n  " : "");
}

/* Say once about regions still open in t. */
static void still_open(const struct reg_thread *t)
{
	for (size_t i = 0; i < t->depth; i++) {
		char key[300];

		snprintf(key, sizeof(key), "open:%s:%d", t->stack[i].reg->name, (int)t->tid);
		pev__reg_say_once(key, "region \"%s\" is still open in thread %d at the "
				  "report: its unfinished call is not counted",
				  t->stack[i].reg->name, (int)t->tid);
	}
}

static void write_report(FILE *f, enum fmt fmt)
{
	struct reg_global *g = &pev__reg;
	uint64_t *sum = calloc((size_t)g->nr_events * 3 + 1, sizeof(*sum));
	const struct reg_thread **th = NULL;
	size_t nt = 0;
	bool first = true;

	for (const struct reg_thread *t = g->threads; t; t = t->next)
		nt++;
	th = calloc(nt + 1, sizeof(*th));
	if (!sum || !th) {
		free(sum);
		free(th);
		return;
	}
	/* Oldest thread first. */
	nt = 0;
	for (const struct reg_thread *t = g->threads; t; t = t->next)
		th[nt++] = t;
	/* Why hardware counters are read with read(2), where they could have
	 * been read from user space (arm64 perf_user_access, x86 rdpmc). */
	char why[256] = "";
	for (int e = 0; e < g->nr_events; e++)
		if (g->ev[e].page)
			pev_user_access_explain(&g->ua, why, sizeof(why));
	if (fmt == FMT_TEXT) {
		fprintf(f, "\n perfev region report of pid %d (%zu thread%s)%s\n", (int)getpid(),
			nt, nt == 1 ? "" : "s",
			g->calibrate ? ", calibrated (PERFEV_CALIBRATE=0 turns it off)" : "");
		if (*why)
			fprintf(f, " note: %s\n", why);
	} else if (fmt == FMT_JSON) {
		fprintf(f, "{\"pid\": %d, \"calibrated\": %s, \"user_reads_off\": ", (int)getpid(),
			g->calibrate ? "true" : "false");
		if (*why)
			json_str(f, why);
		else
			fputs("null", f);
		fprintf(f, ", \"events\": [");
		for (int e = 0; e < g->nr_events; e++) {
			fprintf(f, "%s", e ? ", " : "");
			json_str(f, g->ev[e].name);
		}
		fprintf(f, "],\n \"regions\": [");
	} else if (fmt == FMT_CSV) {
		fprintf(f, "region,tid,comm,calls,event,value,unit,raw,enabled,running,"
			"fraction,overhead,error\n");
	}
	for (size_t k = nt; k-- > 0;) {
		const struct reg_thread *t = th[k];
		int n = atomic_load_explicit((const _Atomic int *)&t->nr_regions,
					     memory_order_acquire);

		for (int i = 0; i < n; i++) {
			const struct reg_region *r = region_at(t, i);
			if (r)
				write_one(f, fmt, t, r, sum, &first);
		}
	}
	if (fmt == FMT_JSON)
		fprintf(f, "\n ]}\n");
	else if (fmt == FMT_TEXT)
		fputc('\n', f);
	free(sum);
	free(th);
}

static int report(bool at_exit)
{
	struct reg_global *g = &pev__reg;
	const char *spec = getenv("PERFEV_OUTPUT");
	const char *path = NULL;
	enum fmt fmt = FMT_TEXT;
	FILE *f = stderr;
	int err = 0;

	if (!atomic_load(&g->state))
		return 0;
	if (spec && *spec) {
		const char *colon = strchr(spec, ':');
		size_t kl = colon ? (size_t)(colon - spec) : strlen(spec);

		if (!strcmp(spec, "none"))
			fmt = FMT_NONE;
		else if (kl == 4 && !strncmp(spec, "json", 4))
			fmt = FMT_JSON;
		else if (kl == 3 && !strncmp(spec, "csv", 3))
			fmt = FMT_CSV;
		else if (kl == 4 && !strncmp(spec, "text", 4))
			fmt = FMT_TEXT;
		else
			pev__reg_say_once("output", "PERFEV_OUTPUT=%s: expected json:FILE, "
					  "csv:FILE, text:FILE or none; writing text to stderr",
					  spec);
		if (fmt != FMT_NONE && colon && colon[1] && strcmp(colon + 1, "-"))
			path = colon + 1;
		else if (fmt != FMT_NONE && colon && !strcmp(colon + 1, "-"))
			f = stdout;
	}
	pthread_mutex_lock(&g->lock);
	if (at_exit && !g->threads) {
		pthread_mutex_unlock(&g->lock);
		return 0;
	}
	/* Names of the threads still running (the exited ones kept theirs);
	 * regions still open are said on stderr whatever the output. */
	for (struct reg_thread *t = g->threads; t; t = t->next) {
		if (!t->dead && fmt != FMT_NONE)
			pev__reg_comm(t->tid, t->comm, sizeof(t->comm));
		still_open(t);
	}
	pthread_mutex_unlock(&g->lock);
	if (fmt == FMT_NONE)
		return 0;
	if (path && !(f = fopen(path, "we"))) {
		err = -errno;
		pev__reg_say_once("output-open", "cannot write the report to %s: %s", path,
				  strerror(errno));
		return err;
	}
	pthread_mutex_lock(&g->lock);
	write_report(f, fmt);
	pthread_mutex_unlock(&g->lock);
	if (path) {
		if (ferror(f) | fclose(f)) {
			err = -EIO;
			pev__reg_say_once("output-write", "cannot write the report to %s", path);
		}
	} else {
		fflush(f);
	}
	return err;
}

PEV_EXPORT int pev_region_report(void)
{
	return report(false);
}

void pev__reg_exit_report(void)
{
	report(true);
}
