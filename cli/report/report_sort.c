// SPDX-License-Identifier: GPL-2.0-only
/* perfev report: -s/--sort and -g/--call-graph parsing, and the columns
 * perf 6.1 prints for them (perf_hpp__init, setup_sorting). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "report/report.h"

struct key_name {
	const char *name;
	enum pev_sort_key key;
	enum col_kind kind;
	const char *header;
};

/* perf 6.1's names (sort.c's sort_dimensions and hpp_sort_dimensions). */
static const struct key_name key_names[] = {
	{ "overhead", 0, C_OVERHEAD, "Overhead" },
	{ "overhead_sys", 0, C_SYS, "sys" },
	{ "overhead_us", 0, C_US, "usr" },
	{ "overhead_guest_sys", 0, C_GUEST_SYS, "guest sys" },
	{ "overhead_guest_us", 0, C_GUEST_US, "guest usr" },
	{ "overhead_children", 0, C_CHILDREN, "Children" },
	{ "sample", 0, C_SAMPLES, "Samples" },
	{ "period", 0, C_PERIOD, "Period" },
	{ "pid", PEV_SORT_PID, C_KEY, "    Pid:Command" },
	{ "comm", PEV_SORT_COMM, C_KEY, "Command" },
	{ "dso", PEV_SORT_DSO, C_KEY, "Shared Object" },
	{ "symbol", PEV_SORT_SYM, C_KEY, "Symbol" },
	{ "sym", PEV_SORT_SYM, C_KEY, "Symbol" },
	{ "cpu", PEV_SORT_CPU, C_KEY, "CPU" },
	{ "socket", PEV_SORT_SOCKET, C_KEY, "Socket" },
	{ "srcline", PEV_SORT_SRCLINE, C_KEY, "Source:Line" },
	{ "srcfile", PEV_SORT_SRCFILE, C_KEY, "Source File" },
	{ "symbol_size", PEV_SORT_SYM_SIZE, C_KEY, "Symbol size" },
	{ "dso_size", PEV_SORT_DSO_SIZE, C_KEY, "DSO size" },
	{ "time", PEV_SORT_TIME, C_KEY, "Time" },
	{ "weight", PEV_SORT_WEIGHT, C_KEY, "Weight" },
	{ "local_weight", PEV_SORT_LOCAL_WEIGHT, C_KEY, "Local Weight" },
	{ "cgroup_id", PEV_SORT_CGROUP_ID, C_KEY, "cgroup id (dev/inode)" },
	{ "cgroup", PEV_SORT_CGROUP, C_KEY, "Cgroup" },
	{ "ins_lat", PEV_SORT_INS_LAT, C_KEY, "INSTR Latency" },
	{ "local_ins_lat", PEV_SORT_LOCAL_INS_LAT, C_KEY, "Local INSTR Latency" },
	/* powerpc only: perf 6.1 on x86 drops them (arch_support_sort_key) */
	{ "p_stage_cyc", PEV_SORT_NONE, C_DROPPED, "" },
	{ "local_p_stage_cyc", PEV_SORT_NONE, C_DROPPED, "" },
	{ "code_page_size", PEV_SORT_CODE_PAGE_SIZE, C_KEY, "Code Page Size" },
	/* branch mode only (bstack_sort_dimensions) */
	{ "dso_from", PEV_SORT_DSO_FROM, C_KEY, "Source Shared Object" },
	{ "dso_to", PEV_SORT_DSO_TO, C_KEY, "Target Shared Object" },
	{ "symbol_from", PEV_SORT_SYM_FROM, C_KEY, "Source Symbol" },
	{ "symbol_to", PEV_SORT_SYM_TO, C_KEY, "Target Symbol" },
	{ "mispredict", PEV_SORT_MISPREDICT, C_KEY, "Branch Mispredicted" },
	{ "in_tx", PEV_SORT_IN_TX, C_KEY, "Branch in transaction" },
	{ "abort", PEV_SORT_ABORT, C_KEY, "Transaction abort" },
	{ "cycles", PEV_SORT_CYCLES, C_KEY, "Basic Block Cycles" },
	{ "srcline_from", PEV_SORT_SRCLINE_FROM, C_KEY, "From Source:Line" },
	{ "srcline_to", PEV_SORT_SRCLINE_TO, C_KEY, "To Source:Line" },
	{ "addr_from", PEV_SORT_ADDR_FROM, C_KEY, "Source Address" },
	{ "addr_to", PEV_SORT_ADDR_TO, C_KEY, "Target Address" },
	{ "parent", PEV_SORT_PARENT, C_KEY, "Parent symbol" },
	{ "trace", PEV_SORT_TRACE, C_KEY, "Trace output" },
	/* memory keys: with --mem-mode only, as in perf */
	{ "mem", PEV_SORT_MEM, C_KEY, "Memory access" },
	{ "snoop", PEV_SORT_SNOOP, C_KEY, "Snoop" },
	{ "tlb", PEV_SORT_TLB, C_KEY, "TLB access" },
	{ "locked", PEV_SORT_LOCKED, C_KEY, "Locked" },
	{ "blocked", PEV_SORT_BLOCKED, C_KEY, "Blocked" },
	{ "symbol_daddr", PEV_SORT_SYM_DADDR, C_KEY, "Data Symbol" },
	{ "dso_daddr", PEV_SORT_DSO_DADDR, C_KEY, "Data Object" },
	{ "dcacheline", PEV_SORT_DCACHELINE, C_KEY, "Data Cacheline" },
	{ "phys_daddr", PEV_SORT_PHYS_DADDR, C_KEY, "Data Physical Address" },
	{ "data_page_size", PEV_SORT_DATA_PAGE_SIZE, C_KEY, "Data Page Size" },
	{ "symbol_iaddr", PEV_SORT_SYM_IADDR, C_KEY, "Code Symbol" },
};

/* perf names that exist but need data this report does not model. */
static const char *const known_unsupported[] = {
	"transaction", "addr", "local_retire_lat", "retire_lat", "simd",
	"trace_fields",	/* a column per tracepoint field (perf's dynamic keys) */
	NULL,
};

static const struct key_name *find_key(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (strlen(key_names[i].name) == len && !strncasecmp(key_names[i].name, s, len))
			return &key_names[i];
	return NULL;
}

bool report_lookup_name(const char *s, size_t len, enum col_kind *kind,
			enum pev_sort_key *key, const char **header)
{
	const struct key_name *k = find_key(s, len);

	if (!k)
		return false;
	*kind = k->kind;
	*key = k->key;
	*header = k->header;
	return true;
}

bool report_known_unsupported(const char *s, size_t len)
{
	for (size_t i = 0; known_unsupported[i]; i++)
		if (strlen(known_unsupported[i]) == len && !strncmp(known_unsupported[i], s, len))
			return true;
	return false;
}

void report_print_names(FILE *out, bool (*keep)(enum col_kind kind, enum pev_sort_key key))
{
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (!keep || keep(key_names[i].kind, key_names[i].key))
			fprintf(out, "%s\n", key_names[i].name);
}

void report_sort_values(FILE *out)
{
	report_print_names(out, NULL);
}

/* The sort keys; hpp names (sample, period, ...) become columns. */
int report_parse_sort(struct report *r, const char *s)
{
	const char *p = s;

	r->nkeys = 0;
	/* perf 6.1 refuses a sort order naming "ipc" (it adds ipc_null or
	 * ipc_lbr itself to one naming "symbol") */
	if (strstr(s, "ipc")) {
		cli_error("-s/--sort '%s': perf adds the IPC column (ipc_lbr, ipc_null) itself to a sort naming 'symbol'; name 'symbol', or use -F ipc_lbr / ipc_null",
			  s);
		return -EINVAL;
	}
	while (*p) {
		size_t len = strcspn(p, ", ");

		if (len) {
			const struct key_name *k = find_key(p, len);

			if (!k) {
				if (report_known_unsupported(p, len))
					cli_error("sort key '%.*s' is not supported by perfev report yet; "
						  "use comm, pid, dso, sym, cpu, socket, srcline, srcfile, "
						  "symbol_size, dso_size, time, weight, local_weight, "
						  "cgroup, cgroup_id, code_page_size, parent, trace", (int)len, p);
				else
					cli_error("unknown sort key '%.*s'; see 'perfev report -h' for the keys",
						  (int)len, p);
				return -EINVAL;
			}
			if (k->kind == C_KEY) {
				bool dup = false;

				for (unsigned i = 0; i < r->nkeys; i++)
					dup |= r->keys[i] == k->key;
				if (!dup && r->nkeys < PEV_PROFILE_MAX_KEYS - 1)
					r->keys[r->nkeys++] = k->key;
			}
		}
		p += len;
		p += strspn(p, ", ");
	}
	/* perf 6.1's report appends "ipc_null" to a sort order naming
	 * "symbol" (symbol_size too); that key compares symbols. */
	if (strstr(s, "symbol")) {
		bool dup = false;

		for (unsigned i = 0; i < r->nkeys; i++)
			dup |= r->keys[i] == PEV_SORT_SYM;
		if (!dup && r->nkeys < PEV_PROFILE_MAX_KEYS - 1)
			r->keys[r->nkeys++] = PEV_SORT_SYM;
	}
	return 0;
}

/* perf's parse_callchain_report_opt: words in any order, the first number
 * the threshold, the second the print limit. */
int report_parse_callgraph(struct report *r, const char *arg)
{
	char buf[256];
	int nums = 0;

	if (strlen(arg) >= sizeof(buf)) {
		cli_error("invalid -g/--call-graph '%s'", arg);
		return -EINVAL;
	}
	strcpy(buf, arg);
	r->use_callchain = true;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "graph"))
			r->gmode = G_GRAPH;
		else if (!strcmp(t, "fractal"))
			r->gmode = G_FRACTAL;
		else if (!strcmp(t, "flat"))
			r->gmode = G_FLAT;
		else if (!strcmp(t, "folded"))
			r->gmode = G_FOLDED;
		else if (!strcmp(t, "none")) {
			r->gmode = G_NONE;
			r->use_callchain = false;
		} else if (!strcmp(t, "caller")) {
			r->gorder = PEV_PROFILE_CALLER;
			r->order_set = true;
		} else if (!strcmp(t, "callee")) {
			r->gorder = PEV_PROFILE_CALLEE;
			r->order_set = true;
		} else if (!strcmp(t, "function"))
			r->gkey = PEV_PROFILE_FUNCTION;
		else if (!strcmp(t, "address"))
			r->gkey = PEV_PROFILE_ADDRESS;
		else if (!strcmp(t, "percent"))
			r->gvalue = V_PERCENT;
		else if (!strcmp(t, "period"))
			r->gvalue = V_PERIOD;
		else if (!strcmp(t, "count"))
			r->gvalue = V_COUNT;
		else {
			char *end;
			double v = strtod(t, &end);

			if (*end || end == t || nums >= 2) {
				cli_error("invalid -g/--call-graph '%s': '%s' is not one of graph, fractal, flat, folded, none, caller, callee, function, address, percent, period, count or a number",
					  arg, t);
				return -EINVAL;
			}
			if (nums++ == 0)
				r->gmin_percent = v;
			else
				r->gprint_limit = (unsigned)v;
		}
	}
	return 0;
}

/* perf's sort__setup_elide: a comm, dso or symbol column whose filter
 * names a single value is left out (and named in a header line), unless
 * that would leave out every sort column. */
void report_setup_elide(struct report *r)
{
	bool all = true;

	for (unsigned i = 0; i < r->ncols; i++) {
		struct col *c = &r->cols[i];
		const char *list = NULL;

		if (c->kind != C_KEY)
			continue;
		if (c->key == PEV_SORT_COMM)
			list = r->fopts.comm;
		else if (c->key == PEV_SORT_DSO)
			list = r->fopts.dso;
		else if (c->key == PEV_SORT_SYM)
			list = r->fopts.symbols;
		c->elided = list && list[0] && !strchr(list, ',') &&
			    strncmp(list, "file://", 7) ? list : NULL;
		all &= c->elided != NULL;
	}
	for (unsigned i = 0; all && i < r->ncols; i++)
		r->cols[i].elided = NULL;
}
