// SPDX-License-Identifier: GPL-2.0-only
/* What perfev convert says on stderr, for every format, on a file perf
 * records here (tests/helpers/record_work with -g):
 *   - written: exactly one line, "perfev: wrote ... to FILE" (one style
 *     for every format: firefox, speedscope and chrome said "N threads,
 *     ... written to 'FILE'", and folded, json and html added an empty
 *     line); "to stdout" for stdout; nothing with -q;
 *   - a full disk, -o /dev/full: exactly one line, "perfev: error: cannot
 *     write '/dev/full': No space left on device", exit 1;
 *   - a full disk on stdout (> /dev/full): exactly one line, "perfev:
 *     error: cannot write the output: No space left on device" (script's
 *     and report's words), exit 1 (a second line came from the last flush
 *     of stdout);
 *   - a file cut short: exactly one warning saying so (it came twice)
 *     and the summary, exit 3.
 * And flamegraph, which is convert --to html. */
#include <regex.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];

static const char *const fmts[] = { "folded", "pprof", "json", "firefox", "speedscope", "chrome",
				    "html" };
#define NFMTS (sizeof(fmts) / sizeof(fmts[0]))

static bool matches(const char *s, const char *re)
{
	regex_t r;
	bool m;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB))
		T_FATAL("bad regex %s", re);
	m = !regexec(&r, s, 0, NULL, 0);
	regfree(&r);
	return m;
}

/* runs cmd (stderr to DIR/err.txt); its exit status must be rc and its
 * stderr exactly lines (regular expressions, one per line, in order) */
static void says(const char *what, const char *cmd, int rc, const char *const *lines)
{
	char p[128], *e, *save = NULL;
	size_t len, n = 0;
	int r = t_sh("%s 2> %s/err.txt", cmd, dir);

	CHECK_MSG(r == rc, "%s: exit %d, not %d", what, r, rc);
	snprintf(p, sizeof(p), "%s/err.txt", dir);
	e = t_slurp(p, &len);
	if (!e) {
		T_FAIL("%s: no stderr file", what);
		return;
	}
	char *copy = strdup(e);
	bool ok = true;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save), n++)
		ok &= lines[n] && matches(l, lines[n]);
	/* no empty line either: strtok_r skips them, the length does not */
	size_t nl = 0;

	for (size_t i = 0; i < len; i++)
		nl += e[i] == '\n';
	ok &= !lines[n] && nl == n && (len == 0 || e[len - 1] == '\n');
	if (ok)
		printf("%s: exit %d, %zu line(s) as expected\n", what, r, n);
	else
		T_FAIL("%s: stderr is not the %s line(s) expected:\n%.800s", what,
		       lines[0] ? "expected" : "no", e);
	free(copy);
	free(e);
}

int main(void)
{
	char f[128], cut[128], work[600], cmd[1024], re[256];
	const char *perfev = t_perfev();

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("%s record -q -e cpu-clock -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record cannot sample cpu-clock here");
	snprintf(work, sizeof(work), "%s/tests/helpers/record_work",
		 getenv("PERFEV_BUILD") && *getenv("PERFEV_BUILD") ? getenv("PERFEV_BUILD") : "build");
	strcpy(dir, "/tmp/perfev-cmsg-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(f, sizeof(f), "%s/w.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- %s -m 200 > /dev/null 2>&1",
			  PERF, f, work), 0);
	snprintf(cut, sizeof(cut), "%s/cut.data", dir);
	CHECK_EQ_INT(t_sh("head -c $(( $(stat -c %%s %s) * 2 / 3 )) %s > %s", f, f, cut), 0);

	for (size_t i = 0; i < NFMTS; i++) {
		char what[128];

		/* written: one summary line */
		snprintf(re, sizeof(re), "^perfev: wrote [^ ].* to %s/out\\.%s$", dir, fmts[i]);
		const char *wrote[] = { re, NULL };

		snprintf(what, sizeof(what), "--to %s -o FILE", fmts[i]);
		snprintf(cmd, sizeof(cmd), "%s convert -i %s --to %s -o %s/out.%s", perfev, f, fmts[i],
			 dir, fmts[i]);
		says(what, cmd, 0, wrote);
		snprintf(what, sizeof(what), "--to %s -q", fmts[i]);
		snprintf(cmd, sizeof(cmd), "%s convert -q -i %s --to %s -o %s/out.%s", perfev, f, fmts[i],
			 dir, fmts[i]);
		const char *none[] = { NULL };

		says(what, cmd, 0, none);

		/* a full disk */
		const char *full[] = { "^perfev: error: cannot write '/dev/full': No space left on device$",
				       NULL };

		snprintf(what, sizeof(what), "--to %s -o /dev/full", fmts[i]);
		snprintf(cmd, sizeof(cmd), "%s convert -i %s --to %s -o /dev/full", perfev, f, fmts[i]);
		says(what, cmd, 1, full);
		const char *full_out[] = { "^perfev: error: cannot write the output: No space left on device$",
					   NULL };

		snprintf(what, sizeof(what), "--to %s -o - > /dev/full", fmts[i]);
		snprintf(cmd, sizeof(cmd), "%s convert -i %s --to %s -o - > /dev/full", perfev, f, fmts[i]);
		says(what, cmd, 1, full_out);

		/* cut short: one warning, then the summary (written before
		 * the file's end is judged) */
		snprintf(re, sizeof(re), "^perfev: wrote [^ ].* to %s/cut\\.%s$", dir, fmts[i]);
		const char *cutl[] = { re, "^perfev: warning: '.*/cut\\.data' is cut short: .*$", NULL };

		snprintf(what, sizeof(what), "--to %s, a file cut short", fmts[i]);
		snprintf(cmd, sizeof(cmd), "%s convert -i %s --to %s -o %s/cut.%s", perfev, cut, fmts[i],
			 dir, fmts[i]);
		says(what, cmd, 3, cutl);
	}
	/* stdout (folded's default) */
	const char *to_stdout[] = { "^perfev: wrote [0-9]+ stacks \\([0-9]+ samples\\) to stdout$", NULL };

	snprintf(cmd, sizeof(cmd), "%s convert -i %s --to folded > /dev/null", perfev, f);
	says("--to folded to stdout", cmd, 0, to_stdout);
	const char *full_out[] = { "^perfev: error: cannot write the output: No space left on device$", NULL };

	snprintf(cmd, sizeof(cmd), "%s convert -i %s --to folded > /dev/full", perfev, f);
	says("--to folded > /dev/full", cmd, 1, full_out);
	/* flamegraph */
	snprintf(re, sizeof(re), "^perfev: wrote a flame graph of [0-9]+ frames, [0-9]+ functions \\([0-9]+ samples\\) to %s/fg\\.html$", dir);
	const char *fg[] = { re, NULL };

	snprintf(cmd, sizeof(cmd), "%s flamegraph -i %s -o %s/fg.html", perfev, f, dir);
	says("flamegraph", cmd, 0, fg);
	const char *fg_full[] = { "^perfev: error: cannot write '/dev/full': No space left on device$", NULL };

	snprintf(cmd, sizeof(cmd), "%s flamegraph -i %s -o /dev/full", perfev, f);
	says("flamegraph -o /dev/full", cmd, 1, fg_full);
	t_sh("rm -rf %s", dir);
	return t_done();
}
