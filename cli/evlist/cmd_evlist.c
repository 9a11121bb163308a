// SPDX-License-Identifier: GPL-2.0-only
/* perfev evlist: the events a perf.data file holds, one a line, as perf
 * 6.1's perf evlist prints them (builtin-evlist.c, evsel__fprintf): the
 * name; with -v every nonzero attr field, with -F the sample frequency or
 * period, with -g the groups, with --trace-fields a tracepoint's fields;
 * a tip line when the file holds a tracepoint. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include <perfev/perfev.h>
#include <perfev/data.h>
#include "common/attr_name.h"
#include "common/cli.h"
#include "common/header.h"
#include "common/input.h"
#include "common/options.h"
#include "common/tracefmt.h"

struct evlist {
	const char *input;
	bool freq, verbose, group, force, trace_fields;
	struct pev_data *data;
	const struct pev_decoder *dec;
	struct tracefmt tf;
};

/* perf's comma_fprintf: ":" before the first item of a line, "," after. */
static void item(bool *first)
{
	putchar(*first ? ':' : ',');
	*first = false;
}

/* Event i's name: the file's (EVENT_DESC, or a pipe's EVENT_UPDATE), else
 * perf's evsel__name from the attr; a tracepoint's from its format in
 * the tracing data ("sys:name"). */
static const char *event_name(struct evlist *e, size_t i, char *buf, size_t sz)
{
	const struct perf_event_attr *a = pev_decoder_attr(e->dec, i);
	const char *n = pev_data_event_name(e->data, i);
	struct tep_event *tp;

	if (n)
		return n;
	if ((n = cli_attr_name(a, buf, sz)))
		return n;
	switch (a->type) {
	case PERF_TYPE_TRACEPOINT:
		if ((tp = tracefmt_find(&e->tf, a, i))) {
			snprintf(buf, sz, "%s:%s", tp->system, tp->name);
			return buf;
		}
		return "unknown tracepoint";
	case PERF_TYPE_RAW:
		snprintf(buf, sz, "raw 0x%" PRIx64, (uint64_t)a->config);
		return buf;
	default:
		snprintf(buf, sz, "unknown attr type: %u", a->type);
		return buf;
	}
}

/* The group event i leads (GROUP_DESC: perf writes groups of two or more),
 * or NULL; *member: i is in a group it does not lead. */
static const struct pev_data_group_desc *group_of(const struct pev_data_features *f, size_t i,
						  bool *member)
{
	*member = false;
	for (uint32_t g = 0; f && g < f->nr_groups; g++) {
		const struct pev_data_group_desc *gd = &f->groups[g];

		if (i == gd->leader_idx)
			return gd;
		if (i > gd->leader_idx && i - gd->leader_idx < gd->nr_members)
			*member = true;
	}
	return NULL;
}

static void print_group(struct evlist *e, size_t i, const struct pev_data_group_desc *gd)
{
	char buf[256];
	/* perf writes "{anon_group}" for a group without a name and reads
	 * it back as none */
	bool named = gd->name && strcmp(gd->name, "{anon_group}");
	uint32_t nr = gd->nr_members;

	if (nr > 1)
		printf("%s{", named ? gd->name : "");
	fputs(event_name(e, i, buf, sizeof(buf)), stdout);
	for (uint32_t m = 1; m < nr && i + m < pev_decoder_nr_attrs(e->dec); m++)
		printf(",%s", event_name(e, i + m, buf, sizeof(buf)));
	if (nr > 1)
		putchar('}');
}

static void print_trace_fields(struct evlist *e, size_t i, const struct perf_event_attr *a,
			       bool *first)
{
	struct tep_event *tp;
	struct tep_format_field *f;

	item(first);
	if (a->type != PERF_TYPE_TRACEPOINT) {
		fputs(" (not a tracepoint)", stdout);
		return;
	}
	/* perf 6.1 crashes here on a tracepoint whose format it lacks */
	if (!(tp = tracefmt_find(&e->tf, a, i))) {
		fputs(" (no format in the file)", stdout);
		return;
	}
	if (!(f = tp->format.fields)) {
		fputs(" (no trace field)", stdout);
		return;
	}
	printf(" trace_fields: %s", f->name);
	for (f = f->next; f; f = f->next) {
		item(first);
		fputs(f->name, stdout);
	}
}

/* One line per event (perf's evsel__fprintf). */
static void print_events(struct evlist *e)
{
	const struct pev_data_features *f = pev_data_features(e->data);
	size_t n = pev_decoder_nr_attrs(e->dec);
	bool tracepoint = false;
	char buf[256];

	for (size_t i = 0; i < n; i++) {
		const struct perf_event_attr *a = pev_decoder_attr(e->dec, i);
		bool first = true, member;

		if (!a)
			continue;
		if (a->type == PERF_TYPE_TRACEPOINT)
			tracepoint = true;
		if (e->group) {
			const struct pev_data_group_desc *gd = group_of(f, i, &member);

			if (member)
				continue;
			if (gd)
				print_group(e, i, gd);
			else
				fputs(event_name(e, i, buf, sizeof(buf)), stdout);
			putchar('\n');
			continue;
		}
		fputs(event_name(e, i, buf, sizeof(buf)), stdout);
		if (e->verbose) {
			if (cli_attr_fprintf(stdout, a, ": ", ": "))
				first = false;
		} else if (e->freq) {
			item(&first);
			printf(" %s=%" PRIu64, a->freq ? "sample_freq" : "sample_period",
			       (uint64_t)a->sample_period);
		}
		if (e->trace_fields)
			print_trace_fields(e, i, a, &first);
		putchar('\n');
	}
	if (tracepoint && !e->trace_fields)
		puts("# Tip: use 'perfev evlist --trace-fields' to show fields for tracepoint events");
}

/* A pipe holds its attrs, names, groups and tracing data in records
 * before the first kernel record: read up to there (not to the end: the
 * writer may still be recording). */
static int read_pipe_header(struct evlist *e)
{
	struct pev_data_event ev;
	int rc;

	while ((rc = pev_data_next(e->data, &ev)) > 0)
		if (ev.rec.type < PEV_RECORD_USER_TYPE_START)
			return 0;
	return rc;
}

int cmd_evlist(int argc, char **argv)
{
	static const char *const usage[] = {
		"perfev evlist [<options>]",
		NULL,
	};
	struct evlist e;

	memset(&e, 0, sizeof(e));
	const struct opt opts[] = {
		{ OPT_STRING, 'i', "input", &e.input, "file", "input file (default perf.data, or the pipe on stdin; '-' reads a pipe)", NULL, 0 },
		{ OPT_BOOL, 'F', "freq", &e.freq, NULL, "show the sample frequency (or the period)", NULL, 0 },
		{ OPT_BOOL, 'v', "verbose", &e.verbose, NULL, "show every attr field that is set", NULL, 0 },
		{ OPT_BOOL, 'g', "group", &e.group, NULL, "show the event groups", NULL, 0 },
		{ OPT_BOOL, 'f', "force", &e.force, NULL, "read a file owned by another user", NULL, 0 },
		{ OPT_BOOL, 0, "trace-fields", &e.trace_fields, NULL, "show the fields of tracepoint events", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	int first = opt_parse(argc, argv, opts, usage, 0, &e);

	if (first == OPT_HELP)
		return EXIT_OK;
	if (first < 0)
		return EXIT_USAGE;
	if (first < argc) {
		cli_error("unexpected argument '%s'; perfev evlist reads a file given with -i",
			  argv[first]);
		return EXIT_USAGE;
	}
	if (e.group && (e.verbose || e.freq)) {
		cli_error("-g/--group cannot be combined with %s; give them in separate runs",
			  e.verbose ? "-v/--verbose" : "-F/--freq");
		return EXIT_USAGE;
	}
	/* perf's check_pipe: without -i, a FIFO on stdin is the stream to
	 * read, else ./perf.data. */
	struct stat st;

	if (!e.input)
		e.input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	if (cli_check_owner(e.input, e.force))
		return EXIT_ERROR;
	char err[512] = "";

	e.data = pev_data_open(e.input, NULL, err, sizeof(err));
	if (!e.data) {
		if (errno == ENOENT && strcmp(e.input, "-"))
			cli_error("cannot open '%s': no such file; record one with 'perfev record' or give it with -i",
				  e.input);
		else
			cli_error("cannot read '%s': %s", e.input, cli_data_errmsg(err, errno));
		return EXIT_ERROR;
	}
	int ret = EXIT_OK;
	struct pev_data_cut cut;

	e.tf.data = e.data;
	if (pev_data_is_pipe(e.data) && read_pipe_header(&e) < 0) {
		cli_error("'%s' is damaged: %s; it may be truncated, record it again",
			  e.input, pev_data_error(e.data));
		ret = EXIT_ERROR;
		goto out;
	}
	e.dec = pev_data_decoder(e.data);
	if (!pev_decoder_nr_attrs(e.dec)) {
		cli_error("'%s' holds no event; record one with 'perfev record'", e.input);
		ret = EXIT_ERROR;
		goto out;
	}
	print_events(&e);
	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE)
			cli_error("cannot write the output: %s", strerror(errno));
		ret = EXIT_ERROR;
		goto out;
	}
	/* A file cut short: its events were printed (the attrs come first
	 * in the file; names lost with the features are perf's from the
	 * attrs), then script's and report's warning and exit 3.  Its
	 * records are read to find where they stop. */
	if (!pev_data_is_pipe(e.data) && pev_data_cut_info(e.data, &cut)) {
		struct pev_data_event ev;

		while (pev_data_next(e.data, &ev) > 0)
			;
		ret = cli_report_cut(e.input, e.data);
	}
out:
	tracefmt_release(&e.tf);
	pev_data_close(e.data);
	return ret;
}
