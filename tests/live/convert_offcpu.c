// SPDX-License-Identifier: GPL-2.0-only
/* Off-CPU time in every perfev convert format: a perfev record --off-cpu
 * of the workload that sleeps 200 ms five times in oc_sleep_200ms; the
 * samples and nanoseconds of offcpu-time on that function's stack, as
 * perf script reads the file (the independent side), must be what each
 * format holds, read as its consumer reads it (tests/helpers/sum_views.py
 * for the JSON formats and folded; go tool pprof -raw for pprof), and
 * about 1 s.  The default event choice of an --off-cpu file leaves out the
 * sched:sched_switch samples and counts the period. */
#include <unistd.h>

#include "offcpu_util.h"

static char dir[64];

static void same_sum(const char *fmt, const char *opts, const char *out,
		     const struct oc_sum *want)
{
	char cmd[1024], got[128] = "", exp[64];

	CHECK_EQ_INT(t_sh("%s convert -q -i %s/oc.data --to %s %s -o %s/%s",
			  t_perfev(), dir, fmt, opts, dir, out), 0);
	snprintf(cmd, sizeof(cmd), "python3 tests/helpers/sum_views.py %s %s/%s oc_sleep_200ms",
		 fmt, dir, out);
	FILE *p = popen(cmd, "r");

	if (p) {
		if (!fgets(got, sizeof(got), p))
			got[0] = 0;
		pclose(p);
	}
	got[strcspn(got, "\n")] = 0;
	snprintf(exp, sizeof(exp), "%u %llu", want->samples, (unsigned long long)want->ns);
	if (!strcmp(fmt, "folded"))	/* one line: the five samples merged */
		snprintf(exp, sizeof(exp), "1 %llu", (unsigned long long)want->ns);
	CHECK_MSG(!strcmp(got, exp), "--to %s %s: '%s' on oc_sleep_200ms, perf script says '%s'",
		  fmt, opts, got, exp);
}

/* The periods of perf script's cpu-clock samples whose innermost frame is
 * fn: an on-CPU sample in fn's own code (no kernel frame after it) has the
 * off-CPU samples' stack, so a view of periods adds it to theirs. */
static unsigned long long oncpu_in(const char *text, const char *fn)
{
	unsigned long long sum = 0;

	for (const char *p = text; p && *p; ) {
		const char *eol = strchr(p, '\n');
		long tid;
		unsigned long long period;
		char ev[64], sym[128];

		if (*p != '\t' && eol && sscanf(p, "%ld %llu %63s", &tid, &period, ev) == 3 &&
		    !strcmp(ev, "cpu-clock:") && sscanf(eol + 1, " %*x %127s", sym) == 1 &&
		    !strcmp(sym, fn))
			sum += period;
		p = eol ? eol + 1 : NULL;
	}
	return sum;
}

int main(void)
{
	size_t len;

	if (access(OC_PERF, X_OK))
		T_SKIP("%s is not installed", OC_PERF);
	if (t_sh("command -v python3 > /dev/null"))
		T_SKIP("python3 is not installed (it reads the outputs)");
	if (access("/sys/kernel/tracing/events/sched/sched_switch/id", R_OK) &&
	    access("/sys/kernel/debug/tracing/events/sched/sched_switch/id", R_OK))
		T_SKIP("no sched:sched_switch tracepoint in tracefs");
	snprintf(dir, sizeof(dir), "/tmp/perfev-ocview-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	CHECK_EQ_INT(t_sh("%s record -q --off-cpu -g -o %s/oc.data -- %s > %s/work.out 2>&1",
			  t_perfev(), dir, oc_work(), dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s/oc.data %s > %s/perf.txt 2>/dev/null", OC_PERF, dir,
			  OC_FIELDS, dir), 0);
	char path[256];

	snprintf(path, sizeof(path), "%s/perf.txt", dir);
	char *text = t_slurp(path, &len);
	struct oc_sum want = { .fn = "oc_sleep_200ms" };

	unsigned long long oncpu = 0;

	if (text) {
		oc_parse(text, &want, 1);
		oncpu = oncpu_in(text, want.fn);
	}
	free(text);
	CHECK_MSG(want.samples == 5, "perf script: %u offcpu-time samples on oc_sleep_200ms, want 5",
		  want.samples);
	CHECK_MSG(oc_near(want.ns, 1000000000ull, 10.0),
		  "perf script: %llu ns off CPU on oc_sleep_200ms, want about 1 s",
		  (unsigned long long)want.ns);

	/* the default on an --off-cpu file: the period, and no sched_switch
	 * sample (there are some, one per switch, on the same user stacks
	 * with period 1): the stacks ending in oc_sleep_200ms hold exactly
	 * the off-CPU nanoseconds, plus the period of any on-CPU sample in
	 * oc_sleep_200ms's own code (seen once: one 250 us cpu-clock sample;
	 * one in the sleep has kernel frames after it) */
	CHECK_EQ_INT(t_sh("%s convert -q -i %s/oc.data --to folded -o %s/d.folded", t_perfev(),
			  dir, dir), 0);
	CHECK_MSG(!t_sh("awk '/;oc_sleep_200ms [0-9]+$/ {s += $NF} END {print s}' %s/d.folded | grep -qx %llu",
			dir, (unsigned long long)want.ns + oncpu),
		  "default folded: the stacks ending in oc_sleep_200ms are not its %llu ns off CPU + %llu on CPU",
		  (unsigned long long)want.ns, oncpu);
	CHECK_MSG(!t_sh("%s convert -q -i %s/oc.data --to folded --event sched:sched_switch | grep -q .",
			t_perfev(), dir), "the file has no sched:sched_switch sample to leave out");
	same_sum("folded", "--event offcpu-time", "e.folded", &want);
	same_sum("json", "--event offcpu-time", "o.json", &want);
	same_sum("speedscope", "--event offcpu-time --value period", "o.speedscope", &want);
	same_sum("firefox", "--event offcpu-time --value period", "o.json.gz", &want);
	same_sum("chrome", "--event offcpu-time --value period", "o.chrome", &want);
	/* pprof: its offcpu-time value column, as go tool pprof shows it */
	if (!t_sh("command -v go > /dev/null")) {
		char exp[64];

		CHECK_EQ_INT(t_sh("%s convert -q -i %s/oc.data --to pprof --event offcpu-time -o %s/o.pb.gz",
				  t_perfev(), dir, dir), 0);
		CHECK_EQ_INT(t_sh("cd %s && HOME=%s GOCACHE=%s/gocache GOPROXY=off GOTOOLCHAIN=local "
				  "go tool pprof -raw o.pb.gz > o.raw 2>/dev/null", dir, dir, dir), 0);
		FILE *p;

		snprintf(path, sizeof(path), "python3 tests/helpers/sum_views.py pprof-raw %s/o.raw oc_sleep_200ms", dir);
		exp[0] = 0;
		if ((p = popen(path, "r"))) {
			if (!fgets(exp, sizeof(exp), p))
				exp[0] = 0;
			pclose(p);
		}
		exp[strcspn(exp, "\n")] = 0;
		char w[64];

		/* one pprof sample: equal stacks and labels are merged */
		snprintf(w, sizeof(w), "1 %llu", (unsigned long long)want.ns);
		CHECK_MSG(!strcmp(exp, w), "pprof: '%s' on oc_sleep_200ms, perf script says '%s'", exp, w);
	} else {
		printf("go is not installed: the pprof part is not run\n");
	}
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	else
		printf("files kept in %s\n", dir);
	return t_done();
}
