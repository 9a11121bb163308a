// SPDX-License-Identifier: GPL-2.0-only
/* The file system refuses more (RLIMIT_FSIZE): perfev says so, exits 1,
 * and the file keeps every complete round: the header's data size ends at
 * a round, so our reader and perf report read it without recovery or
 * warnings.  The feature sections follow the data (the cut gives back
 * room for them, or more rounds are given up), so perf report
 * --header-only shows the host and the command line.  With -z the rounds
 * are small, so some are given up; COMPRESSED must be there, or perf
 * could not expand the records. */
#include <sys/resource.h>
#include "record_util.h"

/* Runs `cmd` through sh; its stdout in r (free with t_run_free). */
static bool sh(const char *cmd, struct t_run *r)
{
	return t_run_argv((char *const[]){ "sh", "-c", (char *)cmd, NULL }, NULL, r) == 0;
}

static void record_into(const char *out, rlim_t limit, bool z)
{
	const char *errf = rt_tmp("fsize.err");
	int st;
	struct stat sb;
	pid_t pid = fork();

	if (pid == 0) {
		struct rlimit rl = { limit, limit };
		int fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		const char *argv[] = { t_perfev(), "record", "-e", "cpu-clock", "-F",
				       "4000", "-g", "-m", "4", "-o", out, "--", rt_work(),
				       "-m", "3000", NULL, NULL };

		if (z) {	/* "-z" before "-o" */
			memmove(&argv[10], &argv[9], 6 * sizeof(*argv));
			argv[9] = "-z";
		}
		dup2(fd, 2);
		setrlimit(RLIMIT_FSIZE, &rl);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	CHECK_EQ_INT(waitpid(pid, &st, 0), pid);
	CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %#x", st);

	char msg[4096] = "";
	FILE *f = fopen(errf, "r");

	if (f) {
		size_t n = fread(msg, 1, sizeof(msg) - 1, f);

		msg[n] = '\0';
		fclose(f);
	}
	unlink(errf);
	CHECK_MSG(strstr(msg, "perfev: error: cannot write '") &&
		  strstr(msg, "File too large") && strstr(msg, "last complete round"),
		  "stderr: %s", msg);
	CHECK_MSG(strstr(msg, "header features") && !strstr(msg, "without its header"),
		  "stderr: %s", msg);
	CHECK_OK(stat(out, &sb));
	CHECK(sb.st_size <= (off_t)limit && sb.st_size > 4096);
	struct rt_stats s = rt_read(out);

	CHECK_MSG(s.ok && !s.recovered, "read: %s", s.err);
	CHECK(s.samples > 20 && s.rounds >= 1);
	CHECK_EQ_INT(rt_summary_samples(msg), (long long)s.samples);

	struct pev_data *d = pev_data_open(out, NULL, NULL, 0);

	CHECK(d != NULL);
	if (d) {
		const struct pev_data_features *feat = pev_data_features(d);

		CHECK(pev_data_features_has(feat, PEV_FEAT_HOSTNAME));
		CHECK(pev_data_features_has(feat, PEV_FEAT_CMDLINE));
		CHECK(pev_data_features_has(feat, PEV_FEAT_EVENT_DESC));
		CHECK(pev_data_features_has(feat, PEV_FEAT_SAMPLE_TIME));
		CHECK_EQ_INT(pev_data_features_has(feat, PEV_FEAT_COMPRESSED), z);
		CHECK_EQ_U64(feat->nr_event_desc, 1);
		CHECK(feat->nr_cmdline > 2 && !strcmp(feat->cmdline[1], "record"));
		CHECK(s.nr_build_ids >= 1 && s.work_build_id);
		pev_data_close(d);
	}
	if (access("/usr/bin/perf", X_OK))
		return;

	char cmd[1024];
	struct t_run r;

	snprintf(cmd, sizeof(cmd), "/usr/bin/perf report --stdio -i %s", out);
	CHECK(sh(cmd, &r));
	CHECK_MSG(r.exit_code == 0 && !strstr(r.err, "WARNING") &&
		  !strstr(r.err, "rror"), "perf report: %d: %s", r.exit_code, r.err);
	t_run_free(&r);
	/* One line per sample (report rounds counts of thousands). */
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf script -F time -i %s | wc -l", out);
	CHECK(sh(cmd, &r));
	CHECK_MSG(r.exit_code == 0 && (uint64_t)atoll(r.out) == s.samples,
		  "perf script: %s lines, we read %llu samples", r.out,
		  (unsigned long long)s.samples);
	t_run_free(&r);
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf report --header-only -i %s", out);
	CHECK(sh(cmd, &r));
	CHECK_MSG(r.exit_code == 0 && strstr(r.out, "\n# hostname : ") &&
		  strstr(r.out, "\n# cmdline : ") && strstr(r.out, "record_work") &&
		  (!z || strstr(r.out, "\n# compressed : Zstd")),
		  "perf report --header-only: %d: %s%s", r.exit_code, r.out, r.err);
	t_run_free(&r);
}

int main(void)
{
	const char *out = rt_tmp("fsize.data");

	record_into(out, 65536, false);
	record_into(out, 24576, true);
	unlink(out);
	return t_done();
}
