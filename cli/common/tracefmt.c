// SPDX-License-Identifier: GPL-2.0-only
/* Tracepoint formats and output through libtraceevent (tracefmt.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include <perfev/tracefs.h>

#include "common/tracefmt.h"

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

int tracefmt_setup(struct tracefmt *t)
{
	const struct pev_data_features *f;

	if (t->tried)
		return t->tep ? 0 : -ENOENT;
	t->tried = true;
	t->tep = tep_alloc();
	if (!t->tep)
		return -ENOMEM;
	/* perf loads libtraceevent's plugins: they change how some events
	 * (sched_switch, ...) print. */
	t->plugins = tep_load_plugins(t->tep);
	f = pev_data_features(t->data);
	if (f && f->tracing_data && f->tracing_data_size)
		parse_tracing_data(t->tep, f->tracing_data, f->tracing_data_size);
	return 0;
}

struct tep_event *tracefmt_find(struct tracefmt *t, const struct perf_event_attr *attr,
				size_t idx)
{
	struct tep_event *e;

	if (attr->type != PERF_TYPE_TRACEPOINT || tracefmt_setup(t) < 0)
		return NULL;
	e = tep_find_event(t->tep, (int)attr->config);
	if (e)
		return e;
	/* Not in the file: this machine's format, by the event's name. */
	const char *name = pev_data_event_name(t->data, idx);
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
	e = pev_tp_format_load_into(t->tep, tracefs, sys, ev);
	return e && e->id == (int)attr->config ? e : NULL;
}

void tracefmt_info(struct tracefmt *t, struct trace_seq *seq, const void *raw,
		   size_t size, unsigned long long ts, int cpu)
{
	struct tep_record r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.cpu = cpu;
	r.data = (void *)raw;
	r.size = (int)size;
	tep_print_event(t->tep, seq, &r, "%s", TEP_PRINT_INFO);
}

/* libtraceevent's is_printable_array: text up to the first NUL */
static bool printable(const char *p, unsigned len)
{
	for (unsigned i = 0; i < len && p[i]; i++)
		if (!isprint((unsigned char)p[i]) && !isspace((unsigned char)p[i]))
			return false;
	return true;
}

/* One field as perf 6.1's own libtraceevent printed it (the system's
 * newer library follows the print fmt's hints instead): strings, arrays
 * as "ARRAY[..]" bytes, pointers and unsigned longs in hex, other
 * numbers in decimal by their size and sign. */
static void print_field(struct trace_seq *s, const unsigned char *data, size_t size,
			struct tep_format_field *f)
{
	struct tep_handle *tep = f->event->tep;
	unsigned long long v;

	if (f->flags & TEP_FIELD_IS_ARRAY) {
		unsigned off = (unsigned)f->offset, len = (unsigned)f->size;

		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			v = tep_read_number(tep, data + off, len);
			off = (unsigned)v & 0xffff;
			len = (unsigned)(v >> 16) & 0xffff;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += (unsigned)(f->offset + f->size);
		}
		if (off > size || len > size - off)	/* a lying record */
			len = off > size ? 0 : (unsigned)(size - off);
		if ((f->flags & TEP_FIELD_IS_STRING) && printable((const char *)data + off, len)) {
			trace_seq_printf(s, "%.*s", (int)strnlen((const char *)data + off, len),
					 (const char *)data + off);
			return;
		}
		trace_seq_puts(s, "ARRAY[");
		for (unsigned i = 0; i < len; i++)
			trace_seq_printf(s, "%s%02x", i ? ", " : "", data[off + i]);
		trace_seq_putc(s, ']');
		/* perf's library then treats the field as an array for good */
		f->flags &= ~(unsigned long)TEP_FIELD_IS_STRING;
		return;
	}
	if ((size_t)f->offset + (size_t)f->size > size)
		return;
	v = tep_read_number(tep, data + f->offset, f->size);
	if (f->flags & TEP_FIELD_IS_POINTER) {
		trace_seq_printf(s, "0x%llx", v);
	} else if (f->flags & TEP_FIELD_IS_SIGNED) {
		switch (f->size) {
		case 4:
			if (f->flags & TEP_FIELD_IS_LONG)
				trace_seq_printf(s, "0x%x", (int)v);
			else
				trace_seq_printf(s, "%d", (int)v);
			break;
		case 2:
			trace_seq_printf(s, "%2d", (short)v);
			break;
		case 1:
			trace_seq_printf(s, "%1d", (signed char)v);
			break;
		default:
			trace_seq_printf(s, "%lld", (long long)v);
		}
	} else if (f->flags & TEP_FIELD_IS_LONG) {
		trace_seq_printf(s, "0x%llx", v);
	} else {
		trace_seq_printf(s, "%llu", v);
	}
}

void tracefmt_fields(struct trace_seq *seq, const void *raw, size_t size,
		     struct tep_event *ev)
{
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		trace_seq_printf(seq, " %s=", f->name);
		print_field(seq, raw, size, f);
	}
}

void tracefmt_release(struct tracefmt *t)
{
	if (t->tep) {
		if (t->plugins)
			tep_unload_plugins(t->plugins, t->tep);
		tep_free(t->tep);
	}
	t->tep = NULL;
	t->plugins = NULL;
}
