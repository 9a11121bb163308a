// SPDX-License-Identifier: GPL-2.0-only
/* perfev convert --to firefox, speedscope and chrome against perf: files
 * recorded at test time by perf and by perfev (-g and --call-graph dwarf)
 * from programs we did not write (python3 running three threads, gcc's
 * cc1, a C++ program built with g++ -O2 -g).  tests/helpers/check_views.py
 * checks each file's structure (the Firefox Profiler's processed format:
 * every index in range, the column arrays as long as their table, stacks
 * before their children, the version fields; Chrome's trace events:
 * every sf and parent defined) and, per thread, that the number of
 * samples, the total weight (samples, or periods with --value period),
 * the stacks (names root first) and the thread's name equal what `perf
 * script` shows for that thread; the speedscope files validate against
 * the schema the speedscope npm package ships (tests/js, when installed).
 * A file recorded with --switch-events gives Chrome on-CPU slices equal to
 * perf script's SWITCH IN/OUT pairs, one with sched:sched_switch samples
 * those of the tracepoint's prev_pid/next_pid; Chrome's stack slices
 * nest, inside the on-CPU slices, over each sample's stack.  Then gzip, and a file cut short. */
#include "report_cmp.h"

static char check_py[] = "tests/helpers/check_views.py";
static bool have_ajv;

static const char threads_py[] =
	"import json, threading\n"
	"def work():\n"
	"    s = 0\n"
	"    for i in range(25000):\n"
	"        s += len(json.dumps({'a': i, 'b': [i, str(i) * 3]}))\n"
	"ts = [threading.Thread(target=work) for _ in range(2)]\n"
	"[t.start() for t in ts]\nwork()\n[t.join() for t in ts]\n";

static void check_format(const char *file, const char *fmt, const char *opts, bool period,
			 const char *switches)
{
	char out[128];

	snprintf(out, sizeof(out), "%s/out.%s", dir, fmt);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to %s %s -o %s", perfev, file, fmt, opts, out), 0);
	if (t_sh("python3 %s %s %s %s/script.txt %s%s%s > %s/check.txt 2>&1", check_py, fmt, out, dir,
		 period ? "--period" : "", switches ? " --switches " : "", switches ? switches : "",
		 dir)) {
		char cp[192], *why;
		size_t n;

		/* the reason in the failure line itself: the runner keeps only
		 * the tail of a test's output (report_cmp_end keeps the files) */
		snprintf(cp, sizeof(cp), "%s/check.txt", dir);
		why = t_slurp(cp, &n);
		T_FAIL("%s --to %s %s: check_views.py: %.600s", file, fmt, opts,
		       why && strstr(why, "FAIL: ") ? strstr(why, "FAIL: ") : "(no reason printed)");
		free(why);
	} else
		printf("%s --to %s %s: as perf script\n", file, fmt, opts);
	if (!strcmp(fmt, "speedscope") && have_ajv &&
	    t_sh("node tests/js/validate_speedscope.js %s > %s/ajv.txt 2>&1", out, dir)) {
		t_sh("head -20 %s/ajv.txt", dir);
		T_FAIL("%s --to speedscope: not valid against speedscope's schema (above)", file);
	}
}

/* every format; script_opts and opts: what perf script and perfev get */
static void all_formats_opts(const char *file, const char *script_opts, const char *opts)
{
	CHECK_EQ_INT(t_sh("%s script -i %s %s -F comm,pid,tid,time,period,event,ip,sym,dso --ns > %s/script.txt 2>/dev/null",
			  PERF, file, script_opts, dir), 0);
	check_format(file, "firefox", opts, false, NULL);
	check_format(file, "speedscope", opts, false, NULL);
	check_format(file, "chrome", opts, false, NULL);
}

/* Chrome's on-CPU slices of file against perf script's switch records
 * (written to sw), which must hold needle */
static void check_switches(const char *file, const char *sw, const char *needle,
			   const char *script_opts, const char *opts)
{
	CHECK_EQ_INT(t_sh("%s script -i %s --show-switch-events -F comm,pid,tid,time --ns > %s 2>/dev/null",
			  PERF, file, sw), 0);
	CHECK_MSG(!t_sh("grep -q '%s' %s", needle, sw), "%s: no %s (the case proves nothing)", file, needle);
	CHECK_EQ_INT(t_sh("%s script -i %s %s -F comm,pid,tid,time,period,event,ip,sym,dso --ns > %s/script.txt 2>/dev/null",
			  PERF, file, script_opts, dir), 0);
	check_format(file, "chrome", opts, false, sw);
}

static void all_formats(const char *file)
{
	all_formats_opts(file, "", "");
}

int main(void)
{
	char py[128], c[128], cxx[128], bin[128], f[128], sw[160];

	report_cmp_start("/tmp/perfev-views-XXXXXX", true);
	if (access(check_py, R_OK))
		T_FATAL("%s is missing (run from the source tree)", check_py);
	if (!have("python3"))
		T_SKIP("python3 is not installed (it runs the checker)");
	have_ajv = have("node") && !access("tests/js/node_modules/ajv/package.json", R_OK);
	if (!have_ajv)
		printf("note: node or tests/js/node_modules missing (scripts/deps.sh): no schema validation\n");
	report_cmp_write(py, sizeof(py), "w.py", threads_py);
	report_cmp_write(c, sizeof(c), "t.c", report_c_src);
	report_cmp_write(cxx, sizeof(cxx), "t.cc", report_cxx_src);

	/* python3, three threads, recorded by perf with -g: every format,
	 * and the periods as weights */
	snprintf(f, sizeof(f), "%s/py.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	all_formats(f);
	check_format(f, "firefox", "--value period", true, NULL);
	check_format(f, "speedscope", "--value period", true, NULL);
	check_format(f, "chrome", "--value period", true, NULL);
	/* a filter keeps only what perf script --tid shows: one thread */
	{
		char tf[160], *tid;
		size_t tl;

		snprintf(tf, sizeof(tf), "%s/tid.txt", dir);
		CHECK_EQ_INT(t_sh("%s script -i %s -F tid 2>/dev/null | tail -1 | tr -d ' \\n' > %s", PERF, f, tf), 0);
		tid = t_slurp(tf, &tl);
		if (tid && tl) {
			char opts[64];

			snprintf(opts, sizeof(opts), "--tid %s", tid);
			CHECK_EQ_INT(t_sh("%s script -i %s %s -F comm,pid,tid,time,period,event,ip,sym,dso --ns > %s/script.txt 2>/dev/null",
					  PERF, f, opts, dir), 0);
			check_format(f, "firefox", opts, false, NULL);
			check_format(f, "speedscope", opts, false, NULL);
			check_format(f, "chrome", opts, false, NULL);
		} else
			T_FAIL("perf script printed no tid");
		free(tid);
	}

	/* the same recorded with DWARF unwinding, by perf and by perfev */
	snprintf(f, sizeof(f), "%s/pyd.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 400000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	all_formats(f);
	snprintf(f, sizeof(f), "%s/pyd-perfev.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 400000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  perfev, f, py), 0);
	all_formats(f);
	snprintf(f, sizeof(f), "%s/py-perfev.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  perfev, f, py), 0);
	all_formats(f);

	/* gcc's cc1 */
	if (have("gcc")) {
		snprintf(f, sizeof(f), "%s/cc1.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- gcc -O2 -c %s -o %s/t.o > /dev/null 2>&1",
				  PERF, f, c, dir), 0);
		all_formats(f);
	}
	/* C++ built with -O2 -g: inline frames, by perf with -g and by
	 * perfev with DWARF */
	snprintf(bin, sizeof(bin), "%s/cxx", dir);
	if (have("g++") && !t_sh("g++ -O2 -g -o %s %s", bin, cxx)) {
		snprintf(f, sizeof(f), "%s/cxx.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- %s 60 > /dev/null 2>&1",
				  PERF, f, bin), 0);
		all_formats(f);
		/* (perf script names some inline frames of a file perfev
		 * recorded after their caller, "main" for atol: compared
		 * without inline frames) */
		snprintf(f, sizeof(f), "%s/cxxd.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 200000 -o %s -- %s 60 > /dev/null 2>&1",
				  perfev, f, bin), 0);
		all_formats_opts(f, "--no-inline", "--no-inline");
	}

	/* context switches: Chrome's on-CPU slices are perf script's
	 * SWITCH IN then OUT pairs, per thread, to the nanosecond */
	snprintf(f, sizeof(f), "%s/sw.data", dir);
	snprintf(sw, sizeof(sw), "%s/switches.txt", dir);
	CHECK_EQ_INT(t_sh("%s record -q --switch-events -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	check_switches(f, sw, "PERF_RECORD_SWITCH OUT", "", "");

	/* the same recorded by perfev */
	snprintf(f, sizeof(f), "%s/swp.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --switch-events -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  perfev, f, py), 0);
	check_switches(f, sw, "PERF_RECORD_SWITCH OUT", "", "");
	/* system-wide: SWITCH_CPU_WIDE records, threads that ran before the
	 * first sample (the times start at the first switch then), every
	 * format; the workload's threads only: python3 run through a link
	 * named pyviews (other programs on a busy machine, python3s of other
	 * tests included, may change their binaries between perf script and
	 * perfev) */
	snprintf(f, sizeof(f), "%s/sys.data", dir);
	CHECK_EQ_INT(t_sh("ln -s /usr/bin/python3 %s/pyviews && %s record -q -a --switch-events -g -e cpu-clock -c 1000000 -o %s -- %s/pyviews %s > /dev/null 2>&1",
			  dir, PERF, f, dir, py), 0);
	all_formats_opts(f, "--comms pyviews", "--comm pyviews");
	check_switches(f, sw, "PERF_RECORD_SWITCH_CPU_WIDE OUT", "--comms pyviews", "--comm pyviews");

	/* without switch records, the sched:sched_switch samples give the
	 * slices (prev_pid out, next_pid in) */
	if (t_sh("%s record -q -e sched:sched_switch -o /dev/null -- true > /dev/null 2>&1", PERF)) {
		printf("note: perf cannot record sched:sched_switch here: the tracepoint case is left out\n");
	} else {
		snprintf(f, sizeof(f), "%s/tp.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_switch -e cpu-clock -c 100000 -g -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
				  PERF, f, py), 0);
		CHECK_EQ_INT(t_sh("%s script -i %s -F comm,pid,tid,time,event,trace --ns > %s 2>/dev/null",
				  PERF, f, sw), 0);
		CHECK_MSG(!t_sh("grep -q 'sched:sched_switch:.*next_pid' %s", sw),
			  "perf recorded no sched_switch (the case proves nothing)");
		CHECK_EQ_INT(t_sh("%s script -i %s -F comm,pid,tid,time,period,event,ip,sym,dso --ns > %s/script.txt 2>/dev/null",
				  PERF, f, dir), 0);
		check_format(f, "chrome", "", false, sw);
		snprintf(f, sizeof(f), "%s/sw.data", dir);
	}

	/* the firefox file is gzip (what the profiler and samply open) */
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to firefox -o %s/p.json.gz && gzip -t %s/p.json.gz",
			  perfev, f, dir, dir), 0);
	/* a file cut short: the samples before the cut, still valid JSON,
	 * and exit 3 (README "Exit codes") */
	CHECK_EQ_INT(t_sh("head -c 3000 %s > %s/cut.data", f, dir), 0);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s/cut.data --to chrome -o %s/cut.json > /dev/null 2>&1",
			  perfev, dir, dir), 3);
	CHECK_EQ_INT(t_sh("python3 -c 'import json,sys; json.load(open(sys.argv[1]))' %s/cut.json", dir), 0);
	/* a full disk: exit 1 and the cause, no summary claiming a write */
	for (int i = 0; i < 3; i++) {
		static const char *const fmts[] = { "firefox", "speedscope", "chrome" };

		CHECK_EQ_INT(t_sh("%s convert -i %s --to %s -o /dev/full > /dev/null 2> %s/err.txt",
				  perfev, f, fmts[i], dir), 1);
		CHECK_MSG(!t_sh("grep -q \"^perfev: error: cannot write '/dev/full': No space left on device$\" %s/err.txt && ! grep -q wrote %s/err.txt",
				dir, dir), "--to %s -o /dev/full: not the one error line", fmts[i]);
	}
	/* a failed write removes a half-written regular file, never a
	 * device: a full-disk node of the test's own (as root), for every
	 * format (json's writer streams and cleans up on its own path) */
	if (geteuid() == 0 && !t_sh("mknod %s/full c 1 7", dir)) {
		static const char *const all[] = { "folded", "html", "pprof", "json", "firefox",
						   "speedscope", "chrome" };

		for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
			CHECK_EQ_INT(t_sh("%s convert -q -i %s --to %s -o %s/full > /dev/null 2>&1",
					  perfev, f, all[i], dir), 1);
			CHECK_MSG(!t_sh("test -c %s/full", dir),
				  "--to %s -o DEVICE: the device node was removed", all[i]);
			t_sh("test -c %s/full || (rm -f %s/full; mknod %s/full c 1 7)", dir, dir, dir);
		}
		/* inject too: its output, a device, stays */
		CHECK_MSG(t_sh("%s inject -i %s -o %s/full > /dev/null 2>&1", perfev, f, dir) != 0,
			  "inject -o a full device succeeded");
		CHECK_MSG(!t_sh("test -c %s/full", dir), "inject -o DEVICE: the device node was removed");
	}
	return report_cmp_end();
}
