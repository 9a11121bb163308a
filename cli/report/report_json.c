// SPDX-License-Identifier: GPL-2.0-only
/* perfev report -j/--json: the table as one JSON document (schema in the
 * perfev-report(1), JSON OUTPUT): per event its totals and entries, each with the values of the
 * sort keys in use, raw where perf's column is a rendering (addresses as
 * "0x..." strings, sizes in bytes, full DSO paths). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "report/report.h"

static void json_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20)
			fprintf(o, "\\u%04x", c);
		else
			fputc(c, o);
	}
	fputc('"', o);
}

/* ,"name":"s" or ,"name":null */
static void json_kv(FILE *o, const char *name, const char *s)
{
	fprintf(o, ",\"%s\":", name);
	if (s)
		json_str(o, s);
	else
		fputs("null", o);
}

static const char *dso_of(const struct pev_profile_frame *f)
{
	return f && f->dso ? pev_dso_name(f->dso) : NULL;
}

static const char *sym_of(const struct pev_profile_frame *f)
{
	return f && f->dso && f->sym ? f->sym->name : NULL;
}

/* Branch mode: the entry's branch ends (as first seen) and flags. */
static void json_end(FILE *o, const char *name, const struct pev_profile_frame *f)
{
	fprintf(o, ",\"%s\":{\"dso\":", name);
	if (f && f->dso)
		json_str(o, pev_dso_name(f->dso));
	else
		fputs("null", o);
	fputs(",\"symbol\":", o);
	if (f && f->sym)
		json_str(o, f->sym->name);
	else
		fputs("null", o);
	fprintf(o, ",\"addr\":\"%#" PRIx64 "\"}", f ? f->ip : 0);
}

static void json_branch(struct report *r, FILE *o, const struct pev_profile_entry *e)
{
	uint64_t fl = e->branch_flags;
	double ipc, cov;

	json_end(o, "from", e->from);
	json_end(o, "to", e->to);
	fprintf(o, ",\"mispred\":%s,\"predicted\":%s,\"in_tx\":%s,\"abort\":%s,\"cycles\":%u",
		fl & 1 ? "true" : "false", fl & 2 ? "true" : "false",
		fl & 4 ? "true" : "false", fl & 8 ? "true" : "false",
		(unsigned)(fl >> 4 & 0xffff));
	for (unsigned c = 0; c < r->nkeys; c++)
		if (r->keys[c] == PEV_SORT_SRCLINE_FROM || r->keys[c] == PEV_SORT_SRCLINE_TO) {
			bool from = r->keys[c] == PEV_SORT_SRCLINE_FROM;

			json_kv(o, from ? "srcline_from" : "srcline_to",
				from ? e->srcline_from : e->srcline_to);
		}
	/* the IPC column (a sort naming "symbol"): null without a symbol */
	for (unsigned c = 0; c < r->ncols; c++)
		if (r->cols[c].kind == C_IPC_LBR) {
			if (pev_profile_entry_ipc(r->prof, e, &ipc, &cov) == 0)
				fprintf(o, ",\"ipc\":%.4f,\"ipc_coverage\":%.4f", ipc, cov);
			else
				fputs(",\"ipc\":null,\"ipc_coverage\":null", o);
		}
}

/* The memory keys: data_src parts as perf names them, addresses raw. */
static void json_mem_key(FILE *o, const struct pev_profile_entry *e, enum pev_sort_key k)
{
	static const struct { enum pev_sort_key key; const char *name; enum pev_data_src_part part; }
	parts[] = {
		{ PEV_SORT_MEM, "mem", PEV_DATA_SRC_LVL },
		{ PEV_SORT_SNOOP, "snoop", PEV_DATA_SRC_SNOOP },
		{ PEV_SORT_TLB, "tlb", PEV_DATA_SRC_TLB },
		{ PEV_SORT_LOCKED, "locked", PEV_DATA_SRC_LOCK },
		{ PEV_SORT_BLOCKED, "blocked", PEV_DATA_SRC_BLK },
	};
	const struct pev_profile_frame *d = e->daddr_frame;
	char b[128];

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (parts[i].key != k)
			continue;
		pev_data_src_format_part(e->data_src, parts[i].part, b, sizeof(b));
		json_kv(o, parts[i].name, b + strspn(b, " "));
		return;
	}
	switch (k) {
	case PEV_SORT_SYM_DADDR:
		fprintf(o, ",\"daddr\":\"%#" PRIx64 "\"", e->daddr);
		json_kv(o, "daddr_symbol", sym_of(d));
		if (sym_of(d))
			fprintf(o, ",\"daddr_offset\":%" PRIu64, e->daddr_sym_off);
		break;
	case PEV_SORT_DSO_DADDR:
		json_kv(o, "daddr_dso", dso_of(d));
		break;
	case PEV_SORT_DCACHELINE:	/* the line perf shows: map-relative when mapped */
		fprintf(o, ",\"dcacheline\":\"%#" PRIx64 "\",\"dcacheline_shared\":%s",
			(d && d->dso ? d->addr : e->daddr) & ~(uint64_t)63,
			e->daddr_shared ? "true" : "false");
		break;
	case PEV_SORT_PHYS_DADDR:
		fprintf(o, ",\"phys_addr\":\"%#" PRIx64 "\"", e->phys_addr);
		break;
	case PEV_SORT_DATA_PAGE_SIZE:
		fprintf(o, ",\"data_page_size\":%" PRIu64, e->data_page_size);
		break;
	case PEV_SORT_SYM_IADDR:
		fprintf(o, ",\"iaddr\":\"%#" PRIx64 "\"", e->iaddr);
		json_kv(o, "iaddr_symbol", sym_of(e->frame));
		break;
	default:
		break;
	}
}

static void json_key(struct report *r, FILE *o, const struct pev_profile_entry *e,
		     enum pev_sort_key k)
{
	const struct pev_profile_frame *f = e->frame;

	switch (k) {
	case PEV_SORT_COMM:
		json_kv(o, "comm", e->comm);
		break;
	case PEV_SORT_PID:
		fprintf(o, ",\"tid\":%d", e->tid);
		break;
	case PEV_SORT_DSO:
		json_kv(o, "dso", dso_of(f));
		break;
	case PEV_SORT_SYM:
		json_kv(o, "symbol", f && f->sym ? (f->inline_name ? f->inline_name : f->sym->name) :
			NULL);
		fprintf(o, ",\"ip\":\"%#" PRIx64 "\"", f && f->sym ? f->sym->start : e->ip);
		break;
	case PEV_SORT_CPU:
		fprintf(o, ",\"cpu\":%d", e->cpu);
		break;
	case PEV_SORT_SOCKET:
		fprintf(o, ",\"socket\":%d", e->socket);
		break;
	case PEV_SORT_SRCLINE:
		json_kv(o, "srcline", e->srcline ? e->srcline : "");
		break;
	case PEV_SORT_SRCFILE:
		json_kv(o, "srcfile", e->srcfile ? e->srcfile : "");
		break;
	case PEV_SORT_TIME:
		fprintf(o, ",\"time\":%" PRIu64, e->time);
		break;
	case PEV_SORT_SYM_SIZE:	/* null: perf's "unknown" */
		if (f && f->sym)
			fprintf(o, ",\"symbol_size\":%" PRIu64, e->sym_size);
		else
			fputs(",\"symbol_size\":null", o);
		break;
	case PEV_SORT_DSO_SIZE:
		if (f && f->dso)
			fprintf(o, ",\"dso_size\":%" PRIu64, e->dso_size);
		else
			fputs(",\"dso_size\":null", o);
		break;
	case PEV_SORT_WEIGHT:	/* perf: the first sample's weight times the samples */
		fprintf(o, ",\"weight\":%" PRIu64, e->weight * e->nr_samples);
		break;
	case PEV_SORT_LOCAL_WEIGHT:
		fprintf(o, ",\"local_weight\":%" PRIu64, e->weight);
		break;
	case PEV_SORT_INS_LAT:
		fprintf(o, ",\"ins_lat\":%" PRIu64, e->ins_lat * e->nr_samples);
		break;
	case PEV_SORT_LOCAL_INS_LAT:
		fprintf(o, ",\"local_ins_lat\":%" PRIu64, e->ins_lat);
		break;
	case PEV_SORT_CGROUP_ID:
		fprintf(o, ",\"cgroup_id\":{\"dev\":%" PRIu64 ",\"ino\":%" PRIu64 "}",
			e->cgroup_dev, e->cgroup_ino);
		break;
	case PEV_SORT_CGROUP:
		json_kv(o, "cgroup", report_cgroup_name(r, e));
		break;
	case PEV_SORT_CODE_PAGE_SIZE:	/* null: perf's N/A */
		if (e->code_page_size)
			fprintf(o, ",\"code_page_size\":%" PRIu64, e->code_page_size);
		else
			fputs(",\"code_page_size\":null", o);
		break;
	case PEV_SORT_TRACE:
		json_kv(o, "trace", e->trace);
		break;
	case PEV_SORT_PARENT:
		json_kv(o, "parent", e->parent);
		break;
	default:
		if (report_is_mem_key(k))
			json_mem_key(o, e, k);
		break;
	}
}

void report_json(struct report *r)
{
	FILE *o = r->out;

	fprintf(o, "{\"lost_samples\":%" PRIu64 ",\"children\":%s,\"events\":[",
		pev_profile_lost_samples(r->prof), r->cumulate ? "true" : "false");
	for (size_t ev = 0, nev = 0; ev < pev_profile_nr_events(r->prof); ev++) {
		const struct pev_profile_stats *st = pev_profile_stats(r->prof, ev);
		uint64_t total = st->total_period + (r->relative ? 0 : st->filtered_period);
		uint64_t nr = st->nr_samples + (r->relative ? 0 : st->nr_filtered);

		if (!nr)
			continue;
		fprintf(o, "%s{\"event\":", nev++ ? "," : "");
		json_str(o, pev_data_event_name(r->data, ev));
		fprintf(o, ",\"samples\":%" PRIu64 ",\"event_count\":%" PRIu64 ",\"entries\":[",
			nr, total);
		for (size_t i = 0, k = 0; i < pev_profile_nr_entries(r->prof, ev); i++) {
			const struct pev_profile_entry *e = pev_profile_entry(r->prof, ev, i);
			uint64_t v = r->cumulate ? e->acc_period : e->period;

			if (report_hidden(r, e))
				continue;
			if (r->percent_limit > 0 && total &&
			    (float)(100.0 * (double)v / (double)total) < (float)r->percent_limit)
				continue;
			fprintf(o, "%s{\"overhead\":%.4f,\"period\":%" PRIu64 ",\"samples\":%" PRIu64,
				k++ ? "," : "", total ? 100.0 * (double)e->period / (double)total : 0.0,
				e->period, e->nr_samples);
			if (r->cumulate)
				fprintf(o, ",\"children\":%.4f,\"children_period\":%" PRIu64,
					total ? 100.0 * (double)e->acc_period / (double)total : 0.0,
					e->acc_period);
			for (unsigned c = 0; c < r->nkeys; c++)
				json_key(r, o, e, r->keys[c]);
			if (r->branch_mode)
				json_branch(r, o, e);
			fputc('}', o);
		}
		fputs("]}", o);
	}
	fputs("]}\n", o);
}
