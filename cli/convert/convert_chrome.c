// SPDX-License-Identifier: GPL-2.0-only
/* --to chrome: Chrome's trace-event JSON (the JSON Object Format that
 * Perfetto's UI and about:tracing load): process_name and thread_name
 * metadata events, one "P" (sample) event per sample pointing at its
 * stack in "stackFrames" (a tree of id -> name, category: the DSO,
 * parent), the same samples as nested "X" slices of the functions on
 * the stack (Perfetto's UI draws those, not "P" events), and, where the
 * file has PERF_RECORD_SWITCH records (perf record --switch-events, or
 * -a) or else sched:sched_switch samples, one "X" slice "on-cpu" per
 * stretch a thread ran on a CPU.  Times
 * in microseconds from the first sample or switch. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "common/cli.h"
#include "convert/convert_tables.h"
#include "common/json_out.h"
#include "common/tracefmt.h"

struct ch_state {
	struct conv_strings names, dsos;
	struct conv_map by_id;		/* profile frame id -> (name, dso) key */
	struct conv_tree stacks;	/* (parent node, key): the stackFrames */
	uint64_t *keys;			/* key k -> name << 32 | dso */
	size_t nkeys;
	struct conv_map key_of;		/* name << 32 | dso -> key */
};

static uint32_t ch_key(const struct conv *c, struct ch_state *st, uint32_t id)
{
	uint32_t k = conv_map_get(&st->by_id, id);

	if (k != CONV_NONE)
		return k;
	const struct pev_profile_frame *f = pev_profile_frame(c->prof, id);
	uint32_t name = conv_frame_name(&st->names, f);
	uint32_t dso = conv_strings_add(&st->dsos, f && f->dso ? pev_profile_dso_short(f->dso) : "[unknown]");
	uint64_t nd = (uint64_t)name << 32 | dso;

	if (name == CONV_NONE || dso == CONV_NONE)
		return CONV_NONE;
	k = conv_map_add(&st->key_of, nd, (uint32_t)st->nkeys);
	if (k == st->nkeys) {
		uint64_t *a = realloc(st->keys, (st->nkeys + 1) * sizeof(*a));

		if (!a)
			return CONV_NONE;
		st->keys = a;
		a[st->nkeys++] = nd;
	}
	return k == CONV_NONE ? k : conv_map_add(&st->by_id, id, k);
}

static void put_us(FILE *o, uint64_t ns, uint64_t t0)
{
	uint64_t d = ns > t0 ? ns - t0 : 0;

	json_put_decimal(o, d, 3);
}

static void ch_meta(FILE *o, const char *what, int32_t pid, int32_t tid, const char *name)
{
	fprintf(o, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%" PRId32 ",\"tid\":%" PRId32
		",\"args\":{\"name\":", what, pid, tid);
	json_put_str(o, name);
	fputs("}},\n", o);
}

/* One stretch a thread ran on a CPU: a switch in, then out. */
struct ch_span {
	uint64_t in, out;
	uint32_t cpu;
	bool has_cpu, preempt;
};

struct ch_spans {
	struct ch_span *v;
	size_t n, cap;
};

/* A function open on a thread's stack of slices. */
struct ch_open {
	uint32_t key;
	uint64_t start;
};

/* ,"pid":P,"tid":T, of a thread: the part of its events that repeats */
struct ch_ids {
	char s[48];
};

static void ch_ids_init(struct ch_ids *ids, const struct conv_thread *th)
{
	snprintf(ids->s, sizeof(ids->s), ",\"pid\":%" PRId32 ",\"tid\":%" PRId32 ",", th->pid,
		 th->tid);
}

static void ch_slice(FILE *o, const struct ch_state *st, const struct ch_ids *ids,
		     const struct ch_open *f, uint64_t end, uint64_t t0)
{
	uint64_t nd = st->keys[f->key];

	fputs("{\"ph\":\"X\",\"name\":", o);
	json_put_str(o, st->names.s[nd >> 32]);
	fputs(",\"cat\":\"stack\"", o);
	fputs(ids->s, o);
	fputs("\"ts\":", o);
	put_us(o, f->start, t0);
	fputs(",\"dur\":", o);
	put_us(o, end, f->start);
	fputs(",\"args\":{\"dso\":", o);
	json_put_str(o, st->dsos.s[(uint32_t)nd]);
	fputs("}},\n", o);
}

/* Closes the slices open at depth and below at time end.  Parents are
 * written before their children: a child that starts and ends with its
 * parent then comes after it in the file, the order viewers keep for
 * slices of the same start and length. */
static void ch_close(FILE *o, const struct ch_state *st, const struct ch_ids *ids,
		     const struct ch_open *open, size_t *nopen, size_t depth, uint64_t end,
		     uint64_t t0)
{
	for (size_t d = depth; d < *nopen; d++)
		ch_slice(o, st, ids, &open[d], end, t0);
	if (*nopen > depth)
		*nopen = depth;
}

/* The samples of one thread as "P" events, and as "X" slices (what
 * Perfetto's UI draws: it ignores "P"): a sample lasts until the next one,
 * at most one sampling interval, and never past the end of the on-CPU
 * stretch it is in (or into the next one), so that the slices nest in
 * the on-CPU slices; a function of consecutive samples that stays at its
 * depth is one slice.  -ENOMEM */
static int ch_samples(const struct conv *c, FILE *o, struct ch_state *st,
		      const struct conv_thread *th, const struct ch_spans *sp, uint64_t t0)
{
	size_t ns, nopen = 0, cap = 0, span = 0, where = 0, prev_where = 0;
	const struct pev_profile_sample *s = pev_profile_samples(c->prof, &ns);
	uint64_t interval = (uint64_t)(conv_interval_ms(c) * 1e6), prev_end = 0;
	struct ch_open *open = NULL;
	struct ch_ids tids;
	int err = 0;

	ch_ids_init(&tids, th);

	for (size_t i = 0; i < th->n && !err; i++) {
		const struct pev_profile_sample *x = &s[th->idx[i]];
		const uint32_t *ids;
		size_t n = conv_frames(c, x, &ids), depth = 0;
		uint32_t node = CONV_NONE;
		uint64_t t = x->time, end = t + (interval ? interval : 1);

		if (i + 1 < th->n && s[th->idx[i + 1]].time < end)
			end = s[th->idx[i + 1]].time;
		while (span < sp->n && sp->v[span].out < t)
			span++;
		/* where: 2k + 1 inside stretch k, 2k before it */
		where = 2 * span + (span < sp->n && sp->v[span].in <= t);
		if (span < sp->n) {
			uint64_t limit = where & 1 ? sp->v[span].out : sp->v[span].in;

			if (limit < end)
				end = limit;
		}
		/* a sample of no length (the next came at once, or it is the
		 * switch out) changes no slice: the parents of a slice then
		 * close in the same batch as the slice */
		bool slices = end > t;

		/* not contiguous, or across a switch: every slice closes */
		if (slices && (t != prev_end || where != prev_where))
			ch_close(o, st, &tids, open, &nopen, 0, prev_end, t0);
		if (n > cap) {
			struct ch_open *a = realloc(open, n * sizeof(*a));

			if (!a) {
				err = -ENOMEM;
				break;
			}
			open = a;
			cap = n;
		}
		for (size_t j = n; j-- > 0; depth++) {	/* root first */
			uint32_t k = ch_key(c, st, ids[j]);

			node = k == CONV_NONE ? k : conv_tree_add(&st->stacks, node, k);
			if (node == CONV_NONE) {
				err = -ENOMEM;
				break;
			}
			if (!slices || (depth < nopen && open[depth].key == k))
				continue;
			ch_close(o, st, &tids, open, &nopen, depth, t, t0);
			open[nopen].key = k;
			open[nopen++].start = t;
		}
		if (slices) {
			ch_close(o, st, &tids, open, &nopen, n, t, t0);
			prev_end = end;
			prev_where = where;
		}
		fputs("{\"ph\":\"P\",\"name\":", o);
		json_put_str(o, conv_event_name(c, x->event));
		fputs(",\"cat\":\"sample\"", o);
		fputs(tids.s, o);
		fputs("\"ts\":", o);
		put_us(o, t, t0);
		if (node != CONV_NONE) {	/* none: a chain perf drops whole */
			fputs(",\"sf\":\"", o);
			json_put_u64(o, node + 1);
			fputc('"', o);
		}
		fputs(",\"args\":{\"weight\":", o);
		json_put_u64(o, conv_value_of(c, x));
		if (x->cpu >= 0) {
			fputs(",\"cpu\":", o);
			json_put_u64(o, (uint64_t)x->cpu);
		}
		fputs("}},\n", o);
	}
	ch_close(o, st, &tids, open, &nopen, 0, prev_end, t0);
	free(open);
	return err;
}

/* qsort_r: a and b index th, the threads */
static int by_tid(const void *a, const void *b, void *th)
{
	const struct conv_thread *t = th;
	int32_t x = t[*(const uint32_t *)a].tid, y = t[*(const uint32_t *)b].tid;

	return x < y ? -1 : x > y;
}

/* The index in th of thread tid (order: th's indexes sorted by tid), or
 * -1 */
static long find_tid(const struct conv_thread *th, const uint32_t *order, size_t nt, int32_t tid)
{
	size_t lo = 0, hi = nt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (th[order[mid]].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nt && th[order[lo]].tid == tid ? (long)order[lo] : -1;
}

static int span_add(struct ch_spans *sp, uint64_t in, uint64_t out, bool has_cpu,
		    uint32_t cpu, bool preempt)
{
	if (sp->n == sp->cap) {
		size_t cap = sp->cap ? sp->cap * 2 : 64;
		struct ch_span *v = realloc(sp->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		sp->v = v;
		sp->cap = cap;
	}
	sp->v[sp->n++] = (struct ch_span){ .in = in, .out = out, .cpu = cpu,
					   .has_cpu = has_cpu, .preempt = preempt };
	return 0;
}

/* Where the switches come from: PERF_RECORD_SWITCH records, else the
 * sched:sched_switch tracepoint's samples. */
struct ch_switch_src {
	struct ch_spans *sp;		/* per thread (th's order) */
	uint64_t *in;			/* switch-in time, 0: out */
};

/* tid switched in (out = false) or out at time; -ENOMEM */
static int ch_switch(struct ch_switch_src *w, const struct conv_thread *th, const uint32_t *order,
		     size_t nt, int32_t tid, bool out, uint64_t time, bool has_cpu, uint32_t cpu,
		     bool preempt)
{
	long i = tid > 0 ? find_tid(th, order, nt, tid) : -1;
	int r = 0;

	/* tid 0 is every CPU's idle task: its switches interleave */
	if (i < 0)
		return 0;
	if (!out)
		w->in[i] = time ? time : 1;
	else if (w->in[i] && time >= w->in[i]) {
		r = span_add(&w->sp[i], w->in[i], time, has_cpu, cpu, preempt);
		w->in[i] = 0;
	}
	return r;
}

/* A sched:sched_switch sample: prev_pid goes out, next_pid comes in. */
static int ch_sched_switch(struct conv *c, struct tracefmt *tf, struct ch_switch_src *w,
			   const struct conv_thread *th, const uint32_t *order, size_t nt,
			   const struct pev_record *rec)
{
	const struct pev_sample *x = &rec->u.sample;
	const struct perf_event_attr *a = rec->attr;
	unsigned long long prev, next, state = 1;
	struct tep_event *ev;
	struct tep_format_field *fp, *fn, *fs;

	if (!a || a->type != PERF_TYPE_TRACEPOINT || rec->attr_index < 0 ||
	    !(a->sample_type & PERF_SAMPLE_TIME) || !(a->sample_type & PERF_SAMPLE_RAW) ||
	    !x->raw.data || strcmp(conv_event_name(c, (uint32_t)rec->attr_index), "sched:sched_switch"))
		return 0;
	ev = tracefmt_find(tf, a, (size_t)rec->attr_index);
	fp = ev ? tep_find_field(ev, "prev_pid") : NULL;
	fn = ev ? tep_find_field(ev, "next_pid") : NULL;
	fs = ev ? tep_find_field(ev, "prev_state") : NULL;
	if (!fp || !fn || tep_read_number_field(fp, x->raw.data, &prev) ||
	    tep_read_number_field(fn, x->raw.data, &next))
		return 0;
	if (fs)
		tep_read_number_field(fs, x->raw.data, &state);
	bool has_cpu = a->sample_type & PERF_SAMPLE_CPU;
	int r = ch_switch(w, th, order, nt, (int32_t)prev, true, x->time, has_cpu, x->cpu, !state);

	return r ? r : ch_switch(w, th, order, nt, (int32_t)next, false, x->time, has_cpu, x->cpu, false);
}

/* The on-CPU stretches of the threads shown (sp[i] for th[i]), from the
 * switch records, else from sched:sched_switch samples.  0, or -errno
 * from the reader. */
static int ch_switches(struct conv *c, const struct conv_thread *th, size_t nt,
		       struct ch_spans *sp)
{
	size_t n1 = nt ? nt : 1;
	uint32_t *order = malloc(n1 * sizeof(*order));
	struct ch_switch_src rec = { sp, calloc(n1, sizeof(uint64_t)) };
	struct ch_switch_src tp = { calloc(n1, sizeof(*sp)), calloc(n1, sizeof(uint64_t)) };
	struct tracefmt tf = { .data = c->data };
	struct pev_data_event ev;
	bool any_record = false;
	int r = 0;

	if (!order || !rec.in || !tp.sp || !tp.in)
		r = -ENOMEM;
	for (size_t i = 0; !r && i < nt; i++)
		order[i] = (uint32_t)i;
	if (!r && nt)
		qsort_r(order, nt, sizeof(*order), by_tid, (void *)th);
	/* a pipe cannot be read twice: samples only */
	if (!r && !pev_data_is_pipe(c->data) && pev_data_rewind(c->data) == 0)
		while ((r = pev_data_next_ordered(c->data, &ev)) > 0) {
			const struct pev_record *x = &ev.rec;
			const struct pev_sample_id *id = &x->sample_id;

			if (ev.decode_error)
				continue;
			if (x->type == PERF_RECORD_SAMPLE && !any_record)
				r = ch_sched_switch(c, &tf, &tp, th, order, nt, x);
			else if ((x->type == PERF_RECORD_SWITCH || x->type == PERF_RECORD_SWITCH_CPU_WIDE) &&
				 x->has_sample_id && (id->fields & PERF_SAMPLE_TIME) &&
				 (id->fields & PERF_SAMPLE_TID)) {
				any_record = true;
				r = ch_switch(&rec, th, order, nt, (int32_t)id->tid, x->u.context_switch.out,
					      id->time, id->fields & PERF_SAMPLE_CPU, id->cpu,
					      x->u.context_switch.preempt);
			}
			if (r < 0)
				break;
			r = 0;
		}
	for (size_t i = 0; tp.sp && i < nt; i++) {
		if (!any_record) {	/* the tracepoint's stretches, then */
			free(sp[i].v);
			sp[i] = tp.sp[i];
		} else
			free(tp.sp[i].v);
	}
	tracefmt_release(&tf);
	free(tp.sp);
	free(tp.in);
	free(rec.in);
	free(order);
	return r < 0 ? r : 0;
}

static void ch_spans_write(FILE *o, const struct conv_thread *t, const struct ch_spans *sp,
			   uint64_t t0)
{
	for (size_t k = 0; k < sp->n; k++) {
		const struct ch_span *x = &sp->v[k];

		fprintf(o, "{\"ph\":\"X\",\"name\":\"on-cpu\",\"cat\":\"sched\",\"pid\":%" PRId32
			",\"tid\":%" PRId32 ",\"ts\":", t->pid, t->tid);
		put_us(o, x->in, t0);
		fputs(",\"dur\":", o);
		put_us(o, x->out, x->in);
		if (x->has_cpu)
			fprintf(o, ",\"args\":{\"cpu\":%" PRIu32 ",\"preempted\":%s}", x->cpu,
				x->preempt ? "true" : "false");
		fputs("},\n", o);
	}
}

static void ch_release(struct ch_state *st)
{
	conv_strings_release(&st->names);
	conv_strings_release(&st->dsos);
	conv_map_release(&st->by_id);
	conv_map_release(&st->key_of);
	conv_tree_release(&st->stacks);
	free(st->keys);
}

int conv_write_chrome(struct conv *c)
{
	size_t nt = 0, slices = 0;
	struct conv_thread *th = conv_threads(c, &nt);
	struct ch_spans *sp = NULL;
	struct ch_state st;
	FILE *o = c->out;
	uint64_t t0, t1;
	int err = 0;

	if (!th && errno == ENOMEM) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	memset(&st, 0, sizeof(st));
	sp = calloc(nt ? nt : 1, sizeof(*sp));
	err = sp ? ch_switches(c, th, nt, sp) : -ENOMEM;
	if (err && err != -ENOMEM) {
		cli_error("'%s' is damaged: %s; it may be truncated, record it again",
			  c->input, pev_data_error(c->data));
		for (size_t i = 0; i < nt; i++)
			free(sp[i].v);
		free(sp);
		conv_threads_free(th, nt);
		return EXIT_ERROR;
	}
	conv_time_span(th, nt, &t0, &t1);
	for (size_t i = 0; i < nt; i++)		/* a stretch may start first */
		if (sp[i].n && sp[i].v[0].in < t0)
			t0 = sp[i].v[0].in;
	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"exporter\":\"perfev\",\"input\":", o);
	json_put_str(o, c->input);
	fputs("},\"traceEvents\":[\n", o);
	for (size_t i = 0; i < nt && !err; i++) {
		if (!i || th[i].pid != th[i - 1].pid)
			ch_meta(o, "process_name", th[i].pid, th[i].pid, th[i].process);
		ch_meta(o, "thread_name", th[i].pid, th[i].tid, th[i].comm);
		ch_spans_write(o, &th[i], &sp[i], t0);
		slices += sp[i].n;
		err = ch_samples(c, o, &st, &th[i], &sp[i], t0);
	}
	/* an ending event without a comma after it */
	fputs("{\"ph\":\"M\",\"name\":\"trace_end\",\"pid\":0,\"tid\":0,\"args\":{}}\n],"
	      "\"stackFrames\":{", o);
	for (size_t i = 0; i < st.stacks.n && !err; i++) {
		uint64_t nd = st.keys[st.stacks.key[i]];

		fputs(i ? ",\n\"" : "\n\"", o);
		json_put_u64(o, i + 1);
		fputs("\":{\"name\":", o);
		json_put_str(o, st.names.s[nd >> 32]);
		fputs(",\"category\":", o);
		json_put_str(o, st.dsos.s[(uint32_t)nd]);
		if (st.stacks.parent[i] != CONV_NONE)
		{
			fputs(",\"parent\":\"", o);
			json_put_u64(o, st.stacks.parent[i] + 1);
			fputc('"', o);
		}
		fputc('}', o);
	}
	fputs("}}\n", o);
	if (!c->quiet && !err && !ferror(c->out))
		conv_summary(c, "wrote %zu thread%s (%zu stack frames, %zu on-CPU slices) to %s",
			nt, nt == 1 ? "" : "s", st.stacks.n, slices, c->out_name);
	ch_release(&st);
	for (size_t i = 0; sp && i < nt; i++)
		free(sp[i].v);
	free(sp);
	conv_threads_free(th, nt);
	if (err) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	return EXIT_OK;
}
