// SPDX-License-Identifier: GPL-2.0-only
/* perfev report: where the time goes, from a perf.data file, printed as
 * perf 6.1's `perf report --stdio` prints it.  The aggregation is the
 * library's profile model (perfev/profile.h); this file turns options into
 * its settings and report_out.c / report_graph.c print it. */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/header.h"
#include "common/input.h"
#include "common/options.h"
#include "common/pager.h"
#include "report/report.h"

#include <traceevent/trace-seq.h>

static int opt_callgraph(const struct opt *o, const char *arg, void *ctx)
{
	(void)o;
	((struct report *)ctx)->explicit_callgraph = true;
	/* a bare -g is perf's default: graph,0.5,caller,function,percent */
	return report_parse_callgraph(ctx, arg ? arg : "graph,0.5,caller,function,percent") < 0 ?
	       -1 : 0;
}

static int opt_sort(const struct opt *o, const char *arg, void *ctx)
{
	struct report *r = ctx;

	(void)o;
	r->sort = arg;
	return report_parse_sort(r, arg) < 0 ? -1 : 0;
}

static int opt_branch(const struct opt *o, const char *arg, void *ctx)
{
	(void)arg;
	((struct report *)ctx)->branch_flag = o->short_name == 'b';
	return 0;
}

static int opt_percent_limit(const struct opt *o, const char *arg, void *ctx)
{
	struct report *r = ctx;
	char *end;

	(void)o;
	r->percent_limit = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%"))) {
		cli_error("invalid --percent-limit '%s'; give a percentage such as 0.5", arg);
		return -1;
	}
	/* perf sets the call-graph threshold too */
	r->gmin_percent = r->percent_limit;
	return 0;
}

static int opt_group(const struct opt *o, const char *arg, void *ctx)
{
	(void)arg;
	((struct report *)ctx)->group_flag = !strcmp(o->long_name, "group");
	return 0;
}

static int opt_no_color(const struct opt *o, const char *arg, void *ctx)
{
	(void)o;
	(void)arg;
	((struct report *)ctx)->stdio_color = "never";
	return 0;
}

/* Colour: --stdio-color/--no-color, else $PERFEV_COLOR, else never with
 * $NO_COLOR set (no-color.org), else auto: stdout a terminal (the pager
 * keeps the escapes: LESS has R).  JSON never.  -1 on a bad mode. */
static int setup_color(struct report *r)
{
	const char *m = r->stdio_color, *env = getenv("PERFEV_COLOR");
	const char *from = "--stdio-color";

	if (!m && env && *env) {
		m = env;
		from = "PERFEV_COLOR";
	}
	if (!m) {
		const char *nc = getenv("NO_COLOR");

		m = nc && *nc ? "never" : "auto";
	}
	if (!strcmp(m, "always"))
		r->color = true;
	else if (!strcmp(m, "never"))
		r->color = false;
	else if (!strcmp(m, "auto"))
		r->color = isatty(STDOUT_FILENO);
	else {
		cli_error("invalid %s '%s'; give 'always', 'never' or 'auto'", from, m);
		return -1;
	}
	r->color &= !r->json;
	return 0;
}

static void set_build_ids(struct report *r)
{
	const struct pev_data_features *f = pev_data_features(r->data);

	for (size_t i = 0; f && i < f->nr_build_ids; i++) {
		const struct pev_data_build_id *b = &f->build_ids[i];

		if (b->filename)
			pev_dso_cache_set_build_id(r->dsos, b->filename, b->id, b->size);
	}
}

static bool file_has_sample_bit(struct report *r, uint64_t bit)
{
	const struct pev_decoder *dec = pev_data_decoder(r->data);

	for (size_t i = 0; i < pev_decoder_nr_attrs(dec); i++)
		if (pev_decoder_attr(dec, i)->sample_type & bit)
			return true;
	return false;
}

static bool file_has_branch_stack(struct report *r)
{
	const struct pev_decoder *dec = pev_data_decoder(r->data);

	for (size_t i = 0; i < pev_decoder_nr_attrs(dec); i++)
		if (pev_decoder_attr(dec, i)->sample_type & PERF_SAMPLE_BRANCH_STACK)
			return true;
	return false;
}

/* perf's sort__mode: branch mode with -b, or by default when the file
 * has the BRANCH_STACK feature; -b on a file without branch stacks is
 * an error. */
static int setup_branch_mode(struct report *r)
{
	const struct pev_data_features *f = pev_data_features(r->data);
	bool feat = f && pev_data_features_has(f, PEV_FEAT_BRANCH_STACK);

	r->branch_mode = r->branch_flag == 1 || (r->branch_flag == -1 && feat);
	if (r->branch_mode && !file_has_branch_stack(r)) {
		if (r->branch_flag != 1) {
			r->branch_mode = false;
			return 0;
		}
		cli_error("-b/--branch-stack given but '%s' has no branch stacks; record with 'perf record -b' (a CPU with LBR or BRBE)",
			  r->input);
		return -1;
	}
	return 0;
}

static bool all_tracepoints(struct report *r)
{
	const struct pev_decoder *dec = pev_data_decoder(r->data);
	size_t n = pev_decoder_nr_attrs(dec);

	for (size_t i = 0; i < n; i++)
		if (pev_decoder_attr(dec, i)->type != PERF_TYPE_TRACEPOINT)
			return false;
	return n > 0;
}

/* perf's get_trace_output: TEP_PRINT_INFO with no time and CPU 0, or
 * with --raw-trace the raw fields. */
static int trace_output(void *arg, uint32_t event, const struct pev_sample *s,
			char *buf, size_t size)
{
	struct report *r = arg;
	const struct perf_event_attr *a = pev_decoder_attr(pev_data_decoder(r->data), event);
	struct trace_seq seq;
	int n;

	if (!a || a->type != PERF_TYPE_TRACEPOINT)
		return -1;
	r->tf.data = r->data;
	struct tep_event *tev = tracefmt_find(&r->tf, a, event);

	if (!tev)
		return snprintf(buf, size, "%s", "");
	trace_seq_init(&seq);
	if (r->raw_trace)
		tracefmt_fields(&seq, s->raw.data, s->raw.size, tev);
	else
		tracefmt_info(&r->tf, &seq, s->raw.data, s->raw.size, 0, 0);
	trace_seq_terminate(&seq);
	n = snprintf(buf, size, "%s", seq.buffer ? seq.buffer : "");
	trace_seq_destroy(&seq);
	return n;
}

static bool file_has_callchain(struct report *r)
{
	return file_has_sample_bit(r, PERF_SAMPLE_CALLCHAIN);
}

static bool any_filter(const struct pev_filter_opts *f)
{
	return f->comm || f->pid || f->tid || f->cpu || f->time || f->dso || f->symbols;
}

static void on_progress(uint64_t done, void *arg)
{
	progress_update(arg, done);
}

static int setup_and_read(struct report *r)
{
	char err[512] = "";
	bool has_cc = file_has_callchain(r);

	if (setup_branch_mode(r) < 0)
		return EXIT_ERROR;
	/* perf's --branch-history: not branch mode; call graphs by address
	 * with the branches in them, sorted by srcline,symbol,dso */
	if (r->branch_history) {
		/* perf: "Selected -g or --branch-history. But no callchain
		 * or branch data." */
		if (!file_has_branch_stack(r) && !has_cc) {
			cli_error("--branch-history needs branch stacks or call chains, and '%s' has neither; record with 'perf record -b -g' (branch stacks need a CPU with LBR or BRBE)",
				  r->input);
			return EXIT_ERROR;
		}
		r->branch_mode = false;
		/* perf puts branches in chains (and counts them) only from a
		 * file with branch stacks */
		r->bh_counts = file_has_branch_stack(r);
		r->gkey = PEV_PROFILE_ADDRESS;
		r->use_callchain = true;
		if (!r->sort)
			r->sort = "srcline,symbol,dso";
	}
	if (r->explicit_callgraph && r->use_callchain && !has_cc && !r->branch_history) {
		cli_error("'%s' has no call chains to show for -g; record with 'perfev record -g'",
			  r->input);
		return EXIT_ERROR;
	}
	/* branch mode: no call graphs or children, -g included: perf 6.1's
	 * branch iterator adds the branches without the sample's chain */
	if (r->branch_mode)
		has_cc = false;
	if (!r->explicit_callgraph && !r->branch_history)
		r->use_callchain = has_cc;
	if (!has_cc && !r->branch_history)
		r->use_callchain = false;
	/* perf decides children mode before it has read a pipe's attrs: a
	 * pipe is reported without children, in the caller order chosen
	 * for them */
	r->cumulate = has_cc && r->children_flag && !pev_data_is_pipe(r->data);
	/* perf's --mem-mode: no children */
	if (r->mem_mode)
		r->cumulate = false;
	/* perf's --hierarchy turns children off (the caller order above stays) */
	if (r->hierarchy)
		r->cumulate = false;
	/* perf picks the caller order while children mode is still on: a
	 * --branch-history file without chains too */
	if (r->inverted || ((has_cc || r->branch_history) && r->children_flag && !r->order_set))
		r->gorder = PEV_PROFILE_CALLER;
	/* perf's default for a file of tracepoints only: the trace key */
	r->tp_only = all_tracepoints(r);
	if (report_setup_fields(r) < 0)
		return EXIT_USAGE;
	for (unsigned i = 0; i < r->nkeys && !r->mem_mode; i++)
		if (report_is_mem_key(r->keys[i])) {
			cli_error("'%s' has memory keys: they need --mem-mode, as in perf",
				  r->sort ? r->sort : r->fields);
			return EXIT_USAGE;
		}
	r->sort_starts_sym = r->sort && !strncmp(r->sort, "sym", 3);
	report_setup_elide(r);

	/* perf: "File does not contain CPU events. Remove -C option to
	 * proceed." (it then prints an empty report with exit 0) */
	if (r->fopts.cpu && !pev_data_is_pipe(r->data) &&
	    !file_has_sample_bit(r, PERF_SAMPLE_CPU)) {
		cli_error("'%s' has no CPU in its samples, so -C selects none; record with -a or --sample-cpu, or leave -C out",
			  r->input);
		return EXIT_ERROR;
	}
	if (any_filter(&r->fopts)) {
		r->fopts.size = sizeof(r->fopts);
		r->filter = pev_filter_new(&r->fopts, err, sizeof(err));
		if (!r->filter) {
			if (errno == EINVAL)
				cli_error("%s", err);
			else
				cli_error("cannot read a filter list: %s", strerror(errno));
			return errno == EINVAL ? EXIT_USAGE : EXIT_ERROR;
		}
		if (pev_filter_needs_sample_time(r->filter)) {
			const struct pev_data_features *f = pev_data_features(r->data);

			if (pev_filter_set_sample_time(r->filter, f ? f->first_sample_time : 0,
						       f ? f->last_sample_time : 0,
						       err, sizeof(err)) < 0) {
				cli_error("%s", err);
				return EXIT_ERROR;
			}
		}
	}
	struct pev_chain_opts copts = { .size = sizeof(copts), .no_inline = !r->inline_on,
					.caller_first = r->gorder == PEV_PROFILE_CALLER };
	struct pev_profile_opts popts = { .size = sizeof(popts) };

	bool parent = false;

	for (unsigned i = 0; i < r->nkeys; i++)
		parent |= r->keys[i] == PEV_SORT_PARENT;
	/* --max-stack 0: perf keeps its call-graph settings (the Children
	 * column, the caller-first order) but every chain is empty: a flat
	 * profile */
	if (has_cc && r->max_stack && (r->use_callchain || r->cumulate || parent)) {
		r->chain = pev_chain_new(r->machine, &copts);
		if (!r->chain) {
			cli_error("out of memory");
			return EXIT_ERROR;
		}
	}
	for (unsigned i = 0; i < r->nkeys; i++)
		popts.keys[i] = r->keys[i];
	memcpy(popts.sort_order, r->sort_order, sizeof(popts.sort_order));
	popts.callchains = (r->chain && (r->use_callchain || r->cumulate)) || r->bh_counts;
	popts.branch_history = r->bh_counts;
	popts.parent_regex = r->parent;
	popts.exclude_other = r->exclude_other;
	popts.trace_output = trace_output;
	popts.trace_arg = r;
	popts.mem_mode = r->mem_mode;
	for (unsigned i = 0; i < r->ncols; i++)
		for (unsigned j = 0; r->cols[i].kind == C_KEY && r->cols[i].elided &&
		     j < r->nkeys; j++)
			if (r->keys[j] == r->cols[i].key)
				popts.unsorted_keys |= 1u << j;
	popts.children = r->cumulate;
	popts.branch_mode = r->branch_mode;
	for (unsigned i = 0; i < r->ncols; i++)
		popts.branch_ipc |= r->cols[i].kind == C_IPC_LBR;
	popts.caller_first = r->use_callchain;
	popts.order = r->gorder;
	popts.match = r->gkey;
	popts.max_stack = (unsigned)r->max_stack;
	popts.hide_unresolved = r->hide_unresolved;
	popts.ignore_callees = r->ignore_callees;
	popts.full_srcpath = r->full_source_path;
	popts.filter = r->filter;
	popts.time_quantum = 100000000;	/* perf's default --time-quantum 100ms */
	const struct pev_data_features *tf = pev_data_features(r->data);

	if (tf && tf->nr_topo_cpus) {
		r->cpu_socket = calloc(tf->nr_topo_cpus, sizeof(*r->cpu_socket));
		for (size_t i = 0; r->cpu_socket && i < tf->nr_topo_cpus; i++)
			r->cpu_socket[i] = (int32_t)tf->topo_cpus[i].socket_id;
		popts.cpu_socket = r->cpu_socket;
		popts.nr_cpu_socket = r->cpu_socket ? tf->nr_topo_cpus : 0;
	}
	/* perf's --socket-filter: entries of other sockets hidden (a file
	 * without a topology has no socket) */
	if (r->socket_filter >= 0) {
		popts.socket_filter_on = true;
		popts.socket_filter = r->socket_filter;
	}
	r->prof = pev_profile_new(r->machine, r->chain, pev_data_decoder(r->data), &popts);
	if (!r->prof) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	const struct pev_data_features *f = pev_data_features(r->data);

	for (size_t i = 0; f && i < f->nr_build_ids; i++) {
		struct pev_dso *dso = f->build_ids[i].filename ?
			pev_dso_cache_get(r->dsos, f->build_ids[i].filename) : NULL;

		if (dso)
			pev_profile_seed_dso(r->prof, dso);
	}
	struct progress pr;
	struct stat st;

	progress_init(&pr, "reading the samples", !stat(r->input, &st) ? (uint64_t)st.st_size : 0);
	int rc = report_read(r, on_progress, &pr);

	progress_done(&pr);
	if (rc == -ENOMEM) {
		cli_error("out of memory reading '%s'", r->input);
		return EXIT_ERROR;
	}
	if (rc < 0) {
		cli_error("'%s' is damaged: %s; it may be truncated, record it again",
			  r->input, pev_data_error(r->data));
		return EXIT_ERROR;
	}
	/* perf 6.1: "Found %u unknown events!" (then it stops reading) */
	if (r->st.unknown)
		cli_warn("found %llu unknown events in '%s' (record type %u first) and skipped them; is this an older tool reading a file a newer one wrote?",
			 (unsigned long long)r->st.unknown, r->input, r->st.unknown_type);
	if (pev_profile_finish(r->prof) < 0) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	if (report_setup_groups(r) < 0) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	return EXIT_OK;
}

/* --header, --header-only: the file's header as perf report (and perf
 * script --header) prints it */
static int print_header(struct report *r)
{
	size_t len;
	char *h = cli_header_text(r->data, r->input, r->show_info, &len);

	if (!h) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	if (r->header_only)
		pager_start(!r->no_pager);
	fwrite(h, 1, len, r->out);
	free(h);
	return EXIT_OK;
}

/* Opens r->input and reads it into r->prof with r's options (shared by
 * report and diff); r->data is left open for the printers.  An exit
 * code; on failure the message is printed.  report_release frees what it
 * made, also after a failure. */
int report_load(struct report *r, bool header_only)
{
	char err[512] = "";
	struct stat st;

	if (r->kallsyms && access(r->kallsyms, R_OK)) {
		cli_error("cannot read the kallsyms file '%s': %s", r->kallsyms,
			  strerror(errno));
		return EXIT_ERROR;
	}
	if (r->vmlinux && access(r->vmlinux, R_OK)) {
		cli_error("cannot read the vmlinux file '%s': %s", r->vmlinux, strerror(errno));
		return EXIT_ERROR;
	}
	if (!r->input)
		r->input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ?
			   "-" : "perf.data";
	if (cli_check_owner(r->input, r->force))
		return EXIT_ERROR;
	/* a small window: the report keeps nothing that points into the file */
	struct pev_data_open_opts oo = { .size = sizeof(oo), .window = 8u << 20 };

	r->data = pev_data_open(r->input, &oo, err, sizeof(err));
	if (!r->data) {
		if (errno == ENOENT && strcmp(r->input, "-"))
			cli_error("cannot open '%s': no such file; record one with 'perfev record' or give it with -i",
				  r->input);
		else
			cli_error("cannot read '%s': %s", r->input,
				  cli_data_errmsg(err, errno));
		return EXIT_ERROR;
	}
	/* report itself says so after its output (cli_report_cut, exit 3) */
	if (pev_data_recovered(r->data) && !r->cut_at_end)
		cli_warn("'%s' was cut short (%s); the report shows the samples before the cut",
			 r->input, pev_data_recovered(r->data));
	if (r->symfs && !r->symfs[strspn(r->symfs, "/")])
		r->symfs = NULL;	/* perf: --symfs / is the root, no symfs */
	struct pev_dso_cache_opts dopts = { .size = sizeof(dopts), .kallsyms = r->kallsyms,
					    .symfs = r->symfs, .vmlinux = r->vmlinux,
					    .no_demangle = !r->demangle };

	r->dsos = pev_dso_cache_new(&dopts);
	r->machine = r->dsos ? pev_machine_new(r->dsos) : NULL;
	if (!r->machine) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	/* perf resolves data addresses in the data mappings too */
	if (r->mem_mode)
		pev_machine_set_flags(r->machine, PEV_MACHINE_DATA_MAPS);
	set_build_ids(r);
	r->out = stdout;
	if (header_only)
		return EXIT_OK;
	return setup_and_read(r);
}

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->demangle = true;
	r->inline_on = true;
	r->socket_filter = -1;
	r->group_flag = -1;
}

void report_release(struct report *r)
{
	pev_profile_free(r->prof);
	report_stats_free(r);
	free(r->cpu_socket);
	pev_chain_free(r->chain);
	tracefmt_release(&r->tf);
	pev_filter_free(r->filter);
	pev_machine_free(r->machine);
	pev_dso_cache_free(r->dsos);
	pev_data_close(r->data);
	free(r->ev_leader);
	free(r->ev_members);
	r->ev_leader = r->ev_members = NULL;
	r->nr_group_ev = 0;
	r->prof = NULL;
	r->cpu_socket = NULL;
	r->chain = NULL;
	r->filter = NULL;
	r->machine = NULL;
	r->dsos = NULL;
	r->data = NULL;
}

static int report_run(struct report *r)
{
	int ret;

	if (r->max_stack < 0) {
		cli_error("invalid --max-stack %d; give a number of entries, 0 or more",
			  r->max_stack);
		return EXIT_USAGE;
	}
	if (r->percentage && strcmp(r->percentage, "relative") &&
	    strcmp(r->percentage, "absolute")) {
		cli_error("invalid --percentage '%s'; give 'relative' or 'absolute'",
			  r->percentage);
		return EXIT_USAGE;
	}
	r->relative = r->percentage && !strcmp(r->percentage, "relative");
	if (setup_color(r) < 0)
		return EXIT_USAGE;
	if (r->quiet)	/* perf -q drops the header, and --header-only is ignored */
		r->header = r->header_only = false;
	ret = report_load(r, r->header_only);
	if (ret != EXIT_OK)
		goto out;
	if (r->header_only) {
		ret = print_header(r);
		goto out;
	}
	for (size_t ev = 0; r->hierarchy && ev < r->nr_group_ev; ev++)
		if (report_group_shown(r, ev)) {
			cli_error("--hierarchy cannot show the event group's members side by side; add --no-group for a table per event");
			ret = EXIT_USAGE;
			goto out;
		}
	if (report_hier_refusal(r)) {
		cli_error("%s", report_hier_refusal(r));
		ret = EXIT_USAGE;
		goto out;
	}
	r->print_hier = report_print_hier;
	r->print_group = report_print_group;
	ret = EXIT_ERROR;
	pager_start(!r->no_pager && !r->json);
	if (r->header && !r->json && print_header(r) != EXIT_OK)
		goto out;
	if (r->tasks || r->mmaps) {
		if (report_print_tasks(r) < 0) {
			cli_error("failed to process tasks");
			goto out;
		}
	} else if (r->stats) {
		report_print_stats(r);
	} else if (r->json) {
		report_json(r);
	} else {
		report_print(r);
		if (r->threads)
			report_print_threads(r);
	}
	ret = EXIT_OK;
	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE)
			cli_error("cannot write the output: %s", strerror(errno));
		ret = EXIT_ERROR;
	}
out:
	/* a file cut short: what it holds was reported, then one warning
	 * saying what is missing, exit 3 (as script) */
	if (ret == EXIT_OK && r->data)
		ret = cli_report_cut(r->input, r->data);
	report_release(r);
	return ret;
}

static void report_color_values(FILE *out)
{
	fputs("always\nnever\nauto\n", out);
}

int cmd_report(int argc, char **argv)
{
	struct report r;
	static const char *const usage[] = {
		"perfev report [<options>]",
		NULL,
	};

	report_init(&r);
	r.children_flag = true;
	r.branch_flag = -1;
	r.gmin_percent = 0.5;
	r.max_stack = cli_max_stack_default();
	r.cut_at_end = true;

	const struct opt opts[] = {
		{ OPT_STRING, 'i', "input", &r.input, "file", "input file (default perf.data, or the pipe on stdin)", NULL, 0 },
		{ OPT_BOOL, 0, "stdio", &r.stdio, NULL, "text output (the only one; accepted for perf's command lines)", NULL, 0 },
		{ OPT_BOOL, 'j', "json", &r.json, NULL, "the same table as JSON (schema in perfev-report(1))", NULL, 0 },
		{ OPT_CALLBACK, 's', "sort", NULL, "key[,key...]", "sort by keys: overhead, overhead_sys, overhead_us, overhead_children, sample, period, pid, comm, dso, symbol, cpu, socket, srcline, time, symbol_size, dso_size, weight, local_weight, cgroup_id, code_page_size, parent, trace; with --mem-mode mem, snoop, tlb, locked, blocked, symbol_daddr, dso_daddr, dcacheline, phys_daddr, data_page_size, symbol_iaddr; in branch mode dso_from, dso_to, symbol_from, symbol_to, addr_from, addr_to, mispredict, in_tx, abort, cycles, srcline_from, srcline_to (default comm,dso,symbol; trace for tracepoints only; perf's memory order with --mem-mode; comm,dso_from,symbol_from,symbol_to,cycles in branch mode)", opt_sort, 0, report_sort_values },
		{ OPT_STRING, 'F', "fields", &r.fields, "field[,field...]", "output fields in this order: overhead, overhead_children, overhead_sys, overhead_us, overhead_guest_sys, overhead_guest_us, sample, period and sort keys (they sort the entries, after -s; +field: after the default columns)", NULL, 0, report_field_values },
		{ OPT_CALLBACK, 'b', "branch-stack", NULL, NULL, "branch mode: one entry per branch of the samples' branch stacks (default on files that have them)", opt_branch, OPT_NOARG },
		{ OPT_CALLBACK, 0, "no-branch-stack", NULL, NULL, "not branch mode on a file with branch stacks", opt_branch, OPT_NOARG },
		{ OPT_BOOL, 0, "branch-history", &r.branch_history, NULL, "the samples' branch stacks in their call graphs (perf's; sort srcline,symbol,dso, chains by address)", NULL, 0 },
		{ OPT_STRING, 'p', "parent", &r.parent, "regex", "the parent key's functions (POSIX extended regex, default ^sys_|^do_page_fault); adds the parent key", NULL, 0 },
		{ OPT_BOOL, 0, "mem-mode", &r.mem_mode, NULL, "memory access profile: samples count their weight (perf's --mem-mode); enables the keys mem, snoop, tlb, locked, blocked, symbol_daddr, dso_daddr, dcacheline, phys_daddr, data_page_size", NULL, 0 },
		{ OPT_BOOL, 'x', "exclude-other", &r.exclude_other, NULL, "only samples with a parent (see -p)", NULL, 0 },
		{ OPT_BOOL, 0, "hierarchy", &r.hierarchy, NULL, "one level per sort key, indented, each with its own percentage (not with call graphs)", NULL, 0 },
		{ OPT_CALLBACK, 0, "group", NULL, NULL, "show the members of an event group side by side, a column each (default on a file with groups; on a file without: all its events one group)", opt_group, OPT_NOARG },
		{ OPT_CALLBACK, 0, "no-group", NULL, NULL, "each event of a group in a table of its own", opt_group, OPT_NOARG },
		{ OPT_BOOL, 0, "children", &r.children_flag, NULL, "accumulate callers' periods (Children column; default with call chains)", NULL, 0 },
		{ OPT_CALLBACK, 'g', "call-graph", NULL, "mode[,threshold[,limit]],order,key,value", "call graphs: graph, fractal, flat, folded, none; threshold percent (0.5); caller or callee; function or address; percent, period or count (alone: graph,0.5,caller)", opt_callgraph, OPT_OPTNEXT },
		{ OPT_STRING, 0, "ignore-callees", &r.ignore_callees, "regex", "in call chains, drop the callees of the functions matching this regex (POSIX extended): samples count there", NULL, 0 },
		{ OPT_BOOL, 'G', "inverted", &r.inverted, NULL, "caller-based call graphs", NULL, 0 },
		{ OPT_CALLBACK, 0, "percent-limit", NULL, "percent", "hide entries (and graph branches) below this percentage", opt_percent_limit, 0 },
		{ OPT_INT, 0, "max-stack", &r.max_stack, "n", "use at most n entries of each call chain (perf_event_max_stack)", NULL, 0 },
		{ OPT_BOOL, 'n', "show-nr-samples", &r.show_nr, NULL, "a Samples column", NULL, 0 },
		{ OPT_BOOL, 0, "show-total-period", &r.show_total_period, NULL, "a Period column", NULL, 0 },
		{ OPT_BOOL, 0, "show-cpu-utilization", &r.show_cpu_util, NULL, "sys and usr columns", NULL, 0 },
		{ OPT_STRING, 0, "percentage", &r.percentage, "relative|absolute", "percentages of filtered entries: of what the filters keep, or of everything (default)", NULL, 0 },
		{ OPT_BOOL, 0, "header", &r.header, NULL, "print the file's header before the report", NULL, 0 },
		{ OPT_BOOL, 0, "header-only", &r.header_only, NULL, "print only the file's header", NULL, 0 },
		{ OPT_BOOL, 'I', "show-info", &r.show_info, NULL, "with --header(-only): the CPU and NUMA topology, caches and memory nodes in full", NULL, 0 },
		{ OPT_BOOL, 0, "raw-trace", &r.raw_trace, NULL, "the trace key shows the raw fields (no print fmt, no plugins)", NULL, 0 },
		{ OPT_BOOL, 0, "stats", &r.stats, NULL, "only the number of records of each type (perf's Aggregated stats)", NULL, 0 },
		{ OPT_BOOL, 0, "tasks", &r.tasks, NULL, "only the file's tasks: pid, tid, ppid and comm, children under their parent", NULL, 0 },
		{ OPT_BOOL, 0, "mmaps", &r.mmaps, NULL, "--tasks with each task's maps", NULL, 0 },
		{ OPT_BOOL, 'T', "threads", &r.threads, NULL, "per-thread counts of the file's READ records (perf record -s) after the report", NULL, 0 },
		{ OPT_BOOL, 'q', "quiet", &r.quiet, NULL, "no header lines and no tip", NULL, 0 },
		{ OPT_STRING, 0, "kallsyms", &r.kallsyms, "file", "kernel symbols from this kallsyms file", NULL, 0 },
		{ OPT_STRING, 'k', "vmlinux", &r.vmlinux, "file", "kernel symbols from this vmlinux (ELF) only", NULL, 0 },
		{ OPT_STRING, 0, "symfs", &r.symfs, "directory", "look for the programs, libraries and their debug files under this directory", NULL, 0 },
		{ OPT_STRING, 't', "field-separator", &r.field_sep, "separator", "separate the columns with this text (no padding of numbers, no dotted line)", NULL, 0 },
		{ OPT_BOOL, 0, "inline", &r.inline_on, NULL, "the inline frames DWARF gives in call chains (default; --no-inline: none)", NULL, 0 },
		{ OPT_BOOL, 0, "demangle", &r.demangle, NULL, "demangle C++ and Rust names (default; --no-demangle shows them as the files spell them)", NULL, 0 },
		{ OPT_BOOL, 0, "full-source-path", &r.full_source_path, NULL, "srclines with the source file's full path", NULL, 0 },
		{ OPT_INT, 0, "samples", &r.samples, "n", "samples kept per entry for perf's TUI browser (accepted; no effect on text)", NULL, 0 },
		{ OPT_STRING, 0, "stdio-color", &r.stdio_color, "mode", "colour the percentages by heat: always, never, auto (default: on a terminal)", NULL, 0, report_color_values },
		{ OPT_CALLBACK, 0, "no-color", NULL, NULL, "no colour (--stdio-color never)", opt_no_color, OPT_NOARG },
		{ OPT_BOOL, 0, "no-pager", &r.no_pager, NULL, "do not page the output on a terminal", NULL, 0 },
		{ OPT_BOOL, 'f', "force", &r.force, NULL, "read a file owned by another user", NULL, 0 },
		{ OPT_GROUP, 0, NULL, NULL, NULL, "filters (perf's syntax)", NULL, 0 },
		{ OPT_STRING, 0, "comms", &r.fopts.comm, "comm[,comm...]", "only these comms (file://PATH: one a line)", NULL, 0 },
		{ OPT_STRING, 'c', "comm", &r.fopts.comm, "comm[,comm...]", NULL, NULL, OPT_HIDDEN },
		{ OPT_STRING, 0, "pid", &r.fopts.pid, "pid[,pid...]", "only these processes", NULL, 0 },
		{ OPT_STRING, 0, "tid", &r.fopts.tid, "tid[,tid...]", "only these threads", NULL, 0 },
		{ OPT_STRING, 'd', "dsos", &r.fopts.dso, "dso[,dso...]", "only these DSOs", NULL, 0 },
		{ OPT_STRING, 'S', "symbols", &r.fopts.symbols, "symbol[,symbol...]", "only these symbols", NULL, 0 },
		{ OPT_STRING, 'C', "cpu", &r.fopts.cpu, "cpu", "only these CPUs: 0-3,6", NULL, 0 },
		{ OPT_BOOL, 'U', "hide-unresolved", &r.hide_unresolved, NULL, "only samples whose address has a symbol (and chain frames with one)", NULL, 0 },
		{ OPT_STRING, 0, "symbol-filter", &r.symbol_filter, "str", "only entries whose symbol name holds this text", NULL, 0 },
		{ OPT_INT, 0, "socket-filter", &r.socket_filter, "n", "only entries of samples on this processor socket", NULL, 0 },
		{ OPT_STRING, 0, "time", &r.fopts.time, "str", "time span: start,stop in seconds, or percent ranges 10%, 10%/2, 0%-10%", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	int first = opt_parse(argc, argv, opts, usage, 0, &r);

	if (first == OPT_HELP)
		return EXIT_OK;
	if (first < 0)
		return EXIT_USAGE;
	if (first < argc) {
		cli_error("unexpected argument '%s'; perfev report reads a file given with -i",
			  argv[first]);
		return EXIT_USAGE;
	}
	const char *res[] = { r.parent, r.ignore_callees };
	const char *names[] = { "-p/--parent", "--ignore-callees" };

	for (int i = 0; i < 2; i++) {
		regex_t re;
		char msg[128];
		int rc = res[i] ? regcomp(&re, res[i], REG_EXTENDED | REG_NOSUB) : 0;

		if (rc) {
			regerror(rc, &re, msg, sizeof(msg));
			cli_error("invalid %s regex '%s': %s", names[i], res[i], msg);
			return EXIT_USAGE;
		}
		if (res[i])
			regfree(&re);
	}
	return report_run(&r);
}
