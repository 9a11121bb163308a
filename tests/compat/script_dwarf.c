// SPDX-License-Identifier: GPL-2.0-only
/* perfev script on --call-graph dwarf files prints the call chains perf
 * 6.1 prints, byte for byte: the kernel part of the sampled callchain,
 * then the user frames unwound from the register set and stack dump,
 * with the inline frames DWARF gives (" (inlined)").  perfev printed an
 * empty chain for every such sample.
 *
 * Files recorded at test time:
 *  - by perf, from a C program built here with -O2 -g
 *    -fomit-frame-pointer whose hot loop calls an inlined function;
 *  - by perf, from python3 running a small script (a program we did not
 *    write: libpython, libc, ld.so and their debug files; name@plt
 *    frames, when sampled, compared as they are, and the exit handlers'
 *    code without CFI, where perf's libunwind guesses from %rbp);
 *  - by perf with breakpoints on the PLT stubs of a program built here;
 *  - by perfev record --call-graph dwarf, from the C program (launched
 *    by perfev, and attached to with -p);
 * each read by both tools. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"
#define GCC "/usr/bin/gcc"
#define PYTHON "/usr/bin/python3"

static char dir[64];

static const char prog[] =
	"#include <stdint.h>\n"
	"#include <stdlib.h>\n"
	"#include <time.h>\n"
	"static volatile uint64_t sink;\n"
	"static inline uint64_t mix(uint64_t x) { return x * 2654435761u ^ (x >> 7); }\n"
	"__attribute__((noinline)) uint64_t leaf(uint64_t n)\n"
	"{ uint64_t s = 0; for (uint64_t i = 0; i < n; i++) s += mix(i + s); return s; }\n"
	"__attribute__((noinline)) uint64_t mid(uint64_t n) { uint64_t r = leaf(n); sink += r; return r + 1; }\n"
	"__attribute__((noinline)) uint64_t top(uint64_t n) { uint64_t r = mid(n); sink += r; return r + 2; }\n"
	"__attribute__((noinline)) void clk(long n)\n"
	"{ struct timespec ts; for (long i = 0; i < n; i++) { clock_gettime(CLOCK_MONOTONIC, &ts); sink += ts.tv_nsec; } }\n"
	"int main(int argc, char **argv)\n"
	"{ long ms = argc > 1 ? atol(argv[1]) : 200;\n"
	"  if (argc > 2) { clk(ms * 20000); return 0; }\n"
	"  for (long k = 0; k < ms * 10; k++) sink += top(100000); return 0; }\n";

/* Calls through the PLT of a non-PIE executable, so that a breakpoint
 * on each stub's fixed address samples exactly there. */
static const char plt_prog[] =
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"static volatile unsigned long sink;\n"
	"__attribute__((noinline)) void pl(long n)\n"
	"{ unsigned s = 1; for (long i = 0; i < n; i++) {\n"
	"  char *p = strdup(\"12\"); sink += rand_r(&s) + strtol(p, 0, 10); free(p); } }\n"
	"int main(int argc, char **argv) { pl(atol(argv[1])); return 0; }\n";

/* No libc in the chains (its start-up frames carry a line-table quirk of
 * binutils' addr2line): its own _start, without DWARF, calls run(), with
 * top() inlined in run() and mix() in leaf(). */
static const char sl_prog[] =
	"static volatile unsigned long sink;\n"
	"static inline unsigned long mix(unsigned long x) { return x * 2654435761u ^ (x >> 7); }\n"
	"__attribute__((noinline)) unsigned long leaf(unsigned long n)\n"
	"{ unsigned long s = 0; for (unsigned long i = 0; i < n; i++) s += mix(i + s); return s; }\n"
	"__attribute__((noinline)) unsigned long mid(unsigned long n) { unsigned long r = leaf(n); sink += r; return r + 1; }\n"
	"static inline unsigned long top(unsigned long n) { unsigned long r = mid(n); sink += r; return r + 2; }\n"
	"__attribute__((noinline, used)) void run(void)\n"
	"{ for (long k = 0; k < 1500; k++) sink += top(100000); }\n"
	"__asm__(\".globl _start\\n_start:\\n.cfi_startproc\\n.cfi_undefined rip\\n\"\n"
	"\"xor %ebp, %ebp\\nand $-16, %rsp\\ncall run\\nxor %edi, %edi\\nmov $231, %eax\\nsyscall\\n.cfi_endproc\\n\");\n";

static const char script[] =
	"import json\n"
	"def build(n):\n"
	"    return {str(i): [i, i * 2, {'k': i}] for i in range(n)}\n"
	"t = 0\n"
	"for k in range(6):\n"
	"    t += len(json.dumps(build(20000)))\n"
	"print(t)\n";

static void same_output(const char *file, const char *fields, const char *needle)
{
	char pa[128], pb[128];
	size_t la, lb;

	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/a.txt 2>/dev/null", t_perfev(),
			  file, fields, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/b.txt 2>/dev/null", PERF,
			  file, fields, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(a && b, "no output");
	if (!a || !b)
		return;
	CHECK_MSG(lb > 0 && strstr(b, needle), "%s: perf's output lacks '%s': %.300s",
		  file, needle, b);
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start)) {
		T_FAIL("%s '%s': first difference on line %zu:\nperfev: %.300s\nperf:   %.300s",
		       file, fields, line, a + start, b + start);
	}
	free(a);
	free(b);
}

/* The kinds of the side-band records a file holds before the
 * workload's exec, the kernel map left out, as perf script lists them. */
static void side_band_before_exec(const char *file, const char *out)
{
	CHECK_EQ_INT(t_sh("%s script -i %s --show-task-events --show-mmap-events 2>/dev/null | "
			  "awk '/PERF_RECORD_COMM exec/ { exit } / -1\\/0: / { next } "
			  "{ for (i = 1; i <= NF; i++) if ($i ~ /^PERF_RECORD_/) print $i }' > %s/%s",
			  PERF, file, dir, out), 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

int main(void)
{
	char f[192];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (access(GCC, X_OK))
		T_SKIP("%s is not installed", GCC);
	strcpy(dir, "/tmp/perfev-dwarf-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(f, sizeof(f), "%s/inl.c", dir);
	write_file(f, prog);
	CHECK_EQ_INT(t_sh("%s -O2 -g -fomit-frame-pointer -o %s/inl %s/inl.c", GCC, dir, dir), 0);
	if (t_sh("%s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o %s/c.data -- %s/inl 150 >/dev/null 2>&1",
		 PERF, dir, dir))
		T_SKIP("perf record --call-graph dwarf cannot sample cpu-clock here");

	/* The C program: callers through .eh_frame without frame pointers,
	 * mix() inlined into leaf(). */
	snprintf(f, sizeof(f), "%s/c.data", dir);
	same_output(f, "", "mix+0x");
	same_output(f, "", "(inlined)");
	same_output(f, "-F comm,tid,time,ip,sym,dso", "top (");
	same_output(f, "-F ip,sym,symoff", "main+0x");
	same_output(f, "--max-stack 3", "leaf+0x");
	/* perf: the unwinder refuses 0 frames, the sample prints without chain. */
	same_output(f, "--max-stack 0", "leaf+0x");

	/* srcline of unwound frames, as perf prints each entry of addr2line
	 * -i: the innermost its address's line, each function another was
	 * inlined in the line of that call, "??:0" for a symbol without
	 * DWARF (_start).  perfev printed the innermost line for all, and
	 * nothing for _start. */
	snprintf(f, sizeof(f), "%s/sl.c", dir);
	write_file(f, sl_prog);
	CHECK_EQ_INT(t_sh("%s -O2 -g -fomit-frame-pointer -nostartfiles -o %s/sl %s/sl.c", GCC, dir, dir), 0);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o %s/sl.data -- %s/sl >/dev/null 2>&1",
			  PERF, dir, dir), 0);
	snprintf(f, sizeof(f), "%s/sl.data", dir);
	same_output(f, "-F ip,sym,srcline", "sl.c:8\n\t");
	same_output(f, "-F comm,tid,ip,sym,symoff,dso,srcline", "??:0");

	/* Through the vDSO (clock_gettime): its CFI from the vDSO image. */
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o %s/vd.data -- %s/inl 150 vdso >/dev/null 2>&1",
			  PERF, dir, dir), 0);
	snprintf(f, sizeof(f), "%s/vd.data", dir);
	same_output(f, "", "clk+0x");

	/* Samples on PLT stubs (hardware breakpoints on each stub of a non-PIE
	 * executable): perf 6.1 names them from its symbol tree (_init,
	 * stretched over .plt, is met before the name@plt entries here). */
	snprintf(f, sizeof(f), "%s/plt.c", dir);
	write_file(f, plt_prog);
	CHECK_EQ_INT(t_sh("%s -O2 -g -fomit-frame-pointer -no-pie -o %s/plt %s/plt.c", GCC, dir, dir), 0);
	if (t_sh("cd %s && %s record -q $(objdump -d plt | awk '/@plt>:/ {printf \" -e mem:0x%%s:x\", $1}') "
		 "-c 1 --call-graph dwarf -o plt.data -- ./plt 20 >/dev/null 2>&1", dir, PERF)) {
		printf("perf record cannot set execute breakpoints here: the PLT part is left out\n");
	} else {
		snprintf(f, sizeof(f), "%s/plt.data", dir);
		same_output(f, "", "_init+0x");
	}

	/* python3: libpython's CFI, libc's debug file. */
	if (access(PYTHON, X_OK)) {
		printf("python3 is not installed: that part is left out\n");
	} else {
		snprintf(f, sizeof(f), "%s/s.py", dir);
		write_file(f, script);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o %s/py.data -- %s %s/s.py >/dev/null 2>&1",
				  PERF, dir, PYTHON, dir), 0);
		snprintf(f, sizeof(f), "%s/py.data", dir);
		same_output(f, "", "_PyEval_EvalFrameDefault+0x");
	}

	/* Files perfev records of a workload, read by both.  perfev wrote
	 * the forked child's maps from before its exec (perf writes only
	 * its COMM), and perf's libunwind, taking the lowest map of libc as
	 * its base, then stopped early in libc whenever perfev's own libc
	 * lay below the workload's (about every other file): the side band
	 * before the exec is perf's, and three files unwind alike. */
	snprintf(f, sizeof(f), "%s/c.data", dir);
	side_band_before_exec(f, "perf.txt");
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_INT(t_sh("timeout -k 2 20 %s record -q -e cpu-clock -c 1000000 --call-graph dwarf "
				  "-o %s/w.data -- %s/inl 100 >/dev/null 2>&1", t_perfev(), dir, dir), 0);
		snprintf(f, sizeof(f), "%s/w.data", dir);
		if (i == 0) {
			side_band_before_exec(f, "perfev.txt");
			CHECK_MSG(!t_sh("cmp -s %s/perf.txt %s/perfev.txt", dir, dir),
				  "records before the exec differ from perf's: %s",
				  t_sh("cd %s && diff perf.txt perfev.txt >&2", dir) ? "(above)" : "");
		}
		same_output(f, "", "main+0x");
	}

	/* A file perfev records attached with -p, read by both. */
	CHECK_EQ_INT(t_sh("%s/inl 3000 & p=$!; sleep 0.2; "
			  "timeout -k 2 20 %s record -q -e cpu-clock -c 1000000 --call-graph dwarf "
			  "-p $p -o %s/v.data -- sleep 0.4 >/dev/null 2>&1; r=$?; kill $p; wait $p 2>/dev/null; exit $r",
			  dir, t_perfev(), dir), 0);
	snprintf(f, sizeof(f), "%s/v.data", dir);
	same_output(f, "", "main+0x");
	t_sh("rm -rf %s", dir);
	return t_done();
}
