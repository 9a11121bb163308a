// SPDX-License-Identifier: GPL-2.0-only
/* JIT symbols from /tmp/perf-PID.map files against perf 6.1 (the oracle):
 *   - a program built here runs a NOP sled in anonymous executable memory
 *     and writes a map file with overlapping, duplicate, size-0, wrapped,
 *     too-short and malformed lines; perf records it and every sample line
 *     that perfev script prints for the map is perf script's, byte for
 *     byte (perf's red-black tree decides overlaps);
 *   - node --perf-basic-prof running a JS loop, recorded by perf with -g:
 *     every callchain line in the map is perf's, and JS names show.
 * Before the map files were read, each of these lines said [unknown]. */
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

/* perf 6.1.192 prints a sample exactly at the start of the size-0 symbol
 * ("+400 0 zero_size") with the offset 0x400 - ip, i.e. minus the sled's
 * base, where perfev prints +0x0 (documented in perfev-script(1)).  True
 * when y is x with that one offset: the sample's ip is the symbol's start
 * and perf's offset is exactly 0x400 - ip (mod 2^64). */
static bool zero_size_quirk(const char *x, const char *y)
{
	const char *px = strstr(x, " zero_size+0x0 "), *py = strstr(y, " zero_size+0x");
	unsigned long long ip, off;
	char *end;

	if (!px || !py || px - x != py - y || strncmp(x, y, (size_t)(px - x)))
		return false;
	off = strtoull(py + strlen(" zero_size+0x"), &end, 16);
	if (strcmp(end, px + strlen(" zero_size+0x0")))
		return false;
	/* the ip is the word before the symbol */
	const char *p = px;

	while (p > x && p[-1] != ' ')
		p--;
	ip = strtoull(p, NULL, 16);
	return ip > 0x400 && off == 0x400 - ip;
}

/* The lines of both outputs that mention a perf map must be the same
 * lines (but for zero_size_quirk), and the outputs have as many lines. */
static void same_map_lines(const char *what, const char *data, size_t min_js)
{
	char pa[128], pb[128];
	size_t la, lb, n = 0, js = 0, quirks = 0;

	CHECK_EQ_INT(t_sh("%s script -i %s > %s/a.txt 2>/dev/null", perfev, data, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s > %s/b.txt 2>/dev/null", PERF, data, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);
	char *sa, *sb;
	char *x = strtok_r(a, "\n", &sa), *y = strtok_r(b, "\n", &sb);
	size_t line = 1;

	for (; x && y; x = strtok_r(NULL, "\n", &sa), y = strtok_r(NULL, "\n", &sb), line++) {
		bool ma = strstr(x, "/tmp/perf-") != NULL, mb = strstr(y, "/tmp/perf-") != NULL;

		if (!ma && !mb)
			continue;
		n++;
		js += strstr(y, "JS:") != NULL;
		if (strcmp(x, y) && zero_size_quirk(x, y)) {
			quirks++;
			continue;
		}
		if (strcmp(x, y)) {
			T_FAIL("%s: line %zu differs:\n  perfev: %s\n  perf:   %s", what, line, x, y);
			x = y = NULL;	/* one difference is enough */
			break;
		}
	}
	CHECK_MSG(!x && !y, "%s: the outputs have different line counts", what);
	CHECK_MSG(n > 0, "%s: perf printed no sample in a perf map", what);
	CHECK_MSG(js >= min_js, "%s: %zu JS frames in perf's output", what, js);
	printf("%s: %zu map lines identical (%zu JS), %zu at zero_size's start printed +0x0 where perf "
	       "prints 0x400 - ip\n", what, n - quirks, js, quirks);
	free(a);
	free(b);
}

static void test_sled(const char *build)
{
	char helper[4200], map[128];
	FILE *f;

	snprintf(helper, sizeof(helper), "%s/tests/helpers/jit_sled", build);
	if (access(helper, X_OK))
		T_FATAL("helper %s is missing", helper);
	snprintf(map, sizeof(map), "%s/map.txt", dir);
	f = fopen(map, "w");
	CHECK(f);
	/* '+OFF' lines get the sled's address; the rest go in as they are.
	 * The last line has no newline: perf drops its last character. */
	fputs("+0 800 outer\n+100 100 inner_a\n+100 80 dup_start\n+400 0 zero_size\n"
	      "+600 400 overlap_tail\n+1000 0x200 with_0x\n  +1300 100 leading_space\n"
	      "bad line\n+1400 1\n+1500 100 name with spaces\r\n+1600 -1 negative\n\n"
	      "+1800 100 x\n+1900 100 xy\n+1a00 100 AAA\n+1a80 100 BBB\n+1a00 40 CCC\n"
	      "+1c00 300 last_no_newline", f);
	fclose(f);
	CHECK_EQ_INT(t_sh("cd %s && timeout -k 2 60 %s record -q -e task-clock -c 20000 "
			  "-o sled.data -- %s %s 1500 > /dev/null 2>&1", dir, PERF, helper, map), 0);
	char data[128];

	snprintf(data, sizeof(data), "%s/sled.data", dir);
	same_map_lines("sled", data, 0);
}

static void test_node(void)
{
	char js[128], data[128];
	FILE *f;

	if (t_sh("node --version > /dev/null 2>&1")) {
		printf("node is not installed: node part not run\n");
		return;
	}
	snprintf(js, sizeof(js), "%s/loop.js", dir);
	f = fopen(js, "w");
	CHECK(f);
	fputs("function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
	      "let s = 0; const t = Date.now();\n"
	      "while (Date.now() - t < 600) s += fib(18);\n"
	      "if (s < 0) console.log(s);\n", f);
	fclose(f);
	CHECK_EQ_INT(t_sh("cd %s && timeout -k 2 120 %s record -q -g -e task-clock -c 100000 "
			  "-o node.data -- node --perf-basic-prof %s > /dev/null 2>&1",
			  dir, PERF, js), 0);
	snprintf(data, sizeof(data), "%s/node.data", dir);
	same_map_lines("node", data, 10);
}

int main(void)
{
	const char *b = getenv("PERFEV_BUILD");

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	snprintf(dir, sizeof(dir), "/tmp/pev-jitmap-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	char build[4096];

	if (!realpath(b ? b : "build", build))
		T_FATAL("build dir missing");
	test_sled(build);
	test_node();
	/* The map files our children wrote (their pids are in sled.data and
	 * node.data: remove every map that perf lists for them). */
	t_sh("for f in %s/sled.data %s/node.data; do [ -f $f ] && %s script -i $f -F pid 2>/dev/null "
	     "| sort -u | while read p; do rm -f /tmp/perf-$p.map; done; done", dir, dir, PERF);
	t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
