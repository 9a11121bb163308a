// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat -r with -x and -j (issue 10): the run-time column is the
 * mean of the runs' times, as perf prints it, not the last run's.  Four
 * runs spin 1, 2, 3, 4 units of CPU work, so the last run's time is 4/2.5
 * = 1.6 times the mean; for task-clock a run's time running is its count,
 * so the mean time must match the mean count (the value column). */
#include "stat_util.h"

static char counter[64], script[1024];

static void reset(void)
{
	unlink(counter);
}

/* The value (ns) and the run time of the task-clock line. */
static void check(const char *what, double value_ns, double run_ns)
{
	double ratio = run_ns / value_ns;

	CHECK_MSG(value_ns > 0 && ratio > 0.9 && ratio < 1.1,
		  "%s: run time %.0f ns for a mean count of %.0f ns (ratio %.2f; the last "
		  "run's would be ~1.6)", what, run_ns, value_ns, ratio);
}

int main(void)
{
	const char *work = t_workload();
	struct t_run r;
	double v, run;

	snprintf(counter, sizeof(counter), "/tmp/perfev-repeat-%d", (int)getpid());
	snprintf(script, sizeof(script),
		 "n=$(cat %s 2>/dev/null || echo 0); n=$((n+1)); echo $n > %s; "
		 "exec %s -q -p 1 -s 1 -l $((n*20000000))", counter, counter, work);

	reset();
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-x,", "-r", "4", "-e", "task-clock", "--", "sh", "-c",
			      script));
	CHECK_EQ_INT(r.exit_code, 0);
	/* value,unit,event,noise%,run,pcnt,metric,metric-unit */
	const char *l = strstr(r.err, ",msec,task-clock,");
	CHECK_MSG(l != NULL, "no task-clock line: %s", r.err);
	if (l) {
		while (l > r.err && l[-1] != '\n')
			l--;
		CHECK_MSG(sscanf(l, "%lf,msec,task-clock,%*[^,],%lf,", &v, &run) == 2, "%s", l);
		check("-x", v * 1e6, run);
	}
	t_run_free(&r);

	reset();
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-j", "-r", "4", "-e", "task-clock", "--", "sh", "-c",
			      script));
	CHECK_EQ_INT(r.exit_code, 0);
	const char *cv = strstr(r.err, "\"counter-value\" : \"");
	const char *rt = strstr(r.err, "\"event-runtime\" : ");
	CHECK_MSG(cv && rt, "%s", r.err);
	if (cv && rt)
		check("-j", atof(cv + 19) * 1e6, atof(rt + 18));
	t_run_free(&r);
	reset();
	return t_done();
}
