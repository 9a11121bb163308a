// SPDX-License-Identifier: GPL-2.0-only
/* Output modes: a pipe stream (-o -), zstd (-z), context switches
 * (--switch-events), several events, a :S group, -a; each read back. */
#include "record_util.h"

static struct t_run run_sh(const char *cmd)
{
	struct t_run r;

	CHECK_OK(t_run_argv((char *const[]){ "sh", "-c", (char *)cmd, NULL }, NULL, &r));
	return r;
}

int main(void)
{
	const char *out = rt_tmp("modes.data");
	char cmd[2048];
	struct t_run r;
	struct rt_stats s;

	/* Pipe mode to stdout, redirected into a file. */
	snprintf(cmd, sizeof(cmd), "%s record -e cpu-clock -F 1000 -o - -- %s -m 150 > %s",
		 t_perfev(), rt_work(), out);
	r = run_sh(cmd);
	CHECK_MSG(r.exit_code == 0, "pipe: %s", r.err);
	s = rt_read(out);
	CHECK_MSG(s.ok, "pipe: %s", s.err);
	CHECK(s.samples >= 30 && s.comm_exec >= 1 && s.mmap2_work >= 1 && s.exits >= 1);
	CHECK_EQ_INT(rt_summary_samples(r.err), (long long)s.samples);
	t_run_free(&r);

	/* A FIFO on stdout without -o: perf switches to pipe mode too. */
	snprintf(cmd, sizeof(cmd), "%s record -q -e cpu-clock -- %s -m 50 | cat > %s",
		 t_perfev(), rt_work(), out);
	r = run_sh(cmd);
	CHECK_EQ_INT(r.exit_code, 0);
	s = rt_read(out);
	CHECK(s.ok && s.samples >= 10);
	t_run_free(&r);

	/* zstd */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-z", "-e", "cpu-clock", "-F", "1000", "-o",
			      (char *)out, "--", (char *)rt_work(), "-m", "150"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK(strstr(r.err, "compressed") != NULL);
	s = rt_read(out);
	CHECK_MSG(s.ok, "-z: %s", s.err);
	CHECK(s.samples >= 30 && s.comm_exec >= 1 && s.exits >= 1);
	CHECK_EQ_INT(rt_summary_samples(r.err), (long long)s.samples);
	t_run_free(&r);

	/* --switch-events on a workload that sleeps in 1 ms steps. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "--switch-events", "-e", "cpu-clock",
			      "-o", (char *)out, "--", (char *)rt_work(), "-s", "-m", "50"));
	CHECK_EQ_INT(r.exit_code, 0);
	s = rt_read(out);
	CHECK_MSG(s.ok && s.switches >= 20, "switches %llu", (unsigned long long)s.switches);
	t_run_free(&r);

	/* Two events, and a leader-sampled group: ids tell them apart. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-e", "cpu-clock,task-clock", "-o",
			      (char *)out, "--", (char *)rt_work(), "-m", "100"));
	CHECK_EQ_INT(r.exit_code, 0);
	s = rt_read(out);
	CHECK(s.ok && s.samples >= 100);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-e", "{cpu-clock,task-clock}:S", "-o",
			      (char *)out, "--", (char *)rt_work(), "-m", "100"));
	CHECK_EQ_INT(r.exit_code, 0);
	s = rt_read(out);
	CHECK(s.ok && s.samples >= 50);
	t_run_free(&r);

	/* System-wide while the workload runs.  Every process's mmaps land in
	 * these rings too (valgrind's, in CI's valgrind phase, where a slowed
	 * perfev drains them late): 1 MiB per CPU so that the workload's own
	 * MMAP2 is not among records lost. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-a", "-m", "256", "-e", "cpu-clock", "-F", "500",
			      "-o", (char *)out, "--", (char *)rt_work(), "-m", "100"));
	CHECK_EQ_INT(r.exit_code, 0);
	s = rt_read(out);
	CHECK_MSG(s.ok && s.samples >= 50 && s.ip_in_work >= 10,
		  "-a: ok %d samples %llu in work %llu (text %#llx-%#llx) mmap2 %llu lost %llu: %s", s.ok,
		  (unsigned long long)s.samples, (unsigned long long)s.ip_in_work,
		  (unsigned long long)s.work_start, (unsigned long long)s.work_end,
		  (unsigned long long)s.mmap2_work, (unsigned long long)s.lost, s.err);
	t_run_free(&r);
	unlink(out);
	return t_done();
}
