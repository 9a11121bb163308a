// SPDX-License-Identifier: GPL-2.0-only
/* perfev record: the attrs (as perf record builds them), the targets, the
 * fds (each event on every CPU slot of every thread slot) and the rings
 * (one per CPU slot; the other fds of that CPU are SET_OUTPUT into it). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "record/record.h"

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
	}
	return r;
}

/* perf's -W: x86 perf samples the weight struct, the others the plain
 * weight (arch_evsel__set_sample_weight). */
static uint64_t weight_type(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return PERF_SAMPLE_WEIGHT_STRUCT;
#else
	return PERF_SAMPLE_WEIGHT;
#endif
}

/* The attr of event i, from the parsed one and the options, as perf 6.1's
 * evsel__config builds it. */
static void config_attr(struct rec *r, size_t i, const struct pev_event *pe)
{
	struct perf_event_attr *a = &r->ev[i].attr.attr;
	const struct rec_opts *o = &r->o;
	bool leader = pe->leader == (int)i;
	bool sample_read = pev_evlist_event(r->evl, (size_t)pe->leader)->sample_read;
	bool dummy = r->track_dummy && i == r->track;
	bool delayed = o->delay_ms != 0 && !dummy;
	bool tp = a->type == PERF_TYPE_TRACEPOINT;
	bool user_rate = o->period || o->user_freq;

	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	/* perf: TIME unless --per-thread without -T (no inherit and no
	 * per-CPU rings: samples of one ring are in order anyway). */
	if (!o->per_thread || o->sample_time || o->raw || r->cpu_wide)
		a->sample_type |= PERF_SAMPLE_TIME;
	if (r->cpu_wide || o->sample_cpu || o->raw)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (o->callchain && !dummy)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->dwarf && !dummy) {
		/* perf: the kernel callchain only, the user stack as a
		 * copy to unwind later; and --call-graph dwarf turns on
		 * sample addresses (-d) too. */
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
				  PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->exclude_callchain_user = 1;
		/* perf's PERF_REGS_MASK of this machine: x86_64 0xff0fff
		 * (no segment registers), arm64 x0..x30, sp, pc (33 bits;
		 * the x86 mask would leave out sp and pc there). */
		a->sample_regs_user = rec_regs_all_mask();
		a->sample_stack_user = o->stack_size;
		a->mmap_data = i == r->track;
	}
	if (o->sample_addr) {
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->mmap_data = i == r->track;
	}
	if (o->phys_data)
		a->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (o->data_page_size)
		a->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
	if (o->code_page_size)
		a->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
	if (o->weight)
		a->sample_type |= weight_type();
	if (o->raw)
		a->sample_type |= PERF_SAMPLE_RAW;
	/* perf's evsel__newtp: a tracepoint samples its fields (RAW), the
	 * CPU and the period, whatever the options. */
	if (tp)
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU |
				  PERF_SAMPLE_PERIOD;
	if (o->all_cgroups)
		a->sample_type |= PERF_SAMPLE_CGROUP;
	if (o->sample_intr_regs && !dummy) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = o->intr_regs;
	}
	if (o->sample_user_regs && !dummy) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= o->user_regs;
	}
	if (o->branch_stack && !dummy) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = o->branch_stack;
	}
	a->read_format = PERF_FORMAT_ID;
	if (pev_probe(PEV_FEAT_FORMAT_LOST) == 1)
		a->read_format |= PERF_FORMAT_LOST;
	if (o->inherit_stat) {
		/* -s: the kernel writes a READ record of each child at its
		 * exit (per-thread counts). */
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED |
				  PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->inherit_stat = 1;
	}
	if (sample_read) {
		a->sample_type |= PERF_SAMPLE_READ;
		if (!(a->sample_type & PERF_SAMPLE_IDENTIFIER))
			a->sample_type |= PERF_SAMPLE_ID;
		a->read_format |= PERF_FORMAT_GROUP;
	}
	/* Period: the event's own period= wins, then -c, then -F; perf
	 * samples PERIOD in frequency mode (and with -P).  A tracepoint
	 * and the dummy default to every event (period 1), and follow
	 * only a -c or -F the user gave. */
	if ((dummy || tp) && !pe->user_period && !user_rate) {
		a->sample_period = 1;
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
	if (a->freq || o->sample_period)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	if (sample_read && !leader) {
		a->sample_period = 0;
		a->freq = 0;
	}
	if (o->no_samples && !dummy)
		a->sample_period = 0;	/* -n: perf keeps freq, samples nothing */
	a->sample_id_all = 1;
	if (o->use_clockid) {
		a->use_clockid = 1;
		a->clockid = o->clockid;
	}
	if (o->all_user) {
		a->exclude_kernel = 1;
		a->exclude_user = 0;
	}
	if (o->all_kernel) {
		a->exclude_kernel = 0;
		a->exclude_user = 1;
	}
	a->write_backward = o->overwrite;
	/* perf: the dummy of a system-wide run is enabled at open; with -D
	 * the others wait for the delay instead of the workload's exec. */
	a->disabled = leader && !(dummy && r->cpu_wide);
	a->inherit = !o->no_inherit && !o->per_thread && !sample_read;
	a->enable_on_exec = leader && r->wl != NULL && !r->wl_timer && !r->cpu_wide &&
		!delayed;
	if (i == r->track) {	/* the tracking event: side-band records */
		a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
		a->context_switch = o->switch_events;
		a->namespaces = o->namespaces;
		a->cgroup = o->all_cgroups;
	}
}

/* perf's evlist__config: with several events, every attr carries an id
 * in its samples: IDENTIFIER (first) when the sample types differ, so
 * that a reader finds it before knowing the event, else ID. */
static void config_ids(struct rec *r)
{
	const uint64_t idbits = PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER;
	bool same = true;

	if (r->nev < 2)
		return;
	for (size_t i = 1; i < r->nev; i++)
		if ((r->ev[i].attr.attr.sample_type & ~idbits) !=
		    (r->ev[0].attr.attr.sample_type & ~idbits))
			same = false;
	for (size_t i = 0; i < r->nev; i++) {
		struct perf_event_attr *a = &r->ev[i].attr.attr;

		a->sample_type &= ~idbits;
		a->sample_type |= same ? PERF_SAMPLE_ID : PERF_SAMPLE_IDENTIFIER;
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
	/* --off-cpu: the tracepoint and perf's offcpu-time event (a
	 * software BPF_OUTPUT event that never fires: its samples are made
	 * from the tracepoint's, record_offcpu.c). */
	if (r->o.off_cpu) {
		int e = rec_offcpu_check();

		if (e < 0)
			return e == -EINVAL ? -EIO : e;
		r->off_switch = pev_evlist_count(r->evl);
		r->off_event = r->off_switch + 1;
		if (parse_spec(r->evl, "sched:sched_switch") < 0 ||
		    parse_spec(r->evl, "bpf-output") < 0)
			return -EINVAL;
	}
	/* perf 6.1 adds a dummy event for the side-band records when the
	 * others may not run all the time: system-wide, and -D. */
	r->track_dummy = r->cpu_wide || r->o.delay_ms != 0;
	if (r->track_dummy && parse_spec(r->evl, "dummy") < 0)
		return -EINVAL;
	r->nev = pev_evlist_count(r->evl);
	r->track = r->track_dummy ? r->nev - 1 : 0;
	r->ev = calloc(r->nev, sizeof(*r->ev));
	if (!r->ev)
		return -ENOMEM;
	for (size_t i = 0; i < r->nev; i++) {
		struct pev_event *pe = pev_evlist_event(r->evl, i);

		r->ev[i].attr = pe->attr;
		r->ev[i].name = pe->name;
		r->ev[i].leader = pe->leader;
	}
	if (r->track_dummy) {
		r->ev[r->track].name = (char *)"dummy:HG";
		r->ev[r->track].attr.attr.exclude_guest = 0;
		r->ev[r->track].attr.attr.exclude_host = 0;
	}
	for (size_t i = 0; i < r->nev; i++)
		config_attr(r, i, pev_evlist_event(r->evl, i));
	if (r->o.off_cpu)
		rec_offcpu_config(r);
	config_ids(r);
	return 0;
}

/* -u: every thread of every process of the user (perf 6.1's
 * thread_map__new_by_uid: the owner of /proc/PID). */
static struct pev_target *uid_target(uid_t uid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t *ids = NULL;
	size_t n = 0, cap = 0;
	struct pev_target *t;

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char path[64];
		struct stat st;
		pid_t pid = (pid_t)atoi(de->d_name);

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		if (stat(path, &st) || st.st_uid != uid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		DIR *td = opendir(path);

		for (struct dirent *te; td && (te = readdir(td)); ) {
			pid_t tid = (pid_t)atoi(te->d_name);

			if (tid <= 0)
				continue;
			if (n == cap) {
				pid_t *g = realloc(ids, (cap = cap ? 2 * cap : 256) * sizeof(*g));

				if (!g)
					break;
				ids = g;
			}
			if (n < cap)
				ids[n++] = tid;
		}
		if (td)
			closedir(td);
	}
	closedir(d);
	if (!n) {
		free(ids);
		errno = ESRCH;
		return NULL;
	}
	t = pev_target_new_tids(ids, n);
	free(ids);
	return t;
}

int rec_setup_targets(struct rec *r)
{
	const struct rec_opts *o = &r->o;
	const char *what = NULL;
	int n;

	r->cgroup_fd = -1;
	if (o->cgroup) {
		what = o->cgroup;
		r->target = pev_target_new_cgroup(o->cgroup, o->cpus);
		if (r->target)
			r->cgroup_fd = pev_target_thread(r->target, 0);
	} else if (o->all_cpus || o->cpus) {
		r->target = pev_target_new_cpus(o->cpus);
	} else if (o->uid_set) {
		r->target = uid_target(o->uid);
		if (!r->target) {
			cli_error("cannot find the threads of user %u: %s", (unsigned)o->uid,
				  errno == ESRCH ? "the user runs no process" : strerror(errno));
			return -ESRCH;
		}
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

		if (o->cgroup)
			cli_cgroup_error("cannot record cgroup", o->cgroup, e);
		else if (o->all_cpus || o->cpus)
			cli_cpus_error("cannot record on CPUs", o->cpus, e);
		else
			cli_error("cannot set up the target '%s': %s; check that it exists",
				  what ? what : o->cpus ? o->cpus : o->pids ? o->pids :
				  o->tids ? o->tids : r->argv[0], strerror(e));
		return -e;
	}
	/* Thread slots as the target says; CPU slots: perf record opens
	 * task events on every online CPU too (one ring per CPU, inherit),
	 * except --per-thread: cpu -1 and one ring per thread. */
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
	} else if (o->per_thread) {
		r->cpus = calloc(1, sizeof(int));
		if (!r->cpus)
			return -ENOMEM;
		r->cpus[0] = -1;
		r->ncpus = 1;
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

/* perf's fallback for unprivileged users (evsel__fallback): above
 * kernel.perf_event_paranoid 1 only user space may be sampled, so an event
 * refused for counting the kernel too is opened with exclude_kernel and
 * exclude_hv, and renamed as perf renames it ("cpu-clock:u").  An event
 * that excludes user space stays refused, as in perf.  Returns the new fd,
 * or err with the event unchanged when the fallback does not apply or is
 * refused too. */
static int fallback_user_only(struct rec *r, struct rec_event *e, int err, pid_t pid,
			      int cpu, unsigned long flags)
{
	struct perf_event_attr *a = &e->attr.attr;
	long paranoid;
	char *name;
	int fd;

	if ((err != -EACCES && err != -EPERM) || a->exclude_kernel || a->exclude_user ||
	    pev_sysctl_read(PEV_SYSCTL_PARANOID, &paranoid) < 0 || paranoid <= 1)
		return err;
	a->exclude_kernel = a->exclude_hv = 1;
	fd = pev_sys_open(a, pid, cpu, -1, flags);
	if (fd < 0 || asprintf(&name, "%s%su", e->name,
			       strchr(e->name, '/') || strchr(e->name, ':') ? "" : ":") < 0) {
		if (fd >= 0)
			close(fd);
		a->exclude_kernel = a->exclude_hv = 0;
		return err;
	}
	if (r->o.verbose)
		fprintf(stderr, "Warning:\nkernel.perf_event_paranoid=%ld, trying to fall back "
			"to excluding kernel and hypervisor  samples\n", paranoid);
	free(e->own_name);
	e->name = e->own_name = name;
	return fd;
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
				unsigned long flags = pev_target_open_flags(r->target);
				pid_t pid = r->threads[t];
				int fd;

				if (r->cgroup_fd >= 0 && r->track_dummy && i == r->track) {
					/* perf: -G applies to the given events;
					 * the side band is system-wide. */
					pid = -1;
					flags &= ~PERF_FLAG_PID_CGROUP;
				}
retry:
				fd = pev_sys_open(&e->attr.attr, pid, r->cpus[c], gfd,
						  flags | PERF_FLAG_FD_CLOEXEC);
				if (fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV) {
					if (is_cycles(&e->attr.attr) && s == 0) {
						fallback_cpu_clock(r, e);
						goto retry;
					}
				}
				/* not sched_switch of --off-cpu: in user space
				 * only, it would never fire */
				if (fd < 0 && s == 0 && e->leader == (int)i &&
				    !(r->o.off_cpu && i == r->off_switch))
					fd = fallback_user_only(r, e, fd, pid, r->cpus[c],
								flags | PERF_FLAG_FD_CLOEXEC);
				if (fd == -ESRCH && !r->cpu_wide && (!r->wl || r->wl_timer)) {
					/* A thread of -p/-t ended meanwhile. */
					continue;
				}
				if (fd < 0 && r->o.uid_set && fd != -EOPNOTSUPP &&
				    fd != -EINVAL && fd != -ENOENT) {
					/* -u: as perf, a thread that cannot be
					 * opened is left out. */
					if (r->o.verbose)
						cli_warn("ignored open failure for pid %d: %s",
							 (int)pid, strerror(-fd));
					continue;
				}
				if (fd < 0 && r->o.off_cpu && i == r->off_switch) {
					rec_offcpu_open_error(r, -fd);
					return fd;
				}
				if (fd < 0) {
					open_error(r, e, -fd, pid, r->cpus[c], gfd);
					return fd;
				}
				e->fds[s] = fd;
				pev_ioc_id(fd, &e->ids[e->nids++]);
			}
		}
	}
	return 0;
}

/* fd of event i in ring slot k, position j among that slot's (thread
 * slot, cpu slot) pairs: rings are per CPU slot, or per thread slot with
 * --per-thread (cpu -1: the kernel redirects only within one task). */
static int ring_fd(const struct rec *r, size_t k, size_t j, size_t i)
{
	size_t t = r->o.per_thread ? k : j, c = r->o.per_thread ? j : k;

	return r->ev[i].fds[t * r->ncpus + c];
}

/* mmap refused with EPERM: the kernel's locked-memory budget for this
 * user is kernel.perf_event_mlock_kb per online CPU, and beyond that
 * RLIMIT_MEMLOCK (both waived for CAP_IPC_LOCK and at paranoid -1); every
 * ring counts its data pages plus one.  Say what was asked, what is
 * allowed, and the three ways out. */
static void ring_budget_error(const char *where, unsigned pages, size_t nrings)
{
	long ps = sysconf(_SC_PAGESIZE), ncpu = sysconf(_SC_NPROCESSORS_ONLN), mlock_kb = -1;
	struct rlimit rl;
	FILE *f = fopen("/proc/sys/kernel/perf_event_mlock_kb", "r");

	if (f) {
		if (fscanf(f, "%ld", &mlock_kb) != 1)
			mlock_kb = -1;
		fclose(f);
	}
	if (ps <= 0)
		ps = 4096;
	if (ncpu <= 0)
		ncpu = 1;
	unsigned long long ring_kb = (unsigned long long)(pages + 1) * (unsigned long long)ps / 1024;
	unsigned long long asked_kb = ring_kb * nrings;
	bool rl_known = getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY;
	unsigned long long rl_kb = rl_known ? (unsigned long long)rl.rlim_cur / 1024 : 0;
	if (mlock_kb < 0 || !rl_known) {
		cli_error("cannot map the ring buffer of %s: %u data pages (%llu KiB per ring, %zu ring%s) "
			  "exceed the locked-memory budget (kernel.perf_event_mlock_kb per CPU, then "
			  "RLIMIT_MEMLOCK); use a smaller -m, raise 'ulimit -l', or as root raise "
			  "kernel.perf_event_mlock_kb", where, pages, ring_kb, nrings,
			  nrings == 1 ? "" : "s");
		return;
	}
	unsigned long long allowed_kb = (unsigned long long)mlock_kb * (unsigned long long)ncpu + rl_kb;
	/* The largest power of two that fits in what is allowed. */
	unsigned fit = 0;
	for (unsigned p = 1; p <= (1u << 20); p *= 2)
		if ((unsigned long long)(p + 1) * (unsigned long long)ps / 1024 * nrings <= allowed_kb)
			fit = p;
	unsigned long long need_mlock = (asked_kb + (unsigned long long)ncpu - 1) / (unsigned long long)ncpu;
	unsigned long long need_rl = asked_kb > (unsigned long long)mlock_kb * (unsigned long long)ncpu ?
		asked_kb - (unsigned long long)mlock_kb * (unsigned long long)ncpu : 0;
	char m[96];
	if (fit)
		snprintf(m, sizeof(m), "use -m %u or less", fit);
	else
		snprintf(m, sizeof(m), "free locked memory (other perf sessions of this user count)");
	cli_error("cannot map the ring buffer of %s: %u data pages asked (%llu KiB per ring, %llu KiB "
		  "for %zu ring%s), but this user may lock %llu KiB (kernel.perf_event_mlock_kb %ld KiB "
		  "x %ld CPUs + RLIMIT_MEMLOCK %llu KiB); %s, or raise the limit with 'ulimit -l %llu', "
		  "or as root run 'sysctl -w kernel.perf_event_mlock_kb=%llu'",
		  where, pages, ring_kb, asked_kb, nrings, nrings == 1 ? "" : "s", allowed_kb,
		  mlock_kb, ncpu, rl_kb, m, need_rl, need_mlock);
}

int rec_mmap_rings(struct rec *r)
{
	size_t nslots = r->o.per_thread ? r->nthreads : r->ncpus;
	size_t nper = r->o.per_thread ? r->ncpus : r->nthreads;

	r->rings = calloc(nslots, sizeof(*r->rings));
	r->pfd = calloc(nslots, sizeof(*r->pfd));
	if (!r->rings || !r->pfd)
		return -ENOMEM;
	for (size_t k = 0; k < nslots; k++) {
		struct pev_ring_opts ro = { .size = sizeof(ro),
					    .data_pages = r->o.mmap_pages,
					    .mode = r->o.overwrite ? PEV_RING_BACKWARD :
						    PEV_RING_FORWARD,
					    /* -m is what the user asked for: fail
					     * as perf does rather than shrink */
					    .flags = r->o.mmap_pages ? 0 : PEV_RING_SHRINK };
		struct pev_ring_report rep = { .size = sizeof(rep) };
		struct pev_ring *ring = NULL;
		char where[48];

		if (r->o.per_thread)
			snprintf(where, sizeof(where), "thread %d", (int)r->threads[k]);
		else
			snprintf(where, sizeof(where), "CPU %d", r->cpus[k]);
		for (size_t j = 0; j < nper; j++) {
			for (size_t i = 0; i < r->nev; i++) {
				int fd = ring_fd(r, k, j, i);

				if (fd < 0)
					continue;
				if (!ring) {
					ring = pev_ring_new(fd, &ro, &rep);
					if (!ring) {
						int e = errno;
						if (e == EPERM)
							ring_budget_error(where, rep.requested_pages
									  ? rep.requested_pages : 1,
									  nslots);
						else
							cli_error("cannot map the ring buffer of %s: %s",
								  where, rep.reason[0] ? rep.reason :
								  strerror(e));
						return -e;
					}
					if (rep.retries && r->o.verbose)
						cli_warn("%s", rep.reason);
					continue;
				}
				int e = pev_ring_add_fd(ring, fd);

				if (e < 0) {
					cli_error("cannot redirect '%s' into the ring of %s: %s; "
						  "use events of one clock and mode",
						  r->ev[i].name, where, strerror(-e));
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
		free(r->ev[i].own_name);
	}
	free(r->ev);
	free(r->threads);
	free(r->cpus);
	pev_target_free(r->target);
	pev_evlist_free(r->evl);
	pev_data_writer_free(r->w);
	rec_offcpu_free(r);
}
