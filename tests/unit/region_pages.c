// SPDX-License-Identifier: GPL-2.0-only
/* Regions on synthetic data: the control-page read path (emulated
 * registers: pmc_width 32 sign extension, the arm64 cycle counter at index
 * 32, time brought to now with cap_user_time), the read(2) fallback when a
 * page's event is not on a counter (index 0), and the report's arithmetic
 * (multiplexing scaling, overhead, the calls-weighted mean over threads),
 * all against hand-computed numbers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
/* The library's own sources, so that the shared-library build of this
 * test reaches the internals too. */
#include "core/util.c"
#include "core/user_only.c"
#include "region/region_util.c"
#include "region/region.c"
#include "region/region_read.c"
#include "region/region_report.c"

static uint64_t regs[32];

static uint64_t fake_pmc(uint32_t idx, void *user)
{
	(void)user;
	return idx < 32 ? regs[idx] : 0;
}

static uint64_t fake_cycles(void *user)
{
	(void)user;
	return 50;
}

static void page(struct perf_event_mmap_page *pc, uint32_t index, int64_t offset,
		 uint16_t width, uint64_t ena, uint64_t run, bool time)
{
	memset(pc, 0, sizeof(*pc));
	pc->lock = 2;
	pc->index = index;
	pc->offset = offset;
	pc->pmc_width = width;
	pc->time_enabled = ena;
	pc->time_running = run;
	pc->capabilities = (1ull << 2) | (time ? 1ull << 3 : 0);
	/* scale(cyc) = cyc * 2048 >> 10 = 2 * cyc; delta = 100 + 2 * 50 */
	pc->time_shift = 10;
	pc->time_mult = 2048;
	pc->time_offset = 100;
}

static void test_page_reads(void)
{
	static const struct pev_user_page_hw hw = {
		.size = sizeof(hw), .read_pmc = fake_pmc, .read_cycles = fake_cycles,
	};
	struct perf_event_mmap_page *pa = calloc(1, 4096), *pb = calloc(1, 4096);
	struct perf_event_mmap_page *pcs[2] = { pa, pb };
	int evs[2] = { 0, 1 }, fds[2] = { -1, -1 }, p[2];
	struct reg_tgroup tg = { .nr = 2, .ev = evs, .fast = true };
	uint64_t rbuf[8], out[6] = { 0 };
	struct reg_thread t = { .pc = pcs, .tg = &tg, .nr_tg = 1, .fd = fds, .rbuf = rbuf };

	CHECK(pa && pb && pipe(p) == 0);
	tg.fd = p[0];
	pev__reg.nr_events = 2;
	pev__reg.hw = &hw;
	/* PMEVCNTR0 holds 0xfffffff0: -16 in 32 bits; PMCCNTR (index 32). */
	regs[0] = 0xfffffff0ull;
	regs[31] = 5000;
	page(pa, 1, 1000, 32, 5000, 5000, true);
	page(pb, 32, 7, 64, 6000, 3000, true);
	pev__reg_read(&t, out);
	CHECK_EQ_U64(out[0], 984);
	CHECK_EQ_U64(out[1], 5200);
	CHECK_EQ_U64(out[2], 5200);	/* equal times still brought to now */
	CHECK_EQ_U64(out[3], 5007);
	CHECK_EQ_U64(out[4], 6200);
	CHECK_EQ_U64(out[5], 3200);

	/* Without cap_user_time the page's own times are taken as they are. */
	page(pa, 1, 1000, 32, 5000, 5000, false);
	pev__reg_read(&t, out);
	CHECK_EQ_U64(out[0], 984);
	CHECK_EQ_U64(out[1], 5000);
	CHECK_EQ_U64(out[2], 5000);

	/* Index 0 (not on a counter now): one read(2) of the group. */
	uint64_t grp[5] = { 2, 900, 450, 11, 22 };
	CHECK(write(p[1], grp, sizeof(grp)) == (ssize_t)sizeof(grp));
	page(pa, 0, 1000, 32, 5000, 5000, true);
	pev__reg_read(&t, out);
	CHECK_EQ_U64(out[0], 11);
	CHECK_EQ_U64(out[1], 900);
	CHECK_EQ_U64(out[2], 450);
	CHECK_EQ_U64(out[3], 22);
	CHECK_EQ_U64(out[4], 900);
	CHECK_EQ_U64(out[5], 450);
	close(p[0]);
	close(p[1]);
	pev__reg.hw = NULL;
	free(pa);
	free(pb);
}

static void fill_region(struct reg_thread *t, struct reg_chunk *c, pid_t tid, uint64_t calls,
			const uint64_t *sums, const double *ovh, int *err)
{
	memset(t, 0, sizeof(*t));
	memset(c, 0, sizeof(*c));
	t->tid = tid;
	t->err = err;
	t->overhead = (double *)ovh;
	t->chunks = c;
	t->nr_regions = 1;
	c->r[0].name = "solve";
	c->r[0].calls = calls;
	c->r[0].sum = (uint64_t *)sums;
}

static void test_arithmetic(void)
{
	static struct reg_event ev[3] = { { .name = "a", .unit = "" }, { .name = "b", .unit = "" },
					   { .name = "c", .unit = "" } };
	/* per event: raw, enabled, running */
	static const uint64_t s1[9] = { 1000, 400, 100,  70, 50, 0,  33, 0, 0 };
	static const uint64_t s2[9] = { 500, 100, 100,  0, 0, 0,  1, 0, 0 };
	static const double o1[3] = { 10, 0, 0 }, o2[3] = { 20, 0, 0 };
	static int e1[3], e2[3] = { 0, 0, 95 };
	static struct reg_thread t1, t2;
	static struct reg_chunk c1, c2;
	struct pev_region_count c = { .size = sizeof(c) };

	fill_region(&t1, &c1, 101, 4, s1, o1, e1);
	fill_region(&t2, &c2, 102, 1, s2, o2, e2);
	t1.next = &t2;
	pev__reg.ev = ev;
	pev__reg.nr_events = 3;
	pev__reg.threads = &t1;
	atomic_store(&pev__reg.state, 1);

	/* 1000 * 400 / 100 - 4 calls * 10 */
	CHECK(pev_region_get("solve", 101, 0, &c) == 0);
	CHECK_EQ_U64(c.calls, 4);
	CHECK_EQ_U64(c.raw, 1000);
	CHECK(c.scaled == 3960.0);
	CHECK(c.fraction == 0.25);
	CHECK(c.overhead == 10.0);
	/* running 0 of enabled 50: not counted */
	CHECK(pev_region_get("solve", 101, 1, &c) == 0);
	CHECK(c.scaled == 0.0);
	CHECK(c.fraction == 0.0);
	/* no times at all: no scaling */
	CHECK(pev_region_get("solve", 101, 2, &c) == 0);
	CHECK(c.scaled == 33.0);
	CHECK(c.fraction == 1.0);
	CHECK(c.error == 0);
	/* Both threads: sums, overhead (4 * 10 + 1 * 20) / 5 = 12;
	 * 1500 * 500 / 200 - 5 * 12 = 3690. */
	CHECK(pev_region_get("solve", -1, 0, &c) == 0);
	CHECK_EQ_U64(c.calls, 5);
	CHECK_EQ_U64(c.raw, 1500);
	CHECK(c.overhead == 12.0);
	CHECK(c.scaled == 3690.0);
	CHECK(c.fraction == 0.4);
	/* An open failure in one thread shows. */
	CHECK(pev_region_get("solve", -1, 2, &c) == 0);
	CHECK(c.error == 95);
	/* Overhead never takes a value below 0: 500 - 20 in thread 102 is
	 * fine, but 1 - 0 stays 1. */
	CHECK(pev_region_get("solve", 102, 0, &c) == 0);
	CHECK(c.scaled == 480.0);
	CHECK(pev_region_get("solve", 103, 0, &c) == -ENOENT);
	CHECK(pev_region_get("other", -1, 0, &c) == -ENOENT);
	CHECK(pev_region_get("solve", -1, 3, &c) == -ERANGE);

	/* The report says why a hardware event is read with read(2) on an
	 * arm64 machine with user access off, with the command to run. */
	char path[] = "/tmp/perfev-region-pages-XXXXXX", env[64], *txt;
	size_t len;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	memset(&pev__reg.ua, 0, sizeof(pev__reg.ua));
	pev__reg.ua.size = sizeof(pev__reg.ua);
	pev__reg.ua.arch = PEV_ARCH_ARM64;
	pev__reg.ua.pmu = true;
	pev__reg.ua.perf_user_access = 0;
	ev[0].page = true;
	snprintf(env, sizeof(env), "text:%s", path);
	setenv("PERFEV_OUTPUT", env, 1);
	CHECK(pev_region_report() == 0);
	txt = t_slurp(path, &len);
	CHECK(txt && strstr(txt, "echo 1 > /proc/sys/kernel/perf_user_access"));
	CHECK(txt && strstr(txt, "region \"solve\", thread 102"));
	free(txt);
	/* No note where user access is on. */
	pev__reg.ua.perf_user_access = 1;
	CHECK(pev_region_report() == 0);
	txt = t_slurp(path, &len);
	CHECK(txt && !strstr(txt, "perf_user_access"));
	free(txt);
	unlink(path);
	unsetenv("PERFEV_OUTPUT");
	pev__reg.threads = NULL;
	atomic_store(&pev__reg.state, 0);
}

int main(void)
{
	test_page_reads();
	test_arithmetic();
	return t_failures ? 1 : 0;
}
