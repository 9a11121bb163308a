// SPDX-License-Identifier: GPL-2.0-only
/* perf 6.1's tool events in perfev stat (issue 10: "-e duration_time is
 * unknown"): duration_time is the run's wall time in ns, within the wall
 * time this test measures around perfev and at least the workload's own
 * sleep; user_time / system_time are the workload's CPU time from rusage
 * (at most what this test's children used, perfev included); the human,
 * -x and -j lines have perf's shape, built here from the value; -I prints
 * each interval's share; a parse error after one points at the spec as
 * written; `perfev list sw` lists them as `perf list sw` does. */
#include <sys/resource.h>
#include <time.h>
#include "stat_util.h"

/* A copy of the line of text that holds `what` (until the next call). */
static char *line_with(const char *text, const char *what)
{
	static char line[1024];
	const char *p = strstr(text, what);
	if (!p)
		return NULL;
	while (p > text && p[-1] != '\n')
		p--;
	size_t n = strcspn(p, "\n");
	n = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
	memcpy(line, p, n);
	line[n] = '\0';
	return line;
}

static double utime_children(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
}

int main(void)
{
	struct t_run r;
	char want[256];
	unsigned long long v = 0;

	/* human: the wall time, perf's "%18 ns   name" line */
	double t0 = t_now_s();
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "duration_time,task-clock", "--", "sleep", "0.3"));
	double wall = t_now_s() - t0;
	CHECK_EQ_INT(r.exit_code, 0);
	char *l = line_with(r.err, " duration_time");
	CHECK_MSG(l && sscanf(l, "%llu", &v) == 1, "no duration_time line: %s", r.err);
	CHECK_MSG(v >= 300000000ull && v <= (unsigned long long)(wall * 1e9),
		  "duration_time %llu ns; the workload slept 0.3 s, perfev ran %.3f s", v, wall);
	snprintf(want, sizeof(want), "%18llu ns   duration_time ", v);
	CHECK_MSG(l && !strncmp(l, want, strlen(want)), "line '%s', want '%s'", l, want);
	t_run_free(&r);

	/* -x: value,ns,duration_time,run,100.00,, with run = value */
	t0 = t_now_s();
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-x,", "-e", "duration_time", "--", "sleep", "0.2"));
	wall = t_now_s() - t0;
	l = line_with(r.err, ",duration_time,");
	CHECK_MSG(l && sscanf(l, "%llu", &v) == 1, "%s", r.err);
	CHECK(v >= 200000000ull && v <= (unsigned long long)(wall * 1e9));
	snprintf(want, sizeof(want), "%llu,ns,duration_time,%llu,100.00,,", v, v);
	CHECK_MSG(l && !strcmp(l, want), "line '%s', want '%s'", l, want);
	t_run_free(&r);

	/* -j */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-j", "-e", "duration_time", "--", "sleep", "0.1"));
	l = line_with(r.err, "duration_time");
	const char *cv = l ? strstr(l, "\"counter-value\" : \"") : NULL;
	CHECK_MSG(cv && sscanf(cv + 19, "%llu", &v) == 1, "%s", r.err);
	snprintf(want, sizeof(want), "{\"counter-value\" : \"%llu.000000\", \"unit\" : \"ns\", "
		 "\"event\" : \"duration_time\", \"event-runtime\" : %llu, \"pcnt-running\" : "
		 "100.00, ", v, v);
	CHECK_MSG(l && !strncmp(l, want, strlen(want)), "line '%s', want '%s'", l, want);
	CHECK(v >= 100000000ull && v < 10000000000ull);
	t_run_free(&r);

	/* user_time: the workload's user CPU, within what our children used */
	double u0 = utime_children();
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-x,", "-e", "user_time,system_time", "--",
			      (char *)t_workload(), "-q", "-l", "300000000"));
	double used = utime_children() - u0;
	l = line_with(r.err, ",user_time,");
	CHECK_MSG(l && sscanf(l, "%llu", &v) == 1, "%s", r.err);
	CHECK_MSG(v > 0 && (double)v / 1e9 <= used + 1e-6 && (double)v / 1e9 >= used * 0.5,
		  "user_time %llu ns; perfev and its workload used %.3f s", v, used);
	CHECK(strstr(r.err, ",ns,system_time,") != NULL);
	t_run_free(&r);

	/* -I 100 over ~0.35 s: each full interval about 100 ms */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-x,", "-I", "100", "-e", "duration_time", "--",
			      "sleep", "0.35"));
	char *cur = r.err, *ln;
	int full = 0;
	while ((ln = t_next_line(&cur))) {
		double ts;
		if (sscanf(ln, "%lf,%llu,ns,duration_time,", &ts, &v) == 2 && ts < 0.3) {
			full++;
			CHECK_MSG(v >= 90000000ull && v <= 200000000ull, "interval: %s", ln);
		}
	}
	CHECK_MSG(full >= 2, "%d full intervals: %s", full, r.err);
	t_run_free(&r);

	/* an error after a tool event: the caret is under the bad name of
	 * the spec as written */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "duration_time,nosuch", "true"));
	CHECK_EQ_INT(r.exit_code, 2);
	const char *head = "event syntax error: 'duration_time,nosuch'\n";
	const char *eh = strstr(r.err, head);
	CHECK_MSG(eh != NULL, "%s", r.err);
	if (eh) {
		const char *caret = eh + strlen(head);
		size_t col = strcspn(caret, "^");
		CHECK_MSG(col == strlen("event syntax error: '") + strlen("duration_time,") &&
			  !strncmp(caret + col, "^~~~~~", 6), "caret at %zu: %s", col, r.err);
	}
	t_run_free(&r);

	/* perfev list sw: the lines perf list sw prints */
	CHECK_OK(T_RUN_PERFEV(&r, "list", "sw"));
	const char *names[] = { "duration_time", "user_time", "system_time" };
	for (int i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "  %-50s [Tool event]\n", names[i]);
		CHECK_MSG(strstr(r.out, want) != NULL, "no '%s' in perfev list sw", want);
	}
	if (access("/usr/bin/perf", X_OK) == 0) {
		struct t_run p;
		CHECK_OK(t_run_argv((char *const[]){ "/usr/bin/perf", "list", "sw", NULL }, NULL,
				    &p));
		for (int i = 0; i < 3; i++) {
			char *pl = line_with(p.out, names[i]);
			CHECK_MSG(pl && strstr(r.out, pl), "perf's line '%s' not in ours", pl);
		}
		t_run_free(&p);
	}
	t_run_free(&r);
	return t_done();
}
