/* --to chrome: Chrome's trace-event JSON (the JSON Object Format that
 * Perfetto's UI and about:tracing load): process_name and thread_name
 * metadata events, one "P" (sample) event per sample pointing at its
 * stack in "stackFrames" (a tree of id -> name, category: the DSO,
 * parent), and, where the file has PERF_RECORD_SWITCH records (perf
 * record --switch-events, or -a), one "X" slice per stretch a thread ran
 * on a CPU.  Times in microseconds from the first sample. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "convert_tables.h"
#include "json_out.h"

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

	fprintf(o, "%" PRIu64 ".%03" PRIu64, d / 1000, d % 1000);
}

static void ch_meta(FILE *o, const char *what, int32_t pid, int32_t tid, const char *name)
{
	fprintf(o, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%" PRId32 ",\"tid\":%" PRId32
		",\"args\":{\"name\":", what, pid, tid);
	json_put_str(o, name);
	fputs("}},\n", o);
}

/* The samples of one thread; -ENOMEM */
static int ch_samples(const struct conv *c, FILE *o, struct ch_state *st,
		      const struct conv_thread *th, uint64_t t0)
{
	size_t ns;
	const struct pev_profile_sample *s = pev_profile_samples(c->prof, &ns);

	for (size_t i = 0; i < th->n; i++) {
		const struct pev_profile_sample *x = &s[th->idx[i]];
		const uint32_t *ids;
		size_t n = conv_frames(c, x, &ids);
		uint32_t node = CONV_NONE;

		for (size_t j = n; j-- > 0;) {
			uint32_t k = ch_key(c, st, ids[j]);

			node = k == CONV_NONE ? k : conv_tree_add(&st->stacks, node, k);
			if (node == CONV_NONE)
				return -ENOMEM;
		}
		fputs("{\"ph\":\"P\",\"name\":", o);
		json_put_str(o, conv_event_name(c, x->event));
		fprintf(o, ",\"cat\":\"sample\",\"pid\":%" PRId32 ",\"tid\":%" PRId32 ",\"ts\":",
			x->pid, x->tid);
		put_us(o, x->time, t0);
		if (node != CONV_NONE)	/* none: a chain perf drops whole */
			fprintf(o, ",\"sf\":\"%" PRIu32 "\"", node + 1);
		fprintf(o, ",\"args\":{\"weight\":%" PRIu64 ",\"cpu\":%" PRId32 "}},\n",
			conv_value_of(c, x), x->cpu);
	}
	return 0;
}

static int by_tid(const void *a, const void *b)
{
	const struct conv_thread *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* On-CPU slices from the switch records of the threads shown; the number
 * written, or -errno from the reader. */
static long ch_switches(struct conv *c, FILE *o, const struct conv_thread *th, size_t nt,
			uint64_t t0)
{
	struct conv_thread *sorted = malloc((nt ? nt : 1) * sizeof(*sorted));
	uint64_t *in = calloc(nt ? nt : 1, sizeof(*in));	/* switch-in time, 0: out */
	struct pev_data_event ev;
	long written = 0;
	int r;

	if (!sorted || !in) {
		free(sorted);
		free(in);
		return -ENOMEM;
	}
	memcpy(sorted, th, nt * sizeof(*th));
	qsort(sorted, nt, sizeof(*sorted), by_tid);
	if (pev_data_is_pipe(c->data) || pev_data_rewind(c->data) < 0) {
		free(sorted);
		free(in);
		return 0;	/* a pipe cannot be read twice: samples only */
	}
	while ((r = pev_data_next_ordered(c->data, &ev)) > 0) {
		const struct pev_record *rec = &ev.rec;
		struct conv_thread key;

		if ((rec->type != PERF_RECORD_SWITCH && rec->type != PERF_RECORD_SWITCH_CPU_WIDE) ||
		    ev.decode_error || !rec->has_sample_id ||
		    !(rec->sample_id.fields & PERF_SAMPLE_TIME) || !(rec->sample_id.fields & PERF_SAMPLE_TID))
			continue;
		key.tid = (int32_t)rec->sample_id.tid;
		const struct conv_thread *t = bsearch(&key, sorted, nt, sizeof(*sorted), by_tid);

		if (!t)
			continue;
		size_t i = (size_t)(t - sorted);
		uint64_t now = rec->sample_id.time;

		if (!rec->u.context_switch.out) {
			in[i] = now ? now : 1;
			continue;
		}
		if (!in[i] || now < in[i])
			continue;
		fprintf(o, "{\"ph\":\"X\",\"name\":\"on-cpu\",\"cat\":\"sched\",\"pid\":%" PRId32
			",\"tid\":%" PRId32 ",\"ts\":", t->pid, t->tid);
		put_us(o, in[i], t0);
		fputs(",\"dur\":", o);
		put_us(o, now, in[i]);
		if (rec->sample_id.fields & PERF_SAMPLE_CPU)
			fprintf(o, ",\"args\":{\"cpu\":%" PRIu32 ",\"preempted\":%s}", rec->sample_id.cpu,
				rec->u.context_switch.preempt ? "true" : "false");
		fputs("},\n", o);
		in[i] = 0;
		written++;
	}
	free(sorted);
	free(in);
	return r < 0 ? r : written;
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
	size_t nt = 0;
	struct conv_thread *th = conv_threads(c, &nt);
	struct ch_state st;
	FILE *o = c->out;
	uint64_t t0, t1;
	long slices = 0;
	int err = 0;

	if (!th && errno == ENOMEM) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	memset(&st, 0, sizeof(st));
	conv_time_span(th, nt, &t0, &t1);
	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"exporter\":\"perfev\",\"input\":", o);
	json_put_str(o, c->input);
	fputs("},\"traceEvents\":[\n", o);
	for (size_t i = 0; i < nt; i++) {
		if (!i || th[i].pid != th[i - 1].pid)
			ch_meta(o, "process_name", th[i].pid, th[i].pid, th[i].process);
		ch_meta(o, "thread_name", th[i].pid, th[i].tid, th[i].comm);
	}
	for (size_t i = 0; i < nt && !err; i++)
		err = ch_samples(c, o, &st, &th[i], t0);
	if (!err) {
		slices = ch_switches(c, o, th, nt, t0);
		if (slices < 0) {
			err = (int)slices;
			if (err != -ENOMEM) {
				cli_error("'%s' is damaged: %s; it may be truncated, record it again",
					  c->input, pev_data_error(c->data));
				ch_release(&st);
				conv_threads_free(th, nt);
				return EXIT_ERROR;
			}
		}
	}
	/* an ending event without a comma after it */
	fputs("{\"ph\":\"M\",\"name\":\"trace_end\",\"pid\":0,\"tid\":0,\"args\":{}}\n],"
	      "\"stackFrames\":{", o);
	for (size_t i = 0; i < st.stacks.n && !err; i++) {
		uint64_t nd = st.keys[st.stacks.key[i]];

		fprintf(o, i ? ",\n\"%zu\":{\"name\":" : "\n\"%zu\":{\"name\":", i + 1);
		json_put_str(o, st.names.s[nd >> 32]);
		fputs(",\"category\":", o);
		json_put_str(o, st.dsos.s[(uint32_t)nd]);
		if (st.stacks.parent[i] != CONV_NONE)
			fprintf(o, ",\"parent\":\"%" PRIu32 "\"", st.stacks.parent[i] + 1);
		fputc('}', o);
	}
	fputs("}}\n", o);
	if (!c->quiet && !err)
		fprintf(stderr, "perfev: %zu threads, %zu stack frames, %ld on-CPU slices written to '%s'\n",
			nt, st.stacks.n, slices, c->out_name);
	ch_release(&st);
	conv_threads_free(th, nt);
	if (err) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	return EXIT_OK;
}
