// SPDX-License-Identifier: GPL-2.0-only
/* perfev report: the --stdio table as perf 6.1 prints it (builtin-report's
 * tty browser, ui/stdio/hist.c): the header comment lines, per event the
 * sample and period totals, the column headers sized to the data, one
 * line per entry (right-trimmed) with its call graph, and the tip. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/attr_name.h"
#include "common/cli.h"
#include "report/report.h"

/* perf's evsel__name for a file without event names (EVENT_DESC lost
 * with the feature sections of a file cut short): the event's name from
 * its attr (cli_attr_name). */
const char *report_event_name(struct report *r, size_t i, char *buf, size_t sz)
{
	const char *n = pev_data_event_name(r->data, i);

	if (n)
		return n;
	n = cli_attr_name(pev_decoder_attr(pev_data_decoder(r->data), i), buf, sz);
	return n ? n : "unknown";
}

static const char *entry_comm_now(struct report *r, const struct pev_profile_entry *e)
{
	return pev_profile_entry_thread_comm(r->prof, e);
}

/* perf's cgroup cell: "N/A" for no cgroup, "unknown" for an id no
 * CGROUP record named. */
const char *report_cgroup_name(struct report *r, const struct pev_profile_entry *e)
{
	const char *n;

	if (!e->cgroup)
		return "N/A";
	n = pev_profile_cgroup_name(r->prof, e->cgroup);
	return n ? n : "unknown";
}

/* perf's hists__calc_col_len for the branch keys: a symbol's name + 4,
 * an unresolved end 22 (and its DSO column at least 16). */
static int branch_width(struct report *r, const struct pev_profile_entry *e,
			enum pev_sort_key k)
{
	bool to = k == PEV_SORT_DSO_TO || k == PEV_SORT_SYM_TO || k == PEV_SORT_ADDR_TO;
	const struct pev_profile_frame *f = to ? e->to : e->from;
	char jit[32];

	switch (k) {
	case PEV_SORT_SYM_FROM:
	case PEV_SORT_SYM_TO:
		return f && f->sym ? (int)strlen(f->sym->name) + 4 : 16 + 4 + 2;
	case PEV_SORT_ADDR_FROM:
	case PEV_SORT_ADDR_TO:
		return f && f->sym ? 0 : 16 + 4 + 2;
	case PEV_SORT_DSO_FROM:
	case PEV_SORT_DSO_TO:
		if (f && f->sym && f->dso)
			return (int)strlen(pev_profile_dso_shown(f->dso, jit, sizeof(jit)));
		return r->fopts.dso ? 0 : 16;
	case PEV_SORT_SRCLINE_FROM:
		return e->srcline_from ? (int)strlen(e->srcline_from) : 0;
	case PEV_SORT_SRCLINE_TO:
		return e->srcline_to ? (int)strlen(e->srcline_to) : 0;
	default:
		return 0;
	}
}

int report_key_len(struct report *r, const struct pev_profile_entry *e,
		   enum pev_sort_key k)
{
	const struct pev_profile_frame *f = e->frame;
	char jit[32];
	int l = 0;

	switch (k) {
	case PEV_SORT_COMM:
		l = (int)strlen(entry_comm_now(r, e));
		break;
	case PEV_SORT_PID:
		l = (int)strlen(entry_comm_now(r, e)) + 8;
		break;
	case PEV_SORT_DSO:
		if (f && f->dso)
			l = (int)strlen(pev_profile_dso_shown(f->dso, jit, sizeof(jit)));
		if (f && !f->sym && !r->fopts.dso && l < 16)
			l = 16;
		break;
	case PEV_SORT_SYM:
		l = f && f->sym ? (int)strlen(f->sym->name) + 4 : 16 + 4 + 2;
		if (f && f->inline_name)
			l = (int)strlen(f->inline_name) + 4;
		break;
	case PEV_SORT_CPU: l = 3; break;
	case PEV_SORT_SOCKET: l = 6; break;
	case PEV_SORT_TIME: l = 12; break;
	case PEV_SORT_WEIGHT:
	case PEV_SORT_LOCAL_WEIGHT: l = 12; break;
	case PEV_SORT_INS_LAT:
	case PEV_SORT_LOCAL_INS_LAT: l = 13; break;
	case PEV_SORT_CGROUP_ID: l = 20; break;
	case PEV_SORT_CGROUP:
		l = e->cgroup ? (int)strlen(report_cgroup_name(r, e)) : 0;
		break;
	case PEV_SORT_CODE_PAGE_SIZE: l = 6; break;
	case PEV_SORT_PARENT:
		l = e->parent ? (int)strlen(e->parent) : 0;
		break;
	case PEV_SORT_TRACE:
		l = e->trace && e->trace_compared ? (int)strlen(e->trace) : 0;
		break;
	case PEV_SORT_SRCFILE:
		l = e->srcfile ? (int)strlen(e->srcfile) : 0;
		break;
	case PEV_SORT_SRCLINE:
		l = e->srcline ? (int)strlen(e->srcline) : 0;
		break;
	default:
		l = report_is_mem_key(k) ? report_mem_width(r, e, k) : branch_width(r, e, k);
		break;
	}
	return l;
}

bool report_hidden(const struct report *r, const struct pev_profile_entry *e)
{
	/* perf's hists__filter_by_symbol: an entry without a symbol too */
	if (e->filtered)
		return true;
	if (!r->symbol_filter)
		return false;
	if (!e->frame || !e->frame->sym)
		return true;
	/* an inline entry's symbol is the inlined function's */
	return !strstr(e->frame->inline_name ? e->frame->inline_name : e->frame->sym->name,
		       r->symbol_filter);
}

static int key_width(struct report *r, size_t ev, enum pev_sort_key k,
		     const char *header)
{
	int w = (int)strlen(header);
	size_t n = pev_profile_nr_entries(r->prof, ev);

	for (size_t i = 0; i < n; i++) {
		const struct pev_profile_entry *e = pev_profile_entry(r->prof, ev, i);
		int l;

		if (report_hidden(r, e))
			continue;
		l = report_key_len(r, e, k);
		if (l > w)
			w = l;
	}
	return w;
}

static void compute_widths(struct report *r, size_t ev)
{
	for (unsigned i = 0; i < r->ncols; i++) {
		struct col *c = &r->cols[i];

		switch (c->kind) {
		case C_SAMPLES:
		case C_PERIOD:
			c->width = 12;
			break;
		case C_KEY:
			c->width = key_width(r, ev, c->key, c->name);
			break;
		default:
			c->width = 8;
			break;
		}
		if (c->width < (int)strlen(c->name))
			c->width = (int)strlen(c->name);
	}
}

void report_print_headers(struct report *r)
{
	FILE *o = r->out;

	bool first = true;

	fputs("# ", o);
	for (unsigned i = 0; i < r->ncols; i++) {
		const struct col *c = &r->cols[i];

		if (c->elided)
			continue;
		if (!first)
			fputs(r->field_sep ? r->field_sep : "  ", o);
		first = false;
		if (c->kind == C_KEY || c->kind == C_IPC_NULL || c->kind == C_IPC_LBR)
			fprintf(o, "%-*.*s", c->width, c->width, c->name);
		else
			fprintf(o, "%*s", c->width, c->name);
	}
	/* -t: no dotted line */
	if (r->field_sep) {
		fputc('\n', o);
		return;
	}
	fputs("\n# ", o);
	first = true;
	for (unsigned i = 0; i < r->ncols; i++) {
		if (r->cols[i].elided)
			continue;
		if (!first)
			fputs("  ", o);
		first = false;
		for (int j = 0; j < r->cols[i].width; j++)
			fputc('.', o);
	}
	fputs("\n#\n", o);
}

/* perf's _hist_entry__sym_snprintf: "[l] name", or the address */
static int sym_cell(char *b, size_t sz, int w, char lv, const struct pev_profile_frame *f,
		    uint64_t addr)
{
	if (f && f->sym && f->dso)
		return snprintf(b, sz, "[%c] %.*s%s", lv, w > 4 ? w - 4 : 0,
				f->inline_name ? f->inline_name : f->sym->name,
				f->inline_name ? " (inlined)" : "");
	return snprintf(b, sz, "[%c] %-#.*llx", lv, 16, (unsigned long long)addr);
}

/* The branch keys' cells (perf's hist_entry__*_from_snprintf ...). */
static int branch_cell(struct report *r, const struct pev_profile_entry *e,
		       enum pev_sort_key k, int w, char *b, size_t sz)
{
	bool to = k == PEV_SORT_DSO_TO || k == PEV_SORT_SYM_TO || k == PEV_SORT_ADDR_TO;
	const struct pev_profile_frame *f = to ? e->to : e->from;
	uint64_t fl = e->branch_flags;
	char jit[32];

	switch (k) {
	case PEV_SORT_DSO_FROM:
	case PEV_SORT_DSO_TO:
		return snprintf(b, sz, "%-*.*s", w, w,
				f && f->dso ? pev_profile_dso_shown(f->dso, jit, sizeof(jit)) : "[unknown]");
	case PEV_SORT_SYM_FROM:
	case PEV_SORT_SYM_TO:
		return sym_cell(b, sz, w, f ? f->level : '.', f, f ? f->addr : 0);
	case PEV_SORT_ADDR_FROM:
	case PEV_SORT_ADDR_TO: {	/* perf: the entry's level, +offset */
		char lv = e->level ? e->level : '.';

		if (f && f->sym && f->dso) {
			uint64_t off = to ? e->to_off : e->from_off;
			int n = snprintf(b, sz, "[%c] %.*s", lv, w > 4 ? w - 4 : 0, f->sym->name);

			if (off && n >= 0 && (size_t)n < sz)
				n += snprintf(b + n, sz - (size_t)n, "+0x%llx", (unsigned long long)off);
			return n;
		}
		return snprintf(b, sz, "[%c] %-#.*llx", lv, 16,
				(unsigned long long)(f ? f->addr : 0));
	}
	case PEV_SORT_MISPREDICT:	/* perf keeps the last value in a static */
		if (fl & 2)
			r->mispredict_last = "N";
		else if (fl & 1)
			r->mispredict_last = "Y";
		return snprintf(b, sz, "%-*.*s", w, w,
				r->mispredict_last ? r->mispredict_last : "N/A");
	case PEV_SORT_IN_TX:
		return snprintf(b, sz, "%-*s", w, fl & 4 ? "T" : ".");
	case PEV_SORT_ABORT:
		return snprintf(b, sz, "%-*s", w, fl & 8 ? "A" : ".");
	case PEV_SORT_CYCLES:
		if (!(fl >> 4 & 0xffff))
			return snprintf(b, sz, "%-*s", w, "-");
		return snprintf(b, sz, "%-*hd", w, (short)(fl >> 4 & 0xffff));
	case PEV_SORT_SRCLINE_FROM:
		return snprintf(b, sz, "%-*.*s", w, w, e->srcline_from ? e->srcline_from : "");
	case PEV_SORT_SRCLINE_TO:
		return snprintf(b, sz, "%-*.*s", w, w, e->srcline_to ? e->srcline_to : "");
	default:
		return snprintf(b, sz, "%-*s", w, "");
	}
}

size_t report_key_cell(struct report *r, const struct pev_profile_entry *e,
		       const struct col *c, bool last, char *b, size_t sz)
{
	const struct pev_profile_frame *f = e->frame;
	char jit[32];
	int w = c->width;
	int n = 0;

	switch (c->key) {
	case PEV_SORT_COMM:
		n = snprintf(b, sz, "%-*.*s", w, w, e->comm ? e->comm : "");
		break;
	case PEV_SORT_PID:
		n = snprintf(b, sz, "%7d:%-*.*s", e->tid, w - 8, w - 8, entry_comm_now(r, e));
		break;
	case PEV_SORT_DSO:
		n = snprintf(b, sz, "%-*.*s", w, w,
			     f && f->dso ? pev_profile_dso_shown(f->dso, jit, sizeof(jit)) : "[unknown]");
		break;
	case PEV_SORT_SYM: {
		char lv = e->level ? e->level : '.';

		if (f && f->sym && f->dso)
			n = snprintf(b, sz, "[%c] %.*s%s", lv, w > 4 ? w - 4 : 0,
				     f->inline_name ? f->inline_name : f->sym->name,
				     f->inline_name ? " (inlined)" : "");
		else
			n = snprintf(b, sz, "[%c] %-#.*llx", lv, 16,
				     (unsigned long long)e->ip);
		break;
	}
	case PEV_SORT_CPU:
		n = snprintf(b, sz, "%*.*d", w, w, e->cpu);
		break;
	case PEV_SORT_SOCKET:
		n = snprintf(b, sz, "%*.*d", w, w - 3, e->socket);
		break;
	case PEV_SORT_SRCLINE:
		n = snprintf(b, sz, "%-.*s", w, e->srcline ? e->srcline : "");
		break;
	case PEV_SORT_SRCFILE:
		n = snprintf(b, sz, "%-.*s", w, e->srcfile ? e->srcfile : "");
		break;
	case PEV_SORT_SYM_SIZE:
		if (f && f->sym)
			n = snprintf(b, sz, "%*" PRIu64, w, e->sym_size);
		else
			n = snprintf(b, sz, "%*s", w, "unknown");
		break;
	case PEV_SORT_DSO_SIZE:
		if (f && f->dso)
			n = snprintf(b, sz, "%*" PRIu64, w, e->dso_size);
		else
			n = snprintf(b, sz, "%*s", w, "unknown");
		break;
	case PEV_SORT_TIME:
		n = snprintf(b, sz, "%" PRIu64 ".%06" PRIu64, e->time / 1000000000,
			     e->time % 1000000000 / 1000);
		break;
	case PEV_SORT_WEIGHT:
		n = snprintf(b, sz, "%-*" PRIu64, w, e->weight * e->nr_samples);
		break;
	case PEV_SORT_LOCAL_WEIGHT:
		n = snprintf(b, sz, "%-*" PRIu64, w, e->weight);
		break;
	case PEV_SORT_CGROUP_ID:
		n = snprintf(b, sz, "%" PRIu64 "/0x%" PRIx64, e->cgroup_dev, e->cgroup_ino);
		break;
	case PEV_SORT_INS_LAT:
		n = snprintf(b, sz, "%-*" PRIu64, w, e->ins_lat * e->nr_samples);
		break;
	case PEV_SORT_LOCAL_INS_LAT:
		n = snprintf(b, sz, "%-*" PRIu64, w, e->ins_lat);
		break;
	case PEV_SORT_CGROUP:
		n = snprintf(b, sz, "%s", report_cgroup_name(r, e));
		break;
	case PEV_SORT_PARENT:
		n = snprintf(b, sz, "%-*.*s", w, w, e->parent ? e->parent : "[other]");
		break;
	case PEV_SORT_TRACE:
		n = snprintf(b, sz, "%-.*s", w, e->trace ? e->trace : "N/A");
		break;
	case PEV_SORT_CODE_PAGE_SIZE:
		if (e->code_page_size)
			n = snprintf(b, sz, "%-*" PRIu64 "K", w - 1, e->code_page_size >> 10);
		else
			n = snprintf(b, sz, "%-*s", w, "N/A");
		break;
	default:
		n = report_is_mem_key(c->key) ? report_mem_cell(e, c->key, w, b, sz) :
		    branch_cell(r, e, c->key, w, b, sz);
		break;
	}
	if (n < 0)
		n = 0;
	if ((size_t)n >= sz)
		n = (int)sz - 1;
	/* perf's symbol cell: the name cut at the column width (an inlined
	 * frame's " (inlined)" comes after the cut) */
	if (c->key == PEV_SORT_SYM && n > w &&
	    !(e->frame && e->frame->sym && e->frame->inline_name))
		n = w;
	if ((c->key == PEV_SORT_SYM_FROM || c->key == PEV_SORT_SYM_TO) && n > w)
		n = w;
	/* pad to the column unless it is the last one (perf's
	 * hist_entry__snprintf_alignment) */
	while (!last && n < w && (size_t)n + 1 < sz)
		b[n++] = ' ';
	b[n] = 0;
	return (size_t)n;
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

size_t report_format_entry(struct report *r, const struct pev_profile_entry *e,
			   uint64_t total, bool hpp_only, char *line, size_t linesz)
{
	size_t len = 0;

	unsigned lastcol = 0;

	for (unsigned i = 0; i < r->ncols; i++)
		if (!r->cols[i].elided)
			lastcol = i;
	for (unsigned i = 0; i < r->ncols; i++) {
		const struct col *c = &r->cols[i];
		size_t room = linesz - len;
		int n = 0;

		if (c->elided || (hpp_only && (c->kind == C_KEY || c->kind == C_DROPPED)))
			continue;
		/* -t: the separator between the cells, none before the first */
		if (r->field_sep)
			n = len ? snprintf(line + len, room, "%s", r->field_sep) : 0;
		else
			n = snprintf(line + len, room, "  ");
		len += (size_t)n;
		room -= (size_t)n;
		size_t cell = len;
		double pv = -1;	/* a percentage cell's value */

		switch (c->kind) {
		case C_CHILDREN:	/* perf's hpp__fmt_acc: N/A without children */
			if (!r->cumulate)
				n = snprintf(line + len, room, "%*s", c->width, "N/A");
			else
				n = snprintf(line + len, room, " %*.2f%%", c->width - 2,
					     pv = pct(e->acc_period, total));
			break;
		case C_GUEST_SYS:
			n = snprintf(line + len, room, " %*.2f%%", c->width - 2,
				     pv = pct(e->period_guest_sys, total));
			break;
		case C_GUEST_US:
			n = snprintf(line + len, room, " %*.2f%%", c->width - 2,
				     pv = pct(e->period_guest_us, total));
			break;
		case C_OVERHEAD:
			n = snprintf(line + len, room, " %*.2f%%", c->width - 2,
				     pv = pct(e->period, total));
			break;
		case C_SYS:
			n = snprintf(line + len, room, " %*.2f%%", c->width - 2,
				     pv = pct(e->period_sys, total));
			break;
		case C_US:
			n = snprintf(line + len, room, " %*.2f%%", c->width - 2,
				     pv = pct(e->period_us, total));
			break;
		case C_SAMPLES:
			n = snprintf(line + len, room, " %*" PRIu64, c->width - 1, e->nr_samples);
			break;
		case C_PERIOD:
			n = snprintf(line + len, room, " %*" PRIu64, c->width - 1, e->period);
			break;
		case C_KEY:
			n = (int)report_key_cell(r, e, c, i == lastcol, line + len, room);
			break;
		case C_IPC_NULL:
			n = snprintf(line + len, room, "%-*s", c->width, "-      -");
			break;
		case C_IPC_LBR: {
			double ipc, cov;
			char v[64] = "-";

			if (pev_profile_entry_ipc(r->prof, e, &ipc, &cov) == 0)
				snprintf(v, sizeof(v), "%-5.2f [%5.1f%%]", ipc, cov);
			n = snprintf(line + len, room, "%-*s", c->width, v);
			break;
		}
		case C_DROPPED:
			n = 0;
			break;
		}
		if (n < 0)
			n = 0;
		len += (size_t)n < room ? (size_t)n : room - 1;
		/* a terminal: perf's percent_color_len_snprintf around the
		 * cell (not with -t: perf_hpp__use_color) */
		const char *col = r->color && !r->field_sep && pv >= 0 ?
				  report_percent_color(pv) : NULL;

		if (col && len + 16 < linesz) {
			size_t cl = strlen(col), rl = strlen(REPORT_COLOR_RESET);

			memmove(line + cell + cl, line + cell, len - cell);
			memcpy(line + cell, col, cl);
			memcpy(line + len + cl, REPORT_COLOR_RESET, rl);
			len += cl + rl;
		}
		/* -t: the separator's first character in a key's cell
		 * becomes '.' (perf's repsep_snprintf) */
		if (r->field_sep && *r->field_sep && c->kind == C_KEY)
			for (size_t k = cell; k < len; k++)
				if (line[k] == *r->field_sep)
					line[k] = '.';
		/* -t: a number is one space and its digits, left-aligned in
		 * its column (perf's hpp__fmt with a field separator) */
		if (r->field_sep && c->kind != C_KEY && c->kind != C_IPC_NULL &&
		    c->kind != C_IPC_LBR && c->kind != C_DROPPED) {
			char num[64];
			size_t sp = strspn(line + cell, " ");

			snprintf(num, sizeof(num), " %.*s", (int)(len - cell - sp), line + cell + sp);
			len = cell + (size_t)snprintf(line + cell, linesz - cell, "%-*s",
						      c->width, num);
			if (len >= linesz)
				len = linesz - 1;
		}
	}
	line[len] = 0;
	return len;
}

static void print_entry(struct report *r, const struct pev_profile_entry *e,
			uint64_t total)
{
	char line[8192];

	report_format_entry(r, e, total, false, line, sizeof(line));
	fprintf(r->out, "%s\n", line);
}

/* perf report ends with a random line of perf's tips.txt, "Tip: "
 * before it; perfev's tips name perfev's commands and options (each one
 * exists: compat/report_tip checks them against --list-cmds and
 * --list-opts). */
static const char *const tips[] = {
	"For a higher level overview, try: perfev report --sort comm,dso",
	"Compare performance results with: perfev diff [<old file> <new file>]",
	"Boolean options have negative forms, e.g.: perfev report --no-children",
	"Customize output of perfev script with: perfev script --fields event,ip,sym",
	"To record callchains for each sample: perfev record -g",
	"To see callchains in a more compact form: perfev report -g folded",
	"Show individual samples with: perfev script",
	"Show the file's header (host, CPUs, command line): perfev report --header-only",
	"Draw the profile as a flame graph in your browser: perfev flamegraph",
	"Count events exactly, without sampling: perfev stat -- <command>",
	"List the events this machine can count: perfev list",
	"Show the number of samples of each entry: perfev report --show-nr-samples",
	"Look at the second tenth of the recording: perfev report --time 10%/2",
	"Sort by source line: perfev report --sort srcline",
	"Profile the whole system: perfev record --all-cpus -- sleep 5",
	"Record to a pipe and report from it: perfev record --output - -- <command> | perfev report",
	"Count the records of each type in a file: perfev report --stats",
	"Hide the entries below 1%: perfev report --percent-limit 1",
	"Convert a recording for other tools: perfev convert --to folded",
	"Record where a program waits as well as where it runs: perfev record --off-cpu",
	"Report a few commands only: perfev report --comms <comm>[,<comm>...]",
	"Take a recording to another machine with its binaries: perfev archive",
};

static void print_tip(struct report *r)
{
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	fprintf(r->out, "#\n# (Tip: %s)\n#\n", tips[(size_t)rand() % (sizeof(tips) / sizeof(tips[0]))]);
}

void report_print(struct report *r)
{
	FILE *o = r->out;
	uint64_t any = 0;

	for (size_t ev = 0; ev < pev_profile_nr_events(r->prof); ev++) {
		const struct pev_profile_stats *st = pev_profile_stats(r->prof, ev);

		any += st->nr_samples + st->nr_filtered;
	}
	if (!r->quiet && !r->header)
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n", o);
	/* A file without a sample: perf 6.1 stops after those two lines
	 * (no table, no tip), says so on stderr and exits 0. */
	if (!any) {
		fflush(o);
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", r->input ? r->input : "perf.data");
		return;
	}
	if (!r->quiet) {
		for (unsigned i = 0; i < r->ncols; i++)
			if (r->cols[i].elided)
				fprintf(o, "# %s: %s\n", r->cols[i].key == PEV_SORT_COMM ? "comm" :
					r->cols[i].key == PEV_SORT_DSO ? "dso" : "symbol",
					r->cols[i].elided);
		fprintf(o, "#\n# Total Lost Samples: %" PRIu64 "\n#\n",
			pev_profile_lost_samples(r->prof));
	}
	for (size_t ev = 0; ev < pev_profile_nr_events(r->prof); ev++) {
		const struct pev_profile_stats *st = pev_profile_stats(r->prof, ev);
		uint64_t nr = st->nr_samples, total = st->total_period;
		char nbuf[128];
		const char *name = report_event_name(r, ev, nbuf, sizeof(nbuf));
		char unit = ' ';

		if (!r->relative) {
			nr += st->nr_filtered;
			total += st->filtered_period;
		}
		/* perf skips an event without samples, also when the
		 * filters hide all of them */
		if (!st->nr_samples && !st->nr_filtered)
			continue;
		/* a group's members are shown beside their leader */
		if (report_group_member(r, ev))
			continue;
		if (report_group_shown(r, ev) && r->print_group) {
			r->print_group(r, ev);
			continue;
		}
		if (!r->quiet) {
			uint64_t v = nr;

			if (v > 1000) { v /= 1000; unit = 'K'; }
			if (v > 1000) { v /= 1000; unit = 'M'; }
			if (v > 1000) { v /= 1000; unit = 'G'; }
			/* perf: "events" for a leader of a group, also with --no-group */
			fprintf(o, "# Samples: %" PRIu64 "%c of event%s '%s'", v, unit,
				report_group_size(r, ev) > 1 ? "s" : "", name);
			/* perf names the --time it was given */
			if (r->fopts.time)
				fprintf(o, " (time slices: %s)", r->fopts.time);
			fputc('\n', o);
			if (r->mem_mode)	/* perf's sort order, ipc_null added */
				fprintf(o, "# Total weight : %" PRIu64 "\n# Sort order   : %s%s\n#\n",
					total, r->sort ? r->sort : REPORT_MEM_SORT,
					r->sort && strstr(r->sort, "symbol") ? ",ipc_null" : "");
			else
				fprintf(o, "# Event count (approx.): %" PRIu64 "\n", total);
			if (!r->mem_mode && r->socket_filter >= 0)
				fprintf(o, "# Processor Socket: %d\n", r->socket_filter);
			if (!r->mem_mode)
				fputs("#\n", o);
		}
		compute_widths(r, ev);
		if (r->hierarchy && r->print_hier) {
			r->print_hier(r, ev, total, st->total_period + st->filtered_period);
			fputs("\n\n", o);
			continue;
		}
		if (!r->quiet)
			report_print_headers(r);
		size_t n = pev_profile_nr_entries(r->prof, ev);

		for (size_t i = 0; i < n; i++) {
			const struct pev_profile_entry *e = pev_profile_entry(r->prof, ev, i);
			uint64_t v = r->cumulate ? e->acc_period : e->period;

			if (report_hidden(r, e))
				continue;
			if (r->percent_limit > 0 && (float)pct(v, total) < (float)r->percent_limit)
				continue;
			print_entry(r, e, total);
			/* perf's hist_entry__fprintf: the graph's percentages
			 * are of everything, filtered samples too; its
			 * threshold of what --percentage counts */
			if (r->use_callchain && e->tree)
				report_print_graph(r, e, st->total_period + st->filtered_period,
						   total);
		}
		fputs("\n\n", o);
	}
	if (!r->quiet)
		print_tip(r);
}
