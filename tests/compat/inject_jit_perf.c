// SPDX-License-Identifier: GPL-2.0-only
/* perfev inject --jit against perf inject --jit 6.1: a small JIT built
 * here (tests/helpers/jit_dump.c: two functions, one of them moved by a
 * JIT_CODE_MOVE) and node --perf-prof (each writes a jitdump and maps it
 * as perf's marker) are recorded by perf with -k mono; perf inject --jit makes one file, perfev inject --jit
 * another (each writes jitted-PID-N.so files next to the dump, so perf's
 * output is printed before perfev's files replace them).  perf script
 * reads both, and every JIT frame (jitted-*.so) is the same line, the
 * files have the same number of lines, and perf lists the same DSOs
 * (build ids aside: each tool hashes the code its own way).  perfev
 * script on perfev's file prints what perf script prints on it.  Usage
 * errors exit 2. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

static char *lines_with(const char *file, const char *needle, size_t *total)
{
	size_t len, n = 0;
	char *t = t_slurp(file, &len), *out = calloc(1, len + 1), *save;

	*total = 0;
	for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		(*total)++;
		if (strstr(l, needle))
			n += (size_t)sprintf(out + n, "%s\n", l);
	}
	free(t);
	return out;
}

static void compare(const char *what, const char *fa, const char *fb, size_t min)
{
	char pa[128], pb[128];
	size_t ta, tb;

	snprintf(pa, sizeof(pa), "%s/%s", dir, fa);
	snprintf(pb, sizeof(pb), "%s/%s", dir, fb);
	char *a = lines_with(pa, "/jitted-", &ta), *b = lines_with(pb, "/jitted-", &tb);
	size_t n = 0;

	for (const char *p = b; (p = strchr(p, '\n')); p++)
		n++;
	CHECK_MSG(ta == tb, "%s: %zu lines, perf's %zu", what, ta, tb);
	CHECK_MSG(n >= min, "%s: only %zu JIT lines in perf's output", what, n);
	if (strcmp(a, b)) {
		size_t i = 0;

		while (a[i] && a[i] == b[i])
			i++;
		while (i && a[i - 1] != '\n')
			i--;
		T_FAIL("%s: JIT lines differ:\n  ours: %.200s\n  perf: %.200s", what, a + i, b + i);
	}
	printf("%s: %zu JIT lines identical\n", what, n);
	free(a);
	free(b);
}

static void test_helper(void)
{
	const char *bd = getenv("PERFEV_BUILD");
	char build[4096];

	if (!realpath(bd ? bd : "build", build))
		T_FATAL("build dir missing");
	CHECK_EQ_INT(t_sh("mkdir -p %s/c && cd %s/c && HOME=%s timeout -k 2 60 %s record -q -k mono -e task-clock "
			  "-o d.data -- %s/tests/helpers/jit_dump 400 > /dev/null 2>&1", dir, dir, dir, PERF, build), 0);
	CHECK_EQ_INT(t_sh("cd %s/c && HOME=%s %s inject --jit -i d.data -o perf.inj > /dev/null 2>&1 && "
			  "HOME=%s %s script -i perf.inj > ../c-perf.txt 2>/dev/null", dir, dir, PERF, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s/c && HOME=%s %s inject --jit -i d.data -o pev.inj > /dev/null && "
			  "HOME=%s %s script -i pev.inj > ../c-pev-perf.txt 2>/dev/null && "
			  "HOME=%s %s script -i pev.inj > ../c-pev-pev.txt 2>/dev/null",
			  dir, dir, perfev, dir, PERF, dir, perfev), 0);
	char *t = t_slurp_in(dir, "c-perf.txt");

	CHECK_MSG(strstr(t, "jit_alpha+") && strstr(t, "jit_beta+"), "perf names no JIT function:\n%.300s", t);
	free(t);
	compare("moved code, perf script on perfev's file", "c-pev-perf.txt", "c-perf.txt", 20);
	compare("moved code, perfev script on perfev's file", "c-pev-pev.txt", "c-pev-perf.txt", 20);
}

int main(void)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	snprintf(dir, sizeof(dir), "/tmp/pev-inject-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	test_helper();
	if (t_sh("node --version > /dev/null 2>&1")) {
		printf("node is not installed: the node part is not run\n");
		goto usage;
	}
	CHECK_EQ_INT(t_sh("cd %s && printf '%%s\\n' 'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }' "
			  "'let s = 0; const t = Date.now();' 'while (Date.now() - t < 500) s += fib(18);' "
			  "'if (s < 0) console.log(s);' > loop.js", dir), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 120 %s record -q -k mono -e task-clock -c 250000 -o jit.data "
			  "-- node --perf-prof loop.js > /dev/null 2>&1", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && ls jit-*.dump > /dev/null 2>&1", dir), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s inject --jit -i jit.data -o perf.inj > /dev/null 2>&1", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s script -i perf.inj > perf.txt 2>/dev/null", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s buildid-list -i perf.inj | cut -c42- > perf.bid", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s inject --jit -i jit.data -o pev.inj > inj.out 2>&1", dir, dir, perfev), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s script -i pev.inj > pev-perf.txt 2>/dev/null", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s script -i pev.inj > pev-pev.txt 2>/dev/null", dir, dir, perfev), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s buildid-list -i pev.inj | cut -c42- > pev.bid", dir, dir, PERF), 0);
	compare("perf script on perfev's file", "pev-perf.txt", "perf.txt", 50);
	compare("perfev script on perfev's file", "pev-pev.txt", "pev-perf.txt", 50);
	CHECK_MSG(!t_sh("cmp -s %s/perf.bid %s/pev.bid", dir, dir), "the DSO lists of the two files differ");
	/* Without -k mono both refuse (the dump's times could not be
	 * matched with the samples'). */
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 120 %s record -q -e task-clock -o nok.data "
			  "-- node --perf-prof -e 'let s = 0; for (let i = 0; i < 1e6; i++) s += i;' > /dev/null 2>&1",
			  dir, dir, PERF), 0);
	CHECK_MSG(t_sh("cd %s && HOME=%s %s inject --jit -i nok.data -o nok.perf > /dev/null 2>&1", dir, dir, PERF) != 0,
		  "perf inject accepted a recording without -k mono");
	CHECK_EQ_INT(t_sh("cd %s && %s inject --jit -i nok.data -o nok.pev > /dev/null 2> nok.err", dir, perfev), 1);
	CHECK_EQ_INT(t_sh("grep -q -- '-k mono' %s/nok.err", dir), 0);
	CHECK_MSG(t_sh("test -e %s/nok.pev", dir) != 0, "a failed inject left its output");
usage:
	/* without --jit: a plain copy (compat/inject_file) */
	CHECK_EQ_INT(t_sh("cd %s && %s inject -i jit.data -o x.data > /dev/null 2>&1", dir, perfev), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s inject --jit -i jit.data > /dev/null 2>&1", dir, perfev), 2);
	CHECK_EQ_INT(t_sh("cd %s && %s inject --jit -i jit.data -o jit.data > /dev/null 2>&1", dir, perfev), 2);
	CHECK_EQ_INT(t_sh("cd %s && %s inject --jit --bogus > /dev/null 2>&1", dir, perfev), 2);
	CHECK_EQ_INT(t_sh("cd %s && %s inject --jit -i none.data -o x.data > /dev/null 2>&1", dir, perfev), 1);
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
