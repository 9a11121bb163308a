// SPDX-License-Identifier: GPL-2.0-only
/* perfev diff against perf diff 6.1, byte for byte, on files recorded by
 * /usr/bin/perf at test time from programs nobody here wrote: python3
 * running two different loops, gcc's cc1 compiling one file without and
 * with -O2, dd copying with two block sizes.
 * Every compute mode (delta-abs, delta, ratio, wdiff), -p, -F, -b, -o,
 * -q, -t (a g++ program's template names hold the separator), --sort
 * variants, the filters (-d, -S, -C, --percentage relative),
 * three and four files, files that share nothing (other comms; an event
 * the baseline lacks), an event with no samples in the baseline, and the
 * default names perf.data.old perf.data.
 * What perf diff pairs is what this proves: a DSO by its short name, a
 * symbol by its name (two copies of one static function are one entry),
 * every unresolved address of a DSO as one entry shown with the lowest
 * address (a stripped program; two static functions of one name); the Baseline percentages of the entries -b keeps; the cells as
 * perf's colour path prints them (wdiff 0, a 14-wide wdiff in a wider
 * multi-file column).
 * Then the errors: a missing file and a file that is not perf.data exit 1
 * naming the file, bad -c, -o and --sort values exit 2 (usage). */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "report_cmp.h"

static const char py1[] =
	"import json\ns = 0\nfor i in range(60000):\n"
	"    s += len(json.dumps({'a': i, 'b': [i, str(i) * 3]}))\nprint(s)\n";
/* two copies of a static function "work" (one entry for perf diff), and
 * the same program stripped (its addresses unresolved: one entry) */
static const char u1_src[] =
	"__attribute__((noinline)) static long work(long n) { long s = 0;\n"
	"  for (long i = 0; i < n; i++) s += i * 7 ^ (s >> 3); return s; }\n"
	"long one(long n) { return work(n); }\n";
static const char u2_src[] =
	"__attribute__((noinline)) static long work(long n) { long s = 1;\n"
	"  for (long i = 0; i < n; i++) s = s * 31 + i; return s; }\n"
	"long two(long n) { return work(n); }\n";
static const char um_src[] =
	"#include <stdlib.h>\nlong one(long), two(long);\nvolatile long sink;\n"
	"int main(int argc, char **argv) { long n = atol(argv[1]);\n"
	"  sink = one(n) + two(n * (argc > 2 ? 3 : 1)); return 0; }\n";
static const char map_src[] =
	"#include <map>\n#include <cstdio>\n#include <cstdlib>\n"
	"int main(int argc, char **argv) { std::map<long, long> m; long n = atol(argv[1]);\n"
	"  for (long i = 0; i < n; i++) m[(i * 7919) % 100003] += i;\n"
	"  printf(\"%zu\\n\", m.size()); return 0; }\n";
static const char py2[] =
	"s = 0\nfor i in range(400000):\n    s += len(str(i * i)) + hash(str(i))\nprint(s)\n";

/* perfev diff and perf diff with the same arguments (run in dir), byte
 * for byte; perf's output must hold needle (not vacuous). */
static void same_diff(const char *args, const char *needle)
{
	size_t la, lb, line, start;
	char pa[128], pb[128];
	int ra = t_sh("cd %s && %s diff %s > a.txt 2> a.err", dir, perfev, args);
	int rb = t_sh("cd %s && %s diff %s > b.txt 2> b.err", dir, PERF, args);

	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(ra == 0, "diff %s: perfev exited %d", args, ra);
	CHECK_MSG(rb == 0, "diff %s: perf exited %d", args, rb);
	CHECK_MSG(b && strstr(b, needle), "diff %s: perf's output lacks '%s'", args, needle);
	if (a && b && t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("diff %s: output differs at line %zu:\n  perfev: %.200s\n  perf:   %.200s",
		       args, line, a + start, b + start);
	else if (a && b)
		printf("diff %s: %zu bytes identical\n", args, la);
	free(a);
	free(b);
}

/* perfev diff args fails with exit code rc and one "perfev: error:"
 * line holding needle */
static void diff_fails(const char *args, int rc, const char *needle)
{
	char pe[128];
	size_t le;
	int r = t_sh("cd %s && %s diff %s > a.txt 2> a.err", dir, perfev, args);

	snprintf(pe, sizeof(pe), "%s/a.err", dir);
	char *e = t_slurp(pe, &le);

	CHECK_MSG(r == rc, "diff %s: exit %d, want %d", args, r, rc);
	CHECK_MSG(e && !strncmp(e, "perfev: error: ", 15) && strstr(e, needle),
		  "diff %s: stderr '%s' lacks 'perfev: error: ...%s'", args, e ? e : "", needle);
	free(e);
}

static void record(const char *name, const char *event, const char *cmd)
{
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e %s -o %s -- %s > /dev/null 2>&1",
			  dir, PERF, event, name, cmd), 0);
}

int main(void)
{
	char path[256];

	if (!have("python3"))
		T_SKIP("no python3 in PATH");
	if (!have("gcc"))
		T_SKIP("no gcc in PATH");
	report_cmp_start("/tmp/perfev-diff-XXXXXX", true);
	/* the diffs run in dir (perf.data.old, perf.data there) */
	char *abs = realpath(perfev, NULL);

	if (!abs)
		T_FATAL("no perfev binary at '%s'", perfev);
	snprintf(perfev, sizeof(perfev), "%s", abs);
	free(abs);

	report_cmp_write(path, sizeof(path), "p1.py", py1);
	report_cmp_write(path, sizeof(path), "p2.py", py2);
	record("py1.data", "cpu-clock", "python3 p1.py");
	record("py2.data", "cpu-clock", "python3 p2.py");

	static const char *const modes[] = {
		"", "-c delta", "-c delta-abs", "-c ratio", "-c wdiff:1,2", "-c wdiff:1,1",
		"-c wdiff:3,2 -F", "-p", "-F", "-p -F", "-c ratio -p -F", "-b",
		"-b -c delta -F", "-o 0", "-o 0 -c ratio", "-q",
		"--sort sym", "--sort dso", "--sort comm,dso", "--sort pid",
		"--sort sym,dso", "--sort dso,sym,comm", "--sort cpu",
		"-C python3", "-S _PyEval_EvalFrameDefault,PyObject_Malloc",
		"-d '[kernel.kallsyms]'", "--percentage relative -d '[kernel.kallsyms]'",
		/* not --symfs /: perf 6.1 then leaves a [vdso] sample's
		 * address unresolved (README; a CI failure when a sample
		 * landed in the vDSO) */
		"--kallsyms /proc/kallsyms -c ratio", "-t ,",
		"-t '|' -p -F -c ratio", "-t ';' -c wdiff:1,1 -q", "-t , --sort comm,dso",
		NULL,
	};
	char args[512];

	for (const char *const *m = modes; *m; m++) {
		snprintf(args, sizeof(args), "%s py1.data py2.data", *m);
		same_diff(args, ".");
	}
	/* perf 6.1's diff refuses --stdio; perfev takes it for perf
	 * report's command lines, and prints the same */
	CHECK_EQ_INT(t_sh("cd %s && %s diff --stdio py1.data py2.data > s.txt && "
			  "%s diff py1.data py2.data | cmp -s - s.txt", dir, perfev, perfev), 0);
	same_diff("py2.data py1.data", "Delta Abs");
	same_diff("--pid 1 py1.data py2.data", "Baseline");	/* no entries */

	/* cc1: one file compiled without and with -O2 */
	/* 300 small functions: enough of cc1's time to sample */
	CHECK_EQ_INT(t_sh("cd %s && python3 -c \"import sys\n"
			  "print('#include <string.h>')\n"
			  "for i in range(300): print('static int f%%d(int *a, int n) { int t = 0; "
			  "for (int i = 0; i < n; i++) { t += a[i] * %%d + (t >> 3); if (t > 1000) t -= a[(i*7)%%%%n]; } return t; } "
			  "int g%%d(const char *s) { int a[32]; memset(a, 0, sizeof a); a[%%d %%%% 32] = (int)strlen(s); "
			  "return f%%d(a, 32); }' %% (i, i, i, i, i))\" > big.c", dir), 0);
	record("cc0.data", "cpu-clock", "gcc -c big.c -o big0.o");
	record("cc2.data", "cpu-clock", "gcc -O2 -c big.c -o big2.o");
	same_diff("cc0.data cc2.data", "cc1");
	same_diff("-c ratio -p cc0.data cc2.data", "Ratio");
	same_diff("-c wdiff:1,1 -F cc0.data cc2.data", "Weighted diff");

	/* dd with two block sizes */
	record("dd1.data", "cpu-clock", "dd if=/dev/zero of=/dev/null bs=512 count=300000");
	record("dd2.data", "cpu-clock", "dd if=/dev/zero of=/dev/null bs=64k count=30000");
	same_diff("dd1.data dd2.data", "dd");
	same_diff("-c delta -p dd1.data dd2.data", "Delta");

	/* pairing rules: symbols by name, unresolved addresses together (s
	 * is built -O2 so that its build id is not u's: perf would find u's
	 * symbols for it in the build-id cache) */
	report_cmp_write(path, sizeof(path), "u1.c", u1_src);
	report_cmp_write(path, sizeof(path), "u2.c", u2_src);
	report_cmp_write(path, sizeof(path), "um.c", um_src);
	CHECK_EQ_INT(t_sh("cd %s && gcc -O1 -o u u1.c u2.c um.c && gcc -O2 -o s u1.c u2.c um.c && strip -s s",
			  dir), 0);
	record("u1.data", "cpu-clock", "./u 20000000");
	record("u2.data", "cpu-clock", "./u 20000000 x");
	same_diff("u1.data u2.data", "] work");
	same_diff("-c ratio -p u2.data u1.data", "] work");
	record("s1.data", "cpu-clock", "./s 20000000");
	record("s2.data", "cpu-clock", "./s 20000000 x");
	same_diff("s1.data s2.data", "[.] 0x");
	same_diff("-c wdiff:1,1 --sort sym s1.data s2.data", "[.] 0x");

	/* g++ -O2 -g: template names with commas, which -t turns into '.' */
	if (have("g++")) {
		report_cmp_write(path, sizeof(path), "m.cc", map_src);
		CHECK_EQ_INT(t_sh("cd %s && g++ -O2 -g -o mm m.cc", dir), 0);
		record("x1.data", "cpu-clock", "./mm 1000000");
		record("x2.data", "cpu-clock", "./mm 2000000");
		same_diff("-t , x1.data x2.data", "std::_Rb_tree<long. ");
		same_diff("x1.data x2.data", "std::_Rb_tree<long, ");
	} else {
		printf("g++ part skipped: no g++ in PATH\n");
	}

	/* several files: [Data N] headers and per-file columns */
	same_diff("py1.data py2.data cc2.data", "#  [2] cc2.data");
	same_diff("-c wdiff:2,1 -p -F py1.data py2.data dd1.data", "Weighted diff/2");
	same_diff("-o 2 -c ratio py1.data py2.data dd2.data", "Ratio/2");
	same_diff("cc0.data cc2.data dd1.data dd2.data", "Delta Abs/3");

	/* nothing shared: other comms; an event the baseline has not */
	same_diff("--sort comm py1.data dd1.data", "dd");
	same_diff("-c ratio --sort comm,dso dd1.data py1.data", "python3");
	record("tc.data", "task-clock", "dd if=/dev/zero of=/dev/null bs=4k count=100000");
	same_diff("py1.data tc.data", "# Event 'cpu-clock'");
	same_diff("-b py1.data tc.data", "Baseline");

	/* an event without samples in the baseline: perf prints -nan% */
	if (!t_sh("cd %s && %s record -q -e cpu-clock,sched:sched_process_fork -o f1.data -- true > /dev/null 2>&1",
		  dir, PERF)) {
		record("f2.data", "cpu-clock,sched:sched_process_fork",
		       "sh -c '/bin/true & /bin/true & wait'");
		same_diff("f1.data f2.data", "# Event 'sched:sched_process_fork'");
		same_diff("-c ratio -F -p f1.data f2.data", "# Event 'sched:sched_process_fork'");
		same_diff("f2.data f1.data", "# Event 'sched:sched_process_fork'");
	} else {
		printf("tracepoint part skipped: perf cannot record sched:sched_process_fork here\n");
	}

	/* the default names, and one name (the new file) */
	CHECK_EQ_INT(t_sh("cd %s && cp py1.data perf.data.old && cp py2.data perf.data", dir), 0);
	same_diff("", "Baseline");
	same_diff("cc2.data", "Baseline");

	/* errors */
	diff_fails("nosuch.data py1.data", 1, "'nosuch.data'");
	diff_fails("py1.data nosuch.data", 1, "'nosuch.data'");
	CHECK_EQ_INT(t_sh("cd %s && echo garbage > junk.data", dir), 0);
	diff_fails("junk.data py1.data", 1, "'junk.data'");
	CHECK_EQ_INT(t_sh("cd %s && : > empty.data", dir), 0);
	diff_fails("py1.data empty.data", 1, "'empty.data'");
	diff_fails("-c foo py1.data py2.data", 2, "'foo'");
	diff_fails("-c wdiff:0,1 py1.data py2.data", 2, "weights");
	diff_fails("-c delta:3 py1.data py2.data", 2, "delta");
	diff_fails("-o 2 py1.data py2.data", 2, "-o");
	diff_fails("--sort nosuchkey py1.data py2.data", 2, "nosuchkey");
	diff_fails("--percentage half py1.data py2.data", 2, "half");
	/* samples without CPU: perf fails too (exit 255) */
	diff_fails("--cpu 0 py1.data py2.data", 1, "CPU");

	return report_cmp_end();
}
