/* SPDX-License-Identifier: GPL-2.0-only */
/* perfev report: shared state of cmd_report.c and report_*.c. */
#ifndef PEV_CLI_REPORT_H
#define PEV_CLI_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <perfev/perfev.h>
#include <perfev/callchain.h>
#include <perfev/data.h>
#include <perfev/filter.h>
#include <perfev/profile.h>

#include "common/tracefmt.h"

enum graph_mode { G_GRAPH, G_FRACTAL, G_FLAT, G_FOLDED, G_NONE };
enum graph_value { V_PERCENT, V_PERIOD, V_COUNT };

/* Columns: the hpp fields, then sort keys. */
enum col_kind {
	C_CHILDREN = 1, C_OVERHEAD, C_SYS, C_US, C_GUEST_SYS, C_GUEST_US,
	C_SAMPLES, C_PERIOD,
	C_IPC_NULL,		/* perf's ipc_null, added to a sort naming "symbol" */
	C_IPC_LBR,		/* perf's ipc_lbr, the same in branch mode */
	C_DROPPED,		/* a key perf drops on this architecture */
	C_KEY,			/* a sort key: col.key */
};

struct col {
	enum col_kind kind;
	enum pev_sort_key key;
	const char *name;
	int width;
	const char *elided;	/* filtered to this one value: not shown */
};

#define MAX_COLS 32
#define REPORT_MAX_COUNTERS 16

/* --stats and -T (report_stats.c) */
struct report_stats {
	uint64_t nr[83];		/* records per type; [0] all */
	uint64_t *ev_samples;		/* samples per event */
	size_t nevents;
	unsigned counter_ev[REPORT_MAX_COUNTERS];	/* -T columns: events */
	size_t ncounters;
	struct report_thread {
		uint32_t pid, tid;
		uint64_t value[REPORT_MAX_COUNTERS];
	} *threads;
	size_t nthreads;
	uint64_t unknown;		/* records of a type perfev does not know */
	uint32_t unknown_type;		/* the first one's */
	uint64_t *comp;			/* offsets + 1 of COMPRESSED records */
	size_t ncomp, comp_cap;
};

struct report {
	/* options */
	const char *input, *sort, *fields, *callgraph, *percentage;
	const char *symfs, *kallsyms, *vmlinux;
	bool children_flag;		/* --children (default) / --no-children */
	bool explicit_callgraph;	/* -g given */
	bool inverted, show_nr, show_total_period, threads, stats;
	bool tasks, mmaps;		/* --tasks, --mmaps */
	bool header, header_only, show_info, quiet, json, no_pager, stdio, force;
	bool tp_only;		/* every event a tracepoint: "trace" is the default sort */
	bool show_cpu_util;
	bool hierarchy;		/* --hierarchy: one level per sort key (report_hier.c) */
	/* with --hierarchy: report_print_hier (set by cmd_report.c) */
	void (*print_hier)(struct report *r, size_t ev, uint64_t total, uint64_t all_total);
	bool raw_trace;		/* --raw-trace: the trace key shows raw fields */
	int branch_flag;		/* -b: 1, --no-branch-stack: 0, else -1 */
	const char *percent_limit_str;
	const char *parent;		/* -p: regex of parent functions */
	bool exclude_other;		/* -x */
	bool mem_mode;			/* --mem-mode */
	bool cut_at_end;		/* report: a cut file is said after the output */
	bool inline_on;			/* --inline (default) / --no-inline */
	bool demangle;			/* --demangle (default) / --no-demangle */
	bool hide_unresolved;		/* -U */
	bool full_source_path;		/* --full-source-path */
	const char *symbol_filter;	/* --symbol-filter: a part of the name */
	int socket_filter;		/* --socket-filter, -1: none */
	int group_flag;			/* --group 1, --no-group 0, else -1 */
	int samples;			/* --samples: perf's TUI only */
	const char *field_sep;		/* -t: between the columns */
	const char *ignore_callees;	/* --ignore-callees: regex */
	const char *stdio_color;	/* --stdio-color, --no-color: always, never, auto */
	bool color;			/* percentages coloured by heat */
	double percent_limit;
	int max_stack;
	struct pev_filter_opts fopts;

	/* derived */
	bool use_callchain, cumulate, relative;
	bool branch_mode;		/* perf's sort__mode == SORT_MODE__BRANCH */
	bool branch_history;		/* --branch-history */
	bool bh_counts;			/* and the file has branch stacks */
	const char *mispredict_last;	/* perf's static in its mispredict cell */
	enum graph_mode gmode;
	double gmin_percent;
	enum pev_profile_order gorder;
	enum pev_profile_match gkey;
	enum graph_value gvalue;
	unsigned gprint_limit;
	bool order_set;
	bool sort_starts_sym;	/* perf skips the first chain entry then */
	enum pev_sort_key keys[PEV_PROFILE_MAX_KEYS];
	unsigned nkeys;
	struct col cols[MAX_COLS];
	unsigned ncols;
	int sort_order[2 * PEV_PROFILE_MAX_KEYS];	/* perf's sort list */

	/* objects */
	struct pev_data *data;
	struct pev_dso_cache *dsos;
	struct pev_machine *machine;
	struct pev_chain *chain;
	struct pev_filter *filter;
	struct pev_profile *prof;
	int32_t *cpu_socket;
	FILE *out;
	struct report_stats st;
	struct tracefmt tf;		/* the trace key's formats */
	/* event groups (report_group.c): per event its leader and, on a
	 * leader, its number of members (perf's evsel nr_members) */
	uint32_t *ev_leader, *ev_members;
	size_t nr_group_ev;
	bool group_forced;		/* --group on a file without groups */
	/* a group's table: report_print_group (set by cmd_report.c) */
	void (*print_group)(struct report *r, size_t ev);
};

/* report_sort.c */
int report_parse_sort(struct report *r, const char *s);
int report_parse_callgraph(struct report *r, const char *s);
/* perf's name s (len bytes): its column kind, key and header; false when
 * perfev does not know it. */
bool report_lookup_name(const char *s, size_t len, enum col_kind *kind,
			enum pev_sort_key *key, const char **header);
/* a perf 6.1 key perfev does not model */
bool report_known_unsupported(const char *s, size_t len);
/* The names report_lookup_name knows, one a line (keep: which of them;
 * NULL: all): -s/--sort's values (--list-values, shell completion). */
void report_print_names(FILE *out, bool (*keep)(enum col_kind kind, enum pev_sort_key key));
void report_sort_values(FILE *out);
void report_setup_elide(struct report *r);
/* perf 6.1's default_mem_sort_order */
#define REPORT_MEM_SORT "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,local_p_stage_cyc"
/* report_mem.c */
bool report_is_mem_key(enum pev_sort_key k);
int report_mem_width(struct report *r, const struct pev_profile_entry *e,
		     enum pev_sort_key k);
int report_mem_cell(const struct pev_profile_entry *e, enum pev_sort_key k, int w,
		    char *b, size_t sz);
/* cmd_report.c: opens r->input and reads it into r->prof with r's
 * options (without the profile when header_only); an exit code, the
 * message printed.  report_release frees what it made (also after a
 * failure). */
int report_load(struct report *r, bool header_only);
/* r zeroed, with the defaults of the options whose off state is not 0
 * (demangling and inline frames on, no socket filter): report and diff
 * start from it. */
void report_init(struct report *r);
void report_release(struct report *r);
/* report_out.c */
void report_print(struct report *r);
/* Entry e is not shown: filtered, or outside --symbol-filter */
bool report_hidden(const struct report *r, const struct pev_profile_entry *e);
/* Event i's name: the file's, or perf's evsel__name from its attr (buf)
 * when the file has none; "unknown" for what perfev cannot name. */
const char *report_event_name(struct report *r, size_t i, char *buf, size_t sz);
/* The width entry e asks of key k's column (perf's hists__calc_col_len),
 * and its cell padded to w unless last (n bytes written into b). */
int report_key_len(struct report *r, const struct pev_profile_entry *e,
		   enum pev_sort_key k);
size_t report_key_cell(struct report *r, const struct pev_profile_entry *e,
		       const struct col *c, bool last, char *b, size_t sz);
/* perf's cgroup cell: the name, "N/A" or "unknown" */
const char *report_cgroup_name(struct report *r, const struct pev_profile_entry *e);
/* report_hier.c: --hierarchy; the refusal message of what it cannot
 * show (NULL: it can); event ev's table after its "#" lines, leaves'
 * call graphs of all_total (as report_print_graph) */
const char *report_hier_refusal(const struct report *r);
void report_print_hier(struct report *r, size_t ev, uint64_t total, uint64_t all_total);
/* report_out.c: the cells of e's columns into line (the sort keys' too
 * unless hpp_only); the length */
size_t report_format_entry(struct report *r, const struct pev_profile_entry *e,
			   uint64_t total, bool hpp_only, char *line, size_t sz);
/* report_graph.c */
/* perf's get_percent_color: red from 5%, green above 0.5%, else NULL
 * (no colour); the escape that ends a colour is REPORT_COLOR_RESET. */
const char *report_percent_color(double percent);
#define REPORT_COLOR_RESET "\033[m"
void report_print_graph(struct report *r, const struct pev_profile_entry *e,
			uint64_t total, uint64_t min_total);
/* report_json.c: -j/--json, the table as one JSON document (schema in perfev-report(1), JSON OUTPUT) */
void report_json(struct report *r);
/* report_fields.c: the columns, grouping keys and output order from
 * -s, -F and the column options, by perf's rules; -1 (message printed)
 * on a bad -F. */
int report_setup_fields(struct report *r);
/* -F/--fields' values: the names above and perf's IPC fields */
void report_field_values(FILE *out);
/* report_out.c: the column headers and their dotted line */
void report_print_headers(struct report *r);
/* report_group.c: groups from GROUP_DESC, or --group's one group (-1:
 * out of memory); an event's number of members (1 outside a group);
 * whether ev leads a group shown together, or is a member of one; the
 * group's name as perf's evsel__group_desc; a group's lines and table */
int report_setup_groups(struct report *r);
static inline size_t report_group_size(const struct report *r, size_t ev)
{
	return ev < r->nr_group_ev ? r->ev_members[ev] : 1;
}

static inline bool report_group_shown(const struct report *r, size_t ev)
{
	return r->group_flag != 0 && report_group_size(r, ev) > 1 && r->ev_leader[ev] == ev;
}

static inline bool report_group_member(const struct report *r, size_t ev)
{
	return r->group_flag != 0 && ev < r->nr_group_ev && r->ev_leader[ev] != ev;
}
const char *report_group_desc(struct report *r, size_t ev, char *buf, size_t sz);
void report_print_group(struct report *r, size_t ev);
/* report_stats.c */
int report_read(struct report *r, void (*progress)(uint64_t done, void *arg), void *arg);
void report_print_stats(struct report *r);
void report_print_threads(struct report *r);
int report_print_tasks(struct report *r);
void report_stats_free(struct report *r);

#endif
