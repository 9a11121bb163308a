// SPDX-License-Identifier: GPL-2.0-only
/* perfev script's options that follow perf script 6.1, byte for byte
 * against perf on files perf records here (tests/helpers/record_work with
 * -g; two events; a program built here and moved under a --symfs
 * directory):
 *   --reltime (also with --time, whose times are then from the first
 *   sample's, and with side-band records), --deltatime, both together
 *   refused; --header-only (and -I); --per-event-dump (the INPUT.EVENT.dump
 *   files byte for byte, and perf's "[ perf script: Wrote ... ]" lines);
 *   --stop-bt; --call-trace (its field list, --ns, DSO names padded to 50)
 *   and -F without ip (sym and dso print only with ip); --graph-function
 *   (no sample of a file without an instruction trace is a call: none
 *   prints, side-band records do); --symfs; --show-namespace-events and
 *   --show-cgroup-events; --show-round-events (file order, as perf 6.1);
 *   --no-demangle (C++ symbols, PLT entries and inline
 *   frames as the files spell them, as perf).
 * Each option was unknown to perfev before (exit 2). */
#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

static char *slurp_in_dir(const char *name, size_t *len)
{
	char p[160];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return t_slurp(p, len);
}

/* both tools with opts (in cwd DIR/cwd, env before the command): same
 * stdout, both exit 0; perf's stdout holds needle */
static void same_env(const char *env, const char *file, const char *opts, const char *needle)
{
	int rb = t_sh("cd %s/cwd && %s %s script -i %s %s > %s/b.txt 2>/dev/null", dir, env, PERF,
		      file, opts, dir);
	int ra = t_sh("cd %s/cwd && %s %s script -i %s %s > %s/a.txt 2> %s/a.err", dir, env,
		      perfev, file, opts, dir, dir);
	size_t la, lb, le, line, start;
	char *a = slurp_in_dir("a.txt", &la), *b = slurp_in_dir("b.txt", &lb);
	char *e = slurp_in_dir("a.err", &le);

	CHECK_MSG(rb == 0, "%s: perf script exited %d", opts, rb);
	CHECK_MSG(ra == 0, "%s: perfev script exited %d: %.300s", opts, ra, e ? e : "");
	if (needle)
		CHECK_MSG(b && strstr(b, needle), "%s: perf's output lacks '%s'", opts, needle);
	if (a && b && t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s: first difference on line %zu:\n  perfev: %.300s\n  perf:   %.300s", opts,
		       line, a + start, b + start);
	else if (a && b)
		printf("%s: %zu bytes identical\n", opts, la);
	free(a);
	free(b);
	free(e);
}

static void same(const char *file, const char *opts, const char *needle)
{
	same_env("", file, opts, needle);
}

/* --per-event-dump: stdout and every dump file alike */
static void same_dump(const char *file, const char *opts, const char *const *events)
{
	char moved[4096];

	t_sh("rm -f %s.*.dump", file);
	CHECK_EQ_INT(t_sh("cd %s/cwd && %s script -i %s %s > %s/b.txt 2>/dev/null", dir, PERF, file,
			  opts, dir), 0);
	for (const char *const *e = events; *e; e++) {
		snprintf(moved, sizeof(moved), "%s/perf.%s.dump", dir, *e);
		CHECK_MSG(!t_sh("mv '%s.%s.dump' %s", file, *e, moved), "%s: perf wrote no %s.%s.dump",
			  opts, file, *e);
	}
	same(file, opts, "[ perf script: Wrote ");
	for (const char *const *e = events; *e; e++) {
		snprintf(moved, sizeof(moved), "%s/perf.%s.dump", dir, *e);
		if (t_sh("cmp -s '%s.%s.dump' %s", file, *e, moved))
			T_FAIL("%s: %s.%s.dump is not perf's", opts, file, *e);
		else
			printf("%s: %s.%s.dump identical\n", opts, file, *e);
	}
}

static const char prog_src[] =
	"static volatile unsigned long sink;\n"
	"__attribute__((noinline)) void symfs_spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }\n"
	"int main(void) { for (int i = 0; i < 300; i++) symfs_spin(200000); return 0; }\n";

/* report_cmp.h's C++ program: std::map, std::string, std::vector */
static const char cxx_src[] =
	"#include <map>\n#include <string>\n#include <vector>\n#include <cstdio>\n#include <cstdlib>\n"
	"static std::map<std::string, long> count(const std::vector<std::string> &w) {\n"
	"  std::map<std::string, long> m;\n  for (auto &s : w) m[s] += (long)s.size();\n  return m;\n}\n"
	"int main(int argc, char **argv) {\n  long n = argc > 1 ? atol(argv[1]) : 200;\n  long t = 0;\n"
	"  for (long r = 0; r < n; r++) {\n    std::vector<std::string> w;\n"
	"    for (long i = 0; i < 2000; i++) w.push_back(std::to_string(i * 7919 % 1013));\n"
	"    t += (long)count(w).size();\n  }\n  printf(\"%ld\\n\", t);\n  return 0;\n}\n";

int main(void)
{
	char f[128], two[128], work[600], rw[600], prog[160];
	static const char *const one_event[] = { "cpu-clock", NULL };
	static const char *const two_events[] = { "cpu-clock", "task-clock", NULL };

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("%s record -q -e cpu-clock -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record cannot sample cpu-clock here");
	snprintf(rw, sizeof(rw), "%s/tests/helpers/record_work",
		 getenv("PERFEV_BUILD") && *getenv("PERFEV_BUILD") ? getenv("PERFEV_BUILD") : "build");
	if (!realpath(rw, work))
		T_FATAL("the helper record_work is missing");
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	strcpy(dir, "/tmp/perfev-sopt-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	CHECK_EQ_INT(t_sh("mkdir %s/cwd", dir), 0);

	snprintf(f, sizeof(f), "%s/w.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 1000000 -o %s -- %s -m 300 >/dev/null 2>&1",
			  PERF, f, work), 0);
	/* times */
	same(f, "--reltime", "     0.000000: ");
	same(f, "--reltime --ns", "     0.000000000: ");
	same(f, "--deltatime -F comm,tid,time,ip,sym", "     0.000000: ");
	same(f, "--reltime -F comm,time --show-task-events --show-mmap-events", "PERF_RECORD_MMAP");
	same(f, "--deltatime -F comm,time --show-task-events", "PERF_RECORD_COMM");
	same(f, "--reltime --time 0.010,0.150", "     0.000000: ");
	same(f, "--reltime --time ,0.100 -F time", "0.000000: ");
	same(f, "--reltime --time '0.005,0.080 0.100,0.250' -F time", "0.000000: ");
	CHECK_MSG(t_sh("%s script -i %s --reltime --deltatime > /dev/null 2>&1", PERF, f) != 0,
		  "perf accepts --reltime --deltatime");
	CHECK_EQ_INT(t_sh("%s script -i %s --reltime --deltatime > /dev/null 2>&1", perfev, f), 2);
	/* the header */
	same(f, "--header-only", "# captured on");
	same(f, "--header-only -I", "# cpuid");
	/* a pipe-mode file: by name (its mtime is "captured on"), and on
	 * stdin (perf reads no record with --header-only: no feature) */
	char pf[160];

	snprintf(pf, sizeof(pf), "%s/pipe.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -c 1000000 -o - -- %s -m 50 2>/dev/null > %s",
			  PERF, work, pf), 0);
	CHECK_EQ_INT(t_sh("touch -d '2024-01-02 03:04:05' %s", pf), 0);
	same(pf, "--header-only", "# captured on    : Tue Jan  2 03:04:05 2024");
	same(pf, "--header", "# captured on    : Tue Jan  2 03:04:05 2024");
	same("-", "--header-only < ../pipe.data", "# feat offset    : 0");
	/* --per-event-dump on stdin: perf 6.1 names the file
	 * "(null).EVENT.dump" (its path is NULL there), perfev
	 * "-.EVENT.dump"; the same bytes */
	CHECK_EQ_INT(t_sh("cd %s/cwd && %s script -i - --per-event-dump --reltime < ../pipe.data > /dev/null 2>&1 && "
			  "%s script -i - --per-event-dump --reltime < ../pipe.data > /dev/null 2>&1",
			  dir, PERF, perfev), 0);
	CHECK_MSG(!t_sh("cmp -s '%s/cwd/(null).cpu-clock.dump' %s/cwd/-.cpu-clock.dump", dir, dir),
		  "--per-event-dump on stdin: -.cpu-clock.dump is not perf's (null).cpu-clock.dump");
	/* call chains */
	same(f, "--stop-bt rw_level3", "rw_level3");
	same(f, "--stop-bt rw_level5,rw_level2,main -F ip,sym", "rw_level5");
	same(f, "--stop-bt no_such_function", "rw_main");
	same(f, "--call-trace", NULL);
	same(f, "--call-trace -F +ip", "rw_spin+0x");
	same(f, "-F +ip,+dso --call-trace -G", NULL);
	same(f, "--call-trace --show-task-events", "PERF_RECORD_COMM");
	same(f, "-F comm,tid,sym,dso", NULL);
	same(f, "-F -ip -G", "cpu-clock:");
	same(f, "--graph-function rw_spin --show-task-events", "PERF_RECORD_COMM");
	same(f, "--graph-function rw_spin,rw_main", NULL);
	/* --per-event-dump: one and two events, with filters and side band */
	same_dump(f, "--per-event-dump", one_event);
	same_dump(f, "--per-event-dump --show-task-events -F comm,tid,time,ip,sym", one_event);
	same_dump(f, "--per-event-dump --pid 1", one_event);
	snprintf(two, sizeof(two), "%s/two.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -e task-clock -c 1000000 -o %s -- %s -m 100 >/dev/null 2>&1",
			  PERF, two, work), 0);
	same_dump(two, "--per-event-dump", two_events);
	same_dump(two, "--per-event-dump --reltime -F comm,time,event,ip,sym,dso", two_events);

	/* --show-round-events: perf 6.1 then reads in file order (its
	 * ordering off), with a FINISHED_ROUND line per round; a system-wide
	 * file, whose file order is not time order across CPUs */
	same(f, "--show-round-events", "PERF_RECORD_FINISHED_ROUND");
	snprintf(f, sizeof(f), "%s/all.data", dir);
	if (t_sh("%s record -q -a -e cpu-clock -c 1000000 -o %s -- %s -m 100 -t 2 >/dev/null 2>&1",
		 PERF, f, work)) {
		printf("perf cannot record -a here: the system-wide round case is not run\n");
	} else {
		same(f, "--show-round-events -F comm,tid,cpu,time,ip,sym", "PERF_RECORD_FINISHED_ROUND");
		same(f, "--show-round-events --show-task-events --show-mmap-events -C 1 --deltatime",
		     "PERF_RECORD_FINISHED_ROUND");
	}

	/* NAMESPACES and CGROUP records (perf record --namespaces
	 * --all-cgroups, where the kernel has them) */
	snprintf(f, sizeof(f), "%s/ns.data", dir);
	if (t_sh("%s record -q --namespaces --all-cgroups -e cpu-clock -c 1000000 -o %s -- %s -m 50 >/dev/null 2>&1",
		 PERF, f, work)) {
		printf("perf cannot record --namespaces --all-cgroups here: that part is not run\n");
	} else {
		same(f, "--show-namespace-events", "PERF_RECORD_NAMESPACES ");
		same(f, "--show-cgroup-events", "PERF_RECORD_CGROUP cgroup: ");
		same(f, "--show-namespace-events --show-cgroup-events --show-task-events --reltime",
		     "nr_namespaces: ");
		same(f, "--show-cgroup-events --show-namespace-events -F comm,tid,time", "/cgroup: ");
	}

	/* --no-demangle: a C++ program (g++ -O2 -g, frame pointers) and its
	 * DWARF recording, whose inline frames perf names mangled too */
	if (!t_sh("g++ --version > /dev/null 2>&1")) {
		char src[160], bin[160];
		FILE *cf;

		snprintf(src, sizeof(src), "%s/t.cc", dir);
		cf = fopen(src, "w");
		CHECK(cf && fputs(cxx_src, cf) >= 0);
		if (cf)
			fclose(cf);
		snprintf(bin, sizeof(bin), "%s/cxx", dir);
		CHECK_EQ_INT(t_sh("g++ -O2 -g -fno-omit-frame-pointer -o %s %s", bin, src), 0);
		snprintf(f, sizeof(f), "%s/cxx.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 500000 -o %s -- %s 60 >/dev/null 2>&1",
				  PERF, f, bin), 0);
		same(f, "--no-demangle", " _Z");
		same(f, "--no-demangle -F ip,sym -G", " _Z");
		same(f, "--no-demangle --demangle", "std::");
		snprintf(f, sizeof(f), "%s/cxxd.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 500000 -o %s -- %s 60 >/dev/null 2>&1",
				  PERF, f, bin), 0);
		same(f, "--no-demangle --no-inline", " _Z");
		/* the inline frames: as many named mangled as perf's (the
		 * whole output may differ where inline frames do without
		 * --no-demangle) */
		long np = -1, na = -2;
		char *t;
		size_t tl;

		CHECK_EQ_INT(t_sh("%s script -i %s --no-demangle 2>/dev/null | grep '(inlined)' | grep -c ' _Z' > %s/np.txt; "
				  "%s script -i %s --no-demangle 2>/dev/null | grep '(inlined)' | grep -c ' _Z' > %s/na.txt; true",
				  PERF, f, dir, perfev, f, dir), 0);
		if ((t = slurp_in_dir("np.txt", &tl)))
			np = atol(t);
		free(t);
		if ((t = slurp_in_dir("na.txt", &tl)))
			na = atol(t);
		free(t);
		CHECK_MSG(np > 0, "perf shows no mangled inline frame (the case proves nothing)");
		CHECK_MSG(na == np, "--no-demangle: %ld mangled inline frames, perf %ld", na, np);
		printf("--no-demangle: %ld mangled inline frames, as perf\n", na);
	} else {
		printf("g++ is not installed: the --no-demangle part is not run\n");
	}

	/* --symfs: a program recorded at one path (no build-id cache: HOME
	 * is ours) then moved under DIR/symfs at that path */
	if (!t_sh("gcc --version > /dev/null 2>&1")) {
		char src[160];
		FILE *sf;

		snprintf(src, sizeof(src), "%s/p.c", dir);
		sf = fopen(src, "w");
		CHECK(sf && fputs(prog_src, sf) >= 0);
		if (sf)
			fclose(sf);
		snprintf(prog, sizeof(prog), "%s/prog", dir);
		CHECK_EQ_INT(t_sh("gcc -O1 -o %s %s", prog, src), 0);
		char env[256], opts[512];

		snprintf(env, sizeof(env), "HOME=%s", dir);
		snprintf(f, sizeof(f), "%s/s.data", dir);
		CHECK_EQ_INT(t_sh("HOME=%s %s record -q -N -e cpu-clock:u -c 500000 -o %s -- %s >/dev/null 2>&1",
				  dir, PERF, f, prog), 0);
		CHECK_EQ_INT(t_sh("mkdir -p %s/symfs%s && mv %s %s/symfs%s/", dir, dir, prog, dir, dir), 0);
		snprintf(opts, sizeof(opts), "-F comm,ip,sym,dso --dsos %s", prog);
		same_env(env, f, opts, "[unknown]");
		snprintf(opts, sizeof(opts), "-F comm,ip,sym,dso --dsos %s --symfs %s/symfs", prog, dir);
		same_env(env, f, opts, "symfs_spin");
		snprintf(opts, sizeof(opts), "-F comm,ip,sym,dso --dsos %s --symfs %s/symfs/", prog, dir);
		same_env(env, f, opts, "symfs_spin");
	} else {
		printf("gcc is not installed: the --symfs part is not run\n");
	}
	t_sh("rm -rf %s", dir);
	return t_done();
}
