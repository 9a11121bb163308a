/* perfev script: tracepoint samples printed through libtraceevent, with
 * the formats from the file's tracing data (HEADER_TRACING_DATA), else
 * from this machine's tracefs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "script.h"

struct cursor {
	const uint8_t *p, *end;
	bool little;	/* the file's byte order */
	bool bad;
};

static const uint8_t *take(struct cursor *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return NULL;
	}
	const uint8_t *r = c->p;

	c->p += n;
	return r;
}

static uint64_t take_uint(struct cursor *c, size_t n)
{
	const uint8_t *p = take(c, n);
	uint64_t v = 0;

	if (!p)
		return 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = c->little ? n - 1 - i : i;	/* MSB first */

		v = v << 8 | p[k];
	}
	return v;
}

static const char *take_str(struct cursor *c)
{
	const uint8_t *nul = c->bad ? NULL : memchr(c->p, 0, (size_t)(c->end - c->p));

	if (!nul) {
		c->bad = true;
		return NULL;
	}
	const char *r = (const char *)c->p;

	c->p = nul + 1;
	return r;
}

/* perf's tracing data: magic, version, endianness, long and page size,
 * header_page, header_event, ftrace formats, then per system the event
 * formats; kallsyms and printk strings follow (not needed here). */
static int parse_tracing_data(struct tep_handle *tep, const void *buf, size_t len)
{
	struct cursor c = { buf, (const uint8_t *)buf + len, true, false };
	const uint8_t *magic = take(&c, 10);
	int nr = 0;

	if (!magic || memcmp(magic, "\027\010\104tracing", 10))
		return -EBADMSG;
	if (!take_str(&c))
		return -EBADMSG;
	const uint8_t *e = take(&c, 1);
	const uint8_t *ls = take(&c, 1);

	if (!e || !ls)
		return -EBADMSG;
	bool big = *e != 0;

	c.little = !big;
	tep_set_file_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, *ls);
	tep_set_page_size(tep, (int)take_uint(&c, 4));
	const char *hp = take_str(&c);

	if (!hp || strcmp(hp, "header_page"))
		return -EBADMSG;
	take(&c, take_uint(&c, 8));
	const char *he = take_str(&c);

	if (!he || strcmp(he, "header_event"))
		return -EBADMSG;
	take(&c, take_uint(&c, 8));
	uint64_t nftrace = take_uint(&c, 4);

	for (uint64_t i = 0; i < nftrace && !c.bad; i++)
		take(&c, take_uint(&c, 8));
	uint64_t nsys = take_uint(&c, 4);

	for (uint64_t i = 0; i < nsys && !c.bad; i++) {
		const char *sys = take_str(&c);
		uint64_t nev = take_uint(&c, 4);

		for (uint64_t j = 0; j < nev && !c.bad && sys; j++) {
			uint64_t sz = take_uint(&c, 8);
			const uint8_t *fmt = take(&c, sz);

			if (fmt && tep_parse_event(tep, (const char *)fmt, sz, sys) == 0)
				nr++;
		}
	}
	return c.bad && !nr ? -EBADMSG : nr;
}

int script_trace_setup(struct script *s)
{
	const struct pev_data_features *f;

	if (s->tep_tried)
		return s->tep ? 0 : -ENOENT;
	s->tep_tried = true;
	s->tep = tep_alloc();
	if (!s->tep)
		return -ENOMEM;
	/* perf loads libtraceevent's plugins: they change how some events
	 * (sched_switch, ...) print. */
	s->tep_plugins = tep_load_plugins(s->tep);
	f = pev_data_features(s->data);
	if (f && f->tracing_data && f->tracing_data_size)
		parse_tracing_data(s->tep, f->tracing_data, f->tracing_data_size);
	return 0;
}

struct tep_event *script_trace_find(struct script *s, const struct perf_event_attr *attr)
{
	struct tep_event *e;

	if (script_trace_setup(s) < 0)
		return NULL;
	e = tep_find_event(s->tep, (int)attr->config);
	if (e)
		return e;
	/* Not in the file: this machine's format, by the event's name. */
	size_t idx;

	for (idx = 0; idx < pev_decoder_nr_attrs(s->dec); idx++)
		if (pev_decoder_attr(s->dec, idx) == attr)
			break;
	const char *name = pev_data_event_name(s->data, idx);
	char tracefs[256], sys[128];
	const char *colon = name ? strchr(name, ':') : NULL;

	if (!colon || (size_t)(colon - name) >= sizeof(sys) ||
	    pev_tracefs_find(tracefs, sizeof(tracefs), false) < 0)
		return NULL;
	memcpy(sys, name, (size_t)(colon - name));
	sys[colon - name] = 0;
	char ev[128];

	snprintf(ev, sizeof(ev), "%s", colon + 1);
	ev[strcspn(ev, ":/")] = 0;	/* drop modifiers */
	e = pev_tp_format_load_into(s->tep, tracefs, sys, ev);
	return e && e->id == (int)attr->config ? e : NULL;
}

void script_trace_print(struct script *s, struct script_event *ev,
			const struct pev_sample *smp)
{
	struct tep_record r;
	struct trace_seq seq;

	memset(&r, 0, sizeof(r));
	r.ts = smp->time;
	r.cpu = (int)smp->cpu;
	r.data = (void *)smp->raw.data;
	r.size = (int)smp->raw.size;
	trace_seq_init(&seq);
	tep_print_event(s->tep, &seq, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	so_mem(&s->out, seq.buffer, seq.len);
	trace_seq_destroy(&seq);
	(void)ev;
}

void script_trace_release(struct script *s)
{
	if (s->tep) {
		if (s->tep_plugins)
			tep_unload_plugins(s->tep_plugins, s->tep);
		tep_free(s->tep);
	}
	s->tep = NULL;
}
