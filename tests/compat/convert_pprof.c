// SPDX-License-Identifier: GPL-2.0-only
/* perfev convert --to pprof read by the real consumer, Debian's Go
 * (`go tool pprof`), on files perf records at test time (python3 with -g
 * and with --call-graph dwarf, gcc's cc1, a C++ program built with
 * g++ -O2 -g) and files perfev records: pprof's flat and cumulative
 * percentages (-top, no node dropped) against `perfev report --sort sym` (--no-children
 * and --children), to 0.1 point, compared by an independent parser
 * (tests/helpers/pprof_cmp.py); -raw shows the inline frames of the C++
 * program as several lines of one location, the mappings with their
 * build ids, the labels and the cpu/nanoseconds sample type.
 *
 * Go runs with HOME, GOCACHE, GOFLAGS, GOPROXY=off and GOTOOLCHAIN=local
 * pointing into the temp dir: nothing touches the network; pprof runs
 * with -symbolize=none (names exactly as written, no lookup).
 *
 * Known difference, not asserted: on DWARF files the cumulative share of
 * a function whose addresses DWARF names only by inline frames
 * (__GI___libc_malloc in malloc) is counted by perf report under the
 * inline name or merged with the function's entry, in some files and not
 * others (an inlined symbol compares by name, a real one by address: not
 * one order); flat is compared there, cumulative on frame-pointer files. */
#include "report_cmp.h"

static char cmp[4096], genv[1024];

static void pprof_cmp(const char *file, bool cum)
{
	char top[160], rep[160];

	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to pprof -o %s/p.pb.gz", perfev, file, dir), 0);
	CHECK_MSG(!t_sh("gzip -t %s/p.pb.gz", dir), "%s: the output is not gzip", file);
	/* flat: pprof without inline lines (the function holding them, as
	 * perf's self entry) against report --no-children */
	snprintf(top, sizeof(top), "%s/flat.top", dir);
	snprintf(rep, sizeof(rep), "%s/flat.rep", dir);
	CHECK_EQ_INT(t_sh("%s go tool pprof -symbolize=none -top -noinlines -nodecount=1000000 -nodefraction=0 -edgefraction=0 %s/p.pb.gz > %s 2>&1",
			  genv, dir, top), 0);
	CHECK_EQ_INT(t_sh("%s report -i %s --stdio --no-children --sort sym -g none > %s 2>/dev/null",
			  perfev, file, rep), 0);
	CHECK_MSG(!t_sh("python3 %s flat %s %s", cmp, top, rep), "%s: flat%% differ", file);
	if (!cum)
		return;
	snprintf(top, sizeof(top), "%s/cum.top", dir);
	snprintf(rep, sizeof(rep), "%s/cum.rep", dir);
	CHECK_EQ_INT(t_sh("%s go tool pprof -symbolize=none -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 %s/p.pb.gz > %s 2>&1",
			  genv, dir, top), 0);
	CHECK_EQ_INT(t_sh("%s report -i %s --stdio --children --sort sym -g none > %s 2>/dev/null",
			  perfev, file, rep), 0);
	CHECK_MSG(!t_sh("python3 %s cum %s %s", cmp, top, rep), "%s: cum%% differ", file);
}

/* go tool pprof -raw's text holds needle */
static void raw_has(const char *file, const char *opts, const char *needle)
{
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to pprof %s -o %s/r.pb.gz", perfev, file, opts, dir), 0);
	if (t_sh("%s go tool pprof -symbolize=none -raw %s/r.pb.gz > %s/raw.txt 2>&1 && grep -qE -- '%s' %s/raw.txt",
		 genv, dir, dir, needle, dir)) {
		T_FAIL("%s: go tool pprof -raw shows no '%s'; it begins:", file, needle);
		t_sh("head -n 16 %s/raw.txt", dir);
	}
}

int main(void)
{
	char py[128], c[128], cxx[128], bin[128], f[128];

	report_cmp_start("/tmp/perfev-pprof-XXXXXX", true);
	/* the independent probe: Go's own binary, not our output */
	if (t_sh("command -v go > /dev/null 2>&1 && go version > /dev/null 2>&1"))
		T_SKIP("go is not installed (Debian's golang-go: scripts/deps.sh)");
	if (!have("python3"))
		T_SKIP("python3 is not installed (it runs the comparison)");
	snprintf(cmp, sizeof(cmp), "tests/helpers/pprof_cmp.py");
	if (access(cmp, R_OK))
		T_FATAL("%s is missing", cmp);
	snprintf(genv, sizeof(genv),
		 "HOME=%s GOCACHE=%s/gocache GOPATH=%s/gopath GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOTELEMETRY=off",
		 dir, dir, dir);
	report_cmp_write(py, sizeof(py), "w.py", report_py_src);
	report_cmp_write(c, sizeof(c), "t.c", report_c_src);
	report_cmp_write(cxx, sizeof(cxx), "t.cc", report_cxx_src);

	snprintf(f, sizeof(f), "%s/py.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	pprof_cmp(f, true);
	/* the sample types, period, labels, build ids */
	raw_has(f, "", "^samples/count cpu/nanoseconds\\[dflt\\]");
	raw_has(f, "", "^PeriodType: cpu nanoseconds");
	raw_has(f, "", "^Period: 100000$");
	raw_has(f, "", "pid:\\[[0-9]+ id\\] tid:\\[[0-9]+ id\\]");
	raw_has(f, "", "comm:\\[python3\\]");
	raw_has(f, "", "\\[kernel.kallsyms\\] [0-9a-f]{40} \\[FN\\]");
	raw_has(f, "", "^Duration: ");
	/* --comm and --event keep working */
	raw_has(f, "--comm python3", "comm:\\[python3\\]");
	CHECK_MSG(t_sh("%s convert -q -i %s --to pprof --comm python3 -o %s/r.pb.gz && %s go tool pprof -symbolize=none -raw %s/r.pb.gz 2>&1 | grep -q 'comm:\\[perf'",
		       perfev, f, dir, genv, dir),
		  "%s: --comm python3 kept other comms", f);

	/* the cpu label, where samples carry their CPU: on CPU 0 (pprof
	 * drops a numeric label of 0 without a unit: a CI failure whenever
	 * the workload ran on CPU 0) */
	snprintf(f, sizeof(f), "%s/cpu.data", dir);
	CHECK_EQ_INT(t_sh("taskset -c 0 %s record -q --sample-cpu -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	pprof_cmp(f, false);	/* no chains: report has no children column */
	raw_has(f, "", "cpu:\\[0 id\\] pid:\\[[0-9]+ id\\] tid:\\[[0-9]+ id\\]");
	/* two events: a column each, the clock's named cpu */
	snprintf(f, sizeof(f), "%s/two.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock,task-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	raw_has(f, "", "^samples/count cpu/nanoseconds\\[dflt\\] task-clock/nanoseconds$");
	raw_has(f, "--event task-clock", "^samples/count cpu/nanoseconds\\[dflt\\]$");

	snprintf(f, sizeof(f), "%s/pyd.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 400000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	pprof_cmp(f, false);

	if (have("gcc")) {
		snprintf(f, sizeof(f), "%s/cc1.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- gcc -O2 -c %s -o %s/t.o > /dev/null 2>&1",
				  PERF, f, c, dir), 0);
		pprof_cmp(f, true);
		raw_has(f, "", "comm:\\[cc1\\]");
	}
	snprintf(bin, sizeof(bin), "%s/cxx", dir);
	if (have("g++") && !t_sh("g++ -O2 -g -o %s %s", bin, cxx)) {
		snprintf(f, sizeof(f), "%s/cxx.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- %s 100 > /dev/null 2>&1",
				  PERF, f, bin), 0);
		pprof_cmp(f, true);
		snprintf(f, sizeof(f), "%s/cxxd.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 200000 -o %s -- %s 60 > /dev/null 2>&1",
				  PERF, f, bin), 0);
		pprof_cmp(f, false);
		/* a location with an inline frame: two lines, the inlined
		 * function (with the line of its code) first, then the one
		 * holding it (the line of the call): pprof prints a location's
		 * lines one under the other, the first after its address */
		CHECK_MSG(!t_sh("%s script -i %s 2>/dev/null | grep -q '(inlined)'", PERF, f),
			  "%s: perf script shows no inline frame (the inline case proves nothing)", f);
		raw_has(f, "", "^ +main t\\.cc:[0-9]+ s=0$");
		CHECK_MSG(!t_sh("%s go tool pprof -symbolize=none -raw %s/r.pb.gz 2>&1 | "
				"awk '/^Locations/{on=1;next} /^Mappings/{on=0} on && /^ +[0-9]+: 0x/{n=0;next} on && /^ +[^ ].* s=0$/{found=1} END{exit !found}'",
				genv, dir),
			  "%s: no location with several lines (inline frames)", f);
		raw_has(f, "", "cxx [0-9a-f]{40} \\[FN\\]\\[FL\\]\\[LN\\]\\[IN\\]");
		/* perfev's own recording, frame pointers and DWARF, task-clock */
		snprintf(f, sizeof(f), "%s/pe.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e task-clock -c 100000 -o %s -- %s 100 > /dev/null 2>&1",
				  perfev, f, bin), 0);
		pprof_cmp(f, true);
		raw_has(f, "", "^samples/count cpu/nanoseconds\\[dflt\\]");
		snprintf(f, sizeof(f), "%s/ped.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -o %s -- %s 60 > /dev/null 2>&1",
				  perfev, f, bin), 0);
		pprof_cmp(f, false);
	}
	/* a binary format refuses a terminal; a bad file is exit 1 */
	CHECK_EQ_INT(t_sh("%s convert -i %s/none.data --to pprof -o %s/x.pb.gz > /dev/null 2>&1",
			  perfev, dir, dir), 1);
	return report_cmp_end();
}
