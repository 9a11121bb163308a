// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat: one counting session per run — target, counters, the wait
 * (workload exit, attached tasks' exit, SIGINT, --timeout, -I ticks) — and
 * turning readings into output lines. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/signals.h"
#include "stat/stat_run.h"

/* What one event looks like on one unit (global, a CPU or a thread). */
struct cell {
	struct pev_count c;
	double v;		/* scaled (multiplexing), raw units */
	enum stat_val st;
	bool skip;		/* not opened on this CPU: no line */
};

/* State that lives across the runs of -r. */
struct session {
	struct stat_cfg *cfg;
	size_t nev;
	enum stat_ev_kind *kind;
	double *dscale;		/* display scale (1e-6 for the clocks) */
	bool *frac;
	bool *explained;
	struct stat_welford *w;	/* -r, per event (global) */
	struct stat_welford *w_run, *w_ena;	/* -r: their times (perf's mean) */
	enum tool_event *tool;	/* per event: a tool event, or none */
	struct stat_welford elapsed;
	double *run_s;		/* --table: each run's elapsed seconds */
	int runs_done;
	/* the current run */
	struct pev_target *target;
	struct pev_workload *wl;	/* counted or only timing the run */
	struct pev_counters *ctr;
	char **comm;		/* --per-thread: comm of each thread slot */
	uint64_t t0, last_tick;
	int intervals;
	bool tick_warned;	/* -I: a read failed (said once) */
	/* the tool events: values at the last read, at the read before
	 * (for -I deltas), and rusage at the start of the run (ns) */
	uint64_t tool_cur[TOOL_EV_N], tool_prev[TOOL_EV_N], ru0[TOOL_EV_N];
};

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

/* The tool events' values at `now` (start: the run begins). */
static void tool_read(struct session *s, uint64_t now, bool start)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	uint64_t v[TOOL_EV_N] = { [TOOL_EV_DURATION] = now - s->t0,
				    [TOOL_EV_USER] = tv_ns(ru.ru_utime),
				    [TOOL_EV_SYSTEM] = tv_ns(ru.ru_stime) };
	if (start) {
		memcpy(s->ru0, v, sizeof(v));
		memset(s->tool_cur, 0, sizeof(s->tool_cur));
		memset(s->tool_prev, 0, sizeof(s->tool_prev));
		return;
	}
	memcpy(s->tool_prev, s->tool_cur, sizeof(v));
	s->tool_cur[TOOL_EV_DURATION] = v[TOOL_EV_DURATION];
	s->tool_cur[TOOL_EV_USER] = v[TOOL_EV_USER] - s->ru0[TOOL_EV_USER];
	s->tool_cur[TOOL_EV_SYSTEM] = v[TOOL_EV_SYSTEM] - s->ru0[TOOL_EV_SYSTEM];
}

static char *read_comm(pid_t tid)
{
	char path[64], buf[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return strdup("?");
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

/* ---- reading into cells and printing ---- */

static void fill_cell(struct session *s, size_t ev, int cpu_idx, int thr_idx,
		      enum pev_count_view view, struct cell *out)
{
	memset(out, 0, sizeof(*out));
	pev_counters_get(s->ctr, ev, cpu_idx, thr_idx, view, &out->c);
	enum tool_event t = s->tool ? s->tool[ev] : TOOL_EV_NONE;
	if (t != TOOL_EV_NONE && out->c.status != PEV_COUNT_NOT_SUPPORTED) {
		/* perf's value in place of the dummy's count, on one unit;
		 * --per-thread: on every thread, as perf 6.1 reads it */
		out->skip = cpu_idx > 0 || (thr_idx > 0 && s->cfg->out.aggr != STAT_AGGR_THREAD);
		uint64_t v = s->tool_cur[t] - (view == PEV_VIEW_DELTA ? s->tool_prev[t] : 0);
		out->c.val = out->c.run = out->c.ena = v;
		out->v = (double)v;
		out->st = v ? STAT_VAL_OK : STAT_VAL_NOT_COUNTED;
		return;
	}
	switch (out->c.status) {
	case PEV_COUNT_NOT_SUPPORTED:
		out->st = STAT_VAL_NOT_SUPPORTED;
		return;
	case PEV_COUNT_NOT_OPENED:
		out->skip = cpu_idx >= 0;
		out->st = STAT_VAL_NOT_COUNTED;
		return;
	default:
		break;
	}
	out->st = stat_scale_count(out->c.val, out->c.ena, out->c.run, s->cfg->scale, &out->v);
}

static struct stat_line make_line(struct session *s, size_t ev, const struct cell *cl,
				  const struct stat_shadow *sh, double value)
{
	struct stat_line l = {
		.status = cl->st,
		.value = value * s->dscale[ev],
		.fractional = s->frac[ev],
		.unit = pev_counters_unit(s->ctr, ev),
		.name = pev_counters_name(s->ctr, ev),
		.cgroup = s->cfg->cgroup,
		.run = cl->c.run,
		.ena = cl->c.ena,
	};
	if (cl->st == STAT_VAL_OK)
		l.metric = stat_metric_for(sh, s->kind[ev], value);
	return l;
}

struct unit_ref {
	int idx;
	double v;
};

static int cmp_unit(const void *a, const void *b)
{
	const struct unit_ref *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? 1 : -1;
	return x->idx - y->idx;	/* stable */
}

/* The topology modes: sum each event's per-CPU counts (scaled per CPU, as
 * perf) over the CPUs of each unit, and print unit by unit. */
static int print_topo(struct session *s, enum pev_count_view view, uint64_t wall_ns,
		      uint64_t ts_ns)
{
	const struct stat_out *o = &s->cfg->out;
	size_t ncpu = pev_target_nr_cpus(s->target);
	int *cpus = calloc(ncpu, sizeof(*cpus)), *unit_of = calloc(ncpu, sizeof(*unit_of));
	struct stat_unit *units = calloc(ncpu, sizeof(*units));
	struct cell *cells = calloc(ncpu * s->nev, sizeof(*cells));
	struct stat_shadow *sh = calloc(ncpu, sizeof(*sh));
	int nu = -ENOMEM;

	if (cpus && unit_of && units && cells && sh) {
		for (size_t i = 0; i < ncpu; i++)
			cpus[i] = pev_target_cpu(s->target, i);
		nu = stat_units_build(o->aggr, cpus, ncpu, units, unit_of);
		if (nu < 0)
			cli_error("cannot read the CPU topology: %s; check "
				  "/sys/devices/system/cpu/cpu*/topology", strerror(-nu));
	} else {
		cli_error("out of memory");
	}
	for (int u = 0; u < nu; u++) {
		stat_shadow_init(&sh[u], (double)wall_ns);
		for (size_t ev = 0; ev < s->nev; ev++) {
			struct cell *agg = &cells[(size_t)u * s->nev + ev];
			bool any = false, counted = false;
			agg->skip = true;
			agg->st = STAT_VAL_NOT_SUPPORTED;
			for (size_t i = 0; i < ncpu; i++) {
				struct cell c;
				if (unit_of[i] != u)
					continue;
				fill_cell(s, ev, (int)i, -1, view, &c);
				if (c.skip)
					continue;
				agg->skip = false;
				if (c.st == STAT_VAL_NOT_SUPPORTED)
					continue;
				any = true;
				agg->c.val += c.c.val;
				agg->c.run += c.c.run;
				agg->c.ena += c.c.ena;
				if (c.st == STAT_VAL_OK) {
					agg->v += c.v;
					counted = true;
				}
			}
			if (any)
				agg->st = counted ? STAT_VAL_OK : STAT_VAL_NOT_COUNTED;
			if (agg->st == STAT_VAL_OK)
				stat_shadow_add(&sh[u], s->kind[ev], agg->v);
		}
	}
	for (int u = 0; u < nu; u++) {
		for (size_t ev = 0; ev < s->nev; ev++) {
			struct cell *cl = &cells[(size_t)u * s->nev + ev];
			if (cl->skip)
				continue;
			struct stat_line l = make_line(s, ev, cl, &sh[u], cl->v);
			l.ts_ns = ts_ns;
			l.socket = units[u].socket;
			l.die = units[u].die;
			l.core = units[u].core;
			l.node = units[u].node;
			l.nr = units[u].nr;
			stat_print_line(o, &l);
		}
	}
	free(cpus);
	free(unit_of);
	free(units);
	free(cells);
	free(sh);
	return nu < 0 ? nu : 0;
}

/* Print every event for every unit of the aggregation mode. */
static int print_counts(struct session *s, enum pev_count_view view, uint64_t wall_ns,
			uint64_t ts_ns)
{
	const struct stat_out *o = &s->cfg->out;
	const struct pev_target *t = s->target;
	size_t nunits = 1;
	bool per_cpu = o->aggr == STAT_AGGR_CPU, per_thr = o->aggr == STAT_AGGR_THREAD;
	bool all_thr = per_thr && s->cfg->all_cpus;

	if (stat_aggr_topo(o->aggr))
		return print_topo(s, view, wall_ns, ts_ns);
	if (per_cpu)
		nunits = pev_target_nr_cpus(t);
	else if (per_thr)
		nunits = pev_target_nr_threads(t);

	struct cell *cells = calloc(nunits * s->nev, sizeof(*cells));
	struct stat_shadow *sh = calloc(nunits, sizeof(*sh));
	struct unit_ref *order = calloc(nunits, sizeof(*order));
	if (!cells || !sh || !order) {
		free(cells); free(sh); free(order);
		cli_error("out of memory");
		return -ENOMEM;
	}
	bool mean = s->runs_done > 1 && !per_cpu && !per_thr;
	for (size_t u = 0; u < nunits; u++) {
		stat_shadow_init(&sh[u], (double)wall_ns);
		for (size_t ev = 0; ev < s->nev; ev++) {
			struct cell *cl = &cells[u * s->nev + ev];
			fill_cell(s, ev, per_cpu ? (int)u : -1, per_thr ? (int)u : -1, view, cl);
			if (mean) {
				cl->v = s->w[ev].mean;
				cl->c.run = (uint64_t)(s->w_run[ev].mean + 0.5);
				cl->c.ena = (uint64_t)(s->w_ena[ev].mean + 0.5);
				/* perf: a tool event is the mean of every run's */
				if (s->tool[ev] != TOOL_EV_NONE && cl->st == STAT_VAL_NOT_COUNTED &&
				    cl->v > 0)
					cl->st = STAT_VAL_OK;
			}
			if (cl->st == STAT_VAL_OK)
				stat_shadow_add(&sh[u], s->kind[ev], cl->v);
		}
	}
	for (size_t ev = 0; ev < s->nev; ev++) {
		for (size_t u = 0; u < nunits; u++)
			order[u] = (struct unit_ref){ (int)u, cells[u * s->nev + ev].v };
		if (per_thr)	/* perf lists threads by count, largest first */
			qsort(order, nunits, sizeof(*order), cmp_unit);
		for (size_t k = 0; k < nunits; k++) {
			size_t u = (size_t)order[k].idx;
			struct cell *cl = &cells[u * s->nev + ev];
			if (cl->skip)
				continue;
			/* perf --per-thread -a lists only the threads that
			 * counted something (in -I, in this interval) */
			if (all_thr && cl->v == 0)
				continue;
			struct stat_line l = make_line(s, ev, cl, &sh[u], cl->v);
			l.ts_ns = ts_ns;
			if (per_cpu)
				l.cpu = pev_target_cpu(t, u);
			if (per_thr) {
				l.tid = pev_target_thread(t, u);
				l.comm = s->comm ? s->comm[u] : "?";
			}
			if (mean)
				l.noise_pct = stat_rel_stddev(stat_welford_stddev_mean(&s->w[ev]),
							      s->w[ev].mean);
			stat_print_line(o, &l);
		}
	}
	free(cells);
	free(sh);
	free(order);
	return 0;
}

/* One interval's lines (the counters already read). */
static void interval_print(struct session *s, uint64_t now)
{
	const struct stat_cfg *c = s->cfg;
	const struct stat_out *o = &c->out;

	if (c->interval_clear) {
		/* perf clears the terminal on stdout (puts) */
		fputs("\033[H\033[2J\n", stdout);
		fflush(stdout);
	}
	/* perf repeats the column heading every 25 intervals, and after
	 * each clear (then in CSV too) */
	if ((o->kind == STAT_OUT_STD && s->intervals % 25 == 0) ||
	    (c->interval_clear && o->kind != STAT_OUT_JSON))
		stat_human_interval_header(o->f, o->aggr);
	if (s->ctr)
		print_counts(s, PEV_VIEW_DELTA, now - s->last_tick, now - s->t0);
	/* stdio forgets a failed flush's errno by fclose: keep it */
	if (fflush(o->f) != 0 && !s->cfg->out_errno)
		s->cfg->out_errno = errno;
}

static void interval_tick(struct session *s, uint64_t now)
{
	int r = s->ctr ? pev_counters_read(s->ctr) : 0;

	/* A failed read skips this interval's line (said once), and the
	 * clock moves on: retrying at once would spin without ever polling
	 * for the end of the run. */
	if (r < 0 && !s->tick_warned)
		cli_warn("cannot read the counters: %s; intervals are left out", strerror(-r));
	s->tick_warned |= r < 0;
	if (r == 0) {
		tool_read(s, now, false);
		interval_print(s, now);
	}
	s->last_tick = now;
	s->intervals++;
}

/* ---- setting up a run ---- */

static struct pev_target *make_target(struct session *s)
{
	struct stat_cfg *c = s->cfg;
	pid_t ids[4096];
	int n;

	if (c->pids || c->tids) {
		const char *list = c->pids ? c->pids : c->tids;
		n = pev_idlist_parse(list, ids, 4096);
		if (n <= 0) {
			cli_error("'%s' is not a list of process ids; use -p PID[,PID...]", list);
			errno = EINVAL;
			return NULL;
		}
		struct pev_target *t = c->pids ? pev_target_new_pids(ids, (size_t)n)
					       : pev_target_new_tids(ids, (size_t)n);
		if (!t)
			cli_error("cannot attach to %s '%s': %s; check the id with 'ps'",
				  c->pids ? "process" : "thread", list,
				  errno == ESRCH ? "no such process" : strerror(errno));
		return t;
	}
	if (c->cgroup) {
		struct pev_target *t = pev_target_new_cgroup(c->cgroup, c->cpus);
		if (!t)
			cli_cgroup_error("cannot count in cgroup", c->cgroup, errno);
		return t;
	}
	if (c->all_cpus && c->out.aggr == STAT_AGGR_THREAD) {
		/* --per-thread -a: every thread of the system, each counted
		 * on any CPU (perf's thread map from /proc) */
		struct pev_target *t = pev_target_new_all_threads();
		if (!t)
			cli_error("cannot list the threads of the system: %s; check that /proc "
				  "is mounted", strerror(errno));
		return t;
	}
	if (c->all_cpus || c->cpus) {
		struct pev_target *t = pev_target_new_cpus(c->cpus);
		if (!t)
			cli_cpus_error("cannot count on CPUs", c->cpus, errno);
		return t;
	}
	return pev_target_new_workload(s->wl);
}

/* Explain the events that could not be opened.  True when the run cannot
 * go on: out of file descriptors (EMFILE, ENFILE) is fatal, as in perf,
 * rather than a "<not supported>" line for an event that is supported. */
static bool explain_failures(struct session *s, bool all_failed)
{
	for (size_t ev = 0; ev < pev_counters_count(s->ctr); ev++) {
		int err = 0;
		char buf[800];

		if (s->explained[ev] ||
		    pev_counters_status(s->ctr, ev, &err) != PEV_COUNT_NOT_SUPPORTED)
			continue;
		if (err < 0)
			err = -err;
		if (err == EMFILE || err == ENFILE)
			all_failed = true;
		s->explained[ev] = true;
		bool quiet = stat_explain_open(err, pev_counters_attr(s->ctr, ev),
					       pev_target_thread(s->target, 0),
					       pev_target_cpu(s->target, 0),
					       pev_counters_name(s->ctr, ev), buf, sizeof(buf));
		/* perf is silent about hardware events on a PMU-less machine
		 * (the "<not supported>" line says it); other failures are
		 * worth a line on stderr. */
		if (all_failed) {
			cli_error("%s", buf);
			return true;
		}
		if (!quiet)
			cli_warn("%s", buf);
	}
	return false;
}

static void end_run(struct session *s)
{
	pev_counters_free(s->ctr);
	s->ctr = NULL;
	pev_target_free(s->target);
	s->target = NULL;
	if (s->comm) {
		for (size_t i = 0; s->comm[i]; i++)
			free(s->comm[i]);
		free(s->comm);
		s->comm = NULL;
	}
	pev_workload_free(s->wl);
	s->wl = NULL;
}

static bool tick_cb(void *ctx, uint64_t now)
{
	struct session *s = ctx;

	interval_tick(s, now);
	return s->cfg->interval_count && s->intervals >= s->cfg->interval_count;
}

/* Wait until the run ends; ticks for -I on the way.  Returns 0, with the
 * workload's exit code (or 0) in *code. */
static int wait_run(struct session *s, int *code)
{
	struct stat_cfg *c = s->cfg;
	struct stat_wait w = {
		.wl = s->wl, .argv0 = c->argv ? c->argv[0] : NULL,
		.target = c->pids || c->tids ? s->target : NULL, .pids = c->pids != NULL,
		.t0 = s->t0, .interval_ms = c->interval_ms, .interval_count = c->interval_count,
		.timeout_ms = c->timeout_ms, .tick = tick_cb, .ctx = s, .last_tick = &s->last_tick,
	};

	return stat_wait_run(&w, code);
}

/* -v: why the counted hardware events cannot be read from user space
 * here, with the command that allows it (arm64: perf_user_access). */
static void note_user_access(struct session *s)
{
	struct pev_user_access ua = { .size = sizeof(ua) };
	const struct perf_event_attr **attrs = calloc(s->nev ? s->nev : 1, sizeof(*attrs));
	char line[640];

	if (!attrs || pev_user_access_probe(&ua, pev_arch_host(), NULL) < 0) {
		free(attrs);
		return;
	}
	for (size_t ev = 0; ev < s->nev; ev++)
		attrs[ev] = pev_counters_attr(s->ctr, ev);
	if (stat_user_access_note(&ua, attrs, s->nev, line, sizeof(line)))
		fprintf(stderr, "%s\n", line);
	free(attrs);
}

/* Open the counters of this run; the first run also learns what each
 * event is.  Returns 0 or an exit status after reporting. */
static int open_counters(struct session *s)
{
	struct stat_cfg *c = s->cfg;
	struct pev_counter_opts co = { .size = sizeof(co), .target = s->target,
				       .no_inherit = c->no_inherit, .user_fallback = true };

	s->ctr = pev_counters_new(&co);
	int r = s->ctr ? pev_counters_add_evlist(s->ctr, c->evl) : -errno;
	if (r < 0) {
		cli_error("cannot set up the counters: %s", strerror(-r));
		return EXIT_ERROR;
	}
	r = pev_counters_open(s->ctr);
	if (explain_failures(s, r <= 0) || r <= 0)
		return EXIT_ERROR;
	if (s->kind)
		return 0;
	s->nev = pev_counters_count(s->ctr);
	s->kind = calloc(s->nev, sizeof(*s->kind));
	s->dscale = calloc(s->nev, sizeof(*s->dscale));
	s->frac = calloc(s->nev, sizeof(*s->frac));
	s->w = calloc(s->nev, sizeof(*s->w));
	s->w_run = calloc(s->nev, sizeof(*s->w_run));
	s->w_ena = calloc(s->nev, sizeof(*s->w_ena));
	s->tool = calloc(s->nev, sizeof(*s->tool));
	if (!s->kind || !s->dscale || !s->frac || !s->w || !s->w_run || !s->w_ena || !s->tool) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	int uw = 4;
	for (size_t ev = 0; ev < s->nev; ev++) {
		const struct perf_event_attr *a = pev_counters_attr(s->ctr, ev);
		double sc = pev_counters_scale(s->ctr, ev);
		s->kind[ev] = a ? stat_ev_classify(a->type, a->config) : STAT_EV_OTHER;
		s->tool[ev] = stat_tool_of(pev_counters_name(s->ctr, ev), a);
		/* The clocks count ns and print msec, as perf. */
		if (s->kind[ev] == STAT_EV_CLOCK && sc == 1.0)
			sc = 1e-6;
		s->dscale[ev] = sc > 0 ? sc : 1.0;
		s->frac[ev] = s->dscale[ev] != (double)(long long)s->dscale[ev];
		int ul = (int)strlen(pev_counters_unit(s->ctr, ev));
		uw = ul > uw ? ul : uw;
	}
	c->out.unit_width = uw;
	if (c->verbose)
		note_user_access(s);
	return 0;
}

/* --pre / --post: perf runs them with system(); a failing one ends
 * perfev with an error (perf 6.1 goes on and prints empty counts). */
static int run_hook(const char *what, const char *cmd)
{
	fflush(stdout);
	fflush(stderr);
	int st = signals_system(cmd);
	if (st == 0)
		return 0;
	if (st < 0)
		cli_error("cannot run the %s command '%s': %s", what, cmd, strerror(errno));
	else
		cli_error("the %s command '%s' failed (status %d); fix it or drop %s", what, cmd,
			  pev_wait_status_code(st), what);
	return EXIT_ERROR;
}

static void print_footer(struct session *s, bool counted_wl)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	struct stat_footer ft = {
		.runs = s->runs_done,
		.elapsed = s->elapsed.mean,
		.elapsed_sd = stat_welford_stddev_mean(&s->elapsed),
		.show_rusage = counted_wl,
		.user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
		.sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6,
		.run_s = s->cfg->table ? s->run_s : NULL,
		.null_run = s->cfg->null_run,
	};
	stat_human_footer(s->cfg->out.f, &ft);
}

/* -I --summary: the whole run's counts after the intervals, as perf:
 * the usual report in human output, "summary" rows in CSV. */
static void print_summary(struct session *s, uint64_t elapsed_ns, bool counted_wl)
{
	struct stat_cfg *c = s->cfg;
	struct stat_out saved = c->out;

	c->out.interval = false;
	if (c->out.kind == STAT_OUT_CSV && c->csv_summary)
		c->out.ts_label = "summary";
	s->runs_done = 1;
	s->elapsed = (struct stat_welford){ 0 };
	stat_welford_add(&s->elapsed, (double)elapsed_ns / 1e9);
	if (c->out.kind == STAT_OUT_STD)
		stat_human_header(c->out.f, c->target_desc, 1);
	if (s->ctr)
		print_counts(s, PEV_VIEW_TOTAL, elapsed_ns, 0);
	if (c->out.kind == STAT_OUT_STD)
		print_footer(s, counted_wl);
	c->out = saved;
}

/* -D: counting starts msecs after the workload (or the attach); -1 never
 * starts it.  perf says so on stderr. */
static int delayed_enable(struct session *s)
{
	struct stat_cfg *c = s->cfg;

	fputs("Events disabled\n", stderr);
	if (c->delay_ms < 0)
		return 0;
	stat_sleep_ms(c->delay_ms, s->wl);
	int r = s->ctr ? pev_counters_enable(s->ctr) : 0;
	if (r < 0) {
		cli_error("cannot enable the counters: %s", strerror(-r));
		return EXIT_ERROR;
	}
	fputs("Events enabled\n", stderr);
	return 0;
}

/* --per-thread -a needs a descriptor per thread and event, hundreds at
 * least: the soft RLIMIT_NOFILE up to the hard one, as perf raises it when
 * an open fails with EMFILE.  After the workload's fork, which keeps the
 * limit it had. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* One run: returns 0, or an exit code > 0 after reporting the error. */
static int run_once(struct session *s, bool last, int *code)
{
	struct stat_cfg *c = s->cfg;
	bool counted_wl = !(c->pids || c->tids || c->cgroup || c->all_cpus || c->cpus);
	/* Counting starts at exec unless -D (or an attach) enables it. */
	bool manual = !counted_wl || c->delay_ms;
	int r;

	if (c->sync)
		sync();
	if (c->pre && (r = run_hook("--pre", c->pre)))
		return r;
	/* --per-thread -a lists the threads before the command starts, as
	 * perf does: the command is not among them, and since it is forked
	 * before the counters open, it is not counted through inherit
	 * either (perf 6.1 the same) */
	bool threads_first = c->all_cpus && c->out.aggr == STAT_AGGR_THREAD;
	if (threads_first && !(s->target = make_target(s)))
		return EXIT_ERROR;
	if (c->argv) {
		s->wl = stat_workload_new(c->argv);
		if (!s->wl) {
			cli_error("cannot start '%s': %s", c->argv[0], strerror(errno));
			return EXIT_ERROR;
		}
	}
	if (counted_wl && c->delay_ms) {
		/* the child as a process target: no enable_on_exec */
		pid_t pid = pev_workload_pid(s->wl);
		s->target = pev_target_new_pids(&pid, 1);
		if (!s->target)
			cli_error("cannot attach to '%s': %s", c->argv[0], strerror(errno));
	} else if (!threads_first) {
		s->target = make_target(s);
	}
	if (!s->target)
		return EXIT_ERROR;
	if (threads_first)
		raise_nofile();
	if (!c->null_run && (r = open_counters(s)))
		return r;
	if (c->out.aggr == STAT_AGGR_THREAD) {
		size_t n = pev_target_nr_threads(s->target);
		s->comm = calloc(n + 1, sizeof(*s->comm));
		for (size_t i = 0; s->comm && i < n; i++)
			s->comm[i] = read_comm(pev_target_thread(s->target, i));
	}

	s->t0 = s->last_tick = stat_now_ns();
	s->intervals = 0;
	if (manual && !c->delay_ms && s->ctr && (r = pev_counters_enable(s->ctr)) < 0) {
		cli_error("cannot enable the counters: %s", strerror(-r));
		return EXIT_ERROR;
	}
	if (s->wl && (r = pev_workload_start(s->wl)) < 0) {
		cli_exec_error(c->argv[0], -r);
		return 127;
	}
	if (c->delay_ms) {
		if ((r = delayed_enable(s)))
			return r;
		s->t0 = s->last_tick = stat_now_ns();
	}
	tool_read(s, s->t0, true);
	r = wait_run(s, code);
	uint64_t t1 = stat_now_ns();
	if (r < 0) {
		cli_error("cannot wait for '%s': %s", c->argv[0], strerror(-r));
		return EXIT_ERROR;
	}
	if (c->post && (r = run_hook("--post", c->post)))
		return r;
	if (manual && s->ctr)
		pev_counters_disable(s->ctr);
	if (s->ctr && (r = pev_counters_read(s->ctr)) < 0) {
		cli_error("cannot read the counters: %s", strerror(-r));
		return EXIT_ERROR;
	}
	tool_read(s, t1, false);
	if (c->interval_ms) {
		/* the last, partial interval, as perf */
		if (t1 > s->last_tick + 1000000u || s->intervals == 0)
			interval_print(s, t1);
		if (c->summary)
			print_summary(s, t1 - s->t0, counted_wl);
		return 0;
	}
	stat_welford_add(&s->elapsed, (double)(t1 - s->t0) / 1e9);
	if (s->run_s)
		s->run_s[s->runs_done] = (double)(t1 - s->t0) / 1e9;
	for (size_t ev = 0; ev < s->nev; ev++) {
		struct cell cl;
		fill_cell(s, ev, -1, -1, PEV_VIEW_TOTAL, &cl);
		if (cl.st == STAT_VAL_OK ||
		    (s->tool[ev] != TOOL_EV_NONE && cl.st == STAT_VAL_NOT_COUNTED))
			stat_welford_add(&s->w[ev], cl.v);
		if (cl.st != STAT_VAL_NOT_SUPPORTED) {
			stat_welford_add(&s->w_run[ev], (double)cl.c.run);
			stat_welford_add(&s->w_ena[ev], (double)cl.c.ena);
		}
	}
	s->runs_done++;
	if (!last && !signals_stop())
		return 0;

	const struct stat_out *o = &c->out;
	if (o->kind == STAT_OUT_STD)
		stat_human_header(o->f, c->target_desc, s->runs_done);
	if (s->ctr)
		print_counts(s, PEV_VIEW_TOTAL, (uint64_t)(s->elapsed.mean * 1e9), 0);
	if (o->kind == STAT_OUT_STD)
		print_footer(s, counted_wl);
	return 0;
}

int stat_run(struct stat_cfg *cfg, int *signo)
{
	struct session s = { .cfg = cfg };
	int code = 0, rc = 0;

	s.explained = NULL;
	size_t nev = pev_evlist_count(cfg->evl);
	s.explained = calloc(nev ? nev : 1, sizeof(*s.explained));
	if (!s.explained) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	if (cfg->table && cfg->repeat > 1 && !(s.run_s = calloc((size_t)cfg->repeat,
								 sizeof(*s.run_s)))) {
		cli_error("out of memory");
		free(s.explained);
		return EXIT_ERROR;
	}
	signals_install(0);
	for (int run = 0; run < cfg->repeat; run++) {
		bool last = run == cfg->repeat - 1 || signals_stop();
		rc = run_once(&s, last, &code);
		end_run(&s);
		if (rc || last || signals_stop())
			break;
	}
	/* flushed here, so that a failure keeps its errno (the flush of
	 * every stream below forgets it) */
	if (cfg->out.f && fflush(cfg->out.f) != 0 && !cfg->out_errno)
		cfg->out_errno = errno;
	signals_restore();
	*signo = signals_stop();
	free(s.kind);
	free(s.dscale);
	free(s.frac);
	free(s.w);
	free(s.w_run);
	free(s.w_ena);
	free(s.tool);
	free(s.explained);
	free(s.run_s);
	return rc ? rc : code;
}
