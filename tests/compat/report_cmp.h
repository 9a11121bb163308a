/* What the report compat tests share: perfev report and perf report
 * --stdio on the same file and options, compared byte for byte after
 * perf's closing random tip and its "[...] (inlined)" garbage are cut.
 * dir (the test's temp folder) and perfev (the binary) are set by the
 * including test. */
#ifndef PERFEV_TESTS_REPORT_CMP_H
#define PERFEV_TESTS_REPORT_CMP_H

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];
static char perfev[4096];

/* Cuts the "#\n# (tip)\n#\n" block perf ends with. */
static void cut_tip(char *s, size_t *len)
{
	size_t n = *len;
	int lines = 0;

	while (n && lines < 4) {
		n--;
		if (s[n] == '\n' && ++lines == 4) {
			n++;
			break;
		}
	}
	if (lines == 4 && !strncmp(s + n, "#\n# (", 5)) {
		*len = n;
		s[n] = 0;
	}
}

/* perf's "[...]" branch reads an uninitialized flag and sometimes
 * prints "[...] (inlined)" (heap garbage): the intended text is kept. */
static void drop_garbage_inlined(char *s, size_t *len)
{
	static const char bad[] = "[...] (inlined)\n";
	char *p;

	while ((p = strstr(s, bad))) {
		memmove(p + 5, p + sizeof(bad) - 2, strlen(p + sizeof(bad) - 2) + 1);
		*len -= sizeof(bad) - 7;
	}
}

static void same_report_norm(const char *what, const char *file, const char *opts,
			     void (*norm)(char *s, size_t len))
{
	size_t la, lb;
	char pa[128], pb[128];
	int ra = t_sh("%s report -i %s %s > %s/a.txt 2> %s/a.err", perfev, file, opts, dir, dir);
	int rb = t_sh("%s report --stdio -i %s %s > %s/b.txt 2> %s/b.err", PERF, file, opts, dir, dir);

	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(ra == 0, "%s %s: perfev report exited %d", what, opts, ra);
	CHECK_MSG(rb == 0, "%s %s: perf report exited %d", what, opts, rb);
	CHECK_MSG(lb > 0, "%s %s: perf printed nothing", what, opts);
	if (!a || !b) {
		free(a);
		free(b);
		return;
	}
	cut_tip(a, &la);
	cut_tip(b, &lb);
	drop_garbage_inlined(b, &lb);
	if (norm) {
		norm(a, la);
		norm(b, lb);
	}
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start)) {
		T_FAIL("%s %s: output differs at line %zu:\n  perfev: %.160s\n  perf:   %.160s",
		       what, opts, line, a + start, b + start);
	} else {
		printf("%s %s: %zu bytes identical\n", what, opts, la);
	}
	free(a);
	free(b);
}

static inline void same_report(const char *what, const char *file, const char *opts)
{
	same_report_norm(what, file, opts, NULL);
}
#endif
