/* perfev record: the attrs (as perf record builds them), the targets, the
 * fds (each event on every CPU slot of every thread slot) and the rings
 * (one per CPU slot; the other fds of that CPU are SET_OUTPUT into it). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"

/* perf's x86_64 user register mask for DWARF unwinding (PERF_REGS_MASK:
 * every general register but the segment and flags ones, 0xff0fff). */
#define REC_DWARF_REGS 0xff0fffULL

static int parse_spec(struct pev_evlist *evl, const char *spec)
{
	struct pev_parse_opts po = { .size = sizeof(po), .no_pfm = true };
	struct pev_parse_error err = { 0 };
	int r = pev_evlist_parse(evl, spec, &po, &err);

	if (r == -ENOENT) {	/* libpfm4 only for names the kernel lacks */
		po.no_pfm = false;
		memset(&err, 0, sizeof(err));
		r = pev_evlist_parse(evl, spec, &po, &err);
	}
	if (r < 0) {
		char buf[1024];

		pev_parse_error_format(&err, spec, buf, sizeof(buf));
		fflush(stdout);
		fprintf(stderr, "perfev: error: invalid event '%s'\n%s\n", spec, buf);
		fprintf(stderr, "'perfev list' shows the events this machine has\n");
	}
	return r;
}

/* The attr of event i, from the parsed one and the options. */
static void config_attr(struct rec *r, size_t i, const struct pev_event *pe)
{
	struct perf_event_attr *a = &r->ev[i].attr.attr;
	const struct rec_opts *o = &r->o;
	bool leader = pe->leader == (int)i;
	bool sample_read = pev_evlist_event(r->evl, (size_t)pe->leader)->sample_read;
	bool task = !r->cpu_wide;

	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_PERIOD;
	if (r->nev > 1)
		a->sample_type |= r->cpu_wide ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID;
	if (r->cpu_wide)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (o->callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->dwarf) {
		/* perf: the kernel callchain only, the user stack as a
		 * copy to unwind later; and --call-graph dwarf turns on
		 * sample addresses (-d) too. */
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
				  PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->exclude_callchain_user = 1;
		a->sample_regs_user = REC_DWARF_REGS;
		a->sample_stack_user = o->stack_size;
		a->mmap_data = i == 0;
	}
	a->read_format = PERF_FORMAT_ID;
	if (pev_probe(PEV_FEAT_FORMAT_LOST) == 1)
		a->read_format |= PERF_FORMAT_LOST;
	if (sample_read) {
		a->sample_type |= PERF_SAMPLE_READ;
		if (!(a->sample_type & PERF_SAMPLE_IDENTIFIER))
			a->sample_type |= PERF_SAMPLE_ID;
		a->read_format |= PERF_FORMAT_GROUP;
	}
	/* Period: the event's own period= wins, then -c, then -F. */
	if (sample_read && !leader) {
		a->sample_period = 0;
		a->freq = 0;
	} else if (pe->user_period) {
		a->sample_period = pe->user_period;
		a->freq = 0;
	} else if (o->period) {
		a->sample_period = (uint64_t)o->period;
		a->freq = 0;
	} else {
		a->sample_freq = (uint64_t)o->freq;
		a->freq = 1;
	}
	a->sample_id_all = 1;
	if (o->use_clockid) {
		a->use_clockid = 1;
		a->clockid = o->clockid;
	}
	a->disabled = leader;
	a->inherit = task && !o->no_inherit && !sample_read;
	a->enable_on_exec = leader && r->wl != NULL && !r->cpu_wide;
	if (i == 0) {	/* the tracking event: side-band records */
		a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
		a->context_switch = o->switch_events;
	}
}

int rec_setup_events(struct rec *r)
{
	r->evl = pev_evlist_new();
	if (!r->evl)
		return -ENOMEM;
	r->default_event = r->o.nspecs == 0;
	if (r->default_event && parse_spec(r->evl, "cycles") < 0)
		return -EINVAL;
	for (int i = 0; i < r->o.nspecs; i++)
		if (parse_spec(r->evl, r->o.specs[i]) < 0)
			return -EINVAL;
	r->nev = pev_evlist_count(r->evl);
	r->ev = calloc(r->nev, sizeof(*r->ev));
	if (!r->ev)
		return -ENOMEM;
	for (size_t i = 0; i < r->nev; i++) {
		struct pev_event *pe = pev_evlist_event(r->evl, i);

		r->ev[i].attr = pe->attr;
		r->ev[i].name = pe->name;
		r->ev[i].leader = pe->leader;
	}
	for (size_t i = 0; i < r->nev; i++)
		config_attr(r, i, pev_evlist_event(r->evl, i));
	return 0;
}

int rec_setup_targets(struct rec *r)
{
	const struct rec_opts *o = &r->o;
	int n;

	if (o->all_cpus || o->cpus) {
		r->cpu_wide = true;
		r->target = pev_target_new_cpus(o->cpus);
	} else if (o->pids || o->tids) {
		pid_t ids[4096];

		n = pev_idlist_parse(o->pids ? o->pids : o->tids, ids, 4096);
		if (n <= 0) {
			cli_error("invalid %s list '%s'; give comma-separated ids",
				  o->pids ? "pid" : "tid", o->pids ? o->pids : o->tids);
			return -EINVAL;
		}
		r->target = o->pids ? pev_target_new_pids(ids, (size_t)n) :
			pev_target_new_tids(ids, (size_t)n);
	} else {
		r->target = pev_target_new_workload(r->wl);
	}
	if (!r->target) {
		int e = errno;

		cli_error("cannot set up the target '%s': %s; check that it exists",
			  o->cpus ? o->cpus : o->pids ? o->pids : o->tids ? o->tids :
			  r->argv[0], strerror(e));
		return -e;
	}
	/* Thread slots as the target says; CPU slots: perf record opens
	 * task events on every online CPU too (one ring per CPU, inherit). */
	r->nthreads = pev_target_nr_threads(r->target);
	r->threads = calloc(r->nthreads, sizeof(*r->threads));
	if (!r->threads)
		return -ENOMEM;
	for (size_t t = 0; t < r->nthreads; t++)
		r->threads[t] = pev_target_thread(r->target, t);
	if (r->cpu_wide) {
		r->ncpus = pev_target_nr_cpus(r->target);
		r->cpus = calloc(r->ncpus, sizeof(int));
		if (!r->cpus)
			return -ENOMEM;
		for (size_t c = 0; c < r->ncpus; c++)
			r->cpus[c] = pev_target_cpu(r->target, c);
	} else {
		n = pev_cpus_online(NULL, 0);
		if (n <= 0)
			return n < 0 ? n : -ENODEV;
		r->cpus = calloc((size_t)n, sizeof(int));
		if (!r->cpus)
			return -ENOMEM;
		r->ncpus = (size_t)pev_cpus_online(r->cpus, (size_t)n);
	}
	return 0;
}

static bool is_cycles(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES;
}

/* perf's fallback when there is no hardware PMU: cycles becomes the
 * cpu-clock software event, with the same sampling settings. */
static void fallback_cpu_clock(struct rec *r, struct rec_event *e)
{
	if (r->o.verbose)
		fprintf(stderr, "Warning:\nThe %s event is not supported, trying to "
			"fall back to cpu-clock-ticks\n", e->name);
	e->attr.attr.type = PERF_TYPE_SOFTWARE;
	e->attr.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	e->attr.attr.precise_ip = 0;
	e->attr.attr.exclude_guest = 0;
	e->name = (char *)"cpu-clock";
}

static void open_error(struct rec *r, struct rec_event *e, int err, pid_t pid,
		       int cpu, int group_fd)
{
	struct pev_explain_ctx ctx = {
		.size = sizeof(ctx), .attr = &e->attr.attr, .pid = pid, .cpu = cpu,
		.group_fd = group_fd, .flags = PERF_FLAG_FD_CLOEXEC,
		.event_name = e->name,
	};
	char buf[1024];

	(void)r;
	pev_explain(err, &ctx, buf, sizeof(buf));
	cli_error("%s", buf);
}

int rec_open_events(struct rec *r)
{
	size_t nslots = r->nthreads * r->ncpus;

	for (size_t i = 0; i < r->nev; i++) {
		r->ev[i].fds = malloc(nslots * sizeof(int));
		r->ev[i].ids = calloc(nslots, sizeof(uint64_t));
		if (!r->ev[i].fds || !r->ev[i].ids)
			return -ENOMEM;
		for (size_t s = 0; s < nslots; s++)
			r->ev[i].fds[s] = -1;
	}
	for (size_t i = 0; i < r->nev; i++) {
		struct rec_event *e = &r->ev[i];

		for (size_t t = 0; t < r->nthreads; t++) {
			for (size_t c = 0; c < r->ncpus; c++) {
				size_t s = t * r->ncpus + c;
				int gfd = e->leader == (int)i ? -1 :
					r->ev[e->leader].fds[s];
				int fd;
retry:
				fd = pev_sys_open(&e->attr.attr, r->threads[t], r->cpus[c],
						  gfd, pev_target_open_flags(r->target) |
						  PERF_FLAG_FD_CLOEXEC);
				if (fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV) {
					if (is_cycles(&e->attr.attr) && s == 0) {
						fallback_cpu_clock(r, e);
						goto retry;
					}
				}
				if (fd == -ESRCH && !r->cpu_wide && !r->wl) {
					/* A thread of -p/-t ended meanwhile. */
					continue;
				}
				if (fd < 0) {
					open_error(r, e, -fd, r->threads[t], r->cpus[c], gfd);
					return fd;
				}
				e->fds[s] = fd;
				pev_ioc_id(fd, &e->ids[e->nids++]);
			}
		}
	}
	return 0;
}

int rec_mmap_rings(struct rec *r)
{
	r->rings = calloc(r->ncpus, sizeof(*r->rings));
	r->pfd = calloc(r->ncpus, sizeof(*r->pfd));
	if (!r->rings || !r->pfd)
		return -ENOMEM;
	for (size_t c = 0; c < r->ncpus; c++) {
		struct pev_ring_opts ro = { .size = sizeof(ro),
					    .data_pages = r->o.mmap_pages,
					    .flags = PEV_RING_SHRINK };
		struct pev_ring_report rep = { .size = sizeof(rep) };
		struct pev_ring *ring = NULL;

		for (size_t t = 0; t < r->nthreads; t++) {
			for (size_t i = 0; i < r->nev; i++) {
				int fd = r->ev[i].fds[t * r->ncpus + c];

				if (fd < 0)
					continue;
				if (!ring) {
					ring = pev_ring_new(fd, &ro, &rep);
					if (!ring) {
						cli_error("cannot map the ring buffer of CPU %d: %s; "
							  "try a smaller -m or raise "
							  "/proc/sys/kernel/perf_event_mlock_kb",
							  r->cpus[c], rep.reason[0] ? rep.reason :
							  strerror(errno));
						return -errno;
					}
					if (rep.retries && r->o.verbose)
						cli_warn("%s", rep.reason);
					continue;
				}
				int e = pev_ring_add_fd(ring, fd);

				if (e < 0) {
					cli_error("cannot redirect '%s' into the ring of CPU %d: %s; "
						  "use events of one clock and mode",
						  r->ev[i].name, r->cpus[c], strerror(-e));
					pev_ring_free(ring);
					return e;
				}
			}
		}
		if (ring) {
			r->pfd[r->nrings].fd = pev_ring_fd(ring);
			r->pfd[r->nrings].events = POLLIN;
			r->rings[r->nrings++] = ring;
		}
	}
	return 0;
}

void rec_close(struct rec *r)
{
	for (size_t i = 0; i < r->nrings; i++)
		pev_ring_free(r->rings[i]);
	free(r->rings);
	free(r->pfd);
	for (size_t i = 0; i < r->nev; i++) {
		for (size_t s = 0; r->ev[i].fds && s < r->nthreads * r->ncpus; s++)
			if (r->ev[i].fds[s] >= 0)
				close(r->ev[i].fds[s]);
		free(r->ev[i].fds);
		free(r->ev[i].ids);
	}
	free(r->ev);
	free(r->threads);
	free(r->cpus);
	pev_target_free(r->target);
	pev_evlist_free(r->evl);
	pev_data_writer_free(r->w);
}
