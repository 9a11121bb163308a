// SPDX-License-Identifier: GPL-2.0-only
/* perf 6.1 reads what perfev record writes: perf report --stdio and
 * perf script, on file output, pipe output (perf script -i -), -g,
 * --call-graph dwarf and -z, with no warning on stderr and the sample
 * count our reader finds. */
#include "../live/record_util.h"

static void compare(const char *opt, bool pipe)
{
	const char *out = rt_tmp("compat.data");
	char cmd[2048];
	struct t_run r;

	snprintf(cmd, sizeof(cmd), "%s record -q -e cpu-clock -F 1000 %s -o %s -- %s -m 150",
		 t_perfev(), opt, pipe ? "-" : out, rt_work());
	if (pipe)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " > %s", out);
	CHECK_OK(t_run_argv((char *const[]){ "sh", "-c", cmd, NULL }, NULL, &r));
	CHECK_MSG(r.exit_code == 0, "%s: %s", cmd, r.err);
	t_run_free(&r);
	struct rt_stats s = rt_read(out);

	CHECK_MSG(s.ok && s.samples >= 30, "%s: %s", opt, s.err);

	/* perf report: the header's sample count. */
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf report --stdio -i %s%s",
		 pipe ? "- < " : "", out);
	CHECK_OK(t_run_argv((char *const[]){ "sh", "-c", cmd, NULL }, NULL, &r));
	CHECK_MSG(r.exit_code == 0 && r.err[0] == '\0', "%s: stderr: %s", cmd, r.err);
	char want[64];

	snprintf(want, sizeof(want), "# Samples: %llu ", (unsigned long long)s.samples);
	CHECK_MSG(strstr(r.out, want) != NULL, "%s: no '%s'", cmd, want);
	CHECK_MSG(strstr(r.out, "rw_spin") != NULL, "%s: rw_spin not resolved", cmd);
	t_run_free(&r);

	/* perf script: one line per sample with the call graph hidden. */
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf script -G -F ip,sym -i %s%s | wc -l",
		 pipe ? "- < " : "", out);
	CHECK_OK(t_run_argv((char *const[]){ "sh", "-c", cmd, NULL }, NULL, &r));
	CHECK_MSG(r.err[0] == '\0', "%s: stderr: %s", cmd, r.err);
	CHECK_MSG(atoll(r.out) == (long long)s.samples, "%s: %s lines, %llu samples", cmd,
		  r.out, (unsigned long long)s.samples);
	t_run_free(&r);
	unlink(out);
}

int main(void)
{
	if (access("/usr/bin/perf", X_OK))
		T_SKIP("/usr/bin/perf is not installed");
	compare("", false);
	compare("", true);
	compare("-g", false);
	compare("-g", true);
	compare("--call-graph=dwarf", false);
	compare("-z", false);
	compare("-z -g", true);
	return t_done();
}
