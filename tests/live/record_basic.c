// SPDX-License-Identifier: GPL-2.0-only
/* perfev record on the test workload: the file holds its samples, COMM
 * (exec), MMAP2 and EXIT; the summary's count equals the file's; -c sets
 * the period; the file is 0600 and an older one becomes .old. */
#include "record_util.h"

int main(void)
{
	const char *out = rt_tmp("basic.data"), *old = rt_tmp("basic.data.old");
	struct t_run r;
	struct stat st;

	unlink(out);
	unlink(old);
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-e", "cpu-clock", "-F", "1000", "-o",
			      (char *)out, "--", (char *)rt_work(), "-m", "200"));
	if (r.exit_code != 0 && t_probe_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, -1) < 0)
		T_SKIP("the kernel refuses a raw perf_event_open of cpu-clock");
	CHECK_EQ_INT(r.exit_code, 0);
	struct rt_stats s = rt_read(out);

	CHECK_MSG(s.ok, "read %s: %s", out, s.err);
	CHECK(!s.recovered);
	/* ~200 samples at 1000 Hz for 200 ms of CPU; allow for scheduling. */
	CHECK_MSG(s.samples >= 50 && s.samples <= 400, "samples %llu",
		  (unsigned long long)s.samples);
	CHECK_EQ_INT(rt_summary_samples(r.err), (long long)s.samples);
	CHECK(s.comm_exec >= 1);
	CHECK(s.mmap2_work >= 1);
	CHECK(s.exits >= 1);
	CHECK_MSG(s.ip_in_work * 2 > s.samples, "%llu of %llu samples in the workload",
		  (unsigned long long)s.ip_in_work, (unsigned long long)s.samples);
	CHECK(s.rounds >= 1);
	CHECK(s.work_build_id);
	CHECK_OK(stat(out, &st));
	CHECK_EQ_INT(st.st_mode & 0777, 0600);
	t_run_free(&r);

	/* Again: the first file becomes .old; -c gives a fixed period. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-e", "cpu-clock", "-c", "100000",
			      "-o", (char *)out, "--", (char *)rt_work(), "-m", "100"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_STR(r.err, "");	/* -q: no summary */
	CHECK_OK(stat(old, &st));
	struct rt_stats o = rt_read(old), n = rt_read(out);

	CHECK_EQ_U64(o.samples, s.samples);
	CHECK(n.ok && n.samples >= 200);	/* 10 kHz for 100 ms */
	CHECK_EQ_U64(n.period, 100000);
	t_run_free(&r);
	unlink(out);
	unlink(old);
	return t_done();
}
