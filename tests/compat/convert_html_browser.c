// SPDX-License-Identifier: GPL-2.0-only
/* perfev flamegraph (convert --to html) in its real consumer: headless
 * Chromium (Debian's chromium) driven over the DevTools protocol by
 * tests/helpers/flamegraph_browser.js.  Files perf records at test time:
 *  - a program of ours whose twice() runs twice as long as once(): the
 *    frames are drawn as wide as perf report's Children percentages (1%),
 *    searching "twice" paints it magenta on the canvas and shows perf's
 *    percentage, clicking it zooms on it (once() vanishes), Reset zoom
 *    and the flame/icicle switch work, a tooltip shows; no console error,
 *    no request (every one intercepted), and the page's CSP refuses a
 *    fetch it is made to try;
 *  - python3 -g: its five widest named frames as wide as perf says;
 *  - a C++ program (g++ -O2 -g, --call-graph dwarf) and node
 *    --perf-basic-prof: inlined frames drawn aqua, JIT frames green,
 *    kernel frames orange, user code red-yellow (flamegraph.pl's palettes);
 *  - a differential graph (--diff OLD) of the program run 2:1 then 1:2:
 *    once() red (grew), twice() blue (shrank), widths of the new file;
 *  - the Time selector of files with an offcpu-time event (on-CPU,
 *    off-CPU, both): a program that burns in burn() and sleeps 5 x 200 ms
 *    recorded by perfev record --off-cpu (perf 6.1 here cannot: no BPF
 *    skeleton): burn() and main() as wide as perf report's Children in
 *    the cpu-clock and offcpu-time events, and in both weighted by their
 *    event counts (wall-clock time), the off-CPU frames blue;
 *  - a synthetic profile of 50k functions and a million frames: the
 *    page loads, searches, zooms and redraws within 10 s each (generous:
 *    CI is loaded; about 1.2 s and under 0.3 s unloaded).
 * A screenshot is kept in BUILD/test-artifacts/flamegraph.png.  Skips
 * only when chromium or node is not installed. */
#include "report_cmp.h"

static const char work_src[] =
	"#include <stdlib.h>\n"
	"static volatile unsigned long sink;\n"
	"__attribute__((noinline)) void twice(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }\n"
	"__attribute__((noinline)) void once(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }\n"
	"int main(int argc, char **argv)\n{\n"
	"	unsigned long a = strtoul(argv[1], 0, 10), b = strtoul(argv[2], 0, 10);\n"
	"	for (int r = 0; r < 20; r++) { twice(a * 5000000); once(b * 5000000); }\n"
	"	return 0;\n}\n";

static const char *chromium;
static char helper[256], shot[512];

/* perf report's Children percentage of symbol sym in file (-1: none) */
static double perf_children(const char *file, const char *sym)
{
	char out[160], line[4096];
	double pct = -1;

	snprintf(out, sizeof(out), "%s/rep.txt", dir);
	if (t_sh("%s report -i %s --stdio --children --sort sym -g none > %s 2>/dev/null", PERF, file, out))
		return -1;
	FILE *f = fopen(out, "r");

	while (f && fgets(line, sizeof(line), f)) {
		double c, s;
		int n = 0;

		line[strcspn(line, "\n")] = 0;
		if (line[0] != '#' && sscanf(line, " %lf%% %lf%% [%*c] %n", &c, &s, &n) == 2 && n &&
		    !strcmp(line + n, sym)) {
			pct = c;
			break;
		}
	}
	if (f)
		fclose(f);
	return pct;
}

/* perf report's Children percentage of sym in the section of event, and
 * that event's count (its total period); -1 when missing */
static double perf_children_ev(const char *file, const char *event, const char *sym, double *count)
{
	char out[160], line[4096], want[256];
	double pct = -1;
	bool in = false;

	*count = -1;
	snprintf(out, sizeof(out), "%s/rep.txt", dir);
	snprintf(want, sizeof(want), "of event '%s'", event);
	if (t_sh("%s report -i %s --stdio --children --sort sym -g none > %s 2>/dev/null", PERF, file, out))
		return -1;
	FILE *f = fopen(out, "r");

	while (f && fgets(line, sizeof(line), f)) {
		double c, s;
		int n = 0;

		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "# Samples:", 10))
			in = strstr(line, want) != NULL;
		else if (in && !strncmp(line, "# Event count (approx.): ", 25))
			*count = atof(line + 25);
		else if (in && line[0] != '#' && sscanf(line, " %lf%% %lf%% [%*c] %n", &c, &s, &n) == 2 && n &&
			 !strcmp(line + n, sym))
			pct = c;
	}
	if (f)
		fclose(f);
	return pct;
}

static const char sleep_src[] =
	"#include <time.h>\n"
	"static volatile unsigned long sink;\n"
	"__attribute__((noinline)) void nap(void) { struct timespec t = { 0, 200000000 }; nanosleep(&t, 0); }\n"
	"__attribute__((noinline)) void burn(void) { for (unsigned long i = 0; i < 40000000; i++) sink += i; }\n"
	"int main(void) { for (int i = 0; i < 5; i++) { nap(); burn(); } return 0; }\n";

/* the widest user-space frames perf report names (not bare addresses,
 * which the flame graph names [dso] or [unknown] as flamegraph tools do;
 * not kernel functions such as the interrupt exits, spread over hundreds
 * of stacks in slivers narrower than the half pixel below which a flame
 * graph leaves a frame out) */
static size_t perf_top(const char *file, char names[][128], double *pcts, size_t max)
{
	char out[160], line[4096];
	size_t k = 0;

	snprintf(out, sizeof(out), "%s/top.txt", dir);
	if (t_sh("%s report -i %s --stdio --children --sort sym -g none > %s 2>/dev/null", PERF, file, out))
		return 0;
	FILE *f = fopen(out, "r");

	while (f && k < max && fgets(line, sizeof(line), f)) {
		double c, s;
		int n = 0;

		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || sscanf(line, " %lf%% %lf%% [.] %n", &c, &s, &n) != 2 || !n ||
		    !strncmp(line + n, "0x", 2) || !line[n + strspn(line + n, "0123456789abcdef")] || strlen(line + n) >= 127 || strchr(line + n, '\''))
			continue;
		snprintf(names[k], 128, "%s", line + n);
		pcts[k++] = c;
	}
	if (f)
		fclose(f);
	return k;
}

static int browse(const char *html, const char *checks)
{
	printf("-- %s: %s\n", html, checks);
	fflush(stdout);
	return t_sh("timeout -k 5 120 node %s --chromium %s --html %s --profile %s/chrome-profile-$$ %s 2>&1",
		    helper, chromium, html, dir, checks);
}

int main(void)
{
	char src[128], bin[128], f[128], f2[128], html[160], py[128], args[4096], names[5][128];
	double pcts[5];

	report_cmp_start("/tmp/perfev-fghtml-XXXXXX", true);
	snprintf(helper, sizeof(helper), "tests/helpers/flamegraph_browser.js");
	if (access(helper, R_OK))
		T_FATAL("%s is missing", helper);
	chromium = !access("/usr/bin/chromium", X_OK) ? "/usr/bin/chromium" : NULL;
	if (!chromium)
		T_SKIP("chromium is not installed (/usr/bin/chromium): apt-get install chromium");
	if (!have("node"))
		T_SKIP("node is not installed: apt-get install nodejs");
	if (!have("gcc"))
		T_SKIP("gcc is not installed");
	snprintf(shot, sizeof(shot), "%s/test-artifacts/flamegraph.png",
		 getenv("PERFEV_BUILD") ? getenv("PERFEV_BUILD") : "build");

	/* the known workload: twice() 2, once() 1 */
	report_cmp_write(src, sizeof(src), "w.c", work_src);
	snprintf(bin, sizeof(bin), "%s/w", dir);
	CHECK_EQ_INT(t_sh("gcc -O0 -fno-omit-frame-pointer -o %s %s", bin, src), 0);
	snprintf(f, sizeof(f), "%s/w.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- %s 2 1 > /dev/null 2>&1",
			  PERF, f, bin), 0);
	double tw = perf_children(f, "twice"), on = perf_children(f, "once"), mn = perf_children(f, "main");

	printf("perf report: twice %.2f%%, once %.2f%%, main %.2f%%\n", tw, on, mn);
	CHECK_MSG(tw > 0 && on > 0 && tw / on > 1.6 && tw / on < 2.4,
		  "the workload is not 2:1 (twice %.2f%%, once %.2f%%)", tw, on);
	/* the short form's default output name */
	char abs[4096];

	CHECK_MSG(realpath(perfev, abs), "no %s", perfev);
	CHECK_EQ_INT(t_sh("cd %s && %s flamegraph -q -i w.data", dir, abs), 0);
	snprintf(html, sizeof(html), "%s/flamegraph.html", dir);
	CHECK_MSG(!access(html, R_OK), "perfev flamegraph wrote no %s", html);
	snprintf(args, sizeof(args),
		 "--shot %s --width twice=%.2f --width once=%.2f --width main=%.2f --search twice=%.2f "
		 "--zoom twice --zoom-hides once", shot, tw, on, mn, tw);
	CHECK_MSG(browse(html, args) == 0, "the flame graph of the 2:1 workload failed in chromium");

	/* python3 */
	snprintf(py, sizeof(py), "%s/w.py", dir);
	report_cmp_write(py, sizeof(py), "w.py", report_py_src);
	snprintf(f2, sizeof(f2), "%s/py.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f2, py), 0);
	size_t n = perf_top(f2, names, pcts, 5);

	CHECK_MSG(n == 5, "perf report named %zu frames of python3", n);
	snprintf(html, sizeof(html), "%s/py.html", dir);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to html -o %s", perfev, f2, html), 0);
	args[0] = 0;
	for (size_t i = 0; i < n; i++)
		snprintf(args + strlen(args), sizeof(args) - strlen(args), "--width '%s=%.2f' ", names[i], pcts[i]);
	snprintf(args + strlen(args), sizeof(args) - strlen(args), "--search '%s=%.2f'", names[n > 1], pcts[n > 1]);
	CHECK_MSG(browse(html, args) == 0, "the flame graph of python3 failed in chromium");

	/* inline frames (C++, DWARF) and JIT frames (node's perf map) */
	snprintf(src, sizeof(src), "%s/t.cc", dir);
	report_cmp_write(src, sizeof(src), "t.cc", report_cxx_src);
	char cxx[128];

	snprintf(cxx, sizeof(cxx), "%s/cxx", dir);
	if (have("g++") && !t_sh("g++ -O2 -g -o %s %s", cxx, src)) {
		snprintf(f2, sizeof(f2), "%s/cxx.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 200000 -o %s -- %s 100 > /dev/null 2>&1",
				  PERF, f2, cxx), 0);
		snprintf(html, sizeof(html), "%s/cxx.html", dir);
		CHECK_EQ_INT(t_sh("%s convert -q -i %s --to html -o %s", perfev, f2, html), 0);
		CHECK_MSG(browse(html, "--kind inline --kind user") == 0, "the C++ flame graph failed in chromium");
	}
	snprintf(src, sizeof(src), "%s/loop.js", dir);
	/* JIT frames (fib) and kernel frames: each turn also reads a /proc
	 * file, so that the kernel's share does not hang on what node's
	 * start-up happened to do (kernel frames were too thin to draw in
	 * some runs on a loaded machine) */
	report_cmp_write(src, sizeof(src), "loop.js",
			 "const fs = require('fs');\n"
			 "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
			 "let s = 0; const t = Date.now();\n"
			 "while (Date.now() - t < 600) { s += fib(18); s += fs.readFileSync('/proc/self/stat').length; }\n"
			 "if (s < 0) console.log(s);\n");
	CHECK_EQ_INT(t_sh("cd %s && timeout -k 2 120 %s record -q -g -e cpu-clock -c 100000 "
			  "-o node.data -- node --perf-basic-prof %s > /dev/null 2>&1", dir, PERF, src), 0);
	snprintf(f2, sizeof(f2), "%s/node.data", dir);
	snprintf(html, sizeof(html), "%s/node.html", dir);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to html -o %s", perfev, f2, html), 0);
	CHECK_MSG(browse(html, "--kind jit --kind kernel") == 0, "the node flame graph failed in chromium");

	/* differential: the same program 1:2 against 2:1 */
	snprintf(f2, sizeof(f2), "%s/w2.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- %s 1 2 > /dev/null 2>&1",
			  PERF, f2, bin), 0);
	tw = perf_children(f2, "twice");
	on = perf_children(f2, "once");
	snprintf(html, sizeof(html), "%s/diff.html", dir);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --diff %s --to html -o %s", perfev, f2, f, html), 0);
	snprintf(args, sizeof(args), "--width twice=%.2f --width once=%.2f --grew once --shrank twice", tw, on);
	CHECK_MSG(browse(html, args) == 0, "the differential flame graph failed in chromium");

	/* a real off-CPU recording */
	snprintf(src, sizeof(src), "%s/sl.c", dir);
	report_cmp_write(src, sizeof(src), "sl.c", sleep_src);
	char sl[128], fo[128];
	double on_n, off_n, bn, mn_on, mn_off;

	snprintf(sl, sizeof(sl), "%s/sl", dir);
	snprintf(fo, sizeof(fo), "%s/off.data", dir);
	CHECK_EQ_INT(t_sh("gcc -O0 -fno-omit-frame-pointer -o %s %s", sl, src), 0);
	CHECK_EQ_INT(t_sh("timeout -k 2 60 %s record -q --off-cpu -g -o %s -- %s > /dev/null 2>&1", perfev, fo, sl), 0);
	bn = perf_children_ev(fo, "cpu-clock", "burn", &on_n);
	mn_on = perf_children_ev(fo, "cpu-clock", "main", &on_n);
	mn_off = perf_children_ev(fo, "offcpu-time", "main", &off_n);
	printf("perf report: cpu-clock %.0f ns, burn %.2f%%, main %.2f%%; offcpu-time %.0f ns, main %.2f%%\n",
	       on_n, bn, mn_on, off_n, mn_off);
	CHECK_MSG(bn > 0 && mn_on > 0 && mn_off > 0 && on_n > 0 && off_n > 9e8,
		  "perf report does not show the off-CPU recording's frames");
	snprintf(html, sizeof(html), "%s/off.html", dir);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to html -o %s", perfev, fo, html), 0);
	/* --unit ns: the clock events and offcpu-time only, not the sched_switch
	 * samples (period 1) the off-CPU time is made of */
	snprintf(args, sizeof(args), "--unit ns --time on:burn=%.2f --time on:main=%.2f --time off:main=%.2f "
		 "--time both:burn=%.2f --time both:main=%.2f", bn, mn_on, mn_off,
		 bn * on_n / (on_n + off_n), (mn_on * on_n + mn_off * off_n) / (on_n + off_n));
	CHECK_MSG(browse(html, args) == 0, "the off-CPU flame graph failed in chromium");

	/* 50k functions, a million frames */
	snprintf(html, sizeof(html), "%s/synth.html", dir);
	CHECK_EQ_INT(t_sh("node tests/helpers/flamegraph_synth.js %s/flamegraph.html %s 50000 1000000 1000000",
			  dir, html), 0);
	CHECK_MSG(browse(html, "--max-ms 10000") == 0, "the large synthetic flame graph failed in chromium");

	/* bad command lines */
	CHECK_EQ_INT(t_sh("%s convert -i %s --to folded --diff %s > /dev/null 2>&1", perfev, f2, f), 2);
	CHECK_EQ_INT(t_sh("%s flamegraph -i %s --to folded -o /dev/null > /dev/null 2>&1", perfev, f2), 2);
	CHECK_EQ_INT(t_sh("%s flamegraph -i %s --diff %s/none.data -o /dev/null > /dev/null 2>&1", perfev, f2, dir), 1);
	return report_cmp_end();
}
