// SPDX-License-Identifier: GPL-2.0-only
/* perfev list -d/--desc, --no-desc and --details, which perf 6.1 takes
 * (perfev refused them: "unknown option '-d'").
 * - -d/--desc is perf's default and --no-desc drops only its JSON-table
 *   descriptions: perf list and perf list -d print the same here (checked
 *   when perf is installed), and perfev list -d / --no-desc print what
 *   perfev list prints;
 * - --details prints each event's encoding under it: the values are the
 *   kernel's, from <linux/perf_event.h> (PERF_TYPE_SOFTWARE and
 *   PERF_COUNT_SW_*, PERF_TYPE_HW_CACHE with the L1D/READ/MISS ids). */
#include <linux/perf_event.h>
#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char *out_of(const char *opt, const char *filter)
{
	struct t_run r;

	if (opt)
		CHECK_OK(T_RUN_PERFEV(&r, "list", (char *)opt, (char *)filter));
	else
		CHECK_OK(T_RUN_PERFEV(&r, "list", (char *)filter));
	CHECK_MSG(r.exit_code == 0, "list %s %s: exit %d: %s", opt ? opt : "", filter, r.exit_code,
		  r.err);
	free(r.err);
	return r.out;
}

/* The line after the one listing name, in text. */
static void want_encoding(const char *text, const char *name, unsigned type, unsigned long long config)
{
	char head[128], want[128];

	snprintf(head, sizeof(head), "\n  %s ", name);
	snprintf(want, sizeof(want), "       type=%u,config=%#llx\n", type, config);
	const char *p = strstr(text, head);

	if (!p) {
		T_FAIL("--details: no '%s' entry", name);
		return;
	}
	p = strchr(p + 1, '\n');	/* end of the entry line */
	const char *q = p ? strchr(p + 1, '\n') : NULL;	/* the description */
	CHECK_MSG(p && q && !strncmp(q + 1, want, strlen(want)),
		  "--details: %s is not followed by '%.*s' but:\n%.200s", name,
		  (int)strlen(want) - 1, want, p ? p : "");
}

int main(void)
{
	struct t_run r;

	if (access(PERF, X_OK) == 0) {
		CHECK_OK(t_run_argv((char *const[]){ PERF, "list", NULL }, NULL, &r));
		char *plain = r.out;
		free(r.err);
		CHECK_OK(t_run_argv((char *const[]){ PERF, "list", "-d", NULL }, NULL, &r));
		CHECK_MSG(r.exit_code == 0 && !strcmp(plain, r.out),
			  "perf list -d differs from perf list here: the -d check below is moot");
		t_run_free(&r);
		free(plain);
	}
	char *plain = out_of(NULL, "sw");
	const char *same[] = { "-d", "--desc", "--no-desc" };
	for (int i = 0; i < 3; i++) {
		char *o = out_of(same[i], "sw");
		CHECK_MSG(!strcmp(o, plain), "list %s sw differs from list sw:\n%s", same[i], o);
		free(o);
	}
	CHECK(strstr(plain, "  cpu-clock ") != NULL);

	char *d = out_of("--details", "sw");
	size_t n = strlen(d);
	char *t = malloc(n + 2);
	t[0] = '\n';
	memcpy(t + 1, d, n + 1);
	want_encoding(t, "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	want_encoding(t, "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	want_encoding(t, "page-faults OR faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	want_encoding(t, "context-switches OR cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	free(t);
	free(d);

	d = out_of("--details", "cache");
	n = strlen(d);
	t = malloc(n + 2);
	t[0] = '\n';
	memcpy(t + 1, d, n + 1);
	want_encoding(t, "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
		      PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
		      (PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
	free(t);
	free(d);
	free(plain);
	return t_done();
}
