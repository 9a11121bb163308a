// SPDX-License-Identifier: GPL-2.0-only
/* perfev report: the output fields (columns) and the sort list, from
 * -s/--sort, -F/--fields and the column options, by perf 6.1's rules
 * (setup_sorting, perf_hpp__init, perf_hpp__setup_output_field,
 * perf_hpp__append_sort_keys):
 *  - the sort list is -s (or, without -F, "comm,dso,symbol"); without a
 *    strict -F ("+..." is not strict) "overhead" and, in children mode,
 *    "overhead_children" are put first unless -s names them; a strict -F
 *    without -s starts the sort list empty;
 *  - the columns are the default overhead columns (not with a strict -F),
 *    then -F's fields, then the sort list's items not among them;
 *  - the columns not in the sort list are appended to it.
 * The sort list groups samples (its keys) and orders the entries (each
 * item in turn: overhead fields larger first, keys by their order). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "report/report.h"

struct item {
	enum col_kind kind;
	enum pev_sort_key key;
	const char *header;
};

struct list {
	struct item it[MAX_COLS];
	unsigned n;
};

static bool same(const struct item *a, const struct item *b)
{
	return a->kind == b->kind && (a->kind != C_KEY || a->key == b->key);
}

static bool in(const struct list *l, const struct item *x)
{
	for (unsigned i = 0; i < l->n; i++)
		if (same(&l->it[i], x))
			return true;
	return false;
}

static void add(struct list *l, struct item x)
{
	if (l->n < MAX_COLS && !in(l, &x))
		l->it[l->n++] = x;
}

static bool is_branch_key(enum pev_sort_key k)
{
	return k >= PEV_SORT_DSO_FROM && k <= PEV_SORT_ADDR_TO;
}

/* perf's IPC fields (-F only: perf refuses a sort naming "ipc"). */
static const struct {
	const char *name;
	enum col_kind kind;
} ipc_fields[] = {
	{ "ipc_lbr", C_IPC_LBR },	/* branch mode only */
	{ "ipc_null", C_IPC_NULL },
};

void report_field_values(FILE *out)
{
	report_print_names(out, NULL);
	for (size_t i = 0; i < sizeof(ipc_fields) / sizeof(ipc_fields[0]); i++)
		fprintf(out, "%s\n", ipc_fields[i].name);
}

static int ipc_field(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(ipc_fields) / sizeof(ipc_fields[0]); i++)
		if (strlen(ipc_fields[i].name) == len && !strncmp(ipc_fields[i].name, s, len))
			return (int)i;
	return -1;
}

/* The names of s (',' or ' ' between them) into l; a name perfev does not
 * know is an error (what: "sort key" or "field"). */
static int parse(struct report *r, struct list *l, const char *s, const char *what)
{
	while (*s) {
		size_t len = strcspn(s, ", ");
		struct item x;

		if (len) {
			int ipc = ipc_field(s, len);
			bool lbr = ipc >= 0 && ipc_fields[ipc].kind == C_IPC_LBR;

			if (ipc >= 0) {
				/* perf's fields; perf refuses a sort naming "ipc" */
				x = (struct item){ ipc_fields[ipc].kind, PEV_SORT_SYM,
						   "IPC   [IPC Coverage]" };
				if (lbr && !r->branch_mode) {
					cli_error("%s 'ipc_lbr' needs branch mode: a file with branch stacks (perf record -b) and no --no-branch-stack",
						  what);
					return -EINVAL;
				}
			} else if (!report_lookup_name(s, len, &x.kind, &x.key, &x.header)) {
				if (report_known_unsupported(s, len))
					cli_error("%s '%.*s' is not supported by perfev report yet",
						  what, (int)len, s);
				else
					cli_error("unknown %s '%.*s'; see 'perfev report -h' for the names",
						  what, (int)len, s);
				return -EINVAL;
			}
			if (x.kind == C_KEY && is_branch_key(x.key) && !r->branch_mode) {
				cli_error("%s '%.*s' needs branch mode: a file with branch stacks (perf record -b) and no --no-branch-stack",
					  what, (int)len, s);
				return -EINVAL;
			}
			if (x.kind != C_DROPPED)	/* perf drops it on x86 */
				add(l, x);
		}
		s += len;
		s += strspn(s, ", ");
	}
	return 0;
}

static int order_item(const struct item *x)
{
	switch (x->kind) {
	case C_CHILDREN: return PEV_FIELD_CHILDREN;
	case C_OVERHEAD: return PEV_FIELD_OVERHEAD;
	case C_SYS: return PEV_FIELD_SYS;
	case C_US: return PEV_FIELD_US;
	case C_GUEST_SYS: return PEV_FIELD_GUEST_SYS;
	case C_GUEST_US: return PEV_FIELD_GUEST_US;
	case C_SAMPLES: return PEV_FIELD_SAMPLES;
	case C_PERIOD: return PEV_FIELD_PERIOD;
	case C_KEY: return (int)x->key;
	default: return 0;
	}
}

int report_setup_fields(struct report *r)
{
	const char *f = r->fields;
	bool strict = f && f[0] != '+';
	struct list sort = { .n = 0 }, out = { .n = 0 }, fl = { .n = 0 };
	/* perf's get_default_sort_order, by mode */
	const char *s = r->sort ? r->sort : strict ? NULL :
			r->branch_mode ? "comm,dso_from,symbol_from,symbol_to,cycles" :
			r->mem_mode ? REPORT_MEM_SORT :
			r->tp_only ? (r->raw_trace ? "trace_fields" : "trace") : "comm,dso,symbol";
	static const struct item ipc = { C_IPC_NULL, PEV_SORT_SYM, "IPC   [IPC Coverage]" };
	static const struct item lbr = { C_IPC_LBR, PEV_SORT_SYM, "IPC   [IPC Coverage]" };

	if (f && parse(r, &fl, strict ? f : f + 1, "field") < 0)
		return -1;
	if (f && !fl.n) {
		cli_error("invalid -F/--fields '%s': name at least one field", f);
		return -1;
	}
	/* perf's setup_overhead: prefix_if_not_in, a substring test */
	if (s && !strict) {
		if (r->cumulate && !strstr(s, "overhead_children"))
			add(&sort, (struct item){ C_CHILDREN, 0, "Children" });
		if (!strstr(s, "overhead"))
			add(&sort, (struct item){ C_OVERHEAD, 0, "Overhead" });
	}
	if (s && parse(r, &sort, s, "sort key") < 0)
		return -1;
	/* perf 6.1's report appends "ipc_null" to a sort order naming
	 * "symbol" (symbol_size, symbol_to too); that key compares symbols.
	 * In branch mode it appends "ipc_lbr" (report_out.c). */
	if (r->sort && strstr(r->sort, "symbol"))
		add(&sort, r->branch_mode ? lbr : ipc);
	/* perf's setup_sorting: -p adds the parent key after the sort order */
	if (r->parent)
		add(&sort, (struct item){ C_KEY, PEV_SORT_PARENT, "Parent symbol" });
	if (!strict) {		/* perf_hpp__init */
		if (r->cumulate)
			add(&out, (struct item){ C_CHILDREN, 0, "Children" });
		add(&out, (struct item){ C_OVERHEAD, 0, r->cumulate ? "Self" : "Overhead" });
		if (r->show_cpu_util) {
			add(&out, (struct item){ C_SYS, 0, "sys" });
			add(&out, (struct item){ C_US, 0, "usr" });
		}
		if (r->show_nr)
			add(&out, (struct item){ C_SAMPLES, 0, "Samples" });
		if (r->show_total_period)
			add(&out, (struct item){ C_PERIOD, 0, "Period" });
	}
	for (unsigned i = 0; i < fl.n; i++)
		add(&out, fl.it[i]);
	for (unsigned i = 0; i < sort.n; i++)
		add(&out, sort.it[i]);
	for (unsigned i = 0; i < out.n; i++)
		add(&sort, out.it[i]);

	r->ncols = 0;
	for (unsigned i = 0; i < out.n; i++) {
		const struct item *x = &out.it[i];
		const char *name = x->header;

		/* only perf_hpp__init names the self column "Self" */
		if (x->kind == C_OVERHEAD && !strict && r->cumulate)
			name = "Self";
		r->cols[r->ncols++] = (struct col){ x->kind, x->key, name, 0, NULL };
	}
	r->nkeys = 0;
	memset(r->sort_order, 0, sizeof(r->sort_order));
	for (unsigned i = 0, k = 0; i < sort.n; i++) {
		const struct item *x = &sort.it[i];
		bool dup = false;

		if (x->kind != C_KEY && x->kind != C_IPC_NULL && x->kind != C_IPC_LBR)
			;
		else {
			for (unsigned j = 0; j < r->nkeys; j++)
				dup |= r->keys[j] == x->key;
			if (!dup && r->nkeys < PEV_PROFILE_MAX_KEYS - 1)
				r->keys[r->nkeys++] = x->key;
		}
		if (order_item(x) && x->kind != C_IPC_NULL && x->kind != C_IPC_LBR &&
		    k < 2 * PEV_PROFILE_MAX_KEYS - 1)
			r->sort_order[k++] = order_item(x);
	}
	return 0;
}
