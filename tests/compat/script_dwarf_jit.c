// SPDX-License-Identifier: GPL-2.0-only
/* DWARF unwinding through JIT code after perf inject --jit, as perf 6.1
 * prints it, byte for byte: node --perf-prof --interpreted-frames-
 * native-stack recorded by perf (-k 1 --call-graph dwarf), injected by
 * perf inject --jit, then perf script and perfev script on the result.
 *
 * Three defects made perfev's chains stop where perf's go on:
 *  - every JIT'ed function is a jitted-PID-N.so mapped over node's own
 *    .text (its embedded builtins) or over the code a previous function
 *    had at that address; the unwinder held all of a process's files
 *    in one libdwfl session, which refuses a module overlapping another,
 *    so the walk stopped (or used the old file) at every later sample
 *    in that range;
 *  - a jitted-PID-N.so's one segment starts at its file offset (0x80),
 *    and libdwfl placed the file 0x80 below its map;
 *  - node maps its embedded builtins a second time (an executable's
 *    text away from its link address), where libdwfl's module of node
 *    could not be found.
 * And where a return address lay past the stack dump but in no map at
 * all (not even a data map: perf records them with --call-graph dwarf),
 * perfev printed one ffffffffffffffff frame where perf's reader fails
 * and its walk stops.
 *
 * Compared with --no-inline (perf's and perfev's; 700-odd libc inline
 * frames left out).  The default output (inline frames) is no longer
 * compared here: perf 6.1's addr2line on node's DWARF took 60-220 s of the
 * test's time (perfev: under 2 s), and the comparison was often skipped
 * anyway, as perf's addr2line conversation broke (V8's line tables can
 * name a file "\n", addr2line then prints an empty line where perf reads a
 * file:line, takes it for its end-of-answer sentinel and stays one line
 * behind for every later address of that jitted file, printing frames
 * such as "??:0+0x96 (inlined)").  Inline frames of C++ code are compared
 * with perf in compat/script_symbols_real and the lang_* tests. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];

static char perfev[4096];

/* perf script and perfev script with opts on jit.inj: the same bytes. */
static void compare(const char *opts)
{
	char pa[128], pb[128];
	size_t la, lb, line, start;

	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s script %s -i jit.inj > b.txt 2>/dev/null", dir, dir, PERF, opts), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s script %s -i jit.inj > a.txt 2>/dev/null", dir, dir, perfev, opts), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	if (!a || !b)
		T_FATAL("no output");
	/* perf's chains go from JIT code to JIT code, and into node. */
	CHECK_MSG(strstr(b, "/jitted-") && strstr(b, "JS:"), "perf's output has no JIT frame");
	CHECK_MSG(t_sh("grep -A1 'jitted-' %s | grep -q 'Builtins_\\|(/usr/bin/node)'", pb) == 0,
		  "perf's output has no JIT frame followed by node's");
	if (t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("script %s: first difference on line %zu:\nperfev: %.400s\nperf:   %.400s",
		       opts, line, a + start, b + start);
	else
		printf("script %s: %zu bytes identical\n", opts, la);
	free(a);
	free(b);
}

int main(void)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("node --version > /dev/null 2>&1"))
		T_SKIP("node is not installed");
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	strcpy(dir, "/tmp/perfev-djit-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	CHECK_EQ_INT(t_sh("cd %s && printf '%%s\\n' 'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }' "
			  "'let s = 0; const t = Date.now();' 'while (Date.now() - t < 700) s += fib(18);' "
			  "'if (s < 0) console.log(s);' > loop.js", dir), 0);
	if (t_sh("cd %s && HOME=%s timeout -k 2 120 %s record -q -k 1 -e task-clock -c 1000000 --call-graph dwarf "
		 "-o jit.data -- node --perf-prof --interpreted-frames-native-stack loop.js > /dev/null 2>&1",
		 dir, dir, PERF))
		T_SKIP("perf record --call-graph dwarf cannot sample task-clock here");
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s inject --jit -i jit.data -o jit.inj > /dev/null 2>&1", dir, dir, PERF), 0);
	compare("--no-inline");
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_done();
}
