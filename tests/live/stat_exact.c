// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat counts from the workload's exec on, exactly: the getppid
 * tracepoint reads N (perfev's own set-up is not counted), in every
 * output format, as the mean of -r, and summed over -I intervals.
 *
 * A sanitizer build's workload calls getppid() itself at start-up (the
 * ASan runtime), so a first run with -s 0 measures that base B (0 in a
 * plain build) and every later count must be exactly B + N. */
#include "stat_util.h"

static unsigned long long N = 777;
static char NS[32];	/* B + N as text */

int main(void)
{
	char *w = (char *)t_workload();
	struct t_run r;
	char *cur, *l;

	t_need_getppid_tracepoint();

	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-x,", "-e", "syscalls:sys_enter_getppid", "--", w,
			      "-q", "-s", "0", "-l", "1000", "-p", "4"));
	CHECK_EQ_INT(r.exit_code, 0);
	unsigned long long base = strtoull(r.err, NULL, 10);
	if (base)
		printf("note: the workload calls getppid() %llu times by itself\n", base);
	t_run_free(&r);
	N += base;
	snprintf(NS, sizeof(NS), "%llu", N);
	char human[128], csv_r[128], json_v[64];
	snprintf(human, sizeof(human), "%18s      syscalls:sys_enter_getppid", NS);
	snprintf(csv_r, sizeof(csv_r), "%s;;syscalls:sys_enter_getppid;0.00%%;", NS);
	snprintf(json_v, sizeof(json_v), "%s.000000", NS);
	char *S = (char *)"777";	/* what the workload is asked for */

	/* human */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "syscalls:sys_enter_getppid", "--", w, "-q",
			      "-s", S, "-l", "1000", "-p", "4"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_MSG(strstr(r.err, human) != NULL,
		  "no exact count in:\n%s%s", r.err, r.err);
	t_run_free(&r);

	/* CSV: value,unit,event,run,pcnt,metric,metric-unit */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-x,", "-e", "task-clock,syscalls:sys_enter_getppid",
			      "--", w, "-q", "-s", S, "-l", "1000"));
	CHECK_EQ_INT(r.exit_code, 0);
	cur = r.err;
	int lines = 0;
	while ((l = t_next_line(&cur))) {
		char *f[16];
		int n = t_split(l, ",", f, 16);
		CHECK_EQ_INT(n, 7);
		if (n != 7)
			continue;
		lines++;
		CHECK(strtoull(f[3], NULL, 10) > 0);	/* run time, ns */
		CHECK_STR(f[4], "100.00");
		if (!strcmp(f[2], "task-clock")) {
			CHECK_STR(f[1], "msec");
			CHECK(strchr(f[0], '.') != NULL);
			CHECK_STR(f[6], "CPUs utilized");
		} else {
			CHECK_STR(f[2], "syscalls:sys_enter_getppid");
			CHECK_STR(f[0], NS);
			CHECK_STR(f[1], "");
			CHECK(strstr(f[6], "/sec") != NULL);
		}
	}
	CHECK_EQ_INT(lines, 2);
	t_run_free(&r);

	/* JSON: every line an object with perf's keys, in perf's order */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-j", "-e", "task-clock,syscalls:sys_enter_getppid,cycles",
			      "--", w, "-q", "-s", S, "-l", "1000"));
	CHECK_EQ_INT(r.exit_code, 0);
	cur = r.err;
	lines = 0;
	const char *keys[] = { "counter-value", "unit", "event", "event-runtime",
			       "pcnt-running", "metric-value", "metric-unit" };
	while ((l = t_next_line(&cur))) {
		struct t_json_kv kv[16];
		int n = t_json_object(l, kv, 16);
		CHECK_MSG(n == 7, "not a perf stat JSON object: %s", l);
		if (n != 7)
			continue;
		lines++;
		for (int i = 0; i < 7; i++)
			CHECK_STR(kv[i].key, keys[i]);
		CHECK(kv[0].is_str && kv[1].is_str && kv[2].is_str && !kv[3].is_str &&
		      !kv[4].is_str && !kv[5].is_str && kv[6].is_str);
		if (!strcmp(kv[2].val, "syscalls:sys_enter_getppid")) {
			CHECK_STR(kv[0].val, json_v);
			CHECK_STR(kv[4].val, "100.00");
		} else if (!strcmp(kv[2].val, "task-clock")) {
			CHECK_STR(kv[1].val, "msec");
			CHECK_STR(kv[6].val, "CPUs utilized");
			CHECK(atof(kv[0].val) > 0);
		} else if (!strcmp(kv[2].val, "cycles") &&
			   !strcmp(kv[0].val, "<not supported>")) {
			CHECK_STR(kv[3].val, "0");
			CHECK_STR(kv[6].val, "");
		}
	}
	CHECK_EQ_INT(lines, 3);
	t_run_free(&r);

	/* -r 5: the mean is exact, the noise column is there */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-r", "5", "-e", "task-clock,syscalls:sys_enter_getppid",
			      "--", w, "-q", "-s", S, "-l", "100000"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK(strstr(r.err, "(5 runs):") != NULL);
	CHECK(strstr(r.err, human) != NULL);
	CHECK(strstr(r.err, "( +-") != NULL);
	CHECK(strstr(r.err, " +- ") != NULL && strstr(r.err, "seconds time elapsed  ( +-") != NULL);
	t_run_free(&r);

	/* -r with CSV: the noise field after the event name, 0.00% when exact */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-r", "3", "-x;", "-e", "syscalls:sys_enter_getppid",
			      "--", w, "-q", "-s", S, "-l", "1000"));
	CHECK_MSG(strncmp(r.err, csv_r, strlen(csv_r)) == 0, "got %s", r.err);
	t_run_free(&r);

	/* -I 100 over ~550 ms: >= 4 intervals, rising timestamps, exact sum */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-I", "100", "-x,", "-e", "syscalls:sys_enter_getppid",
			      "--", w, "-q", "-s", S, "-l", "1000", "-S", "550"));
	CHECK_EQ_INT(r.exit_code, 0);
	cur = r.err;
	lines = 0;
	double last_ts = 0;
	unsigned long long sum = 0;
	while ((l = t_next_line(&cur))) {
		char *f[16];
		if (t_split(l, ",", f, 16) != 8)
			continue;
		double ts = atof(f[0]);
		CHECK_MSG(ts > last_ts, "timestamps not rising: %f after %f", ts, last_ts);
		last_ts = ts;
		if (strcmp(f[1], "<not counted>"))
			sum += strtoull(f[1], NULL, 10);
		lines++;
	}
	CHECK_MSG(lines >= 4, "only %d interval lines:\n%s", lines, r.err);
	CHECK_EQ_U64(sum, N);
	t_run_free(&r);

	/* the human interval layout: the heading, then timestamped lines */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-I", "100", "-e", "syscalls:sys_enter_getppid",
			      "--", w, "-q", "-s", S, "-l", "1000", "-S", "150"));
	CHECK(strncmp(r.err, "#           time             counts unit events\n", 47) == 0);
	CHECK(strstr(r.err, "      syscalls:sys_enter_getppid") != NULL);
	CHECK(strncmp(r.err + 47, "\n     0.", 8) == 0);	/* the timestamp column */
	t_run_free(&r);
	return t_done();
}
