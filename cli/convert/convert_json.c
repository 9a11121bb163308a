// SPDX-License-Identifier: GPL-2.0-only
/* --to json: every record of the file as one JSON object a line, in time
 * order, as `perf data convert --to-json` names things: a first line with
 * perf's "linux-perf-json-version" and "headers", then one line per
 * record, "type" first ("sample", "mmap2", "comm", ... the record's
 * name in lower case).  Samples carry perf's fields (timestamp, pid, tid,
 * cpu, comm, callchain of {ip, symbol, dso}) built from the profile's
 * frames (as perfev report's), plus the event's name and the period.
 *
 * A CONV_STREAM writer: it reads the file itself through conv_load and
 * writes each record as it comes. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/cli.h"
#include "convert/convert.h"

struct js {
	bool header_done;
	uint64_t samples, records;
	/* a pipe's leading user records, held until the header is known
	 * (its features come in those records) */
	char *held;
	size_t held_len;
	FILE *hold;
};

/* s as a JSON string: perf's escapes, and bytes that are not UTF-8 as
 * U+FFFD (perf copies them, which makes the line invalid JSON) */
static void jstr_n(FILE *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;

	fputc('"', o);
	while (p < e) {
		unsigned char ch = *p;

		if (ch == '"' || ch == '\\') {
			fputc('\\', o);
			fputc(ch, o);
			p++;
		} else if (ch < 0x20) {
			const char *esc = ch == '\b' ? "\\b" : ch == '\f' ? "\\f" : ch == '\n' ? "\\n" :
					  ch == '\r' ? "\\r" : ch == '\t' ? "\\t" : NULL;

			if (esc)
				fputs(esc, o);
			else
				fprintf(o, "\\u%04x", ch);
			p++;
		} else if (ch < 0x80) {
			fputc(ch, o);
			p++;
		} else {
			/* one well-formed UTF-8 sequence, else U+FFFD */
			size_t len = ch >= 0xf0 && ch < 0xf5 ? 4 : ch >= 0xe0 ? 3 : ch >= 0xc2 ? 2 : 0;
			size_t k = 1;

			if (len == 3 && ch >= 0xf0)
				len = 0;
			for (; len && k < len && p + k < e && (p[k] & 0xc0) == 0x80; k++)
				;
			if (len && k == len) {
				fwrite(p, 1, len, o);
				p += len;
			} else {
				fputs("\\ufffd", o);
				p++;
			}
		}
	}
	fputc('"', o);
}

static void jstr(FILE *o, const char *s)
{
	if (s)
		jstr_n(o, s, strlen(s));
	else
		fputs("null", o);
}

/* ,"key":"value" */
static void kstr(FILE *o, const char *k, const char *v)
{
	fprintf(o, ",\"%s\":", k);
	jstr(o, v);
}

static void kstr_n(FILE *o, const char *k, const char *v, size_t max)
{
	fprintf(o, ",\"%s\":", k);
	jstr_n(o, v, strnlen(v, max));
}

static void ku64(FILE *o, const char *k, uint64_t v)
{
	fprintf(o, ",\"%s\":%" PRIu64, k, v);
}

static void ki64(FILE *o, const char *k, int64_t v)
{
	fprintf(o, ",\"%s\":%" PRId64, k, v);
}

static void khex(FILE *o, const char *k, uint64_t v)
{
	fprintf(o, ",\"%s\":\"0x%" PRIx64 "\"", k, v);
}

static void kbool(FILE *o, const char *k, bool v)
{
	fprintf(o, ",\"%s\":%s", k, v ? "true" : "false");
}

static void kbytes(FILE *o, const char *k, const uint8_t *b, size_t n)
{
	fprintf(o, ",\"%s\":\"", k);
	for (size_t i = 0; i < n; i++)
		fprintf(o, "%02x", b[i]);
	fputc('"', o);
}

/* The first line: perf's header object. */
static void write_header(struct conv *c)
{
	FILE *o = c->out;
	const struct pev_data_features *f = pev_data_features(c->data);
	struct stat st;

	fputs("{\"type\":\"header\",\"linux-perf-json-version\":1,\"headers\":{\"header-version\":1", o);
	if (strcmp(c->input, "-") && !stat(c->input, &st)) {
		char buf[64];
		struct tm tm;

		strftime(buf, sizeof(buf), "%FT%TZ", gmtime_r(&st.st_mtime, &tm));
		kstr(o, "captured-on", buf);
	}
	if (!pev_data_is_pipe(c->data)) {
		ku64(o, "data-offset", pev_data_data_offset(c->data));
		ku64(o, "data-size", pev_data_data_size(c->data));
		ku64(o, "feat-offset", pev_data_data_offset(c->data) + pev_data_data_size(c->data));
	}
	if (f) {
		if (f->hostname)
			kstr(o, "hostname", f->hostname);
		if (f->osrelease)
			kstr(o, "os-release", f->osrelease);
		if (f->arch)
			kstr(o, "arch", f->arch);
		if (f->cpudesc)
			kstr(o, "cpu-desc", f->cpudesc);
		if (f->cpuid)
			kstr(o, "cpuid", f->cpuid);
		if (f->nr_cpus_avail) {
			ku64(o, "nrcpus-online", f->nr_cpus_online);
			ku64(o, "nrcpus-avail", f->nr_cpus_avail);
		}
		if (f->clock_data.version) {
			ku64(o, "clockid", f->clock_data.clockid);
			ku64(o, "clock-time", f->clock_data.clockid_ns);
			ku64(o, "real-time", f->clock_data.tod_ns);
		}
		if (f->version)
			kstr(o, "perf-version", f->version);
		if (f->nr_cmdline) {
			fputs(",\"cmdline\":[", o);
			for (uint32_t i = 0; i < f->nr_cmdline; i++) {
				if (i)
					fputc(',', o);
				jstr(o, f->cmdline[i]);
			}
			fputc(']', o);
		}
	}
	fputs("}}\n", o);
}

static void frame_obj(FILE *o, const struct pev_profile_frame *f, bool first)
{
	if (!first)
		fputc(',', o);
	fprintf(o, "{\"ip\":\"0x%" PRIx64 "\"", f->ip);
	if (f->inline_name) {
		kstr(o, "symbol", f->inline_name);
		kbool(o, "inlined", true);
	} else if (f->sym) {
		kstr(o, "symbol", f->sym->name);
	}
	if (f->dso)
		kstr(o, "dso", pev_profile_dso_short(f->dso));
	fputc('}', o);
}

/* A chain the profile dropped whole (an invalid context marker: perf
 * report and script show none): its addresses as perf's JSON lists them,
 * markers left out, each resolved in the last valid context. */
static void raw_chain(struct conv *c, FILE *o, const struct pev_profile_sample *s,
		      const struct pev_callchain *cc)
{
	uint8_t mode = PERF_RECORD_MISC_USER;
	bool first = true;

	for (uint64_t i = 0; i < cc->nr; i++) {
		uint64_t ip = cc->ips[i];
		struct pev_addr_loc loc;

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			if (ip == (uint64_t)PERF_CONTEXT_HV)
				mode = PERF_RECORD_MISC_HYPERVISOR;
			else if (ip == (uint64_t)PERF_CONTEXT_KERNEL)
				mode = PERF_RECORD_MISC_KERNEL;
			else if (ip == (uint64_t)PERF_CONTEXT_USER)
				mode = PERF_RECORD_MISC_USER;
			continue;
		}
		fprintf(o, "%s{\"ip\":\"0x%" PRIx64 "\"", first ? "" : ",", ip);
		first = false;
		if (!pev_machine_resolve(c->machine, (uint32_t)s->pid, ip, mode, &loc) && loc.sym) {
			kstr(o, "symbol", loc.sym->name);
			if (loc.dso)
				kstr(o, "dso", pev_profile_dso_short(loc.dso));
		}
		fputc('}', o);
	}
}

static void write_sample(struct conv *c, FILE *o, const struct pev_record *rec,
			 const struct pev_profile_sample *s)
{
	const uint32_t *ids;
	size_t n = conv_stack(c, s, &ids);

	fprintf(o, "{\"type\":\"sample\",\"timestamp\":%" PRIu64, s->time);
	ki64(o, "pid", s->pid);
	ki64(o, "tid", s->tid);
	if (s->cpu >= 0)
		ki64(o, "cpu", s->cpu);
	kstr(o, "comm", s->comm ? s->comm : ":-1");
	kstr(o, "event", conv_event_name(c, s->event));
	ku64(o, "period", rec->u.sample.period);
	if (rec->u.sample.fields & PERF_SAMPLE_ADDR)
		khex(o, "addr", rec->u.sample.addr);
	fputs(",\"callchain\":[", o);
	if (s->chain == UINT32_MAX && c->has_callchain && rec->u.sample.callchain.nr) {
		raw_chain(c, o, s, &rec->u.sample.callchain);
		n = 0;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pev_profile_frame *f = pev_profile_frame(c->prof, ids[i]);

		if (f)
			frame_obj(o, f, !i);
	}
	fputs("]}\n", o);
}

/* The fields of a record other than a sample, after its "type". */
static void record_fields(FILE *o, const struct pev_record *r)
{
	switch (r->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		const struct pev_record_mmap *m = &r->u.mmap;

		ki64(o, "pid", (int32_t)m->pid);
		ki64(o, "tid", (int32_t)m->tid);
		khex(o, "start", m->addr);
		khex(o, "len", m->len);
		khex(o, "pgoff", m->pgoff);
		if (r->type == PERF_RECORD_MMAP2) {
			if (m->has_build_id) {
				kbytes(o, "build-id", m->build_id, m->build_id_size);
			} else {
				ku64(o, "maj", m->maj);
				ku64(o, "min", m->min);
				ku64(o, "ino", m->ino);
				ku64(o, "ino-generation", m->ino_generation);
			}
			ku64(o, "prot", m->prot);
			ku64(o, "flags", m->flags);
		}
		kstr(o, "filename", m->filename);
		break;
	}
	case PERF_RECORD_COMM:
		ki64(o, "pid", (int32_t)r->u.comm.pid);
		ki64(o, "tid", (int32_t)r->u.comm.tid);
		kstr(o, "comm", r->u.comm.comm);
		kbool(o, "exec", r->u.comm.exec);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		ki64(o, "pid", (int32_t)r->u.fork.pid);
		ki64(o, "ppid", (int32_t)r->u.fork.ppid);
		ki64(o, "tid", (int32_t)r->u.fork.tid);
		ki64(o, "ptid", (int32_t)r->u.fork.ptid);
		ku64(o, "time", r->u.fork.time);
		break;
	case PERF_RECORD_LOST:
		ku64(o, "id", r->u.lost.id);
		ku64(o, "lost", r->u.lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		ku64(o, "lost", r->u.lost_samples.lost);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		ku64(o, "time", r->u.throttle.time);
		ku64(o, "id", r->u.throttle.id);
		ku64(o, "stream-id", r->u.throttle.stream_id);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		kbool(o, "out", r->u.context_switch.out);
		kbool(o, "preempt", r->u.context_switch.preempt);
		if (r->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			ku64(o, r->u.context_switch.out ? "next-pid" : "prev-pid",
			     r->u.context_switch.next_prev_pid);
			ku64(o, r->u.context_switch.out ? "next-tid" : "prev-tid",
			     r->u.context_switch.next_prev_tid);
		}
		break;
	case PERF_RECORD_NAMESPACES:
		ki64(o, "pid", (int32_t)r->u.namespaces.pid);
		ki64(o, "tid", (int32_t)r->u.namespaces.tid);
		fputs(",\"namespaces\":[", o);
		for (uint64_t i = 0; i < r->u.namespaces.nr; i++)
			fprintf(o, "%s{\"dev\":%" PRIu64 ",\"ino\":%" PRIu64 "}", i ? "," : "",
				r->u.namespaces.links[i].dev, r->u.namespaces.links[i].ino);
		fputc(']', o);
		break;
	case PERF_RECORD_KSYMBOL:
		khex(o, "addr", r->u.ksymbol.addr);
		ku64(o, "len", r->u.ksymbol.len);
		ku64(o, "ksym-type", r->u.ksymbol.ksym_type);
		ku64(o, "flags", r->u.ksymbol.flags);
		kstr(o, "name", r->u.ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		ku64(o, "bpf-type", r->u.bpf_event.type);
		ku64(o, "flags", r->u.bpf_event.flags);
		ku64(o, "id", r->u.bpf_event.id);
		kbytes(o, "tag", r->u.bpf_event.tag, 8);
		break;
	case PERF_RECORD_CGROUP:
		ku64(o, "id", r->u.cgroup.id);
		kstr(o, "path", r->u.cgroup.path);
		break;
	case PERF_RECORD_TEXT_POKE:
		khex(o, "addr", r->u.text_poke.addr);
		kbytes(o, "old", r->u.text_poke.old_bytes, r->u.text_poke.old_len);
		kbytes(o, "new", r->u.text_poke.new_bytes, r->u.text_poke.new_len);
		break;
	case PERF_RECORD_ITRACE_START:
		ki64(o, "pid", (int32_t)r->u.itrace_start.pid);
		ki64(o, "tid", (int32_t)r->u.itrace_start.tid);
		break;
	case PERF_RECORD_AUX:
		ku64(o, "aux-offset", r->u.aux.aux_offset);
		ku64(o, "aux-size", r->u.aux.aux_size);
		ku64(o, "flags", r->u.aux.flags);
		break;
	case PEV_RECORD_HEADER_BUILD_ID:
		ki64(o, "pid", r->u.build_id.pid);
		kbytes(o, "build-id", r->u.build_id.build_id,
		       r->u.build_id.size <= 20 ? r->u.build_id.size : 20);
		kstr(o, "filename", r->u.build_id.filename);
		break;
	case PEV_RECORD_HEADER_EVENT_TYPE:
		ku64(o, "event-id", r->u.event_type.event_id);
		kstr_n(o, "name", r->u.event_type.name, 64);
		break;
	case PEV_RECORD_HEADER_ATTR:
		ku64(o, "attr-type", r->u.header_attr.attr.attr.type);
		ku64(o, "config", r->u.header_attr.attr.attr.config);
		ku64(o, "nr-ids", r->u.header_attr.nr_ids);
		break;
	case PEV_RECORD_HEADER_FEATURE: {
		const char *name = pev_feat_name((unsigned)r->u.feature.feat_id);

		ku64(o, "feat-id", r->u.feature.feat_id);
		if (name)
			kstr(o, "feature", name);
		break;
	}
	case PEV_RECORD_TIME_CONV:
		ku64(o, "time-shift", r->u.time_conv.time_shift);
		ku64(o, "time-mult", r->u.time_conv.time_mult);
		ku64(o, "time-zero", r->u.time_conv.time_zero);
		break;
	case PEV_RECORD_EVENT_UPDATE:
		ku64(o, "update-type", r->u.event_update.type);
		ku64(o, "id", r->u.event_update.id);
		if (r->u.event_update.str)
			kstr(o, "str", r->u.event_update.str);
		break;
	case PEV_RECORD_HEADER_TRACING_DATA:
		ku64(o, "data-size", r->u.tracing_data.size);
		break;
	case PEV_RECORD_AUXTRACE_ERROR:
		ku64(o, "error-type", r->u.auxtrace_error.type);
		ku64(o, "code", r->u.auxtrace_error.code);
		khex(o, "ip", r->u.auxtrace_error.ip);
		kstr_n(o, "msg", r->u.auxtrace_error.msg, 64);
		break;
	default:
		break;
	}
}

/* The header line, then what was held before it. */
static void flush_held(struct conv *c, struct js *j)
{
	write_header(c);
	j->header_done = true;
	if (!j->hold)
		return;
	fclose(j->hold);
	j->hold = NULL;
	fwrite(j->held, 1, j->held_len, c->out);
	free(j->held);
	j->held = NULL;
}

static int json_record(struct conv *c, const struct pev_data_event *ev,
		       const struct pev_profile_sample *s)
{
	struct js *j = c->writer_state;
	const struct pev_record *r = &ev->rec;
	FILE *o;

	if (!j->header_done) {
		if (pev_data_is_pipe(c->data) && r->type >= PEV_RECORD_USER_TYPE_START) {
			if (!j->hold && !(j->hold = open_memstream(&j->held, &j->held_len)))
				return -ENOMEM;
		} else {
			flush_held(c, j);
		}
	}
	o = j->hold ? j->hold : c->out;
	if (r->type == PEV_RECORD_FINISHED_ROUND || r->type == PEV_RECORD_FINISHED_INIT)
		return 0;	/* the reader's bookkeeping, no content */
	if (r->type == PERF_RECORD_SAMPLE && !ev->decode_error) {
		/* outside --time or -C, or rejected by a filter, or another
		 * event than --event's */
		if (!s || s->filtered ||
		    (c->event && strcmp(conv_event_name(c, s->event), c->event)))
			return 0;
		write_sample(c, o, r, s);
		j->samples++;
		j->records++;
		return 0;
	}
	const char *name = pev_record_type_name(r->type);
	char lower[64];
	size_t k = 0;

	if (name)
		for (; name[k] && k + 1 < sizeof(lower); k++)
			lower[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] - 'A' + 'a' : name[k]);
	lower[k] = 0;
	fputs("{\"type\":", o);
	if (name)
		jstr(o, lower);
	else
		fprintf(o, "\"type-%" PRIu32 "\"", r->type);
	if (r->has_sample_id && r->type != PERF_RECORD_SAMPLE) {
		if (r->sample_id.fields & PERF_SAMPLE_TIME)
			ku64(o, "timestamp", r->sample_id.time);
		if (r->sample_id.fields & PERF_SAMPLE_CPU)
			ku64(o, "cpu", r->sample_id.cpu);
	}
	ku64(o, "size", r->size);
	if (ev->decode_error) {
		fputs(",\"error\":", o);
		char msg[256];

		snprintf(msg, sizeof(msg), "%s: %s", r->error.field ? r->error.field : "record",
			 r->error.reason ? r->error.reason : "cannot be decoded");
		jstr(o, msg);
	} else {
		record_fields(o, r);
	}
	fputs("}\n", o);
	j->records++;
	return 0;
}

int conv_write_json(struct conv *c)
{
	struct js j = { 0 };
	int ret;

	c->writer_state = &j;
	c->each_record = json_record;
	ret = conv_load(c);
	if (ret == EXIT_OK && !j.header_done)
		flush_held(c, &j);
	if (j.hold)
		fclose(j.hold);
	free(j.held);
	if (ret != EXIT_OK)
		return ret;
	if (!c->quiet)
		conv_summary(c, "wrote %" PRIu64 " records (%" PRIu64 " samples) to %s",
			j.records, j.samples, c->out_name);
	return EXIT_OK;
}
