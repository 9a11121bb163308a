// SPDX-License-Identifier: GPL-2.0-only
/* perfev diff: perf 6.1's `perf diff [OLD NEW...]`: the profiles of two
 * or more perf.data files side by side, the first one the baseline.
 * Every file is read as `perfev report` reads it (report_load, the same
 * profile model), with the sort keys (default dso,sym), filters and
 * symbol options given here and no call chains; diff_out.c pairs and
 * prints them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "diff/diff.h"
#include "common/options.h"
#include "common/pager.h"

struct diff_opts {
	struct diff *d;
	const char *sort, *percentage, *symfs, *kallsyms;
	struct pev_filter_opts fopts;
	bool no_pager;
	const char *compute;
};

/* perf's -c: delta, delta-abs, ratio, wdiff:W1,W2 */
static int parse_compute(struct diff *d, const char *s)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	static const struct { const char *name; enum diff_compute c; } m[] = {
		{ "delta", D_DELTA }, { "ratio", D_RATIO }, { "wdiff", D_WDIFF },
		{ "delta-abs", D_DELTA_ABS },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (strlen(m[i].name) != len || strncmp(s, m[i].name, len))
			continue;
		d->compute = m[i].c;
		if (m[i].c == D_WDIFF) {
			char *end;

			if (!colon || !strchr(colon, ','))
				goto weights;
			d->w1 = strtoll(colon + 1, &end, 10);
			d->w2 = *end == ',' ? strtoll(end + 1, NULL, 10) : 0;
			if (!d->w1 || !d->w2 || !end[1])
				goto weights;
			return 0;
		}
		if (colon) {
			cli_error("-c '%s': '%.*s' takes no value; give -c %.*s",
				  s, (int)len, s, (int)len, s);
			return -1;
		}
		return 0;
	}
	if (!strncmp(s, "cycles", len) && len == 6)
		cli_error("-c cycles (basic-block cycles from branch stacks) is not supported by perfev diff yet; use delta, delta-abs, ratio or wdiff:W1,W2");
	else
		cli_error("-c '%s' is not a computation method; use delta, delta-abs, ratio or wdiff:W1,W2",
			  s);
	return -1;
weights:
	cli_error("-c '%s': wrong weights; give two non-zero integers, as in 'wdiff:1,2'", s);
	return -1;
}

/* The sort keys perfev diff pairs entries by. */
static bool diff_key(enum pev_sort_key k)
{
	switch (k) {
	case PEV_SORT_COMM:
	case PEV_SORT_PID:
	case PEV_SORT_DSO:
	case PEV_SORT_SYM:
	case PEV_SORT_CPU:
		return true;
	default:
		return false;
	}
}

static int check_keys(const struct report *r, const char *sort)
{
	for (unsigned i = 0; i < r->nkeys; i++)
		if (!diff_key(r->keys[i])) {
			cli_error("--sort '%s': perfev diff pairs entries by comm, pid, dso, sym and cpu only",
				  sort);
			return -1;
		}
	return r->nkeys ? 0 : -1;
}

/* -s/--sort's values: report's key names that diff_key accepts. */
static bool diff_sort_name(enum col_kind kind, enum pev_sort_key key)
{
	return kind == C_KEY && diff_key(key);
}

static void diff_sort_values(FILE *out)
{
	report_print_names(out, diff_sort_name);
}

/* The options of file f (all files are read with the same). */
static int setup_file(struct diff_opts *o, int f)
{
	struct diff *d = o->d;
	struct report *r = &d->files[f];

	report_init(r);	/* report's defaults (demangling, no socket filter) */
	r->input = d->paths[f];
	r->kallsyms = o->kallsyms;
	r->symfs = o->symfs;
	r->fopts = o->fopts;
	r->force = d->force;
	r->quiet = true;
	r->branch_flag = 0;		/* perf diff has no branch mode */
	r->explicit_callgraph = true;	/* and reads no call chains */
	r->gmode = G_NONE;
	r->max_stack = 127;
	r->sort = o->sort;
	if (report_parse_sort(r, o->sort) < 0)
		return EXIT_USAGE;
	if (!f && check_keys(r, o->sort) < 0)
		return EXIT_USAGE;
	return report_load(r, false);
}

static int diff_run(struct diff_opts *o)
{
	struct diff *d = o->d;
	int ret = EXIT_OK;

	if (o->percentage && strcmp(o->percentage, "relative") &&
	    strcmp(o->percentage, "absolute")) {
		cli_error("invalid --percentage '%s'; give 'relative' or 'absolute'",
			  o->percentage);
		return EXIT_USAGE;
	}
	d->relative = o->percentage && !strcmp(o->percentage, "relative");
	if (d->order < 0 || d->order >= d->nfiles) {
		cli_error("-o/--order %d is out of range: give the index of a file after the baseline, 1 to %d (0: none)",
			  d->order, d->nfiles - 1);
		return EXIT_USAGE;
	}
	if (o->kallsyms && access(o->kallsyms, R_OK)) {
		cli_error("cannot read the kallsyms file '%s': %s", o->kallsyms, strerror(errno));
		return EXIT_ERROR;
	}
	for (int f = 0; f < d->nfiles && ret == EXIT_OK; f++) {
		if (access(d->paths[f], F_OK)) {
			cli_error("cannot open '%s': %s; perfev diff compares OLD NEW (default perf.data.old perf.data): record them with 'perfev record'",
				  d->paths[f], strerror(errno));
			ret = EXIT_ERROR;
			break;
		}
		ret = setup_file(o, f);
	}
	if (ret == EXIT_OK) {
		d->out = stdout;
		pager_start(!o->no_pager);
		if (diff_print(d) < 0) {
			cli_error("out of memory");
			ret = EXIT_ERROR;
		} else if (fflush(stdout) || ferror(stdout)) {
			if (errno != EPIPE)
				cli_error("cannot write the output: %s", strerror(errno));
			ret = EXIT_ERROR;
		}
	}
	for (int f = 0; f < d->nfiles; f++)
		report_release(&d->files[f]);
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	static struct diff d;
	struct diff_opts o;
	static const char *const usage[] = {
		"perfev diff [<options>] [old_file] [new_file...]",
		NULL,
	};

	memset(&d, 0, sizeof(d));
	memset(&o, 0, sizeof(o));
	o.d = &d;
	o.sort = "dso,sym";
	d.compute = D_DELTA_ABS;
	d.order = 1;
	const struct opt opts[] = {
		{ OPT_STRING, 'c', "compute", &o.compute, "delta,delta-abs,ratio,wdiff:w1,w2", "how the other files are compared with the baseline (default delta-abs)", NULL, 0 },
		{ OPT_BOOL, 'p', "period", &d.period, NULL, "period columns", NULL, 0 },
		{ OPT_BOOL, 'F', "formula", &d.formula, NULL, "the formula of each value", NULL, 0 },
		{ OPT_BOOL, 'b', "baseline-only", &d.baseline_only, NULL, "only entries found in the baseline", NULL, 0 },
		{ OPT_INT, 'o', "order", &d.order, "n", "sort first by the values of file n (default 1; 0: by the baseline)", NULL, 0 },
		{ OPT_STRING, 's', "sort", &o.sort, "key[,key...]", "pair and sort entries by comm, pid, dso, sym, cpu (default dso,sym)", NULL, 0, diff_sort_values },
		{ OPT_STRING, 0, "percentage", &o.percentage, "relative|absolute", "percentages of filtered entries: of what the filters keep, or of everything (default)", NULL, 0 },
		{ OPT_STRING, 't', "field-separator", &d.sep, "separator", "columns separated by this instead of two spaces (perf's; '.' is reserved)", NULL, 0 },
		{ OPT_BOOL, 'q', "quiet", &d.quiet, NULL, "no header lines", NULL, 0 },
		{ OPT_BOOL, 0, "stdio", &d.stdio, NULL, "text output (the only one; accepted for perf's command lines)", NULL, 0 },
		{ OPT_BOOL, 'f', "force", &d.force, NULL, "read files owned by another user", NULL, 0 },
		{ OPT_STRING, 0, "kallsyms", &o.kallsyms, "file", "kernel symbols from this kallsyms file", NULL, 0 },
		{ OPT_STRING, 0, "symfs", &o.symfs, "directory", "look for the programs, libraries and their debug files under this directory", NULL, 0 },
		{ OPT_BOOL, 0, "no-pager", &o.no_pager, NULL, "do not page the output on a terminal", NULL, 0 },
		{ OPT_GROUP, 0, NULL, NULL, NULL, "filters (perf's syntax)", NULL, 0 },
		{ OPT_STRING, 'd', "dsos", &o.fopts.dso, "dso[,dso...]", "only these DSOs", NULL, 0 },
		{ OPT_STRING, 'C', "comms", &o.fopts.comm, "comm[,comm...]", "only these comms", NULL, 0 },
		{ OPT_STRING, 'S', "symbols", &o.fopts.symbols, "symbol[,symbol...]", "only these symbols", NULL, 0 },
		{ OPT_STRING, 0, "pid", &o.fopts.pid, "pid[,pid...]", "only these processes", NULL, 0 },
		{ OPT_STRING, 0, "tid", &o.fopts.tid, "tid[,tid...]", "only these threads", NULL, 0 },
		{ OPT_STRING, 0, "cpu", &o.fopts.cpu, "cpu", "only these CPUs: 0-3,6", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	int first = opt_parse(argc, argv, opts, usage, 0, &o);

	if (first == OPT_HELP)
		return EXIT_OK;
	if (first < 0)
		return EXIT_USAGE;
	if (o.compute && parse_compute(&d, o.compute) < 0)
		return EXIT_USAGE;
	if (d.sep && !*d.sep) {
		cli_error("-t/--field-separator needs a separator, e.g. -t ','");
		return EXIT_USAGE;
	}
	d.paths[0] = "perf.data.old";
	d.paths[1] = "perf.data";
	d.nfiles = 2;
	if (argc - first == 1) {
		d.paths[1] = argv[first];
	} else if (argc - first > 1) {
		if (argc - first > DIFF_MAX_FILES) {
			cli_error("%d files given; perfev diff compares at most %d",
				  argc - first, DIFF_MAX_FILES);
			return EXIT_USAGE;
		}
		d.nfiles = argc - first;
		for (int i = 0; i < d.nfiles; i++)
			d.paths[i] = argv[first + i];
	}
	return diff_run(&o);
}
