// SPDX-License-Identifier: GPL-2.0-only
/* A cgroup v2 target: a child moved into a fresh cgroup makes N getppid
 * calls; counting the cgroup on every CPU reads exactly N. */
#include <sys/wait.h>
#include "count_util.h"

static char mnt[512];

int main(void)
{
	char name[64], path[700], procs[800];
	int go[2], st;

	T_NEED_CGROUP2(mnt, sizeof(mnt));
	snprintf(name, sizeof(name), "perfev-test-%d", (int)getpid());
	snprintf(path, sizeof(path), "%s/%s", mnt, name);
	if (mkdir(path, 0755) < 0)
		T_SKIP("cannot create cgroup %s: %s", path, strerror(errno));

	CHECK(pipe(go) == 0);
	pid_t child = fork();
	if (child == 0) {
		char c;
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		call_getppid(4321);
		_exit(0);
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
	FILE *f = fopen(procs, "w");
	CHECK(f != NULL);
	if (f) {
		fprintf(f, "%d\n", (int)child);
		CHECK(fclose(f) == 0);
	}

	struct perf_event_attr a = tp_attr("syscalls", "sys_enter_getppid");
	struct pev_target *t = pev_target_new_cgroup(name, NULL);
	CHECK_MSG(t != NULL, "cgroup target: %s", strerror(errno));
	struct pev_target *t2 = pev_target_new_cgroup(path, "0");
	CHECK(t2 != NULL);
	if (t && t2) {
		CHECK_EQ_INT(pev_target_kind(t), PEV_TARGET_CGROUP);
		CHECK_EQ_INT(pev_target_open_flags(t), PERF_FLAG_PID_CGROUP);
		CHECK_EQ_INT(pev_target_nr_cpus(t), pev_cpus_online(NULL, 0));
		CHECK_EQ_INT(pev_target_nr_cpus(t2), 1);
		struct pev_counters *c = new_set(t, false);
		CHECK_EQ_INT(pev_counters_add(c, &a, "cg", -1), 0);
		int r = pev_counters_open(c);
		if (r < 0) {
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
			rmdir(path);
		}
		if (r < 0) {
			/* The probe: the same attr on this cgroup's fd, CPU 0. */
			int cgfd = open(path, O_RDONLY | O_CLOEXEC);
			int p = cgfd < 0 ? -errno : t_raw_open(&a, cgfd, 0, -1, PERF_FLAG_PID_CGROUP);

			if (p >= 0)
				close(p);
			if (cgfd >= 0)
				close(cgfd);
			if (p < 0)
				T_SKIP("cgroup counting: the kernel refuses a raw perf_event_open "
				       "of it too (%s)", strerror(-p));
			T_FATAL("cgroup counting: perfev failed (%s) where a raw "
				"perf_event_open succeeds", strerror(-r));
		}
		CHECK(pev_counters_attr(c, 0)->inherit == 0);
		CHECK_OK(pev_counters_enable(c));
		call_getppid(100);	/* we are not in the cgroup */
		CHECK(write(go[1], "g", 1) == 1);
		CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0);
		CHECK_OK(pev_counters_disable(c));
		CHECK_OK(pev_counters_read(c));
		CHECK_EQ_U64(total(c, 0), 4321);
		pev_counters_free(c);
	} else {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	pev_target_free(t);
	pev_target_free(t2);
	CHECK_MSG(rmdir(path) == 0, "rmdir %s: %s", path, strerror(errno));

	errno = 0;
	CHECK(pev_target_new_cgroup("perfev-no-such-cgroup", NULL) == NULL && errno == ENOENT);
	return t_done();
}
