// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat: options, checks, the event list and the output stream;
 * the counting itself is in stat_run.c, the formats in stat_*.c. */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cli.h"
#include "common/event_list.h"
#include "common/options.h"
#include "common/signals.h"
#include "stat/stat_run.h"

/* perf stat's default set (perf 6.1 without a PMU's "Default" metrics). */
static const char default_events[] =
	"task-clock,context-switches,cpu-migrations,page-faults,"
	"cycles,instructions,branches,branch-misses";

/* -d, -dd, -ddd: perf 6.1's detailed sets, added level by level. */
static const char *const detailed_events[3] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,"
	"iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

struct stat_args {
	const char *specs[64];
	int nspecs;
	const char *pids, *tids, *cpus, *cgroup, *output, *sep;
	bool all_cpus, per_thread, no_aggr, scale, no_inherit, json, big_num;
	int repeat, interval_ms, interval_count, timeout_ms;
	int detailed;		/* -d count */
	int delay_ms, log_fd;
	bool null_run, sync, append, all_user, all_kernel, quiet, summary, no_csv_summary;
	bool interval_clear, table, group, metric_only;
	const char *pre, *post, *for_each_cgroup;
	/* accepted only to explain why they cannot work here */
	const char *metrics, *cputype, *control;
	bool transaction, topdown, smi_cost, iostat;
	int td_level;
	int verbose;		/* -v count */
	enum stat_aggr topo;	/* --per-socket/die/core/node; the last wins */
	const char *topo_opt;
};

static int opt_topo(const struct opt *o, const char *arg, void *ctx)
{
	struct stat_args *a = ctx;
	(void)arg;
	a->topo = !strcmp(o->long_name, "per-socket") ? STAT_AGGR_SOCKET
		: !strcmp(o->long_name, "per-die") ? STAT_AGGR_DIE
		: !strcmp(o->long_name, "per-core") ? STAT_AGGR_CORE : STAT_AGGR_NODE;
	a->topo_opt = o->long_name;
	return 0;
}

static int opt_event(const struct opt *o, const char *arg, void *ctx)
{
	struct stat_args *a = ctx;
	(void)o;
	if (a->nspecs == 64) {
		cli_error("too many -e options; join the events with commas");
		return -1;
	}
	a->specs[a->nspecs++] = arg;
	return 0;
}

static int opt_iostat(const struct opt *o, const char *arg, void *ctx)
{
	(void)o;
	(void)arg;
	((struct stat_args *)ctx)->iostat = true;
	return 0;
}

/* Options perf 6.1 has that need hardware, metric tables or a control
 * channel perfev does not have: say so, rather than counting something
 * else.  Returns an exit status, or -1 when none of them was given. */
static int unsupported_opts(const struct stat_args *a)
{
	if (a->metrics) {
		cli_error("cannot compute metric '%s': perfev has no metric tables for this CPU "
			  "yet; count the events with -e instead", a->metrics);
		return EXIT_ERROR;
	}
	if (a->transaction) {
		cli_error("cannot count transaction events (-T): they need the 'cpu' PMU's TSX "
			  "events (cycles-t, tx-start), and this machine has no hardware PMU");
		return EXIT_ERROR;
	}
	if (a->topdown) {
		cli_error("cannot measure top-down statistics (--topdown): they need the 'cpu' "
			  "PMU's topdown events, and this machine has no hardware PMU");
		return EXIT_ERROR;
	}
	if (a->smi_cost) {
		cli_error("cannot measure SMI cost (--smi-cost): it needs the 'msr' PMU's smi "
			  "counter and the 'cpu' PMU's freeze_on_smi, which this machine lacks");
		return EXIT_ERROR;
	}
	if (a->iostat) {
		cli_error("cannot measure I/O metrics (--iostat): it needs Intel's iio uncore "
			  "PMUs, which this machine lacks");
		return EXIT_USAGE;
	}
	if (a->cputype) {
		cli_error("'--cputype %s' needs a hybrid CPU (cpu_core/cpu_atom PMUs); this "
			  "machine has none", a->cputype);
		return EXIT_USAGE;
	}
	if (a->metric_only) {
		cli_error("--metric-only is not supported by perfev yet; drop it to see the "
			  "metrics beside the counts");
		return EXIT_USAGE;
	}
	if (a->for_each_cgroup && strchr(a->for_each_cgroup, ',')) {
		cli_error("'--for-each-cgroup %s': more than one cgroup is not supported by "
			  "perfev yet; run once per cgroup with -G", a->for_each_cgroup);
		return EXIT_USAGE;
	}
	if (a->control) {
		cli_error("'--control %s' is not supported by perfev yet; use -D to delay "
			  "counting", a->control);
		return EXIT_USAGE;
	}
	return -1;
}

/* -g, --all-user, --all-kernel: change the parsed events as perf does
 * (its names stay as written).  A period= or freq= term is dropped, as
 * perf stat drops it (create_perf_stat_counter): a counting event given
 * a period would become a sampling one, its timer firing every period
 * (cpu-clock/period=100/ slowed the workload 14 times). */
static void adjust_events(const struct stat_args *a, struct pev_evlist *evl)
{
	size_t n = pev_evlist_count(evl);

	for (size_t i = 0; i < n; i++) {
		struct pev_event *e = pev_evlist_event(evl, i);
		struct perf_event_attr *at = &e->attr.attr;
		at->sample_period = 0;
		at->freq = 0;
		if (a->group) {
			e->leader = 0;
			e->group_size = i ? 0 : (int)n;
		}
		if (a->all_kernel) {
			at->exclude_kernel = 0;
			at->exclude_user = 1;
		}
		if (a->all_user) {
			at->exclude_kernel = 1;
			at->exclude_user = 0;
		}
	}
}

static const char *const usage[] = {
	"perfev stat [<options>] [--] <command> [<args>]",
	"perfev stat [<options>] -p <pid> | -t <tid> | -a | -C <cpus> | -G <cgroup>",
	NULL,
};

/* The header names what was counted, as perf does. */
static char *target_desc(const struct stat_args *a, char **argv)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	if (a->pids)
		fprintf(f, "process id '%s'", a->pids);
	else if (a->tids)
		fprintf(f, "thread id '%s'", a->tids);
	else if (a->cpus)
		fprintf(f, "'CPU(s) %s'", a->cpus);
	else if (a->all_cpus || a->cgroup)
		fputs("'system wide'", f);
	else {
		fputc('\'', f);
		for (int i = 0; argv[i]; i++)
			fprintf(f, "%s%s", i ? " " : "", argv[i]);
		fputc('\'', f);
	}
	fclose(f);
	return s;
}

/* Thousands separators come from the locale, as with perf's "%'": only
 * set LC_NUMERIC (a file read at start-up) when the environment names a
 * locale that may have one. */
static bool locale_groups(void)
{
	const char *names[] = { "LC_ALL", "LC_NUMERIC", "LANG" };
	const char *v = NULL;

	for (int i = 0; i < 3 && !v; i++) {
		v = getenv(names[i]);
		if (v && !*v)
			v = NULL;
	}
	if (!v || !strcmp(v, "C") || !strcmp(v, "POSIX") || !strncmp(v, "C.", 2))
		return false;
	return setlocale(LC_NUMERIC, "") != NULL;
}

static int parse_events(struct stat_args *a, struct pev_evlist *evl)
{
	struct pev_parse_opts po = { .size = sizeof(po), .no_pfm = true };
	int n = a->nspecs;
	const char *list[64 + 4];

	/* perf: -d adds its sets to the -e events, or to the default set */
	for (int i = 0; i < n; i++)
		list[i] = a->specs[i];
	if (!n)
		list[n++] = default_events;
	for (int d = 0; d < a->detailed && d < 3; d++)
		list[n++] = detailed_events[d];
	const char *const *specs = list;
	for (int i = 0; i < n; i++) {
		struct pev_parse_error err = { 0 };
		struct stat_tool_edits ed;
		size_t from = pev_evlist_count(evl);
		char *spec = stat_tool_rewrite(specs[i], &ed);
		if (!spec) {
			cli_error("out of memory");
			return -1;
		}
		/* libpfm4 costs milliseconds to set up: ask it only for names
		 * the kernel's own tables do not know. */
		int r = pev_evlist_parse(evl, spec, &po, &err);
		if (r == -ENOENT) {
			struct pev_parse_opts pfm = po;
			pfm.no_pfm = false;
			memset(&err, 0, sizeof(err));
			r = pev_evlist_parse(evl, spec, &pfm, &err);
		}
		free(spec);
		if (r == 0 && stat_tool_units(evl, from) < 0) {
			cli_error("out of memory");
			return -1;
		}
		/* perf refuses freq= when counting (a period= is dropped,
		 * adjust_events) */
		for (size_t k = from; r == 0 && k < pev_evlist_count(evl); k++) {
			if (pev_evlist_event(evl, k)->attr.attr.freq) {
				fflush(stdout);
				fprintf(stderr, "perfev: error: invalid event '%s'\n"
					"'freq' is not usable in 'perfev stat'\n", specs[i]);
				return -1;
			}
		}
		if (r < 0) {
			stat_tool_error_pos(&ed, &err);
			char buf[1024];
			pev_parse_error_format(&err, specs[i], buf, sizeof(buf));
			fflush(stdout);
			fprintf(stderr, "perfev: error: invalid event '%s'\n%s\n", specs[i], buf);
			return -1;
		}
	}
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_args a = { .scale = true, .big_num = true, .repeat = 1, .log_fd = -1 };
	const struct opt opts[] = {
		{ OPT_CALLBACK, 'e', "event", NULL, "events", "event(s) to count (repeatable; {a,b} is a group)", opt_event, 0, event_list_names },
		{ OPT_STRING, 'p', "pid", &a.pids, "pid,...", "count existing processes" , NULL, 0 },
		{ OPT_STRING, 't', "tid", &a.tids, "tid,...", "count existing threads", NULL, 0 },
		{ OPT_BOOL, 'a', "all-cpus", &a.all_cpus, NULL, "system-wide on every CPU", NULL, 0 },
		{ OPT_STRING, 'C', "cpu", &a.cpus, "cpus", "system-wide on these CPUs (0-3,5)", NULL, 0 },
		{ OPT_STRING, 'G', "cgroup", &a.cgroup, "name", "count in this cgroup (v2) only, per CPU", NULL, 0 },
		{ OPT_COUNT, 'd', "detailed", &a.detailed, NULL, "more events: -d caches, -dd TLBs, -ddd prefetches", NULL, 0 },
		{ OPT_BOOL, 'i', "no-inherit", &a.no_inherit, NULL, "do not count child tasks", NULL, 0 },
		{ OPT_INT, 'r', "repeat", &a.repeat, "n", "run n times; print the mean and the noise", NULL, 0 },
		{ OPT_INT, 'I', "interval-print", &a.interval_ms, "msecs", "print the counts every msecs", NULL, 0 },
		{ OPT_INT, 0, "interval-count", &a.interval_count, "n", "stop after n intervals", NULL, 0 },
		{ OPT_INT, 0, "timeout", &a.timeout_ms, "msecs", "stop after msecs", NULL, 0 },
		{ OPT_BOOL, 'A', "no-aggr", &a.no_aggr, NULL, "one line per CPU", NULL, 0 },
		{ OPT_BOOL, 0, "per-cpu", &a.no_aggr, NULL, "the same as -A", NULL, 0 },
		{ OPT_BOOL, 0, "per-thread", &a.per_thread, NULL, "one line per thread", NULL, 0 },
		{ OPT_CALLBACK, 0, "per-socket", NULL, NULL, "one line per processor socket", opt_topo, OPT_NOARG },
		{ OPT_CALLBACK, 0, "per-die", NULL, NULL, "one line per processor die", opt_topo, OPT_NOARG },
		{ OPT_CALLBACK, 0, "per-core", NULL, NULL, "one line per physical core", opt_topo, OPT_NOARG },
		{ OPT_CALLBACK, 0, "per-node", NULL, NULL, "one line per NUMA node", opt_topo, OPT_NOARG },
		{ OPT_BOOL, 'c', "scale", &a.scale, NULL, "scale multiplexed counts (default; --no-scale)", NULL, 0 },
		{ OPT_BOOL, 'B', "big-num", &a.big_num, NULL, "thousands separators (default; --no-big-num)", NULL, 0 },
		{ OPT_STRING, 'x', "field-separator", &a.sep, "sep", "CSV output with this separator", NULL, 0 },
		{ OPT_BOOL, 'j', "json", &a.json, NULL, "JSON output, one object per line", NULL, 0 },
		{ OPT_STRING, 'o', "output", &a.output, "file", "write the counts to file", NULL, 0 },
		{ OPT_BOOL, 0, "append", &a.append, NULL, "append to the -o file", NULL, 0 },
		{ OPT_INT, 0, "log-fd", &a.log_fd, "fd", "write the counts to this file descriptor", NULL, 0 },
		{ OPT_INT, 'D', "delay", &a.delay_ms, "msecs", "start counting after msecs (-1: never)", NULL, 0 },
		{ OPT_BOOL, 'n', "null", &a.null_run, NULL, "count nothing: only the elapsed time", NULL, 0 },
		{ OPT_BOOL, 'S', "sync", &a.sync, NULL, "call sync() before each run", NULL, 0 },
		{ OPT_STRING, 0, "pre", &a.pre, "cmd", "run cmd (sh -c) before each run", NULL, 0 },
		{ OPT_STRING, 0, "post", &a.post, "cmd", "run cmd (sh -c) after each run", NULL, 0 },
		{ OPT_BOOL, 'g', "group", &a.group, NULL, "put all the events in one group", NULL, 0 },
		{ OPT_BOOL, 0, "all-user", &a.all_user, NULL, "count every event in user space only", NULL, 0 },
		{ OPT_BOOL, 0, "all-kernel", &a.all_kernel, NULL, "count every event in the kernel only", NULL, 0 },
		{ OPT_COUNT, 'v', "verbose", &a.verbose, NULL, "more messages (why user-space counter reads are off)", NULL, 0 },
		{ OPT_BOOL, 0, "quiet", &a.quiet, NULL, "print no counts", NULL, 0 },
		{ OPT_BOOL, 0, "summary", &a.summary, NULL, "-I: print the whole run's counts at the end", NULL, 0 },
		{ OPT_BOOL, 0, "no-csv-summary", &a.no_csv_summary, NULL, "no 'summary' column in the -x summary", NULL, 0 },
		{ OPT_BOOL, 0, "interval-clear", &a.interval_clear, NULL, "-I: clear the screen before each interval", NULL, 0 },
		{ OPT_BOOL, 0, "table", &a.table, NULL, "-r: a table of each run's time", NULL, 0 },
		{ OPT_BOOL, 0, "metric-only", &a.metric_only, NULL, "print only the derived metrics (not yet)", NULL, 0 },
		{ OPT_STRING, 0, "for-each-cgroup", &a.for_each_cgroup, "name,...", "count in this cgroup, like -G (one name for now; needs -a)", NULL, 0 },
		{ OPT_STRING, 'M', "metrics", &a.metrics, "metrics", "metric groups (no tables here yet)", NULL, 0 },
		{ OPT_BOOL, 'T', "transaction", &a.transaction, NULL, "TSX transaction statistics (hardware)", NULL, 0 },
		{ OPT_BOOL, 0, "topdown", &a.topdown, NULL, "top-down statistics (hardware)", NULL, 0 },
		{ OPT_INT, 0, "td-level", &a.td_level, "n", "top-down level (with --topdown)", NULL, 0 },
		{ OPT_BOOL, 0, "smi-cost", &a.smi_cost, NULL, "SMI cost (hardware)", NULL, 0 },
		{ OPT_CALLBACK, 0, "iostat", NULL, "default", "I/O metrics (Intel uncore)", opt_iostat, OPT_OPTARG },
		{ OPT_STRING, 0, "cputype", &a.cputype, "type", "hybrid CPUs: core or atom", NULL, 0 },
		{ OPT_STRING, 0, "control", &a.control, "fd:ctl", "enable/disable over a channel (not yet)", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};

	int first = opt_parse(argc, argv, opts, usage, OPT_PARSE_STOP_AT_NON_OPTION, &a);
	if (first == OPT_HELP)
		return EXIT_OK;
	if (first < 0)
		return EXIT_USAGE;
	char **cmd = first < argc ? &argv[first] : NULL;
	int urc = unsupported_opts(&a);
	if (urc >= 0)
		return urc;
	bool attach = a.pids || a.tids || a.all_cpus || a.cpus || a.cgroup;

	if (!cmd && !attach) {
		cli_error("no command to run; give one (perfev stat -- CMD) or a target "
			  "(-p, -t, -a, -C, -G)");
		opt_usage(opts, usage, true);
		return EXIT_USAGE;
	}
	if ((a.pids != NULL) + (a.tids != NULL) + (a.all_cpus || a.cpus || a.cgroup) > 1) {
		cli_error("-p, -t and -a/-C/-G name different targets; use one of them");
		return EXIT_USAGE;
	}
	if (a.repeat < 1 || (a.repeat > 1 && !cmd)) {
		cli_error(a.repeat < 1 ? "'-r %d' must be at least 1"
			  : "'-r %d' repeats a command; give one", a.repeat);
		return EXIT_USAGE;
	}
	if (a.interval_ms < 0 || (a.interval_ms && a.interval_ms < 10)) {
		cli_error("'-I %d' is too short; use 10 ms or more", a.interval_ms);
		return EXIT_USAGE;
	}
	if (a.interval_count && !a.interval_ms) {
		/* perf refuses it too */
		cli_error("--interval-count counts -I intervals; add -I MSECS");
		return EXIT_USAGE;
	}
	if (a.pids || a.tids) {
		pid_t ids[4096];
		const char *list = a.pids ? a.pids : a.tids;
		if (pev_idlist_parse(list, ids, 4096) <= 0) {
			cli_error("'%s' is not a list of %s ids; use %s", list,
				  a.pids ? "process" : "thread",
				  a.pids ? "-p PID[,PID...]" : "-t TID[,TID...]");
			return EXIT_USAGE;
		}
	}
	if (a.timeout_ms < 0 || a.interval_count < 0) {
		cli_error("--timeout and --interval-count take a positive number");
		return EXIT_USAGE;
	}
	if (a.delay_ms < -1) {
		cli_error("'-D %d' is not a delay; give msecs, or -1 to never enable", a.delay_ms);
		return EXIT_USAGE;
	}
	if (a.output && a.log_fd >= 0) {
		cli_error("-o and --log-fd both name where the counts go; use one");
		return EXIT_USAGE;
	}
	if (a.log_fd >= 0 && fcntl(a.log_fd, F_GETFL) < 0) {
		cli_error("'--log-fd %d' is not an open file descriptor; open it in the shell "
			  "(e.g. %d>file)", a.log_fd, a.log_fd);
		return EXIT_USAGE;
	}
	if (a.log_fd < -1) {
		cli_error("'--log-fd %d' is not a file descriptor", a.log_fd);
		return EXIT_USAGE;
	}
	if (a.all_user && a.all_kernel) {
		cli_error("--all-user and --all-kernel exclude each other; choose one");
		return EXIT_USAGE;
	}
	if (a.null_run && (a.nspecs || a.detailed)) {
		cli_error("-n counts nothing, so -e and -d have no effect; drop one");
		return EXIT_USAGE;
	}
	if (a.for_each_cgroup && a.cgroup) {
		cli_error("--for-each-cgroup and -G both choose cgroups; use one");
		return EXIT_USAGE;
	}
	if (a.for_each_cgroup && !a.all_cpus && !a.cpus) {
		cli_error("--for-each-cgroup counts system-wide in each cgroup; add -a");
		return EXIT_USAGE;
	}
	if (a.for_each_cgroup)
		a.cgroup = a.for_each_cgroup;	/* one name: the same as -G */
	if (a.sep && a.json) {
		cli_error("-x and -j are two output formats; choose one");
		return EXIT_USAGE;
	}
	if (a.sep && !*a.sep) {
		cli_error("-x needs a separator, e.g. -x,");
		return EXIT_USAGE;
	}
	if (a.no_aggr + a.per_thread + (a.topo != STAT_AGGR_GLOBAL) > 1) {
		cli_error("-A, --per-thread and --%s are different aggregation modes; choose one",
			  a.topo_opt ? a.topo_opt : "per-core");
		return EXIT_USAGE;
	}
	if (a.topo && !(a.all_cpus || a.cpus || a.cgroup)) {
		cli_error("--%s needs CPUs to count on; add -a or -C", a.topo_opt);
		return EXIT_USAGE;
	}
	if (a.no_aggr && !(a.all_cpus || a.cpus || a.cgroup)) {
		cli_error("-A (per-CPU counts) needs CPUs to count on; add -a or -C");
		return EXIT_USAGE;
	}
	/* perf: -p, -t, or every thread of the system with -a (not -C) */
	if (a.per_thread && !(a.pids || a.tids) && (!a.all_cpus || a.cpus || a.cgroup)) {
		cli_error("--per-thread needs the threads up front; attach with -p or -t, "
			  "or count every thread of the system with -a (without -C or -G)");
		return EXIT_USAGE;
	}

	struct pev_evlist *evl = pev_evlist_new();
	if (!evl) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	if (!a.null_run && parse_events(&a, evl) < 0) {
		pev_evlist_free(evl);
		return EXIT_USAGE;
	}
	adjust_events(&a, evl);

	struct stat_cfg cfg = {
		.argv = cmd, .pids = a.pids, .tids = a.tids, .cpus = a.cpus, .cgroup = a.cgroup,
		.all_cpus = a.all_cpus, .scale = a.scale, .no_inherit = a.no_inherit,
		.verbose = a.verbose,
		.repeat = a.repeat, .interval_ms = a.interval_ms,
		.interval_count = a.interval_count, .timeout_ms = a.timeout_ms,
		.evl = evl,
		.delay_ms = a.delay_ms, .null_run = a.null_run, .sync = a.sync,
		.pre = a.pre, .post = a.post, .table = a.table, .summary = a.summary,
		.csv_summary = !a.no_csv_summary, .interval_clear = a.interval_clear,
		.out = {
			.f = stderr,	/* as perf: never mixed with the workload's stdout */
			.kind = a.json ? STAT_OUT_JSON : a.sep ? STAT_OUT_CSV : STAT_OUT_STD,
			.sep = a.sep ? a.sep : " ",
			.aggr = a.no_aggr ? STAT_AGGR_CPU : a.per_thread ? STAT_AGGR_THREAD
			      : a.topo,
			.interval = a.interval_ms > 0,
			.noise = a.repeat > 1,
			.cgroup = a.cgroup != NULL,
			.unit_width = 4,
		},
	};
	cfg.out.big_num = cfg.out.kind == STAT_OUT_STD && a.big_num && locale_groups();
	char *desc = target_desc(&a, cmd);
	cfg.target_desc = desc ? desc : "''";

	FILE *of = NULL;
	if (a.log_fd >= 0) {
		of = fdopen(a.log_fd, a.append ? "a" : "w");
		if (!of) {
			cli_error("cannot write to fd %d: %s", a.log_fd, strerror(errno));
			free(desc);
			pev_evlist_free(evl);
			return EXIT_ERROR;
		}
		cfg.out.f = of;
	} else if (a.quiet) {
		of = fopen("/dev/null", "we");
		if (of)
			cfg.out.f = of;
	} else if (a.output) {
		of = fopen(a.output, a.append ? "ae" : "we");
		if (!of) {
			cli_error("cannot write '%s': %s", a.output, strerror(errno));
			free(desc);
			pev_evlist_free(evl);
			return EXIT_ERROR;
		}
		time_t now = time(NULL);
		fprintf(of, "# started on %s\n", ctime(&now));
		cfg.out.f = of;
	}

	int signo = 0;
	int rc = stat_run(&cfg, &signo);

	/* A flush that failed during -I left the stream's error flag, and
	 * fclose may then succeed: check both, or counts vanish silently. */
	int ferr = of && ferror(of) ? (cfg.out_errno ? cfg.out_errno : EIO) : 0;
	if (of && fclose(of) != 0 && !ferr)
		ferr = errno;
	if (ferr) {
		cli_error("cannot write '%s': %s", a.output ? a.output : "--log-fd", strerror(ferr));
		if (!rc)
			rc = EXIT_ERROR;
	}
	free(desc);
	pev_evlist_free(evl);
	if (signo && rc != EXIT_ERROR) {
		/* perf ends the way the signal would have ended it. */
		signals_exit_by(signo);
	}
	return rc;
}
