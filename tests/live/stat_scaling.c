// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat scales multiplexed counts as perf 6.1 does.  Software events
 * never multiplex, so strace rewrites what read(2) returns on the perf fds
 * (-P anon_inode:[perf_event], poke_exit) to {value, enabled, running}
 * triples chosen here, and the test checks the lines against numbers
 * computed by hand, then against perf's own lines under the same rewrite:
 *   task-clock 1234567 ns, enabled 3000000, running 1000000:
 *     1234567 * 3 = 3703701 ns = "3.70 msec", human "(33.33%)",
 *     CSV/JSON pcnt 100 * 1000000 / 3000000 = 33 in integers -> "33.00";
 *   7 getppid calls, enabled 3, running 2: 7 * 3 / 2 = 10.5 -> "10",
 *     "(66.67%)"; --no-scale: "7";
 *   5, 3, 2: 7.5 -> "7": perf truncates the scaled value to a whole
 *     number (perf_counts_values__scale), and -A/--per-socket sum those
 *     (2 CPUs: "14", not 15);
 *   running 0: "<not counted>", "(0.00%)". */
#include "stat_util.h"

#define STRACE "/usr/bin/strace"
#define PERF "/usr/bin/perf"

/* prog stat ARGS... with every read of a perf fd returning (val, ena, run)
 * in its first 24 bytes; stderr (where stat prints) is returned. */
static char *stat_poked(const char *prog, uint64_t val, uint64_t ena, uint64_t run,
			const char *a1, const char *a2, const char *ev)
{
	char inject[128], hex[49];
	uint64_t w[3] = { val, ena, run };
	const unsigned char *b = (const unsigned char *)w;
	struct t_run r;

	for (int i = 0; i < 24; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);	/* little-endian x86 */
	snprintf(inject, sizeof(inject), "inject=read:poke_exit=@arg2=%s", hex);
	char *argv[20];
	int n = 0;

	argv[n++] = STRACE;
	argv[n++] = "-f";
	argv[n++] = "-qq";
	argv[n++] = "-o";
	argv[n++] = "/dev/null";
	argv[n++] = "-P";
	argv[n++] = "anon_inode:[perf_event]";
	argv[n++] = "-e";
	argv[n++] = "trace=read";
	argv[n++] = "-e";
	argv[n++] = inject;
	argv[n++] = (char *)prog;
	argv[n++] = "stat";
	if (a1)
		argv[n++] = (char *)a1;
	if (a2)
		argv[n++] = (char *)a2;
	argv[n++] = "-e";
	argv[n++] = (char *)ev;
	argv[n++] = "true";
	argv[n] = NULL;
	if (t_run_argv(argv, NULL, &r) < 0)
		T_FATAL("cannot run strace");
	CHECK_MSG(r.exit_code == 0, "%s stat under strace: exit %d\n%s", prog, r.exit_code, r.err);
	free(r.out);
	return r.err;
}

/* The line of text naming ev (the first), with the derived metric's
 * number (it holds the elapsed time) replaced by 'N'. */
static char *line_of(const char *text, const char *ev)
{
	static char buf[4][512];
	static int k;
	char *out = buf[k++ & 3];
	const char *p = strstr(text, ev);

	out[0] = '\0';
	if (!p)
		return out;
	while (p > text && p[-1] != '\n')
		p--;
	size_t len = strcspn(p, "\n");
	snprintf(out, 512, "%.*s", (int)len, p);
	char *m = strstr(out, "# ");
	if (!m)
		m = strstr(out, "\"metric-value\" : ");
	if (m) {
		m += m[0] == '#' ? 2 : 17;
		/* the number and the padding before it (its width depends
		 * on the value, which depends on the run's wall time) */
		char *s0 = m;
		while (*m == ' ')
			m++;
		char *e = m;
		while (*e == '.' || (*e >= '0' && *e <= '9'))
			e++;
		if (e > m)
			memmove(s0 + 1, e, strlen(e) + 1), *s0 = 'N';
	}
	if (strchr(out, ',') && !strchr(out, '{')) {
		/* CSV: the metric is the next-to-last field */
		char *last = strrchr(out, ',');
		char *prev = last;
		while (prev > out && prev[-1] != ',')
			prev--;
		if (prev < last && prev > out)
			memmove(prev + 1, last, strlen(last) + 1), *prev = 'N';
	}
	return out;
}

static void check(const char *a1, const char *a2, const char *ev, uint64_t val, uint64_t ena,
		  uint64_t run, const char *want)
{
	char *ours = stat_poked(t_perfev(), val, ena, run, a1, a2, ev);
	char *l = line_of(ours, ev);

	CHECK_MSG(strstr(l, want) != NULL, "stat %s %s -e %s with (%llu, %llu, %llu): "
		  "'%s' not in\n%s", a1 ? a1 : "", a2 ? a2 : "", ev, (unsigned long long)val,
		  (unsigned long long)ena, (unsigned long long)run, want, ours);
	if (access(PERF, X_OK) == 0) {
		char *theirs = stat_poked(PERF, val, ena, run, a1, a2, ev);
		char *pl = line_of(theirs, ev);

		CHECK_MSG(!strcmp(l, pl), "stat %s -e %s: perf prints\n%s\nperfev prints\n%s",
			  a1 ? a1 : "", ev, pl, l);
		free(theirs);
	}
	free(ours);
}

int main(void)
{
	if (access(STRACE, X_OK))
		T_SKIP("%s is not installed", STRACE);
	t_need_getppid_tracepoint();
	t_no_leak_check_under_ptrace();
	const char *tp = "syscalls:sys_enter_getppid";

	/* task-clock: 3703701 ns scaled */
	check(NULL, NULL, "task-clock", 1234567, 3000000, 1000000,
	      "              3.70 msec task-clock");
	check(NULL, NULL, "task-clock", 1234567, 3000000, 1000000, "(33.33%)");
	check("-x,", NULL, "task-clock", 1234567, 3000000, 1000000,
	      "3.70,msec,task-clock,1000000,33.00,");
	check("-j", NULL, "task-clock", 1234567, 3000000, 1000000,
	      "{\"counter-value\" : \"3.703701\", \"unit\" : \"msec\", \"event\" : "
	      "\"task-clock\", \"event-runtime\" : 1000000, \"pcnt-running\" : 33.00");
	/* --no-scale: the raw count, the percentage still shown */
	check("--no-scale", NULL, "task-clock", 1234567, 3000000, 1000000,
	      "              1.23 msec task-clock");
	/* a plain count: 10.5 prints as 10 */
	check(NULL, NULL, tp, 7, 3, 2,
	      "                10      syscalls:sys_enter_getppid");
	check(NULL, NULL, tp, 7, 3, 2, "(66.67%)");
	check("-x,", NULL, tp, 7, 3, 2, "10,,syscalls:sys_enter_getppid,2,66.00,");
	check("--no-scale", NULL, tp, 7, 3, 2,
	      "                 7      syscalls:sys_enter_getppid");
	/* truncated, not rounded: 7.5 -> 7, per CPU and summed per socket */
	check("-x,", NULL, tp, 5, 3, 2, "7,,syscalls:sys_enter_getppid,2,66.00,");
	if (sysconf(_SC_NPROCESSORS_ONLN) == 2) {
		check("-a", "-A", tp, 5, 3, 2, "CPU0                        7      syscalls");
		check("-a", "--per-socket", tp, 5, 3, 2, "S0        2                 14      syscalls");
	}
	/* 2^40 * 5 / 4: above 2^53 / 4 no precision is lost in the product */
	check("-x,", NULL, tp, 1ull << 40, 5, 4,
	      "1374389534720,,syscalls:sys_enter_getppid,4,80.00,");
	/* never running: not counted, whatever the value */
	check(NULL, NULL, tp, 5, 1000, 0,
	      "     <not counted>      syscalls:sys_enter_getppid");
	check("-x,", NULL, tp, 5, 1000, 0, "<not counted>,,syscalls:sys_enter_getppid,0,0.00,");
	/* running == enabled: as read */
	check("-x,", NULL, tp, 12345, 777, 777, "12345,,syscalls:sys_enter_getppid,777,100.00,");
	return t_done();
}
