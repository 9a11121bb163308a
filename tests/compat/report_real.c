// SPDX-License-Identifier: GPL-2.0-only
/* perfev report against perf report --stdio 6.1 on real programs
 * recorded by /usr/bin/perf with --call-graph dwarf at test time: a C
 * program built with gcc -O2 -g -fomit-frame-pointer whose hot loop is an
 * inlined function.  perf compares inlined frames by name (one call-graph
 * node and one children entry for "mix (inlined)" wherever it was inlined,
 * the " (inlined)" suffix printed past the symbol column's width): the
 * output must be the same byte for byte, children and --no-children, on
 * perf's recording and on perfev's.
 * Also node --perf-basic-prof recorded with -g (JIT symbols).
 * perf ends with a random tip: the last three lines are left out. */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_cmp.h"

static const char c_src[] =
	"#include <stdio.h>\n#include <stdlib.h>\n"
	"static inline __attribute__((always_inline)) long mix(long x) {\n"
	"  for (int i = 0; i < 50; i++) x = x * 6364136223846793005L + 1442695040888963407L;\n"
	"  return x;\n}\n"
	"__attribute__((noinline)) long work(long n) { long s = 0; for (long i = 0; i < n; i++) s += mix(i); return s; }\n"
	"__attribute__((noinline)) long outer(long n) { return work(n) + work(n / 2); }\n"
	"int main(int argc, char **argv) { long n = argc > 1 ? atol(argv[1]) : 2000000;\n"
	"  printf(\"%ld\\n\", outer(n)); return 0; }\n";

static const char *const modes[] = {
	"", "--no-children", "--no-children --sort sym", "-g caller",
	"--sort sym", "-g flat", "--no-children -g fractal,0.5,callee",
	"--sort sym,comm -g none", NULL,
};

static const char js_src[] =
	"function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
	"let s = 0; for (let i = 0; i < 30; i++) s += fib(25); console.log(s);\n";

static const char *const node_modes[] = {
	"", "--no-children", "--sort dso", "--no-children --sort dso,sym", NULL,
};

int main(void)
{
	char path[256], file[256];

	if (!have("gcc"))
		T_SKIP("no gcc in PATH");
	report_cmp_start("/tmp/perfev-rreal-XXXXXX", true);

	report_cmp_write(path, sizeof(path), "t.c", c_src);
	CHECK_EQ_INT(t_sh("gcc -O2 -g -fomit-frame-pointer -o %s/t %s", dir, path), 0);
	snprintf(file, sizeof(file), "%s/c-dwarf.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 2000 --call-graph dwarf -o %s -- %s/t 3000000 > /dev/null 2>&1",
			  PERF, file, dir), 0);
	for (const char *const *m = modes; *m; m++)
		same_report("C -O2 -fomit-frame-pointer, dwarf", file, *m);
	/* the same program recorded by perfev: perf and perfev report it alike */
	snprintf(file, sizeof(file), "%s/c-dwarf-perfev.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 2000 --call-graph dwarf -o %s -- %s/t 3000000 > /dev/null 2>&1",
			  perfev, file, dir), 0);
	for (const char *const *m = modes; *m; m += 2)
		same_report("C -O2 -fomit-frame-pointer, dwarf, recorded by perfev", file, *m);

	/* node --perf-basic-prof with -g: JIT symbols from /tmp/perf-PID.map,
	 * whose DSO perf shows (and sorts ties by) as "[JIT] tid PID". */
	if (have("node")) {
		report_cmp_write(path, sizeof(path), "n.js", js_src);
		snprintf(file, sizeof(file), "%s/node-g.data", dir);
		CHECK_EQ_INT(t_sh("cd %s && %s record -q -e cpu-clock -F 1000 -g -o %s -- node --perf-basic-prof %s > /dev/null 2>&1",
				  dir, PERF, file, path), 0);
		for (const char *const *m = node_modes; *m; m++)
			same_report("node --perf-basic-prof -g", file, *m);
	} else {
		printf("node part skipped: no node in PATH\n");
	}

	return report_cmp_end();
}
