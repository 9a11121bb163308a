// SPDX-License-Identifier: GPL-2.0-only
/* perfev record: sample a command (or processes, threads, CPUs) into a
 * perf.data file.  Options and the order of the steps are here; the attrs
 * and fds in record_setup.c, the drain loop in record_loop.c, build ids
 * and the summary in record_post.c. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/event_list.h"
#include "common/options.h"
#include "common/signals.h"
#include "record/record.h"

static const char *const usage[] = {
	"perfev record [<options>] [--] <command> [<args>]",
	"perfev record [<options>] -p <pid> | -t <tid> | -a | -C <cpus>",
	NULL,
};

static int opt_event(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	(void)o;
	if (a->nspecs == REC_MAX_SPECS) {
		cli_error("too many -e options; join the events with commas");
		return -1;
	}
	a->specs[a->nspecs++] = arg;
	return 0;
}

static int opt_g(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	(void)o; (void)arg;
	a->callchain = true;
	return 0;
}

static int opt_call_graph(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	(void)o;
	a->callchain = true;
	if (!strcmp(arg, "fp")) {
		a->dwarf = false;
		return 0;
	}
	if (!strncmp(arg, "dwarf", 5) && (arg[5] == '\0' || arg[5] == ',')) {
		a->dwarf = true;
		a->stack_size = 8192;
		if (arg[5] == ',') {
			char *end;
			unsigned long v = strtoul(arg + 6, &end, 0);

			/* perf: a multiple of 8 up to 65528 (u16 record size) */
			if (*end || v == 0 || v > 65528) {
				cli_error("invalid dwarf stack size '%s'; give 8..65528 bytes",
					  arg + 6);
				return -1;
			}
			a->stack_size = (unsigned)((v + 7) & ~7UL);
		}
		return 0;
	}
	if (!strcmp(arg, "lbr")) {
		/* LBR call stacks: Intel core PMUs from Haswell on, which
		 * say how many branches they hold in caps/branches */
		if (access("/sys/bus/event_source/devices/cpu/caps/branches", F_OK) &&
		    access("/sys/bus/event_source/devices/cpu_core/caps/branches", F_OK))
			cli_error("--call-graph lbr needs an Intel PMU with LBR call stacks (Haswell or "
				  "later), and this machine has none (no "
				  "/sys/bus/event_source/devices/cpu/caps/branches); use fp or dwarf");
		else
			cli_error("--call-graph lbr is not supported by perfev; use fp or dwarf");
		return -1;
	}
	cli_error("invalid call graph mode '%s'; use fp or dwarf[,size]", arg);
	return -1;
}

static int opt_z(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	(void)o;
	a->zlevel = 1;
	if (arg) {
		char *end;
		long v = strtol(arg, &end, 10);

		if (*end || v < 1 || v > 22) {
			cli_error("invalid compression level '%s'; give 1..22", arg);
			return -1;
		}
		a->zlevel = (int)v;
	}
	return 0;
}

/* -k: perf's clock names (case-insensitive, an optional CLOCK_ prefix)
 * or a number, which the kernel judges at open. */
static int opt_clockid(const struct opt *o, const char *arg, void *ctx)
{
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	struct rec_opts *a = ctx;
	const char *name = arg;
	char *end;
	long v;
	(void)o;
	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	errno = 0;
	v = strtol(arg, &end, 0);
	if (*arg && !*end && !errno && v >= INT_MIN && v <= INT_MAX) {
		a->clockid = (int)v;
		goto found;
	}
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(name, clocks[i].name)) {
			a->clockid = clocks[i].id;
			goto found;
		}
	cli_error("unknown clock '%s'; use mono, raw, realtime, boot, tai or a "
		  "clock number", arg);
	return -1;
found:
	a->use_clockid = true;
	struct timespec res;

	/* perf stores the resolution (CLOCKID); a clock it cannot read
	 * gets none, and the kernel decides at open. */
	a->clockid_res_ns = !clock_getres(a->clockid, &res) ?
		(uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec : 0;
	return 0;
}

/* perf writes a pipe stream for -o - and, without -o, when stdout is a
 * FIFO. */
static bool output_is_pipe(const char *path)
{
	struct stat st;

	if (path)
		return !strcmp(path, "-");
	return !fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode);
}

/* In the workload's child, before its exec: stdout carries the data
 * stream, so the workload writes its own output to stderr (perf 6.1's
 * evlist__prepare_workload does the same dup2 in pipe mode). */
static void workload_stdout_to_stderr(void *arg)
{
	(void)arg;
	dup2(STDERR_FILENO, STDOUT_FILENO);
}

/* perf: an existing, non-empty output becomes NAME.old. */
static int open_output(struct rec *r)
{
	struct stat st;

	if (!r->path) {
		/* perf writes a pipe stream when stdout is a FIFO and no -o. */
		r->path = !fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode) ?
			"-" : "perf.data";
	}
	if (!strcmp(r->path, "-")) {
		r->pipe = true;
		r->fd = STDOUT_FILENO;
		return 0;
	}
	if (!stat(r->path, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		char old[PATH_MAX];

		snprintf(old, sizeof(old), "%s.old", r->path);
		if (rename(r->path, old) < 0) {
			cli_error("cannot rename '%s' to '%s': %s; remove it or use -o",
				  r->path, old, strerror(errno));
			return -errno;
		}
	}
	r->fd = open(r->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (r->fd < 0) {
		cli_error("cannot create '%s': %s; check the directory or use -o",
			  r->path, strerror(errno));
		return -errno;
	}
	fchmod(r->fd, 0600);
	return 0;
}

static int write_error(struct rec *r, int err)
{
	if (r->pipe) {
		cli_error("cannot write the perf.data stream to stdout: %s; "
			  "check the reader of the pipe", strerror(-err));
		return 0;
	}
	int e = rec_recover_truncated(r);
	double mb = (double)pev_data_writer_data_size(r->w) / 1024.0 / 1024.0;
	char what[128];

	if (r->rounds_given_up)
		snprintf(what, sizeof(what), "the file was cut back %u round%s before "
			 "the last complete round", r->rounds_given_up,
			 r->rounds_given_up > 1 ? "s" : "");
	else
		snprintf(what, sizeof(what), "%s", r->data_complete ?
			 "the file holds every record" :
			 "the file was cut back to the last complete round");
	if (e < 0)
		cli_error("cannot write '%s': %s; the file could not be repaired (%s) "
			  "and is incomplete", r->path, strerror(-err), strerror(-e));
	else
		cli_error("cannot write '%s': %s; %s (%.3f MB), %s; free disk space "
			  "or raise the file size limit (ulimit -f)", r->path,
			  strerror(-err), what, mb,
			  e == PEV_DATA_FEATURES_DROPPED ?
			  "without its header features (no room for them)" :
			  r->rounds_given_up ? "to make room for its header features" :
			  "with its header features");
	return 0;
}

/* CMDLINE: perf's own path, then its arguments. */
static int set_cmdline(struct rec *r)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char **v = calloc((size_t)r->cmd_argc + 1, sizeof(*v));
	int e;

	if (!v)
		return -ENOMEM;
	exe[n > 0 ? n : 0] = '\0';
	v[0] = n > 0 ? exe : "perfev";
	for (int i = 0; i < r->cmd_argc; i++)
		v[i + 1] = r->cmd_argv[i];
	e = pev_data_features_set_cmdline(pev_data_writer_features(r->w),
					  r->cmd_argc + 1, v);
	free(v);
	return e;
}

/* GROUP_DESC: each group of two or more events ({a,b}), as perf 6.1
 * writes it (the feature only when there is a group; perfev's groups have
 * no names: "{anon_group}"), so that report shows the group's members
 * side by side. */
static int set_groups(struct rec *r, struct pev_data_features *f)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nev; i++)
		n += r->ev[i].leader == (int)i && pev_evlist_event(r->evl, i)->group_size > 1;
	if (!n)
		return 0;
	f->groups = calloc(n, sizeof(*f->groups));
	if (!f->groups)
		return -ENOMEM;
	for (size_t i = 0; i < r->nev; i++) {
		const struct pev_event *pe = pev_evlist_event(r->evl, i);
		struct pev_data_group_desc *g = &f->groups[f->nr_groups];

		if (r->ev[i].leader != (int)i || pe->group_size < 2)
			continue;
		g->name = strdup("{anon_group}");
		if (!g->name)
			return -ENOMEM;
		g->leader_idx = (uint32_t)i;
		g->nr_members = (uint32_t)pe->group_size;
		f->nr_groups++;
	}
	pev_data_features_set(f, PEV_FEAT_GROUP_DESC, true);
	return 0;
}

/* -k: CLOCKID (the clock's resolution) and CLOCK_DATA (the wall clock and
 * the chosen clock read back to back, so that tools can map sample times
 * to the time of day), as perf record's record__init_clock. */
static void set_clock_features(struct rec *r, struct pev_data_features *f)
{
	struct timeval tod;
	struct timespec ts;

	if (r->o.clockid_res_ns) {
		f->clockid_res_ns = r->o.clockid_res_ns;
		pev_data_features_set(f, PEV_FEAT_CLOCKID, true);
	}
	if (gettimeofday(&tod, NULL) || clock_gettime(r->o.clockid, &ts))
		return;
	f->clock_data.version = 1;
	f->clock_data.clockid = (uint32_t)r->o.clockid;
	f->clock_data.tod_ns = (uint64_t)tod.tv_sec * 1000000000ULL +
			       (uint64_t)tod.tv_usec * 1000ULL;
	f->clock_data.clockid_ns = (uint64_t)ts.tv_sec * 1000000000ULL +
				   (uint64_t)ts.tv_nsec;
	pev_data_features_set(f, PEV_FEAT_CLOCK_DATA, true);
}

/* TRACING_DATA: the formats of the tracepoints recorded, without which
 * perf refuses the file ("broken or missing trace data"). */
static int set_tracing_data(struct rec *r, struct pev_data_features *f)
{
	uint64_t *ids = calloc(r->nev ? r->nev : 1, sizeof(*ids));
	size_t n = 0;
	int e;

	if (!ids)
		return -ENOMEM;
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].attr.attr.type == PERF_TYPE_TRACEPOINT)
			ids[n++] = r->ev[i].attr.attr.config;
	e = n ? pev_data_features_tracing_data(f, ids, n) : 0;
	free(ids);
	if (e == -ENOMEM)
		return e;
	if (e < 0)
		cli_warn("cannot read the tracepoint formats from tracefs (%s): "
			 "the file will lack them and 'perf script' will refuse it; "
			 "mount tracefs with 'mount -t tracefs nodev /sys/kernel/tracing'",
			 strerror(-e));
	return 0;
}

/* *what: the step that failed, for the message ("write the header of"). */
static int start_output(struct rec *r, const char **what)
{
	struct pev_data_writer_opts wo = { .size = sizeof(wo), .pipe = r->pipe,
					   .compress_level = r->o.zlevel };
	int e;

	r->w = pev_data_writer_new(r->fd, &wo);
	if (!r->w)
		return -errno;
	for (size_t i = 0; i < r->nev; i++) {
		e = pev_data_writer_add_attr(r->w, &r->ev[i].attr.attr, r->ev[i].ids,
					     r->ev[i].nids, r->ev[i].name);
		if (e < 0)
			return e;
	}
	struct pev_data_features *f = pev_data_writer_features(r->w);

	if ((e = pev_data_features_from_host(f)) < 0 || (e = set_cmdline(r)) < 0 ||
	    (e = set_groups(r, f)) < 0)
		return e;
	if (r->o.use_clockid)
		set_clock_features(r, f);
	if ((e = set_tracing_data(r, f)) < 0)
		return e;
	*what = "write the header of";
	if ((e = pev_data_writer_start(r->w)) < 0)
		return e;
	*what = "start";

	/* The state that exists already: kernel map, modules, the tasks. */
	struct pev_synth_opts so = { .size = sizeof(so), .attr = &r->ev[0].attr.attr,
				     .id = r->ev[0].nids ? r->ev[0].ids[0] : 0,
				     .cpu = (uint32_t)r->cpus[0], .data_mmaps = r->o.dwarf };
	long n = pev_synth_kernel_mmap(&so, pev_data_writer_emit, r->w);

	if (n >= 0)
		n = pev_synth_modules(&so, pev_data_writer_emit, r->w);
	if (n >= 0 && r->cpu_wide)
		n = pev_synth_all_processes(&so, pev_data_writer_emit, r->w);
	else if (n >= 0 && r->wl && !r->wl_timer)
		n = rec_synth_workload_comm(r, &so);
	if (n >= 0 && !r->cpu_wide && (!r->wl || r->wl_timer))
		n = rec_synth_targets(r, &so);
	if (n >= 0 && r->o.namespaces)
		n = rec_synth_namespaces(r, &so);
	if (n >= 0 && r->o.all_cgroups) {
		n = rec_synth_cgroups(r, &so);
		if (n == -ENODEV)	/* no cgroup file system: nothing to name */
			n = 0;
	}
	if (n < 0 && n != -ENOENT && n != -EACCES) {
		r->write_err = (int)n;
		return (int)n;
	}
	return 0;
}

static int check_freq(struct rec *r)
{
	long max = 0;

	if (r->o.period)
		return 0;
	r->o.user_freq = r->o.freq != 0;
	if (!r->o.freq)
		r->o.freq = 4000;
	if (pev_sysctl_read(PEV_SYSCTL_MAX_SAMPLE_RATE, &max) == 0 && max > 0 &&
	    r->o.freq > max) {
		/* perf lowers the rate with a warning (--strict-freq aside). */
		cli_warn("lowering the sampling frequency from %ld to %ld Hz (the "
			 "maximum); raise /proc/sys/kernel/perf_event_max_sample_rate "
			 "to sample faster", r->o.freq, max);
		r->o.freq = max;
	}
	return 0;
}

/* -C, -p, -t: a list that cannot be parsed is a usage error (perf prints
 * its usage for -C abc and -t abc), not a target that fails later. */
static int check_lists(const struct rec_opts *o)
{
	if (o->cpus && pev_cpulist_parse(o->cpus, NULL, 0) <= 0) {
		cli_error("invalid CPU list '%s' for '-C'; give CPUs below %d like 0-3,5",
			  o->cpus, PEV_MAX_CPUS);
		return -1;
	}
	if (o->pids && pev_idlist_parse(o->pids, NULL, 0) <= 0) {
		cli_error("invalid pid list '%s' for '-p'; give comma-separated process ids",
			  o->pids);
		return -1;
	}
	if (o->tids && pev_idlist_parse(o->tids, NULL, 0) <= 0) {
		cli_error("invalid tid list '%s' for '-t'; give comma-separated thread ids",
			  o->tids);
		return -1;
	}
	return 0;
}

/* Options that exclude or need each other, as perf checks them. */
static int check_combinations(const struct rec_opts *o)
{
	bool cpu = o->all_cpus || o->cpus;

	if (o->cgroup && !cpu) {
		cli_error("cgroup monitoring only available in system-wide mode; add -a or -C");
		return -1;
	}
	if (o->per_thread && cpu) {
		cli_error("'--per-thread' and '-a'/'-C' exclude each other; give one of them");
		return -1;
	}
	if (o->uid_set && (o->pids || o->tids || cpu)) {
		cli_error("'-u' and '-p'/'-t'/'-a'/'-C' exclude each other; give one of them");
		return -1;
	}
	if (o->all_user && o->all_kernel) {
		cli_error("'--all-user' and '--all-kernel' exclude each other; give one of them");
		return -1;
	}
	if (o->overwrite && o->max_size) {
		cli_error("'--overwrite' writes the rings at the end; '--max-size' cannot "
			  "apply; give one of them");
		return -1;
	}
	return 0;
}

/* Enables the leaders: the tracking event (tracking = true) or the
 * others. */
static void enable_events(struct rec *r, bool tracking)
{
	for (size_t i = 0; i < r->nev; i++) {
		if (r->ev[i].leader != (int)i || (r->track_dummy && i == r->track) != tracking)
			continue;
		for (size_t s = 0; s < r->nthreads * r->ncpus; s++)
			if (r->ev[i].fds[s] >= 0)
				pev_ioc_enable(r->ev[i].fds[s], false);
	}
}

/* -D: perf 6.1 sleeps the delay after starting the workload, then enables
 * the events; -1 never does.  A signal or the workload's end cuts it
 * short (the loop then sees them). */
static void delay_start(struct rec *r)
{
	struct timespec end, now;
	sigset_t open;

	if (!r->o.quiet)
		fprintf(stderr, "Events disabled\n");
	if (r->o.delay_ms < 0)
		return;
	signals_wait_mask(&open, true);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += r->o.delay_ms / 1000;
	end.tv_nsec += (r->o.delay_ms % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	while (!signals_stop() && !(signals_child_exited() && r->wl)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		struct timespec left = { end.tv_sec - now.tv_sec, end.tv_nsec - now.tv_nsec };

		if (left.tv_nsec < 0) {
			left.tv_sec--;
			left.tv_nsec += 1000000000L;
		}
		if (left.tv_sec < 0)
			break;
		ppoll(NULL, 0, &left, &open);
	}
	if (signals_stop() || (signals_child_exited() && r->wl))
		return;
	enable_events(r, false);
	if (!r->o.quiet)
		fprintf(stderr, "Events enabled\n");
}

/* Ends the workload if the recording stopped before it (SIGTERM, as
 * perf), and returns its exit code (or -1 when there is none).  A
 * workload that ignores SIGTERM gets 500 ms (SIGCHLD ends the wait), then
 * is left running with a warning: a signal must end perfev within a
 * second. */
static int reap_workload(struct rec *r)
{
	struct timespec end, now;
	sigset_t open;
	bool killed = false;
	int st = 0, pr;

	if (!r->wl)
		return -1;
	signals_wait_mask(&open, false);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_nsec += 500000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	while ((pr = pev_workload_poll(r->wl, &st)) <= 0) {
		if (pr < 0 && pr != -EINTR)
			return EXIT_ERROR;	/* ECHILD: its status is lost */
		if (pr == 0 && !killed) {
			pev_workload_kill(r->wl, SIGTERM);
			killed = true;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		struct timespec left = { end.tv_sec - now.tv_sec, end.tv_nsec - now.tv_nsec };

		if (left.tv_nsec < 0) {
			left.tv_sec--;
			left.tv_nsec += 1000000000L;
		}
		if (left.tv_sec < 0) {
			cli_warn("'%s' (pid %d) did not end after SIGTERM; it is left running",
				 r->argv[0], (int)pev_workload_pid(r->wl));
			return 0;
		}
		/* SIGCHLD ends the wait; 10 ms when waitpid was interrupted */
		if (pr < 0 && (left.tv_sec > 0 || left.tv_nsec > 10000000L))
			left = (struct timespec){ 0, 10000000L };
		ppoll(NULL, 0, &left, &open);
	}
	return pev_wait_status_code(st);
}

int cmd_record(int argc, char **argv)
{
	struct rec r = { .fd = -1, .first_time = UINT64_MAX };
	struct rec_opts *o = &r.o;
	const struct opt opts[] = {
		{ OPT_CALLBACK, 'e', "event", NULL, "events", "event(s) to sample (repeatable; {a,b}:S samples the leader and reads the group)", opt_event, 0, event_list_names },
		{ OPT_CALLBACK, 'F', "freq", NULL, "Hz", "sampling frequency (default 4000; 'max')", rec_opt_freq, 0 },
		{ OPT_CALLBACK, 'c', "count", NULL, "period", "sample every period events", rec_opt_period, 0 },
		{ OPT_CALLBACK, 'g', NULL, NULL, NULL, "record call chains (frame pointers)", opt_g, OPT_NOARG },
		{ OPT_CALLBACK, 0, "call-graph", NULL, "fp|dwarf[,size]", "call chain mode; dwarf copies size bytes of user stack (8192)", opt_call_graph, 0 },
		{ OPT_BOOL, 'a', "all-cpus", &o->all_cpus, NULL, "system-wide on every CPU", NULL, 0 },
		{ OPT_STRING, 'C', "cpu", &o->cpus, "cpus", "system-wide on these CPUs (0-3,5)", NULL, 0 },
		{ OPT_STRING, 'p', "pid", &o->pids, "pid,...", "sample existing processes", NULL, 0 },
		{ OPT_STRING, 't', "tid", &o->tids, "tid,...", "sample existing threads", NULL, 0 },
		{ OPT_BOOL, 'i', "no-inherit", &o->no_inherit, NULL, "do not follow child tasks", NULL, 0 },
		{ OPT_BOOL, 0, "switch-events", &o->switch_events, NULL, "record context switches", NULL, 0 },
		{ OPT_BOOL, 0, "off-cpu", &o->off_cpu, NULL, "off-CPU time as an offcpu-time event, from sched:sched_switch (no BPF)", NULL, 0 },
		{ OPT_CALLBACK, 'm', "mmap-pages", NULL, "pages", "ring buffer data pages per CPU (rounded up to a power of two; or a size like 512K)", rec_opt_mmap_pages, 0 },
		{ OPT_STRING, 'o', "output", &o->output, "file", "output file (default perf.data; - for a pipe stream)", NULL, 0 },
		{ OPT_CALLBACK, 'z', "compression-level", NULL, "n", "compress records with zstd (level 1..22, default 1)", opt_z, OPT_OPTARG },
		{ OPT_CALLBACK, 'k', "clockid", NULL, "clock", "sample times from this clock (mono, raw, realtime, boot, tai, or a number)", opt_clockid, 0 },
		{ OPT_BOOL, 'B', "no-buildid", &o->no_buildid, NULL, "do not collect build ids", NULL, 0 },
		{ OPT_BOOL, 'N', "no-buildid-cache", &o->no_buildid_cache, NULL, "do not add the DSOs with samples to perf's build-id cache (~/.debug)", NULL, 0 },
		{ OPT_BOOL, 'q', "quiet", &o->quiet, NULL, "no summary", NULL, 0 },
		{ OPT_COUNT, 'v', "verbose", &o->verbose, NULL, "more messages", NULL, 0 },
		{ OPT_GROUP, 0, NULL, NULL, NULL, "Sample content", NULL, 0 },
		{ OPT_BOOL, 'd', "data", &o->sample_addr, NULL, "record the sample (data) addresses", NULL, 0 },
		{ OPT_BOOL, 0, "phys-data", &o->phys_data, NULL, "record the sample physical addresses", NULL, 0 },
		{ OPT_BOOL, 0, "data-page-size", &o->data_page_size, NULL, "record the page size of the data addresses", NULL, 0 },
		{ OPT_BOOL, 0, "code-page-size", &o->code_page_size, NULL, "record the page size of the code addresses", NULL, 0 },
		{ OPT_BOOL, 'T', "timestamp", &o->sample_time, NULL, "record the sample timestamps", NULL, 0 },
		{ OPT_BOOL, 0, "sample-cpu", &o->sample_cpu, NULL, "record the sample cpu", NULL, 0 },
		{ OPT_BOOL, 'P', "period", &o->sample_period, NULL, "record the sample period", NULL, 0 },
		{ OPT_BOOL, 'W', "weight", &o->weight, NULL, "sample by weight (on special events only)", NULL, 0 },
		{ OPT_BOOL, 'R', "raw-samples", &o->raw, NULL, "record raw sample data (tracepoint fields)", NULL, 0 },
		{ OPT_BOOL, 'n', "no-samples", &o->no_samples, NULL, "don't sample (side-band records only)", NULL, 0 },
		{ OPT_BOOL, 's', "stat", &o->inherit_stat, NULL, "per thread counts (READ records at each exit)", NULL, 0 },
		{ OPT_CALLBACK, 'I', "intr-regs", NULL, "regs", "sample machine registers on interrupt ('-I?' lists them)", rec_opt_intr_regs, OPT_OPTARG },
		{ OPT_CALLBACK, 0, "user-regs", NULL, "regs", "sample user registers ('--user-regs=?' lists them)", rec_opt_user_regs, OPT_OPTARG },
		{ OPT_CALLBACK, 'b', "branch-any", NULL, NULL, "sample any taken branches (branch stack)", rec_opt_branch_any, OPT_NOARG },
		{ OPT_CALLBACK, 'j', "branch-filter", NULL, "mode,...", "branch stack filter: any,any_call,any_ret,ind_call,ind_jmp,call,cond,abort_tx,in_tx,no_tx,save_type,stack,priv,u,k,hv", rec_opt_branch_filter, 0 },
		{ OPT_GROUP, 0, NULL, NULL, NULL, "Targets and control", NULL, 0 },
		{ OPT_CALLBACK, 'D', "delay", NULL, "ms", "start the events ms after the workload starts (-1: never, start disabled)", rec_opt_delay, 0 },
		{ OPT_BOOL, 0, "per-thread", &o->per_thread, NULL, "per-thread events and rings (no per-CPU ones, no inherit)", NULL, 0 },
		{ OPT_CALLBACK, 'u', "uid", NULL, "user", "record every thread of the user's processes", rec_opt_uid, 0 },
		{ OPT_STRING, 'G', "cgroup", &o->cgroup, "name", "record only in this cgroup (with -a or -C)", NULL, 0 },
		{ OPT_BOOL, 0, "all-user", &o->all_user, NULL, "configure all used events to run in user space", NULL, 0 },
		{ OPT_BOOL, 0, "all-kernel", &o->all_kernel, NULL, "configure all used events to run in kernel space", NULL, 0 },
		{ OPT_BOOL, 0, "overwrite", &o->overwrite, NULL, "flight recorder: overwrite rings, written at the end", NULL, 0 },
		{ OPT_CALLBACK, 0, "max-size", NULL, "size", "stop when the output reaches this size (100K, 10M)", rec_opt_max_size, 0 },
		{ OPT_BOOL, 0, "namespaces", &o->namespaces, NULL, "record namespaces events", NULL, 0 },
		{ OPT_BOOL, 0, "all-cgroups", &o->all_cgroups, NULL, "record cgroup events and sample cgroup ids", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	int first = opt_parse(argc, argv, opts, usage, OPT_PARSE_STOP_AT_NON_OPTION, o);
	int ret = EXIT_ERROR, e;

	if (first == OPT_HELP)
		return EXIT_OK;
	if (first < 0)
		return EXIT_USAGE;
	r.argc = argc - first;
	r.argv = r.argc > 0 ? argv + first : NULL;
	r.cmd_argc = argc;
	r.cmd_argv = argv;
	r.path = o->output;
	if (!r.argv && !o->all_cpus && !o->cpus && !o->pids && !o->tids && !o->uid_set) {
		cli_error("nothing to record; give a command, or -p, -t, -u, -a or -C");
		opt_usage(opts, usage, true);
		return EXIT_USAGE;
	}
	/* -p/-t/-u with a command: the tasks are recorded while it runs */
	r.wl_timer = (o->pids || o->tids || o->uid_set) && r.argv;
	if (check_combinations(o) < 0 || check_lists(o) < 0)
		return EXIT_USAGE;
	if (o->off_cpu) {	/* the switches and their times pair up */
		o->switch_events = true;
		o->sample_time = true;
	}
	rec_mmap_notice(o);
	check_freq(&r);
	r.cpu_wide = o->all_cpus || o->cpus;

	if (r.argv) {
		struct pev_workload_opts wo = { .size = sizeof(wo) };

		if (output_is_pipe(r.path))
			wo.child_setup = workload_stdout_to_stderr;
		r.wl = pev_workload_new(r.argv, &wo);
		if (!r.wl) {
			cli_error("cannot start '%s': %s", r.argv[0], strerror(errno));
			return EXIT_ERROR;
		}
	}
	/* After the fork: the workload keeps the default dispositions (and
	 * SIGPIPE and SIGXFSZ not ignored). */
	signals_install(SIGNALS_IGNORE_IO);
	if (rec_setup_targets(&r) < 0)
		goto out;
	if ((e = rec_setup_events(&r)) < 0) {
		/* A malformed or unknown event is a usage error (README). */
		if (e == -EINVAL) {
			if (r.wl)
				reap_workload(&r);
			ret = EXIT_USAGE;
		}
		goto out;
	}
	if (rec_open_events(&r) < 0 || rec_mmap_rings(&r) < 0)
		goto out;
	if (open_output(&r) < 0)
		goto out;
	const char *what = "start";
	if ((e = start_output(&r, &what)) < 0) {
		if (r.write_err)
			write_error(&r, e);
		else
			cli_error("cannot %s '%s': %s", what, r.pipe ? "(pipe)" : r.path,
				  strerror(-e));
		goto out;
	}
	/* Task events of a workload start at its exec (enable_on_exec); the
	 * others now, before the workload execs, so that its COMM and MMAP2
	 * records are seen. */
	if (!r.wl || r.wl_timer || r.cpu_wide) {
		if (r.track_dummy)
			enable_events(&r, true);
		if (!o->delay_ms)
			enable_events(&r, false);
	}
	if (r.wl) {
		e = pev_workload_start(r.wl);
		if (e < 0) {
			cli_exec_error(r.argv[0], -e);
			ret = 127;	/* as perfev stat and a shell do */
			goto out;
		}
	}
	if (o->delay_ms)
		delay_start(&r);

	e = rec_run(&r);
	int wl_code = reap_workload(&r);

	if (!e)
		e = rec_write_lost_samples(&r);
	if (!e && r.first_time <= r.last_time)
		pev_data_writer_sample_time(r.w, r.first_time, r.last_time);
	int be;
	/* The file stays good without its build ids, but the user is told
	 * (perf report then finds the binaries by path only). */
	if (!e && !r.pipe && !o->no_buildid && (be = rec_collect_build_ids(&r)) < 0)
		cli_warn("cannot read '%s' back for build ids: %s; the file has none (-B skips them)",
			 r.path, strerror(-be));
	if (!e) {
		e = pev_data_writer_finish(r.w);
		r.data_complete = e != 0;	/* only the features failed */
	}
	if (e) {
		write_error(&r, e);
		rec_summary(&r);
		ret = EXIT_ERROR;
		goto out;
	}
	rec_summary(&r);
	/* perf exits 0 after stopping at --max-size (it ended the workload). */
	ret = wl_code >= 0 && !r.size_limited ? wl_code : EXIT_OK;
	if (signals_stop()) {
		/* perf dies of the signal that stopped it, after the file is
		 * complete. */
		int sig = signals_stop();

		rec_close(&r);
		if (r.fd >= 0 && !r.pipe)
			close(r.fd);
		signals_exit_by(sig);
		return 128 + sig;
	}
out:
	if (r.wl && ret == EXIT_ERROR)
		reap_workload(&r);
	pev_workload_free(r.wl);
	rec_close(&r);
	if (r.fd >= 0 && !r.pipe)
		close(r.fd);
	return ret;
}
