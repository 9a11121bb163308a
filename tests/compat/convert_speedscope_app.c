// SPDX-License-Identifier: GPL-2.0-only
/* perfev convert --to speedscope opened in the real consumer: the
 * speedscope app of the speedscope npm package (tests/js, installed by
 * scripts/deps.sh), served on 127.0.0.1 and loaded in headless Debian
 * chromium by tests/js/speedscope_app.js (puppeteer-core): files perf
 * recorded from python3 (-g, three threads) and from a g++ -O2 -g
 * program (--call-graph dwarf) load with no page or console error and no
 * request leaving 127.0.0.1, and the app shows the first thread's profile
 * name (its comm, pid/tid, which perf script names too).  A file cut in
 * half must make the same check fail (the check can fail).  One browser
 * at a time on this machine: the run holds /tmp/perfev-chromium.lock
 * (flock).  The screenshot is kept next to this test's binary. */
#include "report_cmp.h"

static char shot[4096];

/* the app on file; the screenshot kept when keep */
static int app(const char *file, bool keep)
{
	return t_sh("flock -w 300 /tmp/perfev-chromium.lock timeout -k 2 120 node tests/js/speedscope_app.js %s %s > %s/app.txt 2>&1; rc=$?; cat %s/app.txt; exit $rc",
		    file, keep ? shot : "", dir, dir);
}

int main(int argc, char **argv)
{
	char py[128], cxx[128], bin[128], f[128], out[160];

	(void)argc;
	report_cmp_start("/tmp/perfev-ssapp-XXXXXX", true);
	if (access("/usr/bin/chromium", X_OK))
		T_SKIP("/usr/bin/chromium is not installed (scripts/deps.sh installs it)");
	if (!have("node") || !have("flock"))
		T_SKIP("node or flock is not installed");
	if (access("tests/js/node_modules/speedscope/dist/release/index.html", R_OK) ||
	    access("tests/js/node_modules/puppeteer-core/package.json", R_OK))
		T_SKIP("tests/js/node_modules lacks speedscope or puppeteer-core (scripts/deps.sh: npm ci --prefix tests/js)");
	snprintf(shot, sizeof(shot), "%s.png", argv[0]);
	report_cmp_write(py, sizeof(py), "w.py",
			 "import json, threading\n"
			 "def work():\n"
			 "    for i in range(20000): json.dumps({'a': i})\n"
			 "ts = [threading.Thread(target=work) for _ in range(2)]\n"
			 "[t.start() for t in ts]\nwork()\n[t.join() for t in ts]\n");
	report_cmp_write(cxx, sizeof(cxx), "t.cc", report_cxx_src);

	snprintf(f, sizeof(f), "%s/py.data", dir);
	snprintf(out, sizeof(out), "%s/py.speedscope.json", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to speedscope -o %s", perfev, f, out), 0);
	/* the name the app must show, from perf script: the first
	 * thread's comm pid/tid (threads in pid, then tid order) */
	CHECK_EQ_INT(t_sh("%s script -i %s -F comm,pid,tid 2>/dev/null | awk '{print $1, $2}' | sort -t/ -k2 -n -u | head -1 > %s/name.txt",
			  PERF, f, dir), 0);
	CHECK_EQ_INT(t_sh("grep -qF \"\\\"name\\\":\\\"$(cat %s/name.txt)\\\"\" %s", dir, out), 0);
	CHECK_EQ_INT(app(out, true), 0);

	snprintf(bin, sizeof(bin), "%s/cxx", dir);
	if (have("g++") && !t_sh("g++ -O2 -g -o %s %s", bin, cxx)) {
		snprintf(f, sizeof(f), "%s/cxx.data", dir);
		snprintf(out, sizeof(out), "%s/cxx.speedscope.json", dir);
		CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 200000 -o %s -- %s 60 > /dev/null 2>&1",
				  PERF, f, bin), 0);
		CHECK_EQ_INT(t_sh("%s convert -q -i %s --to speedscope --value period -o %s", perfev, f, out), 0);
		CHECK_EQ_INT(app(out, false), 0);
	}

	/* a damaged file: the app reports an error, the check fails */
	CHECK_EQ_INT(t_sh("python3 -c 'import sys; d=open(sys.argv[1]).read(); "
			  "i=d.index(\"\\\"samples\\\"\"); open(sys.argv[2],\"w\").write(d[:i] + \"\\\"samples\\\":[[999999]],\" + d[d.index(\"\\\"weights\\\"\", i):])' %s %s/bad.json",
			  out, dir), 0);
	snprintf(f, sizeof(f), "%s/bad.json", dir);
	printf("a damaged file (the app must fail it):\n");
	fflush(stdout);
	CHECK_MSG(app(f, false) != 0, "the app check passed a file whose sample names frame 999999");
	return report_cmp_end();
}
