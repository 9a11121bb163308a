// SPDX-License-Identifier: GPL-2.0-only
/* perfev record's mode and target options, read back exactly: --overwrite
 * keeps only the last ring's worth, --max-size stops (exit 0, perf's
 * message), -b is refused with a message naming branch stacks (where
 * there is no LBR), --namespaces and --all-cgroups write their records
 * (cgroup ids match the samples'), -s writes READ records, -u and -G
 * record only the user's or the cgroup's tasks; perf reads every file. */
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include "record_util.h"

struct mstats {
	bool ok;
	uint64_t samples, sample_bytes, ns_records, ns_pid_ok, cgroup_records, reads;
	uint64_t cg_id_found, cg_sample_match, cg_sample_other, pid_other;
	uint64_t first_time, last_time, exec_time, forks;
	/* -u: processes seen in samples, and the children of only_pid */
	uint32_t pids[64], kids[64];
	size_t npids, nkids;
};

static struct mstats scan(const char *path, uint64_t pid_ns_ino, uint64_t cg_id,
			  const char *cg_path, pid_t only_pid)
{
	struct mstats s;
	char err[256];
	struct pev_data_open_opts o = { .size = sizeof(o) };
	struct pev_data *d = pev_data_open(path, &o, err, sizeof(err));
	struct pev_data_event ev;
	int n;

	memset(&s, 0, sizeof(s));
	s.first_time = UINT64_MAX;
	if (!d)
		return s;
	while ((n = pev_data_next(d, &ev)) > 0) {
		const struct pev_record *r = &ev.rec;

		if (ev.decode_error) {
			n = -EBADMSG;
			break;
		}
		switch (r->type) {
		case PERF_RECORD_SAMPLE:
			s.samples++;
			s.sample_bytes += r->size;
			if (r->u.sample.time < s.first_time)
				s.first_time = r->u.sample.time;
			if (r->u.sample.time > s.last_time)
				s.last_time = r->u.sample.time;
			if (r->u.sample.fields & PERF_SAMPLE_CGROUP) {
				if (r->u.sample.cgroup == cg_id)
					s.cg_sample_match++;
				else
					s.cg_sample_other++;
			}
			if (only_pid && r->u.sample.pid != (uint32_t)only_pid) {
				size_t k = 0;

				while (k < s.npids && s.pids[k] != r->u.sample.pid)
					k++;
				if (k == s.npids && k < 64)
					s.pids[s.npids++] = r->u.sample.pid;
			}
			break;
		case PERF_RECORD_FORK:
			s.forks++;
			if (r->u.fork.ppid == (uint32_t)only_pid && r->u.fork.pid != r->u.fork.ppid &&
			    s.nkids < 64)
				s.kids[s.nkids++] = r->u.fork.pid;
			break;
		case PERF_RECORD_NAMESPACES:
			s.ns_records++;
			/* index 3: PID_NS_INDEX */
			if (r->u.namespaces.nr == 7 && r->u.namespaces.links[3].ino == pid_ns_ino)
				s.ns_pid_ok++;
			break;
		case PERF_RECORD_CGROUP:
			s.cgroup_records++;
			if (r->u.cgroup.id == cg_id && cg_path && !strcmp(r->u.cgroup.path, cg_path))
				s.cg_id_found++;
			break;
		case PERF_RECORD_READ:
			s.reads++;
			break;
		case PERF_RECORD_COMM:
			if (r->u.comm.exec && !s.exec_time)
				s.exec_time = r->sample_id.time;
			break;
		}
	}
	/* a sanitizer's helper process (LeakSanitizer's tracer) is the
	 * workload's child: followed by inherit, and the user's too */
	for (size_t k = 0; k < s.npids; k++) {
		bool kid = false;

		for (size_t j = 0; j < s.nkids; j++)
			kid |= s.kids[j] == s.pids[k];
		s.pid_other += !kid;
	}
	s.ok = n == 0;
	pev_data_close(d);
	return s;
}

static struct t_run sh(const char *cmd)
{
	struct t_run r;

	CHECK_OK(t_run_argv((char *const[]){ "sh", "-c", (char *)cmd, NULL }, NULL, &r));
	return r;
}

static void perf_reads(const char *out)
{
	char cmd[1024];
	struct t_run r;

	if (access("/usr/bin/perf", X_OK))
		return;
	const char *tools[] = { "report --stdio", "script" };

	for (int k = 0; k < 2; k++) {
		snprintf(cmd, sizeof(cmd), "/usr/bin/perf %s -i %s >/dev/null", tools[k], out);
		r = sh(cmd);
		CHECK_MSG(r.exit_code == 0 && !strstr(r.err, "WARNING") &&
			  !strstr(r.err, "rror"), "perf %s: exit %d: %s", tools[k],
			  r.exit_code, r.err);
		t_run_free(&r);
	}
}

/* The cgroup2 mount, or NULL. */
static const char *cgroup2_mount(void)
{
	static char dir[512];

	return t_cgroup2_mount(dir, sizeof(dir)) == 0 ? dir : NULL;
}

static uint64_t cgroup_id(const char *path)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = 8 };
	int mid;
	uint64_t id = 0;

	if (!name_to_handle_at(AT_FDCWD, path, &h.fh, &mid, 0))
		memcpy(&id, h.fh.f_handle, 8);
	return id;
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

int main(void)
{
	const char *out = rt_tmp("modes.data");
	char cmd[4096];
	struct t_run r;
	struct mstats s;
	struct stat st;

	/* --overwrite: 32 KiB backward rings written at the end hold the
	 * last samples only, all valid. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "--overwrite", "-m", "8", "-e", "cpu-clock",
			      "-o", (char *)out, "--", (char *)rt_work(), "-m", "1500"));
	CHECK_MSG(r.exit_code == 0, "%s", r.err);
	t_run_free(&r);
	s = scan(out, 0, 0, NULL, 0);
	CHECK(s.ok && s.samples >= 50);
	/* one ring per CPU */
	CHECK_MSG(s.sample_bytes <= 8 * (uint64_t)sysconf(_SC_PAGESIZE) *
		  (uint64_t)sysconf(_SC_NPROCESSORS_ONLN),
		  "%llu sample bytes in 32 KiB rings", (unsigned long long)s.sample_bytes);
	/* 1.5 s at 4 kHz would be ~6000 samples; the ring keeps the end */
	CHECK_MSG(s.samples < 1000 * (uint64_t)sysconf(_SC_NPROCESSORS_ONLN),
		  "%llu samples", (unsigned long long)s.samples);
	perf_reads(out);

	/* --max-size 30K: perf's message, exit 0, the file stops near it
	 * (one pass of two 64 KiB rings at most past it, plus the header and
	 * features). */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "--max-size", "30K", "-m", "16", "-F", "4000",
			      "-e", "cpu-clock", "-o", (char *)out, "--", (char *)rt_work(),
			      "-m", "4000"));
	CHECK_MSG(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
	CHECK_MSG(strstr(r.err, "perf size limit reached (") != NULL, "%s", r.err);
	t_run_free(&r);
	CHECK_MSG(file_size(out) >= 30 * 1024 && file_size(out) <= 30 * 1024 + 2 * 65536 +
		  65536, "file %llu bytes", (unsigned long long)file_size(out));
	s = scan(out, 0, 0, NULL, 0);
	CHECK(s.ok && s.samples > 300);
	perf_reads(out);

	/* -b: refused where the PMU has no branch stack, naming it. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-b", "-e", "cpu-clock", "-o", (char *)out,
			      "--", (char *)rt_work(), "-m", "10"));
	CHECK_EQ_INT(r.exit_code, 1);
	CHECK_MSG(strstr(r.err, "branch stack") && strstr(r.err, "'cpu-clock'"), "%s", r.err);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-j", "any_call,nope", "-e", "cpu-clock",
			      "--", "true"));
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK(strstr(r.err, "unknown branch filter") != NULL);
	t_run_free(&r);

	/* --namespaces: one synthesized for the workload and one from the
	 * kernel for each task it creates: one more than FORK records (as
	 * perf 6.1, no FORK is synthesized for the workload). */
	CHECK_OK(stat("/proc/self/ns/pid", &st));
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "--namespaces", "-e", "cpu-clock", "-o",
			      (char *)out, "--", (char *)rt_work(), "-m", "20", "-t", "3"));
	CHECK_MSG(r.exit_code == 0, "%s", r.err);
	t_run_free(&r);
	s = scan(out, (uint64_t)st.st_ino, 0, NULL, 0);
	CHECK(s.ok);
	CHECK(s.forks >= 2);	/* -t 3: two more threads */
	CHECK_EQ_U64(s.ns_records, s.forks + 1);
	CHECK_EQ_U64(s.ns_pid_ok, s.forks + 1);
	perf_reads(out);

	/* -s: a READ record for each inherited event of the exiting threads. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-s", "-e", "cpu-clock", "-o", (char *)out,
			      "--", (char *)rt_work(), "-m", "20", "-t", "3"));
	CHECK_MSG(r.exit_code == 0, "%s", r.err);
	t_run_free(&r);
	s = scan(out, 0, 0, NULL, 0);
	CHECK(s.ok);
	CHECK_MSG(s.reads >= 2, "%llu READ records", (unsigned long long)s.reads);
	perf_reads(out);

	/* -n: side band only. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-n", "-e", "cpu-clock", "-o", (char *)out,
			      "--", (char *)rt_work(), "-m", "50"));
	CHECK_EQ_INT(r.exit_code, 0);
	t_run_free(&r);
	s = scan(out, 0, 0, NULL, 0);
	CHECK(s.ok && s.exec_time > 0);
	CHECK_EQ_U64(s.samples, 0);

	/* --all-cgroups, in a cgroup of our own: CGROUP records name it, and
	 * every sample carries its id. */
	const char *mnt = cgroup2_mount();
	char cg[600], procs[700], rel[64];

	snprintf(rel, sizeof(rel), "/perfev-rt-%d", (int)getpid());
	snprintf(cg, sizeof(cg), "%s%s", mnt ? mnt : "", rel);
	if (mnt && !mkdir(cg, 0755)) {
		uint64_t id = cgroup_id(cg);

		snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
		snprintf(cmd, sizeof(cmd), "echo $$ > %s && exec %s record -q --all-cgroups "
			 "-e cpu-clock -o %s -- %s -m 50", procs, t_perfev(), out, rt_work());
		r = sh(cmd);
		CHECK_MSG(r.exit_code == 0, "%s", r.err);
		t_run_free(&r);
		s = scan(out, 0, id, rel, 0);
		CHECK(s.ok && s.samples >= 10 && id != 0);
		CHECK_EQ_U64(s.cg_id_found, 1);
		CHECK_EQ_U64(s.cg_sample_other, 0);
		CHECK_EQ_U64(s.cg_sample_match, s.samples);
		CHECK(s.cgroup_records >= 2);	/* "/" too */
		perf_reads(out);

		/* -G: system-wide, only the cgroup's tasks. */
		snprintf(cmd, sizeof(cmd), "sh -c 'echo $$ > %s && exec %s -m 2500' & "
			 "sleep 0.2; %s record -q -a -G %s -e cpu-clock -o %s -- sleep 0.5; "
			 "wait", procs, rt_work(), t_perfev(), rel + 1, out);
		r = sh(cmd);
		CHECK_MSG(r.exit_code == 0, "%s", r.err);
		t_run_free(&r);
		struct mstats g = scan(out, 0, 0, NULL, 0);

		CHECK(g.ok && g.samples >= 10);
		/* every sample is record_work's: its comm via perf script */
		if (!access("/usr/bin/perf", X_OK)) {
			snprintf(cmd, sizeof(cmd), "/usr/bin/perf script -F comm -i %s | tr -d ' ' | sort -u", out);
			r = sh(cmd);
			CHECK_STR(r.out, "record_work\n");
			t_run_free(&r);
		}
		rmdir(cg);
	} else {
		fprintf(stderr, "note: no writable cgroup2 mount; --all-cgroups/-G not run\n");
	}

	/* -u: only the user's processes (nobody runs record_work). */
	if (!access("/usr/bin/setpriv", X_OK)) {
		snprintf(cmd, sizeof(cmd), "setpriv --reuid=65534 --regid=65534 --clear-groups "
			 "%s -m 1000 & sleep 0.2; %s record -q -u 65534 -e cpu-clock -o %s; "
			 "echo $!", rt_work(), t_perfev(), out);
		r = sh(cmd);
		CHECK_MSG(r.exit_code == 0, "%s", r.err);
		pid_t pid = (pid_t)atoi(r.out);

		t_run_free(&r);
		s = scan(out, 0, 0, NULL, pid);
		CHECK(s.ok && s.samples >= 10 && pid > 0);
		CHECK_EQ_U64(s.pid_other, 0);
		perf_reads(out);
	}

	unlink(out);
	snprintf(cmd, sizeof(cmd), "%s.old", out);
	unlink(cmd);
	return t_done();
}
