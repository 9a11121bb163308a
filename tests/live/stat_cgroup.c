// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat -a -G CGROUP counts only what runs inside that cgroup v2:
 * a command that moves itself into the cgroup and then calls getppid()
 * N times is counted exactly N (plus what the helper itself costs at exit,
 * measured first with N = 0: sanitizer runtimes make calls of their own). */
#include <sys/stat.h>
#include <perfev/target.h>
#include "stat_util.h"

static char cg_path[256];

static void cleanup(void)
{
	if (cg_path[0])
		rmdir(cg_path);
}

static long long count_in_cgroup(const char *name, const char *loop, int n)
{
	char script[1024], nbuf[16];
	struct t_run r;

	snprintf(nbuf, sizeof(nbuf), "%d", n);
	/* The shell's own start-up happens outside the cgroup; only what
	 * follows the move (the exec'd loop) is inside it. */
	snprintf(script, sizeof(script), "echo $$ > %s/cgroup.procs && exec %s %s", cg_path, loop, nbuf);
	if (T_RUN_PERFEV(&r, "stat", "-a", "-G", (char *)name, "-x,", "-e",
			 "syscalls:sys_enter_getppid", "--", "sh", "-c", script) < 0)
		T_FATAL("cannot run perfev");
	long long v = -1;
	if (r.exit_code != 0)
		T_FAIL("perfev stat -G exited %d: %s", r.exit_code, r.err);
	else
		v = strtoll(r.err, NULL, 10);
	CHECK_MSG(strstr(r.err, ",syscalls:sys_enter_getppid,") != NULL, "csv: %s", r.err);
	CHECK_MSG(strstr(r.err, "," ) && strstr(r.err, name), "no cgroup column: %s", r.err);
	t_run_free(&r);
	return v;
}

int main(void)
{
	char loop[512], name[64], mnt[200] = "";
	const char *b = getenv("PERFEV_BUILD");

	/* The cgroup2 mount: /sys/fs/cgroup, or .../unified on hybrid systems. */
	T_NEED_CGROUP2(mnt, sizeof(mnt));
	t_need_getppid_tracepoint();
	snprintf(loop, sizeof(loop), "%s/tests/helpers/getppid_loop", b && *b ? b : "build");
	if (access(loop, X_OK))
		T_SKIP("%s was not built", loop);
	snprintf(name, sizeof(name), "perfev-stat-test-%d", (int)getpid());
	snprintf(cg_path, sizeof(cg_path), "%s/%s", mnt, name);
	if (mkdir(cg_path, 0755))
		T_SKIP("cannot create %s: %s", cg_path, strerror(errno));
	atexit(cleanup);

	long long base = count_in_cgroup(name, loop, 0);
	long long v = count_in_cgroup(name, loop, 777);
	CHECK_MSG(base >= 0 && base <= 4, "baseline %lld", base);
	CHECK_EQ_INT(v, base + 777);
	return t_done();
}
