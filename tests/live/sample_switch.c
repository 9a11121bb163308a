// SPDX-License-Identifier: GPL-2.0-only
/* context_switch=1: a task event gives PERF_RECORD_SWITCH records (out,
 * in, out, in...) when the thread sleeps; a CPU-wide event on CPU 0 gives
 * PERF_RECORD_SWITCH_CPU_WIDE records whose next_prev_pid/tid name the
 * other task, ours among them while this thread sleeps pinned to CPU 0. */
#include <sched.h>
#include <perfev/perfev.h>
#include "ring_live.h"

#define SLEEPS 5

static void sleep_ms(unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}

static void switch_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a->sample_id_all = 1;
	a->context_switch = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

static int decode_one(struct pev_decoder *d, const struct perf_event_header *h,
		      struct pev_record *rec)
{
	int rc = pev_record_decode(d, h, h->size, rec);
	CHECK_MSG(rc == 0, "decode type %u: %s (%s at %zu)", h->type, strerror(-rc),
		  rec->error.field ? rec->error.field : "?", rec->error.offset);
	return rc;
}

static void task_switches(void)
{
	struct perf_event_attr a;
	switch_attr(&a);
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	skip_if_cannot_open(fd, &a, 0, -1, "dummy with context_switch");
	struct pev_ring *r = map_ring(fd, 8, PEV_RING_FORWARD);
	struct pev_decoder *d = pev_decoder_new();
	CHECK(d != NULL);
	CHECK_EQ_INT(pev_decoder_add_attr(d, &a, NULL, 0), 0);

	sleep_ms(SLEEPS);
	CHECK_OK(pev_ioc_disable(fd, false));

	unsigned outs = 0, ins = 0, preempt = 0, bad_order = 0, other = 0;
	bool expect_out = true;	/* enabled while running: first we leave */
	const struct perf_event_header *h;
	CHECK(pev_ring_read_init(r) > 0);
	while (pev_ring_read_next(r, &h) > 0) {
		struct pev_record rec;
		if (decode_one(d, h, &rec))
			continue;
		if (rec.type != PERF_RECORD_SWITCH) {
			other++;
			continue;
		}
		CHECK_EQ_INT(rec.size, 8 + 16);	/* no body, trailer TID + TIME */
		CHECK(rec.has_sample_id);
		CHECK_EQ_INT(rec.sample_id.pid, getpid());
		CHECK_EQ_INT(rec.sample_id.tid, gettid());
		CHECK_EQ_INT(rec.u.context_switch.out, !!(rec.misc & PERF_RECORD_MISC_SWITCH_OUT));
		/* A task event's record names no other task. */
		CHECK_EQ_INT(rec.u.context_switch.next_prev_pid, 0);
		CHECK_EQ_INT(rec.u.context_switch.next_prev_tid, 0);
		if (rec.u.context_switch.out != expect_out)
			bad_order++;
		expect_out = !rec.u.context_switch.out;
		if (rec.u.context_switch.out) {
			outs++;
			preempt += rec.u.context_switch.preempt;
		} else {
			ins++;
		}
	}
	CHECK_OK(pev_ring_read_done(r));
	printf("task: %u out (%u preempted), %u in, %u other records\n", outs, preempt, ins, other);
	CHECK_MSG(outs >= SLEEPS, "%u switch-outs for %d sleeps", outs, SLEEPS);
	CHECK_MSG(outs - preempt >= SLEEPS, "%u voluntary switch-outs for %d sleeps",
		  outs - preempt, SLEEPS);
	CHECK_EQ_INT(ins, outs);
	CHECK_EQ_INT(bad_order, 0);
	CHECK_EQ_INT(other, 0);
	pev_decoder_free(d);
	pev_ring_free(r);
	close(fd);
}

/* Returns false when the kernel refuses a CPU-wide event (not root). */
static bool cpu_wide_switches(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		T_FATAL("sched_setaffinity(CPU 0): %s", strerror(errno));
	sched_yield();
	CHECK_EQ_INT(sched_getcpu(), 0);

	struct perf_event_attr a;
	switch_attr(&a);
	a.exclude_kernel = 0;
	int fd = pev_sys_open(&a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && t_probe_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0) < 0) {
		printf("CPU-wide event not permitted (%s): needs root or "
		       "perf_event_paranoid <= 0\n", strerror(-t_probe_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0)));
		return false;
	}
	skip_if_cannot_open(fd, &a, -1, 0, "CPU-wide dummy with context_switch");
	struct pev_ring *r = map_ring(fd, 64, PEV_RING_FORWARD);
	struct pev_decoder *d = pev_decoder_new();
	CHECK(d != NULL);
	CHECK_EQ_INT(pev_decoder_add_attr(d, &a, NULL, 0), 0);

	sleep_ms(SLEEPS);
	CHECK_OK(pev_ioc_disable(fd, false));

	pid_t me = getpid(), tid = gettid();
	unsigned total = 0, our_out = 0, our_in = 0, named_us = 0, lost = 0, other = 0;
	const struct perf_event_header *h;
	CHECK(pev_ring_read_init(r) > 0);
	while (pev_ring_read_next(r, &h) > 0) {
		struct pev_record rec;
		if (decode_one(d, h, &rec))
			continue;
		if (rec.type == PERF_RECORD_LOST) {
			lost++;
			continue;
		}
		if (rec.type != PERF_RECORD_SWITCH_CPU_WIDE) {
			other++;
			continue;
		}
		total++;
		CHECK_EQ_INT(rec.size, 8 + 8 + 16);	/* next_prev pid/tid + trailer */
		CHECK(rec.has_sample_id);
		const struct pev_record_switch *s = &rec.u.context_switch;
		/* The switch is between two different tasks. */
		CHECK_MSG(s->next_prev_tid != rec.sample_id.tid,
			  "switch from tid %u to itself", s->next_prev_tid);
		if (rec.sample_id.tid == (uint32_t)tid) {
			CHECK_EQ_INT(rec.sample_id.pid, me);
			if (s->out)
				our_out++;
			else
				our_in++;
		}
		if (s->next_prev_tid == (uint32_t)tid) {
			CHECK_EQ_INT(s->next_prev_pid, me);
			named_us++;
		}
	}
	CHECK_OK(pev_ring_read_done(r));
	printf("cpu 0: %u SWITCH_CPU_WIDE, ours %u out %u in, %u name our tid, "
	       "%u lost, %u other\n", total, our_out, our_in, named_us, lost, other);
	CHECK_MSG(our_out >= SLEEPS, "%u switch-outs of ours for %d sleeps", our_out, SLEEPS);
	CHECK_MSG(our_in >= SLEEPS, "%u switch-ins of ours for %d sleeps", our_in, SLEEPS);
	/* Each of our switches names us in the other task's record. */
	CHECK_MSG(named_us >= SLEEPS, "our tid named by %u records", named_us);
	CHECK_EQ_INT(lost, 0);
	CHECK_EQ_INT(other, 0);
	pev_decoder_free(d);
	pev_ring_free(r);
	close(fd);
	return true;
}

int main(void)
{
	task_switches();
	/* A skip must not hide a failure of the task part. */
	if (!cpu_wide_switches() && !t_failures)
		T_SKIP("CPU-wide part not permitted here (task part passed)");
	return t_done();
}
