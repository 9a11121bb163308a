// SPDX-License-Identifier: GPL-2.0-only
/* LOST: the smallest ring (-m 1) and a high rate on busy threads overrun
 * the ring; the summary's count equals the sum of the LOST records in the
 * file, and the read-format LOST totals come back as LOST_SAMPLES. */
#include "record_util.h"

int main(void)
{
	const char *out = rt_tmp("lost.data");
	struct t_run r;
	struct rt_stats s = { 0 };

	/* Overruns depend on scheduling: a few tries with growing load. */
	for (int i = 0; i < 4 && !s.lost; i++) {
		const char *threads[] = { "4", "8", "16", "16" };

		CHECK_OK(T_RUN_PERFEV(&r, "record", "-e", "cpu-clock", "-F", "50000",
				      "--call-graph=dwarf,4096", "-m", "1", "-o", (char *)out,
				      "--", (char *)rt_work(), "-m", "300", "-t",
				      (char *)threads[i]));
		CHECK_MSG(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
		s = rt_read(out);
		CHECK_MSG(s.ok, "%s", s.err);
		if (s.lost) {
			CHECK_EQ_INT(rt_summary_lost(r.err), (long long)s.lost);
			CHECK_EQ_INT(rt_summary_samples(r.err), (long long)s.samples);
		}
		t_run_free(&r);
	}
	CHECK_MSG(s.lost > 0, "no samples lost with a 1-page ring");
	CHECK(s.lost_records > 0);
	/* Each lost sample is also counted by its event (read_format LOST). */
	CHECK_MSG(s.lost_samples >= s.lost, "lost_samples %llu, lost %llu",
		  (unsigned long long)s.lost_samples, (unsigned long long)s.lost);
	unlink(out);
	return t_done();
}
