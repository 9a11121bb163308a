// SPDX-License-Identifier: GPL-2.0-only
/* perfev record --off-cpu: off-CPU time without BPF.
 *
 * perf 6.1 counts off-CPU time in a BPF program on sched_switch and, at the
 * end, writes one sample per (thread, user stack) of an event it calls
 * "offcpu-time" (a software BPF_OUTPUT event, opened but never fed): the
 * period is the nanoseconds off CPU, the call chain the thread's user stack
 * when it left the CPU.  perfev builds the same event from what perf_event
 * gives without BPF:
 *
 *   - sched:sched_switch, sampled for the target's threads with their user
 *     call chain: fires in the thread as it leaves the CPU (time t_out);
 *   - the switch records (context_switch on the tracking event): a
 *     switch-out flagged PREEMPT means the thread stays runnable (perf's
 *     BPF program counts only sleeping threads, state S or D: not
 *     on a run queue); the next switch-in of the thread gives t_in.
 *
 * Each drain pass collects these, pairs them per thread in time order and
 * appends one offcpu-time sample per interval (period t_in - t_out, time
 * t_in) before the pass's FINISHED_ROUND.  A switch-in is seen at most one
 * pass before its switch-out (the rings are read one after the other, and
 * the switch-out is in its ring before the thread can run elsewhere), so
 * an unpaired switch-in waits one pass.  Perf's round rule: at the end of
 * round k it delivers what is older than the newest time of round k-1.
 * Our sample's switch-out was not yet in its ring when round k-1 read that
 * ring, so t_in > t_out > everything round k-2 held: never older than what
 * perf has delivered when it reads the sample (no "out of order" warning,
 * which appending at the end with true times would give).  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "record/record.h"
#include <perfev/record.h>
#include <perfev/sys.h>
#include <perfev/tracefs.h>

/* perf 6.1's OFFCPU_SAMPLE_TYPES: what offcpu-time samples may carry. */
#define OFFCPU_SAMPLE_TYPES (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			     PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			     PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
			     PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | \
			     PERF_SAMPLE_CGROUP)

enum { EV_OUT, EV_OUT_REC, EV_IN };	/* the order at equal times */

struct sw_ev {			/* one switch event of a pass */
	uint64_t time;
	uint32_t pid, tid, cpu;
	uint8_t kind;
	bool preempt;		/* EV_OUT_REC */
	bool carried;		/* EV_IN waiting a second pass */
	size_t chain, nr;	/* EV_OUT: user ips in the pass's pool */
	uint64_t cgroup;
};

struct thr {			/* a thread off CPU, waiting for its switch-in */
	uint32_t tid;		/* 0: free slot */
	bool pending, preempt;
	uint32_t pid;
	uint64_t t_out, cgroup;
	uint64_t *ips;
	size_t nr, cap;
};

struct rec_offcpu {
	struct pev_decoder *dec;
	int sw_index;		/* the decoder's index of sched:sched_switch */
	struct sw_ev *ev;
	size_t nev, capev;
	uint64_t *pool;
	size_t npool, cappool;
	struct thr *thr;	/* open addressing on tid */
	size_t nthr, capthr;
	unsigned char *out;	/* the pass's offcpu-time samples */
	size_t nout, capout;
	unsigned char scratch[65536];	/* a record cut by the ring's end */
	int err;
};

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	size_t n = *cap ? *cap : 64;

	while (n < need)
		n *= 2;
	void *q = realloc(p, n * elem);

	if (q)
		*cap = n;
	return q;
}

int rec_offcpu_check(void)
{
	char tfs[512];
	int n = pev_tracefs_find(tfs, sizeof(tfs), true);
	int64_t id;

	if (n < 0) {
		cli_error("--off-cpu needs the tracepoint 'sched:sched_switch', but tracefs "
			  "is not mounted and mounting it failed (%s); as root run "
			  "'mount -t tracefs nodev /sys/kernel/tracing'", strerror(-n));
		return n;
	}
	/* The id to open it, and what the file's tracing data needs (perf
	 * script refuses tracepoint samples without their format). */
	static const char *const need[] = { "events/sched/sched_switch/id",
		"events/sched/sched_switch/format", "events/header_page",
		"events/header_event" };
	bool closed = access(tfs, X_OK) < 0 && (errno == EACCES || errno == EPERM);

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]) && !closed; i++) {
		char p[600];

		snprintf(p, sizeof(p), "%s/%s", tfs, need[i]);
		closed = access(p, R_OK) < 0 && (errno == EACCES || errno == EPERM);
	}
	if (closed) {
		cli_error("--off-cpu needs the tracepoint 'sched:sched_switch', but its files "
			  "in tracefs cannot be read (permission denied); as root run "
			  "'chmod o+x %s && cd %s/events && chmod o+r header_page header_event "
			  "sched/sched_switch/id sched/sched_switch/format', or run as root",
			  tfs, tfs);
		return -EACCES;
	}
	id = pev_tracepoint_id(tfs, "sched", "sched_switch");
	if (id < 0) {
		cli_error("--off-cpu needs the tracepoint 'sched:sched_switch', which '%s' "
			  "does not have (%s); a kernel built with CONFIG_TRACEPOINTS has it",
			  tfs, strerror((int)-id));
		return (int)id;
	}
	return 0;
}

void rec_offcpu_config(struct rec *r)
{
	struct perf_event_attr *sw = &r->ev[r->off_switch].attr.attr;
	struct perf_event_attr *oc = &r->ev[r->off_event].attr.attr;
	uint64_t keep = OFFCPU_SAMPLE_TYPES | (r->o.raw ? PERF_SAMPLE_RAW : 0);

	/* Every switch, with the user stack as it left (perf's BPF program
	 * takes the user stack only), and no raw fields: those would need
	 * kernel.perf_event_paranoid -1. */
	sw->sample_type = (sw->sample_type & keep) | PERF_SAMPLE_CALLCHAIN |
			  PERF_SAMPLE_TIME | PERF_SAMPLE_TID;
	sw->sample_period = 1;
	sw->freq = 0;
	sw->exclude_kernel = 0;	/* --all-user: it would never fire */
	sw->exclude_callchain_kernel = 1;
	sw->exclude_callchain_user = 0;
	sw->sample_regs_user = 0;
	sw->sample_stack_user = 0;
	/* perf 6.1's off_cpu_config and evsel__config: software BPF_OUTPUT,
	 * freq 1 at 1 Hz, its sample type cut to OFFCPU_SAMPLE_TYPES. */
	oc->freq = 1;
	oc->sample_freq = 1;
	oc->sample_type = (oc->sample_type & OFFCPU_SAMPLE_TYPES) | PERF_SAMPLE_CALLCHAIN |
			  PERF_SAMPLE_PERIOD | PERF_SAMPLE_TIME | PERF_SAMPLE_TID;
	oc->exclude_callchain_kernel = 0;
	oc->exclude_callchain_user = 0;
	oc->sample_regs_user = 0;
	oc->sample_stack_user = 0;
	r->ev[r->off_event].name = (char *)"offcpu-time";
}

void rec_offcpu_open_error(struct rec *r, int err)
{
	long paranoid = 0;

	(void)r;
	if ((err == EACCES || err == EPERM) &&
	    pev_sysctl_read(PEV_SYSCTL_PARANOID, &paranoid) == 0 && paranoid > 1) {
		cli_error("cannot open 'sched:sched_switch' for --off-cpu: "
			  "kernel.perf_event_paranoid is %ld and the tracepoint fires in "
			  "the kernel; as root run 'sysctl -w kernel.perf_event_paranoid=1' "
			  "(or give perfev CAP_PERFMON)", paranoid);
		return;
	}
	cli_error("cannot open 'sched:sched_switch' for --off-cpu: %s", strerror(err));
}

static int init(struct rec *r)
{
	struct rec_offcpu *oc = calloc(1, sizeof(*oc));

	if (!oc || !(oc->dec = pev_decoder_new())) {
		free(oc);
		return -ENOMEM;
	}
	r->off = oc;
	for (size_t i = 0; i < r->nev; i++) {
		int k = pev_decoder_add_attr(oc->dec, &r->ev[i].attr.attr,
					     r->ev[i].ids, r->ev[i].nids);

		if (k < 0)
			return k;
		if (i == r->off_switch)
			oc->sw_index = k;
	}
	return 0;
}

static void add_ev(struct rec_offcpu *oc, const struct sw_ev *e)
{
	struct sw_ev *v = grow(oc->ev, &oc->capev, oc->nev + 1, sizeof(*v));

	if (!v) {
		oc->err = -ENOMEM;
		return;
	}
	oc->ev = v;
	oc->ev[oc->nev++] = *e;
}

/* The user part of a sched_switch call chain goes to the pool. */
static void add_out(struct rec_offcpu *oc, const struct pev_record *rec)
{
	const struct pev_sample *s = &rec->u.sample;
	struct sw_ev e = { .time = s->time, .pid = s->pid, .tid = s->tid,
			   .cpu = s->cpu, .kind = EV_OUT, .chain = oc->npool,
			   .cgroup = s->cgroup };
	struct pev_callchain_iter it;
	struct pev_callchain_segment seg;

	pev_callchain_iter_init(&it, &s->callchain);
	while (pev_callchain_iter_next(&it, &seg)) {
		if (seg.context != PERF_CONTEXT_USER)
			continue;
		uint64_t *p = grow(oc->pool, &oc->cappool, oc->npool + seg.nr, sizeof(*p));

		if (!p) {
			oc->err = -ENOMEM;
			return;
		}
		oc->pool = p;
		if (seg.nr)
			memcpy(oc->pool + oc->npool, seg.ips, seg.nr * sizeof(*p));
		oc->npool += seg.nr;
		e.nr += seg.nr;
	}
	add_ev(oc, &e);
}

static void scan_record(struct rec *r, const void *buf, size_t len)
{
	struct rec_offcpu *oc = r->off;
	struct pev_record rec;

	if (pev_record_decode(oc->dec, buf, len, &rec) < 0 || !rec.has_sample_id)
		return;
	const struct pev_sample_id *id = &rec.sample_id;

	switch (rec.type) {
	case PERF_RECORD_SAMPLE:
		if (rec.attr_index == oc->sw_index && rec.u.sample.tid)
			add_out(oc, &rec);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (!id->tid)
			break;	/* the idle task */
		add_ev(oc, &(struct sw_ev){ .time = id->time, .pid = id->pid,
			.tid = id->tid, .cpu = id->cpu,
			.kind = rec.u.context_switch.out ? EV_OUT_REC : EV_IN,
			.preempt = rec.u.context_switch.preempt });
		break;
	}
}

/* Pairing that fails (memory) stops, with a warning; the recording goes on. */
static bool given_up(struct rec *r)
{
	struct rec_offcpu *oc = r->off;

	if (!oc->err)
		return false;
	if (oc->err != 1)
		cli_warn("--off-cpu: cannot pair the context switches (%s); the file has "
			 "no offcpu-time samples from here on", strerror(-oc->err));
	oc->err = 1;
	return true;
}

void rec_offcpu_scan(struct rec *r, const struct pev_ring_span *sp, int n, size_t total)
{
	if (!r->off) {
		int err = init(r);

		if (err < 0 && r->off)
			r->off->err = err;
		if (!r->off) {
			cli_warn("--off-cpu: out of memory; the file has no offcpu-time samples");
			r->o.off_cpu = false;
			return;
		}
	}
	struct rec_offcpu *oc = r->off;

	if (given_up(r))
		return;

	for (size_t off = 0; off + 8 <= total && !oc->err; ) {
		struct perf_event_header h;
		const void *p;

		if (n && off + 8 <= sp[0].size)
			memcpy(&h, (const unsigned char *)sp[0].data + off, 8);
		else
			rec_span_copy(sp, n, off, &h, 8);
		if (h.size < 8 || off + h.size > total)
			break;
		if (off + h.size <= sp[0].size) {
			p = (const unsigned char *)sp[0].data + off;
		} else {
			rec_span_copy(sp, n, off, oc->scratch, h.size);
			p = oc->scratch;
		}
		if (h.type == PERF_RECORD_SAMPLE || h.type == PERF_RECORD_SWITCH ||
		    h.type == PERF_RECORD_SWITCH_CPU_WIDE)
			scan_record(r, p, h.size);
		off += h.size;
	}
	given_up(r);
}

static int cmp_ev(const void *a, const void *b)
{
	const struct sw_ev *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static struct thr *thread(struct rec_offcpu *oc, uint32_t tid)
{
	if (2 * (oc->nthr + 1) > oc->capthr) {
		size_t cap = oc->capthr ? 2 * oc->capthr : 256;
		struct thr *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t i = 0; i < oc->capthr; i++) {
			if (!oc->thr[i].tid)
				continue;
			size_t k = oc->thr[i].tid * 2654435761u & (cap - 1);

			while (t[k].tid)
				k = (k + 1) & (cap - 1);
			t[k] = oc->thr[i];
		}
		free(oc->thr);
		oc->thr = t;
		oc->capthr = cap;
	}
	size_t k = tid * 2654435761u & (oc->capthr - 1);

	while (oc->thr[k].tid && oc->thr[k].tid != tid)
		k = (k + 1) & (oc->capthr - 1);
	if (!oc->thr[k].tid) {
		oc->thr[k].tid = tid;
		oc->nthr++;
	}
	return &oc->thr[k];
}

/* One offcpu-time sample in perf 6.1's layout (off_cpu_write): the ip is
 * the first user frame, the chain PERF_CONTEXT_USER and the user frames. */
static void emit(struct rec *r, const struct thr *t, uint64_t t_in, uint32_t cpu)
{
	struct rec_offcpu *oc = r->off;
	const struct rec_event *e = &r->ev[r->off_event];
	uint64_t st = e->attr.attr.sample_type, id = e->nids ? e->ids[0] : 0;
	size_t size = 8 * (1 + 9 + t->nr + 2);
	unsigned char *o = grow(oc->out, &oc->capout, oc->nout + size, 1);

	if (!o) {
		oc->err = -ENOMEM;
		return;
	}
	oc->out = o;
	uint64_t *a = (uint64_t *)(oc->out + oc->nout);
	size_t n = 1;

	if (st & PERF_SAMPLE_IDENTIFIER)
		a[n++] = id;
	if (st & PERF_SAMPLE_IP)
		a[n++] = t->ips[0];
	if (st & PERF_SAMPLE_TID)
		a[n++] = (uint64_t)t->tid << 32 | t->pid;
	if (st & PERF_SAMPLE_TIME)
		a[n++] = t_in;
	if (st & PERF_SAMPLE_ID)
		a[n++] = id;
	if (st & PERF_SAMPLE_CPU)
		a[n++] = cpu;
	if (st & PERF_SAMPLE_PERIOD)
		a[n++] = t_in - t->t_out;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		a[n++] = t->nr + 1;
		a[n++] = PERF_CONTEXT_USER;
		if (t->nr)
			memcpy(&a[n], t->ips, t->nr * sizeof(*a));
		n += t->nr;
	}
	if (st & PERF_SAMPLE_CGROUP)
		a[n++] = t->cgroup;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				       (uint16_t)(n * 8) };

	memcpy(a, &h, sizeof(h));
	oc->nout += n * 8;
	r->samples++;
	r->offcpu_samples++;
}

static void pair(struct rec *r, struct sw_ev *e, size_t *ncarry)
{
	struct rec_offcpu *oc = r->off;
	struct thr *t = thread(oc, e->tid);

	if (!t) {
		oc->err = -ENOMEM;
		return;
	}
	switch (e->kind) {
	case EV_OUT: {
		uint64_t *p = e->nr ? grow(t->ips, &t->cap, e->nr, sizeof(*p)) : t->ips;

		if (e->nr && !p) {
			oc->err = -ENOMEM;
			return;
		}
		t->ips = p;
		if (e->nr)	/* none: a kernel thread, never emitted */
			memcpy(t->ips, oc->pool + e->chain, e->nr * sizeof(*p));
		t->nr = e->nr;
		t->pending = true;
		t->preempt = false;
		t->pid = e->pid;
		t->t_out = e->time;
		t->cgroup = e->cgroup;
		break;
	}
	case EV_OUT_REC:
		if (t->pending)
			t->preempt = e->preempt;
		break;
	case EV_IN:
		if (t->pending && e->time < t->t_out) {
			break;	/* a carried switch-in before this switch-out */
		} else if (t->pending) {
			if (!t->preempt && t->nr)
				emit(r, t, e->time, e->cpu);
			t->pending = false;
		} else if (!e->carried) {
			e->carried = true;
			oc->ev[(*ncarry)++] = *e;	/* behind the reader */
		}
		break;
	}
}

int rec_offcpu_flush(struct rec *r)
{
	struct rec_offcpu *oc = r->off;
	size_t ncarry = 0;

	if (!oc || given_up(r))
		return 0;
	if (oc->nev)	/* qsort's array must not be NULL, even empty */
		qsort(oc->ev, oc->nev, sizeof(*oc->ev), cmp_ev);
	oc->nout = 0;
	for (size_t i = 0; i < oc->nev && !oc->err; i++)
		pair(r, &oc->ev[i], &ncarry);
	oc->nev = ncarry;
	oc->npool = 0;	/* carried switch-ins hold no chain */
	if (given_up(r) || !oc->nout)
		return 0;
	return pev_data_writer_write(r->w, oc->out, oc->nout);
}

void rec_offcpu_free(struct rec *r)
{
	struct rec_offcpu *oc = r->off;

	if (!oc)
		return;
	pev_decoder_free(oc->dec);
	free(oc->ev);
	free(oc->pool);
	for (size_t i = 0; i < oc->capthr; i++)
		free(oc->thr[i].ips);
	free(oc->thr);
	free(oc->out);
	free(oc);
	r->off = NULL;
}
