// SPDX-License-Identifier: GPL-2.0-only
/* Misuse is reported once and nothing stops: an end without a begin (3
 * threads, 3 times each) gives one line on stderr naming the region; a
 * region still open at the report (an explicit pev_region_report() and
 * the exit report) gives one line naming it, and its completed calls
 * count (2), the open one does not.  The child writes its report to a
 * CSV file, so its stderr holds only those two lines. */
#include <pthread.h>
#include "region_util.h"

static void *end_unbegun(void *arg)
{
	for (int i = 0; i < 3; i++)
		pev_region_end("rt_never_begun");
	return arg;
}

static int child(void)
{
	pthread_t th[2];
	struct pev_region_count c = { .size = sizeof(c) };

	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, end_unbegun, NULL);
	end_unbegun(NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 2; i++) {
		pev_region_begin("rt_left_open");
		call_getppid(10);
		pev_region_end("rt_left_open");
	}
	pev_region_begin("rt_left_open");
	call_getppid(1000);
	printf("report %d\n", pev_region_report());
	int r = pev_region_get("rt_left_open", 0, 0, &c);
	printf("left_open ret %d calls %" PRIu64 " raw %" PRIu64 "\n", r, c.calls, c.raw);
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	r = pev_region_get("rt_never_begun", -1, 0, &c);
	printf("never_begun ret %d calls %" PRIu64 "\n", r, c.calls);
	return 0;
}

int main(int argc, char **argv)
{
	struct t_run r;
	char dir[] = "/tmp/pev-region-misuse-XXXXXX", out[128], env[160];

	if (argc > 1)
		return child();
	rt_need_tracepoint();
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp: %s", strerror(errno));
	snprintf(out, sizeof(out), "%s/r.csv", dir);
	snprintf(env, sizeof(env), "PERFEV_OUTPUT=csv:%s", out);
	rt_run_child("child", (const char *const[]){ "PERFEV_EVENTS=" RT_TP_SPEC, env, NULL }, &r);
	printf("child: exit %d\nstdout:\n%sstderr:\n%s", r.exit_code, r.out, r.err);
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_EQ_INT(rt_lines_with(r.err, "rt_never_begun"), 1);
	CHECK_EQ_INT(rt_lines_with(r.err, "rt_left_open"), 1);
	CHECK_EQ_INT(rt_lines(r.err), 2);
	CHECK(strstr(r.out, "report 0\n") != NULL);
	CHECK(strstr(r.out, "left_open ret 0 calls 2 raw 20\n") != NULL);
	/* An end without a begin makes no call: no region, or one of 0 calls. */
	CHECK(strstr(r.out, "never_begun ret -2 calls 0\n") || strstr(r.out, "never_begun ret 0 calls 0\n"));
	size_t len;
	char *csv = t_slurp(out, &len);
	CHECK_MSG(len > 0 && strstr(csv, "rt_left_open"), "%s: no rt_left_open in the report", out);
	free(csv);
	t_run_free(&r);
	t_sh("rm -rf %s", dir);
	return t_done();
}
