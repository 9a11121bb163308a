// SPDX-License-Identifier: GPL-2.0-only
/* Calibration: the cost of the reads is measured per thread and subtracted,
 * PERFEV_CALIBRATE=0 turns it off.  Two children count task-clock and the
 * getppid tracepoint over 1000 empty regions and 10 regions of 7 getppid():
 *  - calibrated: task-clock's overhead > 0, and the empty regions' scaled
 *    value is below their raw one (raw - calls * overhead, not below 0);
 *  - PERFEV_CALIBRATE=0: overhead 0, scaled == raw;
 *  - in both, the tracepoint's counts are exact (0 and 70) with overhead 0:
 *    the reads make no getppid, calibration leaves them alone. */
#include "region_util.h"

struct vals { double overhead, scaled; uint64_t raw, calls; };

static int child(void)
{
	pev_region_init("task-clock," RT_TP_SPEC);
	for (int i = 0; i < 1000; i++) {
		pev_region_begin("cal_empty");
		pev_region_end("cal_empty");
	}
	for (int i = 0; i < 10; i++) {
		pev_region_begin("cal_tp");
		call_getppid(7);
		pev_region_end("cal_tp");
	}
	const char *names[2] = { "cal_empty", "cal_tp" };
	for (int r = 0; r < 2; r++)
		for (size_t ev = 0; ev < 2; ev++) {
			struct pev_region_count c = { .size = sizeof(c) };

			pev_region_get(names[r], 0, ev, &c);
			printf("%s %zu %.17g %.17g %" PRIu64 " %" PRIu64 "\n", names[r], ev,
			       c.overhead, c.scaled, c.raw, c.calls);
		}
	return 0;
}

static struct vals get(const char *out, const char *region, int ev)
{
	char pre[64];
	struct vals v = { -1, -1, 0, 0 };

	snprintf(pre, sizeof(pre), "%s %d ", region, ev);
	const char *l = strstr(out, pre);
	if (!l || sscanf(l + strlen(pre), "%lg %lg %" SCNu64 " %" SCNu64, &v.overhead, &v.scaled,
			 &v.raw, &v.calls) != 4)
		T_FAIL("no line \"%s...\" in the child's output", pre);
	return v;
}

int main(int argc, char **argv)
{
	struct t_run on, off;

	if (argc > 1)
		return child();
	rt_need_tracepoint();
	rt_run_child("child", (const char *const[]){ "PERFEV_OUTPUT=none", NULL }, &on);
	rt_run_child("child", (const char *const[]){ "PERFEV_OUTPUT=none", "PERFEV_CALIBRATE=0", NULL }, &off);
	printf("calibrated:\n%s%s\nPERFEV_CALIBRATE=0:\n%s%s\n", on.out, on.err, off.out, off.err);
	CHECK_EQ_INT(on.exit_code, 0);
	CHECK_EQ_INT(off.exit_code, 0);

	/* task-clock, empty regions. */
	struct vals a = get(on.out, "cal_empty", 0), b = get(off.out, "cal_empty", 0);
	CHECK_EQ_U64(a.calls, 1000);
	CHECK_EQ_U64(b.calls, 1000);
	CHECK_MSG(a.overhead > 0, "calibrated: task-clock overhead %g, expected > 0", a.overhead);
	CHECK_MSG(a.scaled < (double)a.raw && a.scaled >= 0,
		  "calibrated: empty regions' task-clock scaled %g, expected below raw %" PRIu64, a.scaled, a.raw);
	double want = (double)a.raw - (double)a.calls * a.overhead;
	want = want < 0 ? 0 : want;
	CHECK_MSG(a.scaled > want - 1e-6 * (double)a.raw - 1e-9 && a.scaled < want + 1e-6 * (double)a.raw + 1e-9,
		  "calibrated: scaled %.17g, expected raw - calls * overhead = %.17g", a.scaled, want);
	CHECK_MSG(b.overhead == 0 && b.scaled == (double)b.raw && b.raw > 0,
		  "PERFEV_CALIBRATE=0: task-clock overhead %g scaled %.17g raw %" PRIu64
		  ", expected overhead 0 and scaled == raw > 0", b.overhead, b.scaled, b.raw);

	/* The tracepoint: exact in both. */
	const struct t_run *runs[2] = { &on, &off };
	for (int k = 0; k < 2; k++) {
		struct vals e = get(runs[k]->out, "cal_empty", 1), t = get(runs[k]->out, "cal_tp", 1);

		CHECK_MSG(e.overhead == 0 && e.scaled == 0 && e.raw == 0 && e.calls == 1000,
			  "%s: empty regions' getppid: overhead %g scaled %g raw %" PRIu64 " calls %"
			  PRIu64 ", expected 0 0 0 1000", k ? "uncalibrated" : "calibrated",
			  e.overhead, e.scaled, e.raw, e.calls);
		CHECK_MSG(t.overhead == 0 && t.scaled == 70 && t.raw == 70 && t.calls == 10,
			  "%s: getppid regions: overhead %g scaled %g raw %" PRIu64 " calls %" PRIu64
			  ", expected 0 70 70 10", k ? "uncalibrated" : "calibrated",
			  t.overhead, t.scaled, t.raw, t.calls);
	}
	t_run_free(&on);
	t_run_free(&off);
	return t_done();
}
