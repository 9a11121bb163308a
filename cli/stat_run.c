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

#include "cli.h"
#include "stat_run.h"

static volatile sig_atomic_t got_sigint;	/* the signal number */

static void on_sigint(int sig)
{
	got_sigint = sig;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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
};

static int workload_code(struct session *s, int *code)
{
	int st, r;

	while ((r = pev_workload_wait(s->wl, &st)) == -EINTR)
		if (got_sigint)
			pev_workload_kill(s->wl, SIGINT);
	if (r < 0)
		return r;
	*code = pev_wait_status_code(st);
	return 0;
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
			if (mean)
				cl->v = s->w[ev].mean;
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
	fflush(o->f);
}

static void interval_tick(struct session *s, uint64_t now)
{
	if (s->ctr && pev_counters_read(s->ctr) < 0)
		return;
	interval_print(s, now);
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
			cli_error("cannot count in cgroup '%s': %s", c->cgroup,
				  errno == ENODEV ? "no cgroup2 file system is mounted; "
				  "mount one with 'mount -t cgroup2 none /sys/fs/cgroup'"
				  : errno == ENOENT ? "no such cgroup; name a directory under "
				  "the cgroup2 mount" : strerror(errno));
		return t;
	}
	if (c->all_cpus || c->cpus) {
		struct pev_target *t = pev_target_new_cpus(c->cpus);
		if (!t)
			cli_error("cannot count on CPUs '%s': %s", c->cpus ? c->cpus : "all",
				  errno == EINVAL ? "not a CPU list (e.g. 0-3,5)"
				  : errno == ENODEV ? "a CPU is not online; see "
				  "/sys/devices/system/cpu/online" : strerror(errno));
		return t;
	}
	return pev_target_new_workload(s->wl);
}

static void explain_failures(struct session *s, bool all_failed)
{
	for (size_t ev = 0; ev < pev_counters_count(s->ctr); ev++) {
		int err = 0;
		char buf[800];

		if (s->explained[ev] ||
		    pev_counters_status(s->ctr, ev, &err) != PEV_COUNT_NOT_SUPPORTED)
			continue;
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
			return;
		}
		if (!quiet)
			cli_warn("%s", buf);
	}
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

static int pidfd_open_(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* Wait until the run ends; ticks for -I on the way.  Returns the
 * workload's exit code, or 0. */
static int wait_run(struct session *s, int *code)
{
	struct stat_cfg *c = s->cfg;
	struct pollfd pfd[64];
	int npfd = 0, alive = 0;
	bool attach = c->pids || c->tids;
	uint64_t deadline = c->timeout_ms ? s->t0 + (uint64_t)c->timeout_ms * 1000000u : 0;
	bool forwarded = false, poll_tids = false;

	*code = 0;
	if (s->wl) {
		pfd[npfd].fd = pidfd_open_(pev_workload_pid(s->wl));
		pfd[npfd++].events = POLLIN;
		alive++;
	} else if (attach) {
		/* Attached tasks: count until they all exit (or SIGINT). */
		for (size_t i = 0; i < pev_target_nr_threads(s->target) && npfd < 64; i++) {
			pid_t tid = pev_target_thread(s->target, i);
			int fd = c->pids ? pidfd_open_(tid) : -1;
			if (fd < 0) {
				poll_tids = true;	/* threads: checked every 100 ms */
				continue;
			}
			pfd[npfd].fd = fd;
			pfd[npfd++].events = POLLIN;
			alive++;
		}
	}
	for (;;) {
		uint64_t now = now_ns();
		long wait_ms = -1;
		if (c->interval_ms) {
			uint64_t next = s->last_tick + (uint64_t)c->interval_ms * 1000000u;
			if (now >= next) {
				interval_tick(s, now);
				if (c->interval_count && s->intervals >= c->interval_count)
					break;
				continue;
			}
			wait_ms = (long)((next - now + 999999) / 1000000u);
		}
		if (deadline) {
			if (now >= deadline)
				break;
			long d = (long)((deadline - now + 999999) / 1000000u);
			wait_ms = wait_ms < 0 || d < wait_ms ? d : wait_ms;
		}
		if (poll_tids && (wait_ms < 0 || wait_ms > 100))
			wait_ms = 100;
		int r = poll(pfd, (nfds_t)npfd, (int)wait_ms);
		if (got_sigint) {
			/* perf: the workload gets the SIGINT too (from the
			 * terminal; forward it when it came to us alone), and
			 * we print what was counted once it has gone. */
			if (!s->wl)
				break;
			if (!forwarded)
				pev_workload_kill(s->wl, SIGINT);
			forwarded = true;
		}
		if (r > 0) {
			for (int i = 0; i < npfd; i++)
				if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLIN | POLLHUP))) {
					close(pfd[i].fd);
					pfd[i].fd = -1;
					alive--;
				}
			if (alive == 0 && npfd > 0)
				break;
		}
		if (poll_tids) {
			bool any = false;
			for (size_t i = 0; i < pev_target_nr_threads(s->target); i++)
				if (kill(pev_target_thread(s->target, i), 0) == 0 || errno == EPERM)
					any = true;
			if (!any)
				break;
		}
	}
	for (int i = 0; i < npfd; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	if (s->wl) {
		int st;
		if (pev_workload_poll(s->wl, &st) == 0)	/* timeout, --interval-count */
			pev_workload_kill(s->wl, SIGTERM);
		return workload_code(s, code);
	}
	return 0;
}

/* Open the counters of this run; the first run also learns what each
 * event is.  Returns 0 or an exit status after reporting. */
static int open_counters(struct session *s)
{
	struct stat_cfg *c = s->cfg;
	struct pev_counter_opts co = { .size = sizeof(co), .target = s->target,
				       .no_inherit = c->no_inherit };

	s->ctr = pev_counters_new(&co);
	int r = s->ctr ? pev_counters_add_evlist(s->ctr, c->evl) : -errno;
	if (r < 0) {
		cli_error("cannot set up the counters: %s", strerror(-r));
		return EXIT_ERROR;
	}
	r = pev_counters_open(s->ctr);
	explain_failures(s, r <= 0);
	if (r <= 0)
		return EXIT_ERROR;
	if (s->kind)
		return 0;
	s->nev = pev_counters_count(s->ctr);
	s->kind = calloc(s->nev, sizeof(*s->kind));
	s->dscale = calloc(s->nev, sizeof(*s->dscale));
	s->frac = calloc(s->nev, sizeof(*s->frac));
	s->w = calloc(s->nev, sizeof(*s->w));
	if (!s->kind || !s->dscale || !s->frac || !s->w) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	int uw = 4;
	for (size_t ev = 0; ev < s->nev; ev++) {
		const struct perf_event_attr *a = pev_counters_attr(s->ctr, ev);
		double sc = pev_counters_scale(s->ctr, ev);
		s->kind[ev] = a ? stat_ev_classify(a->type, a->config) : STAT_EV_OTHER;
		/* The clocks count ns and print msec, as perf. */
		if (s->kind[ev] == STAT_EV_CLOCK && sc == 1.0)
			sc = 1e-6;
		s->dscale[ev] = sc > 0 ? sc : 1.0;
		s->frac[ev] = s->dscale[ev] != (double)(long long)s->dscale[ev];
		int ul = (int)strlen(pev_counters_unit(s->ctr, ev));
		uw = ul > uw ? ul : uw;
	}
	c->out.unit_width = uw;
	return 0;
}

/* --pre / --post: perf runs them with system(); a failing one ends
 * perfev with an error (perf 6.1 goes on and prints empty counts). */
static int run_hook(const char *what, const char *cmd)
{
	fflush(stdout);
	fflush(stderr);
	int st = system(cmd);
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
	struct timespec ts = { c->delay_ms / 1000, (long)(c->delay_ms % 1000) * 1000000 };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !got_sigint)
		;
	int r = s->ctr ? pev_counters_enable(s->ctr) : 0;
	if (r < 0) {
		cli_error("cannot enable the counters: %s", strerror(-r));
		return EXIT_ERROR;
	}
	fputs("Events enabled\n", stderr);
	return 0;
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
	if (c->argv) {
		s->wl = pev_workload_new(c->argv, NULL);
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
	} else {
		s->target = make_target(s);
	}
	if (!s->target)
		return EXIT_ERROR;
	if (!c->null_run && (r = open_counters(s)))
		return r;
	if (c->out.aggr == STAT_AGGR_THREAD) {
		size_t n = pev_target_nr_threads(s->target);
		s->comm = calloc(n + 1, sizeof(*s->comm));
		for (size_t i = 0; s->comm && i < n; i++)
			s->comm[i] = read_comm(pev_target_thread(s->target, i));
	}

	s->t0 = s->last_tick = now_ns();
	s->intervals = 0;
	if (manual && !c->delay_ms && s->ctr && (r = pev_counters_enable(s->ctr)) < 0) {
		cli_error("cannot enable the counters: %s", strerror(-r));
		return EXIT_ERROR;
	}
	if (s->wl && (r = pev_workload_start(s->wl)) < 0) {
		cli_error("cannot run '%s': %s; check the command name and PATH", c->argv[0],
			  strerror(-r));
		return 127;
	}
	if (c->delay_ms) {
		if ((r = delayed_enable(s)))
			return r;
		s->t0 = s->last_tick = now_ns();
	}
	r = wait_run(s, code);
	uint64_t t1 = now_ns();
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
		if (cl.st == STAT_VAL_OK)
			stat_welford_add(&s->w[ev], cl.v);
	}
	s->runs_done++;
	if (!last && !got_sigint)
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
	struct sigaction sa = { .sa_handler = on_sigint }, old_int, old_term;
	int code = 0, rc = 0;

	/* No SA_RESTART: a SIGINT must interrupt poll() and waitpid(). */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
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
	for (int run = 0; run < cfg->repeat; run++) {
		bool last = run == cfg->repeat - 1 || got_sigint;
		rc = run_once(&s, last, &code);
		end_run(&s);
		if (rc || last)
			break;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	*signo = got_sigint;
	free(s.kind);
	free(s.dscale);
	free(s.frac);
	free(s.w);
	free(s.explained);
	free(s.run_s);
	return rc ? rc : code;
}
