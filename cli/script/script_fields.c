// SPDX-License-Identifier: GPL-2.0-only
/* perfev script: -F field selection and per-event output settings,
 * following perf script's defaults per event type. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "common/cli.h"
#include "script/script.h"

#define NTYPES 7	/* PERF_TYPE_HARDWARE..BREAKPOINT, then "other" */
#define TYPE_OTHER 6
#define TYPE_SYNTH 7	/* perf's PERF_TYPE_SYNTH events (Intel PT & co) */
#define PEV_TYPE_SYNTH 0x80000000u

/* perf 6.1's names, in its order (its error message lists them so). */
static const struct {
	const char *name;
	uint64_t bit;
} field_names[] = {
	{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID },
	{ "time", F_TIME }, { "cpu", F_CPU }, { "event", F_EVNAME },
	{ "trace", F_TRACE }, { "ip", F_IP }, { "sym", F_SYM },
	{ "dso", F_DSO }, { "addr", F_ADDR }, { "symoff", F_SYMOFFSET },
	{ "srcline", F_SRCLINE }, { "period", F_PERIOD }, { "iregs", F_IREGS },
	{ "uregs", F_UREGS }, { "brstack", F_BRSTACK },
	{ "brstacksym", F_BRSTACKSYM }, { "flags", F_FLAGS },
	{ "data_src", F_DATA_SRC }, { "weight", F_WEIGHT },
	{ "bpf-output", F_BPF_OUTPUT }, { "brstackinsn", F_BRSTACKINSN },
	{ "brstackinsnlen", F_BRSTACKINSNLEN }, { "brstackoff", F_BRSTACKOFF },
	{ "callindent", F_CALLINDENT }, { "insn", F_INSN },
	{ "insnlen", F_INSNLEN }, { "synth", F_SYNTH },
	{ "phys_addr", F_PHYS_ADDR }, { "metric", F_METRIC }, { "misc", F_MISC },
	{ "srccode", F_SRCCODE }, { "ipc", F_IPC }, { "tod", F_TOD },
	{ "data_page_size", F_DATA_PAGE_SIZE },
	{ "code_page_size", F_CODE_PAGE_SIZE }, { "ins_lat", F_INS_LAT },
	{ "cgroup", F_CGROUP },
};
#define NR_FIELD_NAMES (sizeof(field_names) / sizeof(field_names[0]))

void script_field_values(FILE *out)
{
	for (size_t i = 0; i < NR_FIELD_NAMES; i++)
		fprintf(out, "%s\n", field_names[i].name);
}

static const struct {
	const char *name;
	int slot;
} type_names[] = {
	{ "hw", PERF_TYPE_HARDWARE }, { "sw", PERF_TYPE_SOFTWARE },
	{ "trace", PERF_TYPE_TRACEPOINT }, { "raw", PERF_TYPE_RAW },
	{ "break", PERF_TYPE_BREAKPOINT }, { "synth", TYPE_SYNTH },
};

#define BASIC (F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_IP | F_SYM | \
	       F_SYMOFFSET | F_DSO | F_PERIOD)

static uint64_t default_fields(int slot)
{
	switch (slot) {
	case PERF_TYPE_TRACEPOINT:
		return F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_TRACE;
	case PERF_TYPE_SOFTWARE:
		return BASIC | F_BPF_OUTPUT;
	case PERF_TYPE_RAW:
		return BASIC | F_ADDR | F_DATA_SRC | F_WEIGHT | F_PHYS_ADDR |
		       F_DATA_PAGE_SIZE | F_CODE_PAGE_SIZE | F_INS_LAT;
	case TYPE_SYNTH:
		return (BASIC & ~F_PERIOD) | F_SYNTH;
	default:
		return BASIC;
	}
}

static int type_slot(uint32_t type)
{
	if (type == PEV_TYPE_SYNTH)
		return TYPE_SYNTH;
	return type < PERF_TYPE_MAX ? (int)type : TYPE_OTHER;
}

/* perf 6.1's invalid_fields: 'trace' is a tracepoint's, 'bpf-output' a
 * software or tracepoint event's.  A list for every type ignores them
 * for the other types (with a warning, as perf); a list for one type
 * that names one is refused. */
static uint64_t invalid_fields(int slot)
{
	uint64_t bad = 0;

	if (slot != PERF_TYPE_TRACEPOINT)
		bad |= F_TRACE;
	if (slot != PERF_TYPE_TRACEPOINT && slot != PERF_TYPE_SOFTWARE)
		bad |= F_BPF_OUTPUT;
	return bad;
}

static uint64_t lookup_field(const char *tok)
{
	for (size_t i = 0; i < NR_FIELD_NAMES; i++)
		if (!strcmp(tok, field_names[i].name))
			return field_names[i].bit;
	return 0;
}

static void unknown_field(const char *tok)
{
	char list[1024];
	size_t n = 0;

	list[0] = 0;
	for (size_t i = 0; i < NR_FIELD_NAMES && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      i ? "," : "", field_names[i].name);
	cli_error("unknown field '%s' in -F; use [type:]field,... with the types "
		  "hw,sw,trace,raw,break,synth and the fields %s", tok, list);
}

/* Whether a non-empty comma list has an empty field ("a,,b", "a,",
 * ",a", a lone "+" or "-"). */
static bool has_empty_field(const char *list)
{
	if (!*list)
		return false;
	for (const char *f = list; ; ) {
		size_t n = strcspn(f, ",");

		if (n == 0 || (n == 1 && (*f == '+' || *f == '-')))
			return true;
		if (!f[n])
			return false;
		f += n + 1;
	}
}

/* perf's word for the events of a type slot in its messages */
static const char *type_word(int slot)
{
	static const char *const w[] = { "hardware", "software", "tracepoint", "hardware-cache",
					 "raw", "breakpoint", "other", "synth" };

	return slot >= 0 && slot <= TYPE_SYNTH ? w[slot] : "other";
}

/* "[type:][+-]f,[+-]f,..." */
int script_fields_parse(struct script *s, const char *spec)
{
	char *copy = strdup(spec), *list = copy, *save = NULL;
	int only = -1;
	enum { SET, ADD, DEL, NONE } mode = NONE;
	uint64_t set = 0, add = 0, del = 0;

	if (!copy)
		return -ENOMEM;
	char *colon = strchr(list, ':');

	if (colon) {
		*colon = 0;
		for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
			if (!strcmp(list, type_names[i].name))
				only = type_names[i].slot;
		if (only < 0) {
			cli_error("unknown event type '%s' in -F; use hw, sw, trace, raw, break or synth", list);
			free(copy);
			return -EINVAL;
		}
		list = colon + 1;
	}
	/* perf 6.1 refuses an empty list for every type, but skips empty
	 * fields ("ip,sym,,,"): we refuse those too, a typo is likelier
	 * than a wish.  "type:" alone prints nothing for that type. */
	if (!*list && only < 0) {
		cli_error("-F '%s' gives no field; name at least one (e.g. -F comm,tid,ip,sym)",
			  spec);
		free(copy);
		return -EINVAL;
	}
	if (has_empty_field(list)) {
		cli_error("empty field in -F '%s'; separate the fields with single commas",
			  spec);
		free(copy);
		return -EINVAL;
	}
	if (!*list)
		mode = SET;	/* "type:": no field, that type prints nothing */
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int m = SET;

		if (*tok == '+' || *tok == '-') {
			m = *tok == '+' ? ADD : DEL;
			tok++;
		}
		if ((mode == SET) != (m == SET) && mode != NONE) {
			cli_error("cannot mix '+field'/'-field' with plain fields in -F '%s'", spec);
			free(copy);
			return -EINVAL;
		}
		mode = m;
		uint64_t bit = lookup_field(tok);

		if (!bit) {
			unknown_field(tok);
			free(copy);
			return -EINVAL;
		}
		if (bit == F_FLAGS) {
			/* One switch for all types, as in perf. */
			s->print_flags = m != DEL;
			continue;
		}
		if (m == SET)
			set |= bit;
		else if (m == ADD)
			add |= bit;
		else
			del |= bit;
	}
	/* perf 6.1 keeps the defaults when the list has a '+' or '-'
	 * anywhere, so "comm,bpf-output" adds comm to them (the name's '-'). */
	if (mode == SET && (strchr(spec, '+') || strchr(spec + (colon ? colon - copy + 1 : 0), '-'))) {
		mode = ADD;
		add = set;
	}
	free(copy);
	if (only >= 0 && ((set | add | del) & invalid_fields(only))) {
		uint64_t bad = (set | add | del) & invalid_fields(only);

		cli_error("'%s' not valid for %s events in -F '%s'; %s", bad & F_TRACE ? "trace" : "bpf-output",
			  type_word(only), spec, bad & F_TRACE ? "it is a tracepoint field (trace:...)" :
			  "it is a field of software and tracepoint events");
		return -EINVAL;
	}
	if (only < 0 && ((set | add) & F_TRACE))
		cli_warn("'trace' not valid for hardware, software, hardware-cache, raw, breakpoint "
			 "and synth events. Ignoring it for them.");
	if (only < 0 && ((set | add) & F_BPF_OUTPUT))
		cli_warn("'bpf-output' not valid for hardware, hardware-cache, raw, breakpoint and "
			 "synth events. Ignoring it for them.");
	/* A second plain list replaces the first: perf says so. */
	if (mode == SET && only < 0 && s->fsel_any)
		cli_warn("-F '%s' overrides the previous -F for all events", spec);
	if (mode == SET && only >= 0 &&
	    (s->fsel[only].user_set || s->fsel[only].add || s->fsel[only].del))
		cli_warn("-F '%s' overrides the previous -F for '%.*s' events", spec,
			 (int)strcspn(spec, ":"), spec);
	for (int t = 0; t <= TYPE_SYNTH; t++) {
		uint64_t ok = ~invalid_fields(t);

		if (only >= 0 && t != only)
			continue;
		if (mode == SET) {
			s->fsel[t].user_set = true;
			s->fsel[t].wildcard = only < 0;
			s->fsel[t].set = set & ok;
		} else if (s->fsel[t].user_set) {
			/* "-F comm -F +time": perf changes the list set before */
			s->fsel[t].set = (s->fsel[t].set | (add & ok)) & ~del;
		} else {
			s->fsel[t].add |= add & ok;
			s->fsel[t].del |= del;
			s->fsel[t].add &= ~del;
		}
	}
	s->fsel_any = true;
	return 0;
}

/* The sample bit a field needs; 0 when it needs none. */
static uint64_t field_needs(uint64_t f)
{
	if (f == F_TID || f == F_PID)
		return PERF_SAMPLE_TID;
	if (f == F_TIME)
		return PERF_SAMPLE_TIME;
	if (f == F_CPU)
		return PERF_SAMPLE_CPU;
	if (f == F_IP)
		return PERF_SAMPLE_IP;
	if (f == F_ADDR)
		return PERF_SAMPLE_ADDR;
	if (f == F_TRACE)
		return PERF_SAMPLE_RAW;
	if (f == F_WEIGHT)
		return PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	if (f == F_INS_LAT)
		return PERF_SAMPLE_WEIGHT_STRUCT;
	if (f == F_DATA_SRC)
		return PERF_SAMPLE_DATA_SRC;
	if (f == F_PHYS_ADDR)
		return PERF_SAMPLE_PHYS_ADDR;
	if (f == F_CGROUP)
		return PERF_SAMPLE_CGROUP;
	if (f == F_IREGS)
		return PERF_SAMPLE_REGS_INTR;
	if (f == F_UREGS)
		return PERF_SAMPLE_REGS_USER;
	if (f == F_DATA_PAGE_SIZE)
		return PERF_SAMPLE_DATA_PAGE_SIZE;
	if (f == F_CODE_PAGE_SIZE)
		return PERF_SAMPLE_CODE_PAGE_SIZE;
	return 0;
}

/* The name of the first field of `which` the attr cannot give (with
 * `fields` the whole selection), or NULL. */
static const char *missing_of(const struct perf_event_attr *attr,
			      uint64_t fields, uint64_t which)
{
	for (size_t i = 0; i < NR_FIELD_NAMES; i++) {
		uint64_t f = field_names[i].bit;
		uint64_t need = field_needs(f);

		if (!(which & f))
			continue;
		if (need && !(attr->sample_type & need))
			return field_names[i].name;
		if ((f == F_SYM || f == F_DSO || f == F_SYMOFFSET) &&
		    !(attr->sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR)))
			return field_names[i].name;
		if (f == F_TRACE && attr->type != PERF_TYPE_TRACEPOINT)
			return field_names[i].name;
		/* The source line is the sample ip's. */
		if ((f == F_SRCLINE || f == F_SRCCODE) && !(fields & F_IP))
			return field_names[i].name;
		/* Basic blocks between branches need every branch. */
		if ((f == F_BRSTACKINSN || f == F_BRSTACKINSNLEN) &&
		    !(attr->branch_sample_type & PERF_SAMPLE_BRANCH_ANY))
			return field_names[i].name;
	}
	return NULL;
}

const char *script_field_missing(const struct perf_event_attr *attr, uint64_t fields)
{
	return missing_of(attr, fields, fields);
}

static uint64_t drop_missing(const struct perf_event_attr *attr, uint64_t fields)
{
	const char *miss;

	while ((miss = script_field_missing(attr, fields)))
		fields &= ~lookup_field(miss);
	return fields;
}

static void name_from_attr(struct script *s, struct script_event *ev)
{
	const struct perf_event_attr *a = ev->attr;
	const struct pev_symbolic_event *se;

	if (a->type == PERF_TYPE_TRACEPOINT && ev->tp) {
		snprintf(ev->name_buf, sizeof(ev->name_buf), "%s:%s",
			 ev->tp->system, ev->tp->name);
		ev->name = ev->name_buf;
		return;
	}
	for (size_t i = 0; (se = pev_symbolic_event(i)); i++) {
		if (se->type == a->type && se->config == a->config) {
			snprintf(ev->name_buf, sizeof(ev->name_buf), "%s",
				 se->alias ? se->alias : se->name);
			ev->name = ev->name_buf;
			return;
		}
	}
	if (a->type == PERF_TYPE_SOFTWARE && a->config == 9)
		snprintf(ev->name_buf, sizeof(ev->name_buf), "dummy");
	else if (a->type == PERF_TYPE_RAW)
		snprintf(ev->name_buf, sizeof(ev->name_buf), "raw 0x%llx",
			 (unsigned long long)a->config);
	else
		snprintf(ev->name_buf, sizeof(ev->name_buf), "unknown attr type: %u",
			 a->type);
	(void)s;
	ev->name = ev->name_buf;
}

void script_event_refresh_name(struct script *s, size_t idx)
{
	struct script_event *ev = &s->events[idx];
	const char *n = pev_data_event_name(s->data, idx);

	free(ev->owned);
	ev->owned = NULL;
	/* A copy: the reader may replace its names (pipe EVENT_UPDATE). */
	if (n && (ev->owned = strdup(n))) {
		ev->name = ev->owned;
		return;
	}
	name_from_attr(s, ev);
}

/* perf 6.1 (perf_session__check_output_opt): when a tracepoint event of
 * the file has call chains, tracepoints print ip, sym, symoff and dso
 * too, unless -G or -F set their fields. */
static bool tracepoint_chains(const struct script *s)
{
	if (s->opt.hide_callchain || s->fsel[PERF_TYPE_TRACEPOINT].user_set)
		return false;
	for (size_t i = 0; i < pev_decoder_nr_attrs(s->dec); i++) {
		const struct perf_event_attr *a = pev_decoder_attr(s->dec, i);

		if (a->type == PERF_TYPE_TRACEPOINT && (a->sample_type & PERF_SAMPLE_CALLCHAIN))
			return true;
	}
	return false;
}

/* Fills the settings of event idx (once).  0, or -EINVAL when -F asks
 * for a field the event's samples do not have (message printed). */
int script_event_setup(struct script *s, size_t idx)
{
	if (idx >= s->nr_events) {
		size_t n = pev_decoder_nr_attrs(s->dec);
		struct script_event *v = realloc(s->events, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + s->nr_events, 0, (n - s->nr_events) * sizeof(*v));
		/* Names in name_buf moved with the array. */
		for (size_t i = 0; i < s->nr_events; i++)
			if (v[i].ready && !v[i].owned)
				v[i].name = v[i].name_buf;
		s->events = v;
		s->nr_events = n;
		if (idx >= n)
			return -ENOENT;
	}
	struct script_event *ev = &s->events[idx];

	if (ev->ready)
		return 0;
	ev->attr = pev_decoder_attr(s->dec, idx);
	if (!ev->attr)
		return -ENOENT;
	if (ev->attr->type == PERF_TYPE_TRACEPOINT)
		ev->tp = script_trace_find(s, ev->attr);
	script_event_refresh_name(s, idx);
	int slot = type_slot(ev->attr->type);
	uint64_t f = default_fields(slot);

	if (slot == PERF_TYPE_TRACEPOINT && tracepoint_chains(s))
		f |= F_IP | F_SYM | F_SYMOFFSET | F_DSO;

	/* Defaults the samples cannot fill are dropped quietly; what -F
	 * asks for must be there (perf refuses to run otherwise).  The dummy
	 * event of side-band records is not checked. */
	uint64_t asked = s->fsel[slot].user_set ? s->fsel[slot].set : s->fsel[slot].add;
	bool dummy = ev->attr->type == PERF_TYPE_SOFTWARE &&
		     ev->attr->config == PERF_COUNT_SW_DUMMY;

	if (s->fsel[slot].user_set)
		f = s->fsel[slot].set;
	else
		f = drop_missing(ev->attr, f & ~s->fsel[slot].del) | s->fsel[slot].add;
	const char *miss = missing_of(ev->attr, f, f & asked);

	if (miss && !dummy) {
		if (!strcmp(miss, "srcline") || !strcmp(miss, "srccode"))
			cli_error("cannot print '%s' for '%s' without 'ip'; add ip to -F",
				  miss, ev->name);
		else if (!strncmp(miss, "brstackinsn", 11))
			cli_error("cannot print '%s' for '%s': its branch stack does not have "
				  "every branch; record with -b (or -j any)", miss, ev->name);
		else
			cli_error("samples for '%s' do not have the data for field '%s'; "
				  "record with it or leave it out of -F", ev->name, miss);
		return -EINVAL;
	}
	f = drop_missing(ev->attr, f);
	/* perf ignores bpf-output for all but software (and tracepoint)
	 * events; it prints only for the bpf-output event itself. */
	if (slot != PERF_TYPE_SOFTWARE && slot != PERF_TYPE_TRACEPOINT)
		f &= ~F_BPF_OUTPUT;
	ev->fields = f;
	ev->callchain = (ev->attr->sample_type & PERF_SAMPLE_CALLCHAIN) &&
			!s->opt.hide_callchain;
	ev->ready = true;
	return 0;
}
