// SPDX-License-Identifier: GPL-2.0-only
/* A write watchpoint with sample_period = 1 and IP|TID|ADDR: N writes to
 * the variable give exactly N PERF_RECORD_SAMPLEs, each with addr = the
 * variable's address, our pid/tid, and an ip inside the writing function
 * (the trap comes after the store, so ip is the next instruction). */
#include <linux/hw_breakpoint.h>
#include <perfev/perfev.h>
#include "ring_live.h"

#define N 25

static volatile uint64_t watched;
static volatile uint64_t unwatched;
static volatile int n_writes = N;	/* volatile: the loop is not unrolled away */

__attribute__((noinline)) static void write_watched(void)
{
	for (int i = 0; i < n_writes; i++)
		watched = (uint64_t)i;
}

int main(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uint64_t)(uintptr_t)&watched;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	skip_if_cannot_open(fd, &a, 0, -1, "write watchpoint (no debug registers here?)");
	struct pev_ring *r = map_ring(fd, 8, PEV_RING_FORWARD);
	struct pev_decoder *d = pev_decoder_new();
	CHECK(d != NULL);
	CHECK_EQ_INT(pev_decoder_add_attr(d, &a, NULL, 0), 0);

	CHECK_OK(pev_ioc_enable(fd, false));
	write_watched();
	/* Reads and writes elsewhere do not fire. */
	unwatched = watched + 1;
	CHECK_OK(pev_ioc_disable(fd, false));
	CHECK_EQ_U64(watched, N - 1);

	uint64_t lo = (uint64_t)(uintptr_t)write_watched, hi = lo + 4096;
	unsigned samples = 0, other = 0;
	const struct perf_event_header *h;
	CHECK(pev_ring_read_init(r) > 0);
	while (pev_ring_read_next(r, &h) > 0) {
		struct pev_record rec;
		int rc = pev_record_decode(d, h, h->size, &rec);
		CHECK_MSG(rc == 0, "decode type %u: %s", h->type, strerror(-rc));
		if (rc)
			continue;
		if (rec.type != PERF_RECORD_SAMPLE) {
			other++;
			continue;
		}
		samples++;
		const struct pev_sample *s = &rec.u.sample;
		CHECK_EQ_INT(rec.size, 8 + 8 + 8 + 8);	/* ip, pid/tid, addr */
		CHECK_EQ_U64(s->fields, a.sample_type);
		CHECK_EQ_U64(s->addr, (uintptr_t)&watched);
		CHECK_EQ_INT(s->pid, getpid());
		CHECK_EQ_INT(s->tid, gettid());
		CHECK_MSG(s->ip > lo && s->ip < hi, "ip %#" PRIx64 " not in write_watched at %#" PRIx64,
			  s->ip, lo);
		CHECK_EQ_INT(rec.misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
	}
	CHECK_OK(pev_ring_read_done(r));
	printf("%u samples for %d writes, %u other records\n", samples, N, other);
	CHECK_EQ_INT(samples, N);
	CHECK_EQ_INT(other, 0);

	/* Counting agrees: the event's count is the number of writes. */
	uint64_t count = 0;
	CHECK_EQ_INT(read(fd, &count, sizeof(count)), sizeof(count));
	CHECK_EQ_U64(count, N);

	pev_decoder_free(d);
	pev_ring_free(r);
	close(fd);
	return t_done();
}
