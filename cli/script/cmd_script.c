// SPDX-License-Identifier: GPL-2.0-only
/* perfev script: print the records of a perf.data file the way perf
 * script does: samples with symbols and callchains, side-band records on
 * request, or a raw dump. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/header.h"
#include "common/input.h"
#include "common/pager.h"
#include "common/options.h"
#include "script/script.h"

static int opt_fields(const struct opt *o, const char *arg, void *ctx)
{
	struct script *s = ctx;

	(void)o;
	return script_fields_parse(s, arg) < 0 ? -1 : 0;
}

/* perf's --call-trace (parse_call_trace): instruction traces decoded as
 * calls; here, as in perf on a file without one, what remains is its
 * field list "-ip,-addr,-event,-period,+callindent", --ns and DSO names
 * padded to 50 */
static int opt_call_trace(const struct opt *o, const char *arg, void *ctx)
{
	struct script *s = ctx;

	(void)o;
	(void)arg;
	if (script_fields_parse(s, "-ip,-addr,-event,-period,+callindent") < 0)
		return -1;
	s->opt.ns = true;
	s->opt.dso_pad = 50;
	return 0;
}

static void set_build_ids(struct script *s)
{
	const struct pev_data_features *f = pev_data_features(s->data);

	if (!f)
		return;
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct pev_data_build_id *b = &f->build_ids[i];

		if (b->filename)
			pev_dso_cache_set_build_id(s->dsos, b->filename, b->id, b->size);
	}
}

/* perf's normalize_arch(): the file's ARCH feature (uname -m of the
 * recording machine), else this machine's. */
static const char *file_arch(const struct pev_data_features *f)
{
	static struct utsname u;
	const char *a = f && f->arch ? f->arch : NULL;

	if (!a) {
		if (uname(&u) < 0)
			return "unknown";
		a = u.machine;
	}
	if (!strcmp(a, "x86_64") || (a[0] == 'i' && a[1] && a[2] == '8' && a[3] == '6'))
		return "x86";
	if (!strcmp(a, "aarch64") || !strcmp(a, "arm64"))
		return "arm64";
	return a;
}

/* perf refuses tod without the CLOCK_DATA feature (perf record -k). */
static bool tod_possible(struct script *s)
{
	const struct pev_data_features *f = pev_data_features(s->data);

	if (f && pev_data_features_has(f, PEV_FEAT_CLOCK_DATA))
		return true;
	for (size_t i = 0; i < s->nr_events; i++)
		if (s->events[i].ready && (s->events[i].fields & F_TOD))
			return false;
	return true;
}

/* --per-event-dump's end: each file flushed and closed, and perf's line
 * per event on stdout, whose size is what perf's stdio had written when
 * it looked (whole blocks of the file's st_blksize: fstat before fclose).
 * EXIT_OK, or EXIT_ERROR after the error line. */
static int dump_close_all(struct script *s)
{
	int ret = EXIT_OK;

	for (size_t i = 0; i < s->nr_events; i++) {
		struct script_event *ev = &s->events[i];
		struct stat st;
		uint64_t size = 0;

		if (!ev->dump.buf)
			continue;
		so_flush(&ev->dump);
		if (ev->dump.err && ret == EXIT_OK) {
			cli_error("cannot write '%s': %s", ev->dump_path, strerror(-ev->dump.err));
			ret = EXIT_ERROR;
		}
		if (!fstat(ev->dump.fd, &st)) {
			uint64_t blk = st.st_blksize > 0 ? (uint64_t)st.st_blksize : 8192;

			size = (uint64_t)st.st_size - (uint64_t)st.st_size % blk;
		}
		if (close(ev->dump.fd) && ret == EXIT_OK) {
			cli_error("cannot write '%s': %s", ev->dump_path, strerror(errno));
			ret = EXIT_ERROR;
		}
		so_release(&ev->dump);
		so_printf(&s->out, "[ perf script: Wrote %.3f MB %s (%llu samples) ]\n",
			  (double)size / 1024.0 / 1024.0, ev->dump_path,
			  (unsigned long long)ev->dump_samples);
	}
	return ret;
}

static void handle(struct script *s, const struct pev_record *rec)
{
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		/* --graph-function shows the calls and returns decoded from
		 * an instruction trace (perf's show_event: samples whose
		 * flags say call or return); a perf.data sample has none */
		if (s->opt.graph_function)
			break;
		if (script_filter_sample(s, rec))
			script_print_sample(s, rec);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		pev_machine_process(s->machine, rec);
		if (s->opt.show_mmap && script_filter_side(s, rec))
			script_print_side(s, rec);
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
		pev_machine_process(s->machine, rec);
		if (s->opt.show_task && script_filter_side(s, rec))
			script_print_side(s, rec);
		break;
	case PERF_RECORD_EXIT:
		if (s->opt.show_task && script_filter_side(s, rec))
			script_print_side(s, rec);
		pev_machine_process(s->machine, rec);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (s->opt.show_switch && script_filter_side(s, rec))
			script_print_side(s, rec);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		if (s->opt.show_lost && script_filter_side(s, rec))
			script_print_side(s, rec);
		break;
	case PERF_RECORD_NAMESPACES:
		if (s->opt.show_namespace && script_filter_side(s, rec))
			script_print_side(s, rec);
		break;
	case PERF_RECORD_CGROUP:
		if (s->opt.show_cgroup && script_filter_side(s, rec))
			script_print_side(s, rec);
		break;
	case PEV_RECORD_FINISHED_ROUND:
		/* perf's process_finished_round_event: the bare name, for
		 * every round, whatever the filters */
		if (s->opt.show_rounds)
			so_mem(&s->out, "PERF_RECORD_FINISHED_ROUND\n", 27);
		break;
	case PEV_RECORD_HEADER_BUILD_ID: {
		const struct pev_record_build_id *b = &rec->u.build_id;

		pev_dso_cache_set_build_id(s->dsos, b->filename, b->build_id,
					   b->size > 20 ? 20 : b->size);
		break;
	}
	default:
		break;
	}
}

static int run(struct script *s)
{
	struct pev_data_event ev;
	struct progress prog;
	uint64_t bad = 0, base = pev_data_data_offset(s->data);
	char title[320];
	int rc;

	if (s->opt.header || s->opt.header_only) {
		size_t hlen;
		char *h = cli_header_text(s->data, s->opt.input, s->opt.show_info, &hlen);

		if (!h) {
			cli_error("out of memory");
			return EXIT_ERROR;
		}
		/* --header-only on a pipe: perf reads no record, and the
		 * features are records there: the header's own lines only */
		if (s->opt.header_only && pev_data_is_pipe(s->data)) {
			const char *end = strstr(h, "\n# ========\n#\n");

			if (end)
				hlen = (size_t)(end - h) + 14;
		}
		so_mem(&s->out, h, hlen);
		free(h);
	}
	if (s->opt.header_only) {
		so_flush(&s->out);
		if (s->out.err && s->out.err != -EPIPE)
			cli_error("cannot write the output: %s", strerror(-s->out.err));
		return s->out.err ? EXIT_ERROR : EXIT_OK;
	}
	/* --per-event-dump: a file per event of the file, as perf opens
	 * them before reading */
	for (size_t i = 0; s->opt.per_event_dump && i < s->nr_events; i++)
		if (s->events[i].ready && script_dump_open(s, i) < 0)
			return EXIT_ERROR;
	/* perf script does not page; its output streams, so the progress
	 * line is for output that does not go to the terminal. */
	snprintf(title, sizeof(title), "reading '%s'", s->opt.input);
	progress_init(&prog, title, pev_data_is_pipe(s->data) || isatty(STDOUT_FILENO) ? 0 :
			      pev_data_data_size(s->data));
	for (;;) {
		/* -D, and --show-round-events as perf 6.1 (which then
		 * turns its ordering off): in file order */
		rc = s->opt.dump_raw || s->opt.show_rounds ? pev_data_next(s->data, &ev) :
		     pev_data_next_ordered(s->data, &ev);
		if (rc <= 0)
			break;
		progress_update(&prog, ev.offset - base);
		if (s->opt.dump_raw) {
			script_dump_raw(s, &ev);
			if (!ev.decode_error)
				handle(s, &ev.rec);
		} else if (ev.decode_error) {
			bad++;
		} else {
			handle(s, &ev.rec);
		}
		if (s->out.err || s->dump_failed)
			break;
	}
	progress_done(&prog);
	int dret = s->opt.per_event_dump ? dump_close_all(s) : EXIT_OK;

	so_flush(&s->out);
	if (s->dump_failed || dret != EXIT_OK)
		return EXIT_ERROR;
	if (s->out.err) {
		if (s->out.err != -EPIPE)
			cli_error("cannot write the output: %s", strerror(-s->out.err));
		return EXIT_ERROR;
	}
	if (rc < 0) {
		cli_error("'%s' is damaged: %s; it may be truncated, record it again",
			  s->opt.input, pev_data_error(s->data));
		return EXIT_ERROR;
	}
	if (bad)
		cli_warn("%llu records of '%s' could not be decoded and were skipped",
			 (unsigned long long)bad, s->opt.input);
	return cli_report_cut(s->opt.input, s->data);
}

int cmd_script(int argc, char **argv)
{
	struct script s;
	static const char *const usage[] = {
		"perfev script [<options>]",
		NULL,
	};

	memset(&s, 0, sizeof(s));
	s.opt.max_stack = 127;
	s.opt.inline_frames = true;
	s.opt.demangle = true;
	s.opt.filter.size = sizeof(s.opt.filter);
	const struct opt opts[] = {
		{ OPT_STRING, 'i', "input", &s.opt.input, "file", "input file (default perf.data, or the pipe on stdin; '-' reads a pipe)", NULL, 0 },
		{ OPT_CALLBACK, 'F', "fields", NULL, "[type:]fields", "fields to print (perf's): comm,tid,pid,time,cpu,event,trace,ip,sym,dso,addr,symoff,srcline,period,iregs,uregs,brstack,brstacksym,flags,data_src,weight,bpf-output,brstackinsn,brstackinsnlen,brstackoff,callindent,insn,insnlen,synth,phys_addr,metric,misc,srccode,ipc,tod,data_page_size,code_page_size,ins_lat,cgroup; types hw,sw,trace,raw,break,synth; +f/-f add/remove", opt_fields, 0, script_field_values },
		{ OPT_BOOL, 0, "show-task-events", &s.opt.show_task, NULL, "print COMM, FORK and EXIT records", NULL, 0 },
		{ OPT_BOOL, 0, "show-mmap-events", &s.opt.show_mmap, NULL, "print MMAP and MMAP2 records", NULL, 0 },
		{ OPT_BOOL, 0, "show-switch-events", &s.opt.show_switch, NULL, "print context-switch records", NULL, 0 },
		{ OPT_BOOL, 0, "show-lost-events", &s.opt.show_lost, NULL, "print LOST records", NULL, 0 },
		{ OPT_BOOL, 0, "show-namespace-events", &s.opt.show_namespace, NULL, "print NAMESPACES records", NULL, 0 },
		{ OPT_BOOL, 0, "show-cgroup-events", &s.opt.show_cgroup, NULL, "print CGROUP records", NULL, 0 },
		{ OPT_BOOL, 0, "show-round-events", &s.opt.show_rounds, NULL, "print FINISHED_ROUND records (and every record in file order, as perf)", NULL, 0 },
		{ OPT_BOOL, 'D', "dump-raw-trace", &s.opt.dump_raw, NULL, "dump every record (file order) with a hex dump", NULL, 0 },
		{ OPT_BOOL, 'G', "hide-call-graph", &s.opt.hide_callchain, NULL, "do not print callchains", NULL, 0 },
		{ OPT_INT, 0, "max-stack", &s.opt.max_stack, "n", "print at most n callchain entries (127)", NULL, 0 },
		{ OPT_STRING, 0, "stop-bt", &s.opt.stop_bt, "symbol[,symbol...]", "end each call chain after a frame of these functions", NULL, 0 },
		{ OPT_CALLBACK, 0, "call-trace", NULL, NULL, "calls from an instruction trace; without one: -F -ip,-addr,-event,-period,+callindent --ns", opt_call_trace, OPT_NOARG },
		{ OPT_STRING, 0, "graph-function", &s.opt.graph_function, "symbol[,symbol...]", "only calls into these functions and their callees (instruction traces: no sample of other files)", NULL, 0 },
		{ OPT_BOOL, 0, "inline", &s.opt.inline_frames, NULL, "print the inline frames DWARF gives (default; --no-inline leaves them out)", NULL, 0 },
		{ OPT_BOOL, 0, "ns", &s.opt.ns, NULL, "times in nanoseconds", NULL, 0 },
		{ OPT_BOOL, 0, "reltime", &s.opt.reltime, NULL, "times from the first record's (--time too)", NULL, 0 },
		{ OPT_BOOL, 0, "deltatime", &s.opt.deltatime, NULL, "times from the previous record's", NULL, 0 },
		{ OPT_STRING, 0, "kallsyms", &s.opt.kallsyms, "file", "kernel symbols from this kallsyms file", NULL, 0 },
		{ OPT_STRING, 0, "symfs", &s.opt.symfs, "dir", "look for the DSOs and their debug files under dir", NULL, 0 },
		{ OPT_BOOL, 0, "demangle", &s.opt.demangle, NULL, "demangle C++ and Rust names (default; --no-demangle prints them as the files spell them)", NULL, 0 },
		{ OPT_GROUP, 0, NULL, NULL, NULL, "filters (perf's syntax)", NULL, 0 },
		{ OPT_STRING, 'c', "comms", &s.opt.filter.comm, "comm[,comm...]", "only samples of these comms (file://PATH: one a line)", NULL, 0 },
		{ OPT_STRING, 0, "comm", &s.opt.filter.comm, "comm[,comm...]", NULL, NULL, OPT_HIDDEN },
		{ OPT_STRING, 0, "pid", &s.opt.filter.pid, "pid[,pid...]", "only samples of these processes", NULL, 0 },
		{ OPT_STRING, 0, "tid", &s.opt.filter.tid, "tid[,tid...]", "only samples of these threads", NULL, 0 },
		{ OPT_STRING, 'C', "cpu", &s.opt.filter.cpu, "cpu", "only samples (and side-band records) of these CPUs: 0-3,6", NULL, 0 },
		{ OPT_STRING, 0, "time", &s.opt.filter.time, "str", "time span of interest: start,stop in seconds (either open, several ranges separated by spaces), or percent ranges 10%, 10%/2, 0%-10%,30%-40%", NULL, 0 },
		{ OPT_STRING, 0, "dsos", &s.opt.filter.dso, "dso[,dso...]", "only samples whose ip is in these DSOs", NULL, 0 },
		{ OPT_STRING, 'S', "symbols", &s.opt.filter.symbols, "symbol[,symbol...]", "only samples whose ip is in these symbols (an entry 0xADDR matches the ip itself, as perf)", NULL, 0 },
		{ OPT_BOOL, 0, "header", &s.opt.header, NULL, "print the file's header first", NULL, 0 },
		{ OPT_BOOL, 0, "header-only", &s.opt.header_only, NULL, "print the file's header only", NULL, 0 },
		{ OPT_BOOL, 0, "per-event-dump", &s.opt.per_event_dump, NULL, "samples of each event to INPUT.EVENT.dump", NULL, 0 },
		{ OPT_BOOL, 'I', "show-info", &s.opt.show_info, NULL, "with --header: the CPU and NUMA topology, caches and memory nodes in full", NULL, 0 },
		{ OPT_BOOL, 'f', "force", &s.opt.force, NULL, "read a file owned by another user", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	int first = opt_parse(argc, argv, opts, usage, 0, &s);

	if (first == OPT_HELP)
		return EXIT_OK;
	if (first < 0)
		return EXIT_USAGE;
	if (first < argc) {
		cli_error("unexpected argument '%s'; perfev script reads a file given with -i",
			  argv[first]);
		return EXIT_USAGE;
	}
	char err[512] = "";
	struct stat st;

	if (s.opt.reltime && s.opt.deltatime) {
		cli_error("--reltime and --deltatime cannot be used together; give one of them");
		return EXIT_USAGE;
	}
	if (s.opt.max_stack < 0) {
		cli_error("invalid --max-stack %d; give a number of entries, 0 or more",
			  s.opt.max_stack);
		return EXIT_USAGE;
	}
	int frc = script_filter_setup(&s);

	if (frc)
		return frc;
	/* perf: "Invalid file" (else every kernel symbol is [unknown]). */
	if (s.opt.kallsyms && access(s.opt.kallsyms, R_OK)) {
		cli_error("cannot read the kallsyms file '%s': %s", s.opt.kallsyms,
			  strerror(errno));
		return EXIT_ERROR;
	}

	/* perf's check_pipe: without -i, a FIFO on stdin is the stream to
	 * read (perf record -o - | perfev script), else ./perf.data. */
	if (!s.opt.input)
		s.opt.input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ?
			      "-" : "perf.data";
	if (cli_check_owner(s.opt.input, s.opt.force))
		return EXIT_ERROR;
	s.data = pev_data_open(s.opt.input, NULL, err, sizeof(err));
	if (!s.data) {
		if (errno == ENOENT && strcmp(s.opt.input, "-"))
			cli_error("cannot open '%s': no such file; record one with 'perfev record' or give it with -i",
				  s.opt.input);
		else
			cli_error("cannot read '%s': %s", s.opt.input,
				  cli_data_errmsg(err, errno));
		return EXIT_ERROR;
	}
	/* perf: --symfs / is the root */
	if (s.opt.symfs && !s.opt.symfs[strspn(s.opt.symfs, "/")])
		s.opt.symfs = NULL;
	struct pev_dso_cache_opts dopts = { .size = sizeof(dopts), .kallsyms = s.opt.kallsyms,
					    .symfs = s.opt.symfs, .no_demangle = !s.opt.demangle };
	int ret = EXIT_ERROR;

	s.dec = pev_data_decoder(s.data);
	s.dsos = pev_dso_cache_new(&dopts);
	s.machine = s.dsos ? pev_machine_new(s.dsos) : NULL;
	/* perf keeps data mappings (record -d) as maps: a page fault's
	 * address resolves in them */
	if (s.machine)
		pev_machine_set_flags(s.machine, PEV_MACHINE_DATA_MAPS);
	s.arch = file_arch(pev_data_features(s.data));
	struct pev_chain_opts copts = {
		.size = sizeof(copts),
		.max_stack = (unsigned)s.opt.max_stack,
		.no_inline = !s.opt.inline_frames,
		.e_machine = !strcmp(s.arch, "arm64") ? EM_AARCH64 :
			     !strcmp(s.arch, "x86") ? EM_X86_64 : 0,
	};

	s.chain = s.machine ? pev_chain_new(s.machine, &copts) : NULL;
	if (!s.chain || so_init(&s.out, 1) < 0) {
		cli_error("out of memory");
		goto out;
	}
	set_build_ids(&s);
	/* File mode: check -F against every event before printing anything. */
	for (size_t i = 0; i < pev_decoder_nr_attrs(s.dec); i++) {
		int err2 = script_event_setup(&s, i);

		if (err2 == -EINVAL)
			goto out;
	}
	if ((ret = script_filter_check_file(&s))) {
		ret = ret == EXIT_USAGE ? EXIT_USAGE : EXIT_ERROR;
		goto out;
	}
	ret = EXIT_ERROR;
	if (!tod_possible(&s)) {
		cli_error("cannot print 'tod': '%s' has no clock data; record with -k/--clockid",
			  s.opt.input);
		goto out;
	}
	ret = run(&s);
out:
	so_release(&s.out);
	script_trace_release(&s);
	script_src_release(&s);
	script_insn_release(&s);
	for (size_t i = 0; i < s.nr_events; i++) {
		free(s.events[i].owned);
		free(s.events[i].dump_path);
		if (s.events[i].dump.buf) {	/* an error ended the run */
			close(s.events[i].dump.fd);
			so_release(&s.events[i].dump);
		}
	}
	free(s.events);
	pev_chain_free(s.chain);
	pev_machine_free(s.machine);
	pev_dso_cache_free(s.dsos);
	pev_data_close(s.data);
	script_filter_release(&s);
	return ret;
}
