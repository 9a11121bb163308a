// SPDX-License-Identifier: GPL-2.0-only
/* A cpu-clock sampling event on this thread: records arrive, every header
 * is sane, the sample count matches the CPU time used, and sample times
 * fall inside the TSC window converted with the user page. */
#include <perfev/perfev.h>
#include "ring_live.h"

#define PERIOD 100000	/* ns */

#if defined(__x86_64__) || defined(__i386__)
static uint64_t tsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#endif

int main(void)
{
	struct perf_event_attr a;
	int fd = open_clock(&a, PERIOD, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
	skip_if_cannot_open(fd, &a, 0, -1, "cpu-clock");
	struct pev_ring *r = map_ring(fd, 16, PEV_RING_FORWARD);
	CHECK_EQ_INT(pev_ring_data_pages(r), 16);
	CHECK_EQ_U64(pev_ring_data_size(r), 16 * (uint64_t)sysconf(_SC_PAGESIZE));
	struct perf_event_mmap_page *pc = pev_ring_user_page(r);
	CHECK_EQ_U64(pc->data_offset, (uint64_t)sysconf(_SC_PAGESIZE));

	struct pev_time_conv tc;
	CHECK_OK(pev_user_page_time_conv(pc, &tc));
	uint64_t t0 = 0, t1 = 0;
#if defined(__x86_64__) || defined(__i386__)
	t0 = tsc();
#endif
	uint64_t c0 = thread_cpu_ns();
	busy_ms(50);
	uint64_t used = thread_cpu_ns() - c0;
#if defined(__x86_64__) || defined(__i386__)
	t1 = tsc();
#endif
	CHECK_OK(pev_ioc_disable(fd, false));

	uint64_t lo = pev_time_conv_to_perf_time(&tc, t0), hi = pev_time_conv_to_perf_time(&tc, t1);
	bool check_time = tc.cap_user_time_zero && t1;
	unsigned samples = 0, other = 0, bad_time = 0;
	uint64_t last_time = 0;
	const struct perf_event_header *h;
	CHECK(pev_ring_read_init(r) > 0);
	while (pev_ring_read_next(r, &h) > 0) {
		CHECK_MSG(header_sane(h), "bad header type %u size %u", h->type, h->size);
		if (h->type != PERF_RECORD_SAMPLE) {
			other++;
			continue;
		}
		/* {u64 ip; u32 pid, tid; u64 time} */
		uint64_t body[3];
		CHECK_EQ_INT(h->size, 8 + sizeof(body));
		memcpy(body, h + 1, sizeof(body));
		CHECK_EQ_INT((uint32_t)body[1], getpid());
		CHECK_EQ_INT((uint32_t)(body[1] >> 32), gettid());
		CHECK(body[2] >= last_time);
		last_time = body[2];
		if (check_time && (body[2] < lo || body[2] > hi))
			bad_time++;
		samples++;
	}
	CHECK_OK(pev_ring_read_done(r));
	CHECK_EQ_U64(pc->data_tail, pc->data_head);
	CHECK_EQ_INT(pev_ring_read_init(r), 0);

	/* One sample per PERIOD of CPU time; allow for timer granularity. */
	uint64_t expect = used / PERIOD;
	printf("%u samples, %u other records, %" PRIu64 " ns cpu (expect ~%" PRIu64 ")%s\n",
	       samples, other, used, expect, check_time ? ", TSC window checked" : "");
	CHECK_MSG(samples >= expect * 6 / 10 && samples <= expect * 11 / 10 + 2,
		  "%u samples for %" PRIu64 " expected", samples, expect);
	CHECK_MSG(bad_time == 0, "%u sample times outside [%" PRIu64 ", %" PRIu64 "]", bad_time, lo, hi);

	/* The counting value through the user page: cap_user_rdpmc is 0 for
	 * a software event, so the fallback read(2) gives the value. */
	CHECK(!pc->cap_user_rdpmc);
	struct pev_user_page_snapshot s;
	CHECK_OK(pev_user_page_read(pc, &s));
	struct pev_user_count uc;
	CHECK_EQ_INT(pev_user_page_count(&s, &uc), -EOPNOTSUPP);
	uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	CHECK_EQ_INT(a.read_format, 0);
	uint64_t v0;
	CHECK_EQ_INT(read(fd, &v0, 8), 8);
	CHECK_OK(pev_user_page_read_count(pc, fd, 0, &uc));
	CHECK(uc.from_read);
	CHECK_EQ_U64(uc.value, v0);	/* disabled: the same value */
	pev_ring_free(r);
	close(fd);

	/* With times in read_format, through a page-only mapping. */
	fd = open_clock(&a, 0, 0);
	a.read_format = rf;
	close(fd);
	fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK(fd >= 0);
	struct perf_event_mmap_page *only = pev_user_page_map(fd);
	CHECK(only != NULL);
	busy_ms(5);
	CHECK_OK(pev_ioc_disable(fd, false));
	uint64_t rd[3];
	CHECK_EQ_INT(read(fd, rd, sizeof(rd)), sizeof(rd));
	CHECK_OK(pev_user_page_read_count(only, fd, rf, &uc));
	CHECK(uc.from_read);
	CHECK_EQ_U64(uc.value, rd[0]);
	CHECK_EQ_U64(uc.enabled, rd[1]);
	CHECK_EQ_U64(uc.running, rd[2]);
	CHECK(rd[0] >= 4000000);
	pev_user_page_unmap(only);
	close(fd);
	return t_done();
}
