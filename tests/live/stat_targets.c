// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat on targets and the modes around them: --per-thread on a
 * 2-thread process (-p), -A -a per CPU, -p until the process exits or
 * SIGINT, SIGINT during a workload, --no-scale, -o, and the task-clock
 * line's columns against real perf's. */
#include <signal.h>
#include "stat_util.h"

/* Start the workload in the background (spinning for a while). */
static pid_t spawn(char *const argv[])
{
	pid_t p = fork();
	if (p == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	return p;
}

static int count_lines_with(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

int main(void)
{
	char *w = (char *)t_workload();
	struct t_run r;
	char pidbuf[32], script[1024];

	/* --per-thread on a process with two threads */
	pid_t p = spawn((char *[]){ w, "-q", "-t", "2", "-l", "4000000000", NULL });
	usleep(200000);
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)p);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--per-thread", "-p", pidbuf, "-e", "task-clock",
			      "--timeout", "300"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_EQ_INT(count_lines_with(r.err, "msec task-clock"), 2);
	char me[64];
	snprintf(me, sizeof(me), "workload-%d ", (int)p);
	CHECK_MSG(strstr(r.err, me) != NULL, "no line for %s in:\n%s", me, r.err);
	CHECK(strstr(r.err, "process id '") != NULL);
	t_run_free(&r);

	/* JSON per thread: a "thread" key first */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--per-thread", "-j", "-p", pidbuf, "-e", "task-clock",
			      "--timeout", "100"));
	CHECK(strncmp(r.err, "{\"thread\" : \"workload-", 22) == 0);
	t_run_free(&r);

	/* -p counts until SIGINT, then prints and ends as SIGINT would */
	snprintf(script, sizeof(script), "%s stat -p %d -e task-clock & sleep 0.3; kill -INT $!; "
		 "wait $!", t_perfev(), (int)p);
	CHECK_OK(t_run_argv((char *[]){ "sh", "-c", script, NULL }, NULL, &r));
	CHECK_EQ_INT(r.exit_code, 130);
	CHECK_MSG(strstr(r.err, "msec task-clock") != NULL, "no counts after SIGINT:\n%s%s",
		  r.err, r.err);
	t_run_free(&r);

	/* -p ends by itself when the process exits */
	snprintf(script, sizeof(script), "sleep 0.3; kill %d", (int)p);
	pid_t killer = spawn((char *[]){ "/bin/sh", "-c", script, NULL });
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-p", pidbuf, "-e", "task-clock"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK(strstr(r.err, "msec task-clock") != NULL);
	t_run_free(&r);
	waitpid(killer, NULL, 0);
	waitpid(p, NULL, 0);

	/* -A -a: one line per online CPU */
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-A", "-a", "-x,", "-e", "cpu-clock", "sleep", "0.05"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_EQ_INT(count_lines_with(r.err, ",msec,cpu-clock,"), ncpu);
	for (long c = 0; c < ncpu; c++) {
		char id[32];
		snprintf(id, sizeof(id), "CPU%ld,", c);
		CHECK_MSG(strstr(r.err, id) != NULL, "no line for %s", id);
	}
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-A", "-a", "-e", "cpu-clock", "sleep", "0.05"));
	CHECK(strstr(r.err, "'system wide'") != NULL);
	CHECK(strncmp(strstr(r.err, "CPU0 "), "CPU0       ", 11) == 0);
	CHECK(strstr(r.err, "seconds user") == NULL);	/* as perf: not with -a */
	t_run_free(&r);

	/* SIGINT during a long workload: the workload gets it, the counts print */
	snprintf(script, sizeof(script), "%s stat -e task-clock -- %s -q -S 5000 & sleep 0.3; "
		 "kill -INT $!; wait $!", t_perfev(), w);
	CHECK_OK(t_run_argv((char *[]){ "sh", "-c", script, NULL }, NULL, &r));
	CHECK_EQ_INT(r.exit_code, 130);
	CHECK_MSG(strstr(r.err, "msec task-clock") != NULL, "no counts after SIGINT:\n%s%s",
		  r.err, r.err);
	CHECK(strstr(r.err, "seconds time elapsed") != NULL);
	t_run_free(&r);

	/* --no-scale: software events are never multiplexed, so the same */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--no-scale", "-x,", "-e", "page-faults", "--", w, "-q",
			      "-l", "1000"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK(strstr(r.err, ",,page-faults,") != NULL);
	CHECK(strtoull(r.err, NULL, 10) >= 4);
	t_run_free(&r);

	/* -o file */
	char path[] = "/tmp/perfev-stat-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "-o", path, "-e", "task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_STR(r.err, "");
	FILE *f = fopen(path, "r");
	char buf[4096] = "";
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	unlink(path);
	CHECK(strncmp(buf, "# started on ", 13) == 0);
	CHECK(strstr(buf, "msec task-clock") != NULL);
	t_run_free(&r);

	/* The task-clock line, column for column, against real perf 6.1. */
	if (access("/usr/bin/perf", X_OK) == 0) {
		struct t_run pr;
		CHECK_OK(t_run_argv((char *[]){ "/usr/bin/perf", "stat", "-e", "task-clock",
						"true", NULL }, NULL, &pr));
		CHECK_OK(T_RUN_PERFEV(&r, "stat", "-e", "task-clock", "true"));
		const char *a = strstr(pr.err, "msec task-clock"), *b = strstr(r.err, "msec task-clock");
		CHECK(a && b);
		if (a && b) {
			/* from the start of each line to its end */
			const char *la = a, *lb = b;
			while (la > pr.err && la[-1] != '\n')
				la--;
			while (lb > r.err && lb[-1] != '\n')
				lb--;
			size_t ea = strcspn(la, "\n"), eb = strcspn(lb, "\n");
			CHECK_EQ_INT(eb, ea);
			CHECK_EQ_INT(b - lb, a - la);
			CHECK_EQ_INT(strchr(lb, '#') - lb, strchr(la, '#') - la);
			CHECK_EQ_INT(strstr(lb, "CPUs utilized") - lb, strstr(la, "CPUs utilized") - la);
		}
		t_run_free(&pr);
		t_run_free(&r);
	}
	return t_done();
}
