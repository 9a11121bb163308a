// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat's perf 6.1 options beyond the basics: -d (perf's exact
 * "<not supported>" lines here), -D (only what runs after the delay is
 * counted, exactly), -n, -g, --all-user/--all-kernel, --quiet, --table,
 * --summary/--no-csv-summary, --interval-clear, --pre/--post, --append,
 * --log-fd, -S, and the clear errors for -M, -T, --topdown, --smi-cost,
 * --iostat, --cputype, --control, and for what perfev lacks yet
 * (--metric-only, several --for-each-cgroup names). */
#include "stat_util.h"

static char loop[512];

static int count_lines(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Interval lines: a line that starts with the interval's time stamp
 * ("     0.050101451,..."). How many a run has depends on how long the
 * workload took on a loaded machine; the other lines are checked
 * against that number. */
static int interval_lines(const char *s)
{
	int n = 0;
	for (const char *p = s; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		const char *q = p;
		while (*q == ' ')
			q++;
		char *end;
		strtod(q, &end);
		if (end > q && *end == ',' && q > p)
			n++;
	}
	return n;
}

/* The lines containing "not supported", in order. */
static void unsupported_lines(const char *text, char *out, size_t size)
{
	size_t n = 0;
	out[0] = '\0';
	for (const char *p = text; *p; ) {
		size_t len = strcspn(p, "\n");
		if (memmem(p, len, "<not supported>", 15) && n + len + 2 < size) {
			memcpy(out + n, p, len);
			n += len;
			out[n++] = '\n';
			out[n] = '\0';
		}
		p += len + (p[len] == '\n');
	}
}

/* getppid calls counted by perfev stat OPTS... -x, over sh -c script. */
static long long getppid_count(const char *opt, const char *script)
{
	struct t_run r;
	char *argv[12];
	int i = 0;
	argv[i++] = (char *)t_perfev();
	argv[i++] = "stat";
	if (opt) {
		argv[i++] = "-D";
		argv[i++] = (char *)opt;
	}
	argv[i++] = "-x,";
	argv[i++] = "-e";
	argv[i++] = "syscalls:sys_enter_getppid";
	argv[i++] = "sh";
	argv[i++] = "-c";
	argv[i++] = (char *)script;
	argv[i] = NULL;
	if (t_run_argv(argv, NULL, &r) < 0)
		T_FATAL("cannot run perfev");
	CHECK_EQ_INT(r.exit_code, 0);
	const char *p = r.err;
	if (opt) {
		CHECK_MSG(strncmp(p, "Events disabled\nEvents enabled\n", 31) == 0,
			  "no 'Events disabled/enabled' lines:\n%s", r.err);
		p += strncmp(p, "Events disabled\nEvents enabled\n", 31) ? 0 : 31;
	}
	long long v = strtoll(p, NULL, 10);
	t_run_free(&r);
	return v;
}

int main(void)
{
	const char *w = t_workload();
	const char *b = getenv("PERFEV_BUILD");
	bool have_perf = access("/usr/bin/perf", X_OK) == 0;
	struct t_run r, pr;
	char buf[8192], buf2[8192];
	int n;	/* interval lines */

	/* -d, -dd, -ddd: perf's detailed sets; "<not supported>" lines as perf */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-ddd", "-e", "task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 0);
	static const char *const det[] = { "L1-dcache-loads", "L1-dcache-load-misses",
		"LLC-loads", "LLC-load-misses", "L1-icache-loads", "L1-icache-load-misses",
		"dTLB-loads", "dTLB-load-misses", "iTLB-loads", "iTLB-load-misses",
		"L1-dcache-prefetches", "L1-dcache-prefetch-misses" };
	const char *p = r.err;
	for (size_t i = 0; i < sizeof(det) / sizeof(det[0]); i++) {
		char want[64];
		snprintf(want, sizeof(want), " %s ", det[i]);
		const char *q = strstr(p, want);
		CHECK_MSG(q != NULL, "no %s (in order) in:\n%s", det[i], r.err);
		p = q ? q : p;
	}
	if (have_perf) {
		CHECK_OK(t_run_argv((char *[]){ "/usr/bin/perf", "stat", "-ddd", "-e", "task-clock",
						"true", NULL }, NULL, &pr));
		unsupported_lines(pr.err, buf, sizeof(buf));
		unsupported_lines(r.err, buf2, sizeof(buf2));
		CHECK_MSG(!strcmp(buf, buf2), "perf:\n%sperfev:\n%s", buf, buf2);
		t_run_free(&pr);
	}
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-d", "-x,", "true"));
	CHECK_EQ_INT(count_lines(r.err, "\n"), 12);	/* 8 default + 4 */
	CHECK(strstr(r.err, "<not supported>,,LLC-load-misses,0,100.00,,\n") != NULL);
	t_run_free(&r);

	/* -n: perf's report with no counter lines; nothing in CSV */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-n", "true"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_MSG(strncmp(r.err, "\n Performance counter stats for 'true':\n\n ", 42) == 0 &&
		  strstr(r.err, " seconds time elapsed\n\n") != NULL, "-n:\n%s", r.err);
	CHECK_EQ_INT(count_lines(r.err, "\n"), 9);	/* as perf: no gap before the time */
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-n", "-x,", "true"));
	CHECK_STR(r.err, "");
	t_run_free(&r);

	/* --quiet: no output at all */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--quiet", "-e", "task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_STR(r.err, "");
	t_run_free(&r);

	/* --table -r 3: perf's table, lined up with the mean */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--table", "-r", "3", "-e", "task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 0);
	const char *tb = strstr(r.err, "# Table of individual measurements:\n");
	const char *fr = strstr(r.err, "# Final result:\n");
	CHECK(tb && fr && tb < fr);
	if (tb && fr) {
		const char *ls = tb, *lf = fr;
		while (ls[-1] == ' ')
			ls--;
		while (lf[-1] == ' ')
			lf--;
		CHECK_EQ_INT(tb - ls, fr - lf);	/* same indent */
		/* three rows: " %17.Nf (+-x) ###" */
		int rows = 0;
		for (const char *q = strchr(tb, '\n') + 1; q < fr && *q != '\n'; q = strchr(q, '\n') + 1) {
			double a, d;
			char hash;
			CHECK_MSG(sscanf(q, " %lf (%lf) %c", &a, &d, &hash) == 3 && hash == '#' &&
				  q[18] == ' ' && q[19] == '(', "row: %.60s", q);
			rows++;
		}
		CHECK_EQ_INT(rows, 3);
	}
	t_run_free(&r);

	/* -I --summary: the whole run after the intervals */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-I", "50", "--summary", "-x,", "-e", "task-clock",
			      "sleep", "0.12"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_MSG(strstr(r.err, "\n         summary,") != NULL, "%s", r.err);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-I", "50", "--summary", "--no-csv-summary", "-x,",
			      "-e", "task-clock", "sleep", "0.12"));
	CHECK(strstr(r.err, "summary") == NULL);
	n = interval_lines(r.err);
	CHECK_MSG(n >= 3, "%d interval lines for 0.12 s at -I 50: %s", n, r.err);
	CHECK_EQ_INT(count_lines(r.err, "\n"), n + 1);	/* the intervals + the total */
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-I", "50", "--summary", "-e", "task-clock",
			      "sleep", "0.07"));
	CHECK(strstr(r.err, "\n Performance counter stats for 'sleep 0.07':\n\n") != NULL);
	t_run_free(&r);

	/* --interval-clear: perf's clear sequence on stdout, heading each time */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-I", "50", "--interval-clear", "-x,", "-e",
			      "task-clock", "sleep", "0.12"));
	n = interval_lines(r.err);
	CHECK_MSG(n >= 3, "%d interval lines for 0.12 s at -I 50: %s", n, r.err);
	CHECK_EQ_INT(count_lines(r.out, "\033[H\033[2J\n"), n);
	CHECK_EQ_INT(count_lines(r.err, "#           time             counts unit events\n"), n);
	t_run_free(&r);

	/* -g: one group; counts still exact */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-g", "-x,", "-e",
			      "task-clock,page-faults", "true"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK(strstr(r.err, ",msec,task-clock,") && strstr(r.err, ",,page-faults,"));
	t_run_free(&r);

	/* --all-user / --all-kernel: the workload's page touches are user
	 * faults */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--all-user", "-x,", "-e", "page-faults", "--",
			      (char *)w, "-q", "-p", "2000", "-l", "1"));
	long long uf = strtoll(r.err, NULL, 10);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--all-kernel", "-x,", "-e", "page-faults", "--",
			      (char *)w, "-q", "-p", "2000", "-l", "1"));
	long long kf = strtoll(r.err, NULL, 10);
	t_run_free(&r);
	CHECK_MSG(uf >= 2000 && kf < 2000, "user %lld, kernel %lld page faults", uf, kf);

	/* --pre / --post around each run, -S */
	char script[1024], path[256];
	snprintf(path, sizeof(path), "/tmp/perfev-stat-opts-%d", (int)getpid());
	char pre[300], post[300];
	snprintf(pre, sizeof(pre), "echo pre >> %s", path);
	snprintf(post, sizeof(post), "echo post >> %s", path);
	unlink(path);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-S", "--pre", pre, "--post", post, "-r", "2", "-e",
			      "task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 0);
	t_run_free(&r);
	FILE *f = fopen(path, "re");
	size_t got = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[got] = '\0';
	if (f)
		fclose(f);
	CHECK_STR(buf, "pre\npost\npre\npost\n");
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--pre", "exit 3", "-e", "task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 1);
	CHECK(strstr(r.err, "the --pre command 'exit 3' failed (status 3)") != NULL);
	t_run_free(&r);

	/* -o --append: two reports in one file */
	unlink(path);
	for (int i = 0; i < 2; i++) {
		CHECK_OK(T_RUN_PERFEV(&r, "stat", "-o", path, "--append", "-e", "task-clock", "true"));
		t_run_free(&r);
	}
	f = fopen(path, "re");
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	CHECK_EQ_INT(count_lines(buf, "# started on "), 2);
	CHECK_EQ_INT(count_lines(buf, "msec task-clock"), 2);

	/* --log-fd: the counts go to that descriptor */
	snprintf(script, sizeof(script), "%s stat --log-fd 3 -x, -e task-clock true 3>%s",
		 t_perfev(), path);
	CHECK_OK(t_run_argv((char *[]){ "sh", "-c", script, NULL }, NULL, &r));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_STR(r.err, "");
	t_run_free(&r);
	f = fopen(path, "re");
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	CHECK(strstr(buf, ",msec,task-clock,") != NULL);
	unlink(path);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--log-fd", "57", "-e", "task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 2);
	t_run_free(&r);

	/* the options that need what this machine (or perfev) lacks */
	static const struct { const char *a, *b; int rc; const char *msg; } bad[] = {
		{ "-M", "IPC", 1, "perfev has no metric tables for this CPU yet" },
		{ "-T", NULL, 1, "no hardware PMU" },
		{ "--topdown", NULL, 1, "no hardware PMU" },
		{ "--smi-cost", NULL, 1, "SMI cost" },
		{ "--iostat", NULL, 2, "iio uncore" },
		{ "--cputype", "core", 2, "hybrid CPU" },
		{ "--control", "fd:5", 2, "not supported by perfev yet" },
		{ "--metric-only", NULL, 2, "not supported by perfev yet" },
		{ "--for-each-cgroup", "a,b", 2, "more than one cgroup is not supported" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (bad[i].b)
			CHECK_OK(T_RUN_PERFEV(&r, "stat", (char *)bad[i].a, (char *)bad[i].b, "true"));
		else
			CHECK_OK(T_RUN_PERFEV(&r, "stat", (char *)bad[i].a, "true"));
		CHECK_EQ_INT(r.exit_code, bad[i].rc);
		CHECK_MSG(strncmp(r.err, "perfev: error: ", 15) == 0 && strstr(r.err, bad[i].msg),
			  "%s: %s", bad[i].a, r.err);
		t_run_free(&r);
	}

	/* -D: only what runs after the delay is counted, exactly */
	t_need_getppid_tracepoint();
	snprintf(loop, sizeof(loop), "%s/tests/helpers/getppid_loop", b && *b ? b : "build");
	if (access(loop, X_OK))
		T_SKIP("%s was not built", loop);
	char s0[1200], s1[1200];
	snprintf(s0, sizeof(s0), "%s 0; sleep 0.5; %s 5", loop, loop);
	snprintf(s1, sizeof(s1), "%s 777; sleep 0.5; %s 5", loop, loop);
	long long c0 = getppid_count("250", s0), c1 = getppid_count("250", s1);
	long long all = getppid_count(NULL, s1);
	CHECK_MSG(c0 == c1 && c0 >= 5 && all >= c1 + 777, "-D 250: %lld and %lld; "
		  "without -D %lld", c0, c1, all);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-D", "-1", "-x,", "-e", "syscalls:sys_enter_getppid",
			      (char *)loop, "5"));
	CHECK_MSG(strstr(r.err, "Events disabled\n<not counted>,") == r.err, "%s", r.err);
	t_run_free(&r);
	return t_done();
}
