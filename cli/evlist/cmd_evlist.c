// SPDX-License-Identifier: GPL-2.0-only
/* perfev evlist: the events a perf.data file holds, one a line, as perf
 * 6.1's perf evlist prints them (builtin-evlist.c, evsel__fprintf): the
 * name; with -v every nonzero attr field, with -F the sample frequency or
 * period, with -g the groups, with --trace-fields a tracepoint's fields;
 * a tip line when the file holds a tracepoint. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdio_ext.h>
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

/* Reads exactly n bytes into b->p + b->len (growing it); 1, 0 at the end
 * of the stream (or a short read), -errno. */
struct buf { unsigned char *p; size_t len, cap; };

static int take(int fd, struct buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 1 << 16;

		while (cap < b->len + n)
			cap *= 2;
		unsigned char *q = realloc(b->p, cap);

		if (!q)
			return -ENOMEM;
		b->p = q;
		b->cap = cap;
	}
	while (n) {
		ssize_t r = read(fd, b->p + b->len, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };

			poll(&pfd, 1, -1);
			continue;
		}
		if (r < 0)
			return -errno;
		if (r == 0)
			return 0;
		b->len += (size_t)r;
		n -= (size_t)r;
	}
	return 1;
}

static uint64_t get(const unsigned char *p, size_t n, bool swap)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[swap ? n - 1 - i : i] << (8 * i);
	return v;
}

/* A pipe stream's leading records: the pipe header, then the attrs,
 * features, event names and tracing data perf record writes before the
 * first kernel record.  Read up to there and no further, as perf evlist
 * does: the writer may still be recording for a long time.  A stream
 * in another layout is read to its end.  0 or -errno. */
static int read_pipe_prefix(int fd, struct buf *b)
{
	static const unsigned char magic[8] = "PERFILE2";
	int r = take(fd, b, 16);
	bool swap;

	if (r <= 0)
		return r;
	if (!memcmp(b->p, magic, 8))
		swap = false;
	else if (get(b->p, 8, true) == get(magic, 8, false))
		swap = true;
	else
		goto rest;
	/* little-endian reads of a native stream on this machine */
	swap = swap != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (get(b->p + 8, 8, swap) != 16)
		goto rest;		/* a file's header, not a pipe's */
	for (;;) {
		size_t at = b->len;

		if ((r = take(fd, b, 8)) <= 0)
			return r;
		uint32_t type = (uint32_t)get(b->p + at, 4, swap);
		size_t size = (size_t)get(b->p + at + 6, 2, swap);

		if (type < PEV_RECORD_USER_TYPE_START || type == PEV_RECORD_FINISHED_ROUND ||
		    type == PEV_RECORD_COMPRESSED || type == PEV_RECORD_COMPRESSED2) {
			b->len = at;	/* the records start here */
			return 0;
		}
		if (size < 8 || (r = take(fd, b, size - 8)) <= 0)
			return r;
		/* data that follows the record itself */
		uint64_t extra = type == PEV_RECORD_HEADER_TRACING_DATA && size >= 12 ?
				 get(b->p + at + 8, 4, swap) :
				 type == PEV_RECORD_AUXTRACE && size >= 16 ?
				 get(b->p + at + 8, 8, swap) : 0;

		if (extra > (64u << 20))
			return -EFBIG;
		if (extra && (r = take(fd, b, (size_t)extra)) <= 0)
			return r;
	}
rest:
	while ((r = take(fd, b, 1 << 16)) > 0)
		;
	return r;
}

/* Opens the input: a file or directory by path; a pipe (stdin for "-",
 * a FIFO) through read_pipe_prefix.  NULL after the error line. */
static struct pev_data *open_input(const char *input)
{
	char err[512] = "";
	struct pev_data *d = NULL;
	struct stat st;
	int fd = !strcmp(input, "-") ? STDIN_FILENO : -1;

	if (fd < 0 && !stat(input, &st) && S_ISFIFO(st.st_mode))
		fd = open(input, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		d = pev_data_open(input, NULL, err, sizeof(err));
	} else {
		struct buf b = { NULL, 0, 0 };
		int r = read_pipe_prefix(fd, &b);

		if (r < 0)
			errno = -r;
		else
			d = pev_data_open_mem(b.p ? b.p : (unsigned char *)"", b.len, NULL, err, sizeof(err));
		free(b.p);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	if (d)
		return d;
	if (errno == ENOENT && strcmp(input, "-"))
		cli_error("cannot open '%s': no such file; record one with 'perfev record' or give it with -i",
			  input);
	else
		cli_error("cannot read '%s': %s", input, cli_data_errmsg(err, errno));
	return NULL;
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
	if (!(e.data = open_input(e.input)))
		return EXIT_ERROR;
	int ret = EXIT_OK;
	struct pev_data_cut cut;

	e.tf.data = e.data;
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
		/* said once: what stdout still holds is dropped, so that
		 * main's last flush does not say it again */
		__fpurge(stdout);
		clearerr(stdout);
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
