// SPDX-License-Identifier: GPL-2.0-only
/* A spec that fails keeps the program running and is reported once on
 * stderr however many threads and regions run, and the calls are still
 * counted:
 *  - a spec that does not parse (from PERFEV_EVENTS, and given to
 *    pev_region_init): pev_region_init gives -EINVAL, no events, ev 0 still
 *    gives the calls;
 *  - "task-clock,cycles" where the kernel refuses cycles (no hardware PMU,
 *    probed with a raw perf_event_open): task-clock counts in every thread,
 *    cycles gives the kernel's errno in every thread, one message.
 * Each case runs in a child (this binary, with a mode argument) whose
 * stderr is captured; the child prints its counts on stdout.  "Once":
 * the stderr of 8 threads x 3 regions x 5 calls is that of a single
 * begin/end in one thread, and names the spec. */
#include <pthread.h>
#include "region_util.h"

#define NT 8
#define CALLS 5
#define BAD "rt-no-such-event"

static const char *regions[3] = { "e_one", "e_two", "e_three" };

struct worker { pid_t tid; pthread_barrier_t *bar; };

static void *run_regions(void *arg)
{
	struct worker *w = arg;
	volatile unsigned long x = 0;

	w->tid = rt_gettid();
	pthread_barrier_wait(w->bar);
	for (int r = 0; r < 3; r++)
		for (int k = 0; k < CALLS; k++) {
			pev_region_begin(regions[r]);
			for (int j = 0; j < 100000; j++)
				x += (unsigned long)j;
			pev_region_end(regions[r]);
		}
	return NULL;
}

/* The child: NT threads run the regions; prints "nr N", then per thread
 * "tid T ev E calls C raw R error X" of e_one, then the totals
 * "total REGION calls C".  Modes "once" and "once-init": one begin/end in
 * one thread, nothing printed (the stderr to compare with). */
static int child(const char *mode)
{
	pthread_t th[NT];
	struct worker w[NT];
	pthread_barrier_t bar;

	if (!strncmp(mode, "once", 4)) {
		pev_region_init(strcmp(mode, "once-init") ? NULL : BAD);
		pev_region_begin("e_one");
		pev_region_end("e_one");
		return 0;
	}
	if (!strcmp(mode, "init"))
		printf("init %d\n", pev_region_init(BAD));
	else
		printf("init %d\n", pev_region_init(NULL));
	pthread_barrier_init(&bar, NULL, NT);
	for (int i = 0; i < NT; i++) {
		w[i].bar = &bar;
		pthread_create(&th[i], NULL, run_regions, &w[i]);
	}
	for (int i = 0; i < NT; i++)
		pthread_join(th[i], NULL);
	printf("nr %zu\n", pev_region_nr_events());
	for (int i = 0; i < NT; i++)
		for (size_t ev = 0; ev < (pev_region_nr_events() ? pev_region_nr_events() : 1); ev++) {
			struct pev_region_count c = { .size = sizeof(c) };
			int r = pev_region_get("e_one", w[i].tid, ev, &c);

			printf("tid %d ev %zu ret %d calls %" PRIu64 " raw %" PRIu64 " error %d name %s\n",
			       i, ev, r, c.calls, c.raw, c.error,
			       pev_region_event_name(ev) ? pev_region_event_name(ev) : "-");
		}
	for (int r = 0; r < 3; r++) {
		struct pev_region_count c = { .size = sizeof(c) };

		pev_region_get(regions[r], -1, 0, &c);
		printf("total %s calls %" PRIu64 "\n", regions[r], c.calls);
	}
	pthread_barrier_destroy(&bar);
	return 0;
}

/* The child's stdout has line, exactly, or a line that begins with it
 * when it ends with a space. */
static bool has_line(const char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool has_line(const char *out, const char *fmt, ...)
{
	char want[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	for (const char *l = out; l && *l;) {
		size_t len = strcspn(l, "\n");

		size_t wl = strlen(want);

		if ((len == wl || (len > wl && wl && want[wl - 1] == ' ')) && !memcmp(l, want, wl))
			return true;
		l += len + (l[len] ? 1 : 0);
	}
	return false;
}

#define CHECK_LINE(out, ...) CHECK_MSG(has_line((out), __VA_ARGS__), "no line \"%s\" in:\n%s", \
				       ({ static char _b[256]; snprintf(_b, sizeof(_b), __VA_ARGS__); _b; }), (out))

static void check_totals(const char *out)
{
	for (int r = 0; r < 3; r++)
		CHECK_LINE(out, "total %s calls %d", regions[r], NT * CALLS);
}

static void show(const char *what, const struct t_run *r)
{
	printf("-- %s: exit %d\nstdout:\n%sstderr:\n%s", what, r->exit_code, r->out, r->err);
}

/* The message is printed once: stderr of the run with NT threads x 3
 * regions x CALLS calls is the same as that of one begin/end in one
 * thread (mode once_mode, same environment), which names word. */
static void check_once(const struct t_run *r, const char *once_mode, const char *const env[],
		       const char *word)
{
	struct t_run one;

	rt_run_child(once_mode, env, &one);
	CHECK_EQ_INT(one.exit_code, 0);
	CHECK_MSG(rt_lines_with(one.err, word) >= 1, "one call: no message naming %s on stderr", word);
	CHECK_MSG(!strcmp(one.err, r->err), "the message is not printed once: stderr of one call:\n%s"
		  "differs from that of %d threads x 3 regions x %d calls:\n%s", one.err, NT, CALLS, r->err);
	t_run_free(&one);
}

int main(int argc, char **argv)
{
	struct t_run r;

	if (argc > 1)
		return child(argv[1]);

	/* Does not parse: from PERFEV_EVENTS. */
	const char *const env_bad[] = { "PERFEV_EVENTS=" BAD, "PERFEV_OUTPUT=none", NULL };
	rt_run_child("env", env_bad, &r);
	show("PERFEV_EVENTS=" BAD, &r);
	CHECK_EQ_INT(r.exit_code, 0);
	check_once(&r, "once", env_bad, BAD);
	CHECK_LINE(r.out, "init %d", -EINVAL);
	CHECK_LINE(r.out, "nr 0");
	for (int i = 0; i < NT; i++)
		CHECK_LINE(r.out, "tid %d ev 0 ret 0 calls %d raw 0 error ", i, CALLS);
	check_totals(r.out);
	t_run_free(&r);

	/* Does not parse: given to pev_region_init. */
	const char *const env_none[] = { "PERFEV_OUTPUT=none", NULL };
	rt_run_child("init", env_none, &r);
	show("pev_region_init(\"" BAD "\")", &r);
	CHECK_EQ_INT(r.exit_code, 0);
	check_once(&r, "once-init", env_none, BAD);
	CHECK_LINE(r.out, "init %d", -EINVAL);
	CHECK_LINE(r.out, "nr 0");
	check_totals(r.out);
	t_run_free(&r);

	/* Parses, does not open. */
	int err = rt_cycles_errno();
	if (!err) {
		printf("note: this machine opens cycles (a PMU): the refused-event case is not run\n");
		return t_done();
	}
	const char *const env_cy[] = { "PERFEV_EVENTS=task-clock,cycles", "PERFEV_OUTPUT=none", NULL };
	rt_run_child("env", env_cy, &r);
	show("PERFEV_EVENTS=task-clock,cycles", &r);
	CHECK_EQ_INT(r.exit_code, 0);
	check_once(&r, "once", env_cy, "cycles");
	CHECK_EQ_INT(rt_lines_with(r.err, "cycles"), 1);
	CHECK_LINE(r.out, "init 0");
	CHECK_LINE(r.out, "nr 2");
	for (int i = 0; i < NT; i++) {
		CHECK_LINE(r.out, "tid %d ev 1 ret 0 calls %d raw 0 error %d name ", i, CALLS, err);
		/* task-clock counted: raw > 0, no error */
		char pre[64], name[64] = "";
		unsigned long long raw = 0;
		int e = -1;
		snprintf(pre, sizeof(pre), "tid %d ev 0 ret 0 calls %d raw ", i, CALLS);
		const char *l = strstr(r.out, pre);
		CHECK_MSG(l && sscanf(l + strlen(pre), "%llu error %d name %63s", &raw, &e, name) == 3 &&
			  raw > 0 && e == 0 && !strcmp(name, "task-clock"),
			  "thread %d: task-clock did not count (raw %llu error %d name %s)", i, raw, e, name);
	}
	check_totals(r.out);
	t_run_free(&r);
	return t_done();
}
