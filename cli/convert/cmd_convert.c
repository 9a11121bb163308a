// SPDX-License-Identifier: GPL-2.0-only
/* perfev convert: a perf.data file as folded stacks, a flame graph, pprof,
 * the Firefox Profiler's format, speedscope, Chrome trace events or JSON
 * lines (modelled on `perf data convert`).  The loading is here; each
 * format is a writer of its own (cli/convert_<fmt>.c). */
#include <errno.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "convert/convert.h"
#include "common/input.h"
#include "common/options.h"

static const struct conv_format formats[] = {
	{ "folded", conv_write_folded, NULL, false,
	  "folded stacks (comm;caller;...;callee count), the input of flamegraph.pl and inferno" },
	{ "pprof", conv_write_pprof, NULL, true,
	  "gzipped profile.proto, as go tool pprof reads it" },
	{ "json", conv_write_json, NULL, false,
	  "every record of the file as JSON lines (perf data convert --to-json's fields)" },
	{ "firefox", conv_write_firefox, NULL, true,
	  "the Firefox Profiler's processed format, gzipped JSON (as samply writes)" },
	{ "speedscope", conv_write_speedscope, NULL, false,
	  "speedscope's file format, a sampled profile per thread" },
	{ "chrome", conv_write_chrome, NULL, false,
	  "Chrome trace-event JSON (samples, on-CPU slices) for Perfetto and about:tracing" },
	{ "html", conv_write_html, NULL, false,
	  "a self-contained interactive flame graph (--diff OLD: a differential one)" },
};

static unsigned format_flags(const struct conv_format *fmt)
{
	if (fmt->write == conv_write_pprof)
		return CONV_BY_ADDRESS;
	if (fmt->write == conv_write_json)	/* exact ips */
		return CONV_STREAM | CONV_BY_ADDRESS;
	return 0;
}

static const struct conv_format *find_format(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i].name, name))
			return &formats[i];
	return NULL;
}

/* --to's values (--list-values, shell completion) */
static void format_names(FILE *o)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		fprintf(o, "%s\n", formats[i].name);
}

static void list_formats(FILE *o)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		fprintf(o, "  %-12s %s\n", formats[i].name, formats[i].help);
}

static int open_output(struct conv *c, const struct conv_format *fmt)
{
	const char *name = c->output ? c->output : fmt->default_output;

	if (!name || !strcmp(name, "-")) {
		if (fmt->binary && isatty(STDOUT_FILENO)) {
			cli_error("the %s format is binary and stdout is a terminal; give a file with -o",
				  fmt->name);
			return EXIT_USAGE;
		}
		c->out = stdout;
		c->out_name = "stdout";
		return EXIT_OK;
	}
	c->out = fopen(name, fmt->binary ? "wb" : "w");
	if (!c->out) {
		cli_error("cannot write '%s': %s", name, strerror(errno));
		return EXIT_ERROR;
	}
	c->out_name = name;
	return EXIT_OK;
}

static int close_output(struct conv *c, int ret)
{
	if (!c->out)
		return ret;
	bool bad = fflush(c->out) || ferror(c->out);
	int err = errno;

	if (c->out != stdout)
		bad = fclose(c->out) || bad;
	if (bad && ret == EXIT_OK) {
		if (err != EPIPE && c->out == stdout)
			cli_error("cannot write the output: %s", strerror(err));
		else if (err != EPIPE)
			cli_error("cannot write '%s': %s", c->out_name, strerror(err));
		ret = EXIT_ERROR;
	}
	if (bad && c->out == stdout) {
		/* said once: what stdout still holds is dropped, so that
		 * main's last flush does not say it again */
		__fpurge(stdout);
		clearerr(stdout);
	}
	c->out = NULL;
	/* what was written: only once it is known to be written */
	if (ret == EXIT_OK && !c->quiet && c->summary[0])
		fprintf(stderr, "perfev: %s\n", c->summary);
	return ret;
}

/* The whole command after its options: shared with `perfev flamegraph`. */
int conv_run(struct conv *c)
{
	const struct conv_format *fmt;
	int ret;

	if (!c->to) {
		cli_error("give the output format with --to; one of:");
		list_formats(stderr);
		return EXIT_USAGE;
	}
	fmt = find_format(c->to);
	if (!fmt) {
		cli_error("unknown format '%s' for --to; one of:", c->to);
		list_formats(stderr);
		return EXIT_USAGE;
	}
	if (c->max_stack < 0) {
		cli_error("invalid --max-stack %d; give a number of entries, 0 or more",
			  c->max_stack);
		return EXIT_USAGE;
	}
	if (c->diff_old && strcmp(fmt->name, "html")) {
		cli_error("--diff is for --to html only; give --to html, or leave --diff out");
		return EXIT_USAGE;
	}
	if (c->value_name) {
		if (!strcmp(c->value_name, "samples"))
			c->value = CONV_VALUE_SAMPLES;
		else if (!strcmp(c->value_name, "period"))
			c->value = CONV_VALUE_PERIOD;
		else {
			cli_error("invalid --value '%s'; give 'samples' or 'period'", c->value_name);
			return EXIT_USAGE;
		}
	}
	c->by_address = format_flags(fmt) & CONV_BY_ADDRESS;
	if (format_flags(fmt) & CONV_STREAM) {
		/* the writer reads the file (conv_load) as it writes; the
		 * input is opened first: a bad one leaves -o's file alone */
		ret = conv_open(c);
		if (ret == EXIT_OK)
			ret = open_output(c, fmt);
		if (ret == EXIT_OK)
			ret = close_output(c, fmt->write(c));
		if (ret == EXIT_OK)
			ret = cli_report_cut(c->input, c->data);
		else if (c->out_name && strcmp(c->out_name, "stdout"))
			cli_unlink_partial(c->out_name);	/* no half-written file */
		conv_release(c);
		return ret;
	}
	ret = conv_load(c);
	if (ret == EXIT_OK) {
		ret = open_output(c, fmt);
		if (ret == EXIT_OK)
			ret = close_output(c, fmt->write(c));
		if (ret == EXIT_OK)
			ret = cli_report_cut(c->input, c->data);
	}
	conv_release(c);
	return ret;
}

/* convert, and flamegraph: convert --to html, to flamegraph.html by default */
static int convert_main(int argc, char **argv, bool flamegraph)
{
	struct conv c;
	static const char *const usage[] = {
		"perfev convert [-i perf.data] --to FORMAT [-o FILE] [options]",
		NULL,
	};
	static const char *const fg_usage[] = {
		"perfev flamegraph [-i perf.data] [-o flamegraph.html] [--diff OLD] [options]",
		NULL,
	};

	memset(&c, 0, sizeof(c));
	c.max_stack = cli_max_stack_default();
	const struct opt opts[] = {
		{ OPT_STRING, 'i', "input", &c.input, "file", "input file (default perf.data, or the pipe on stdin)", NULL, 0 },
		{ OPT_STRING, 0, "to", &c.to, "format", "output format: folded, pprof, json, firefox, speedscope, chrome, html", NULL, flamegraph ? OPT_HIDDEN : 0, format_names },
		{ OPT_STRING, 'o', "output", &c.output, "file", flamegraph ? "output file (default flamegraph.html; '-': stdout)" :
		  "output file (default stdout; '-': stdout)", NULL, 0 },
		{ OPT_STRING, 0, "diff", &c.diff_old, "old-file", "html: a differential flame graph of -i against this older file", NULL, 0 },
		{ OPT_STRING, 0, "event", &c.event, "name", "only this event (default every event of the file)", NULL, 0 },
		{ OPT_STRING, 0, "value", &c.value_name, "samples|period", "what a stack counts: its samples, or their period (default samples; period for offcpu-time)", NULL, 0 },
		{ OPT_INT, 0, "max-stack", &c.max_stack, "n", "use at most n entries of each call chain (perf_event_max_stack)", NULL, 0 },
		{ OPT_BOOL, 0, "no-inline", &c.no_inline, NULL, "leave inlined functions out of the stacks", NULL, 0 },
		{ OPT_BOOL, 0, "with-pid", &c.with_pid, NULL, "folded: comm-PID as the first frame", NULL, 0 },
		{ OPT_BOOL, 0, "with-tid", &c.with_tid, NULL, "folded: comm-PID/TID as the first frame", NULL, 0 },
		{ OPT_BOOL, 0, "kernel-tag", &c.kernel_tag, NULL, "folded: _[k] after kernel functions (stackcollapse-perf.pl --kernel)", NULL, 0 },
		{ OPT_BOOL, 'q', "quiet", &c.quiet, NULL, "no summary line on stderr", NULL, 0 },
		{ OPT_STRING, 0, "kallsyms", &c.kallsyms, "file", "kernel symbols from this kallsyms file", NULL, 0 },
		{ OPT_STRING, 'k', "vmlinux", &c.vmlinux, "file", "kernel symbols from this vmlinux (ELF) only", NULL, 0 },
		{ OPT_STRING, 0, "symfs", &c.symfs, "directory", "look for the programs, libraries and their debug files under this directory", NULL, 0 },
		{ OPT_BOOL, 'f', "force", &c.force, NULL, "read a file owned by another user", NULL, 0 },
		{ OPT_GROUP, 0, NULL, NULL, NULL, "filters (perf report's syntax)", NULL, 0 },
		{ OPT_STRING, 0, "comms", &c.fopts.comm, "comm[,comm...]", "only these comms (file://PATH: one a line)", NULL, 0 },
		{ OPT_STRING, 'c', "comm", &c.fopts.comm, "comm[,comm...]", NULL, NULL, OPT_HIDDEN },
		{ OPT_STRING, 0, "pid", &c.fopts.pid, "pid[,pid...]", "only these processes", NULL, 0 },
		{ OPT_STRING, 0, "tid", &c.fopts.tid, "tid[,tid...]", "only these threads", NULL, 0 },
		{ OPT_STRING, 'd', "dsos", &c.fopts.dso, "dso[,dso...]", "only samples in these DSOs", NULL, 0 },
		{ OPT_STRING, 0, "dso", &c.fopts.dso, "dso[,dso...]", NULL, NULL, OPT_HIDDEN },
		{ OPT_STRING, 'S', "symbols", &c.fopts.symbols, "symbol[,symbol...]", "only samples in these symbols", NULL, 0 },
		{ OPT_STRING, 'C', "cpu", &c.fopts.cpu, "cpu", "only these CPUs: 0-3,6", NULL, 0 },
		{ OPT_STRING, 0, "time", &c.fopts.time, "str", "time span: start,stop in seconds, or percent ranges 10%, 10%/2, 0%-10%", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	int first = opt_parse(argc, argv, opts, flamegraph ? fg_usage : usage, 0, &c);

	if (first == OPT_HELP) {
		if (!flamegraph) {
			printf("\nFormats:\n");
			list_formats(stdout);
		}
		return EXIT_OK;
	}
	if (first < 0)
		return EXIT_USAGE;
	if (first < argc) {
		cli_error("unexpected argument '%s'; perfev %s reads a file given with -i",
			  argv[first], flamegraph ? "flamegraph" : "convert");
		return EXIT_USAGE;
	}
	if (flamegraph) {
		if (c.to && strcmp(c.to, "html")) {
			cli_error("perfev flamegraph writes html; for --to %s use 'perfev convert'", c.to);
			return EXIT_USAGE;
		}
		c.to = "html";
		if (!c.output)
			c.output = "flamegraph.html";
	}
	return conv_run(&c);
}

int cmd_convert(int argc, char **argv)
{
	return convert_main(argc, argv, false);
}

int cmd_flamegraph(int argc, char **argv)
{
	return convert_main(argc, argv, true);
}
