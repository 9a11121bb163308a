// SPDX-License-Identifier: GPL-2.0-only
/* perfev convert --to folded against perf: files perf records at test
 * time from programs we did not write (python3 with -g and with
 * --call-graph dwarf, a C++ program built with g++ -O2 -g, gcc's cc1) and
 * files perfev records (-g, dwarf),
 * `perf script` run through an independent stackcollapse
 * (tests/helpers/stackcollapse.py: stackcollapse-perf.pl's rules), byte
 * for byte; with --with-pid/--with-tid, --kernel-tag, --value period and
 * a comm filter (perf script --comms), --no-inline; then bad command
 * lines.  A chain perf drops whole (an invalid context marker: cc1) has no
 * frames, as perf script shows it. */
#include "report_cmp.h"

static char collapse[4096];

static void same_folded(const char *file, const char *script_opts, const char *sc_opts,
			const char *conv_opts)
{
	size_t la, lb, line, start;
	char pa[128], pb[128];

	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to folded %s > %s/a.txt", perfev, file,
			  conv_opts, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s %s 2>/dev/null | python3 %s %s > %s/b.txt", PERF,
			  file, script_opts, collapse, sc_opts, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(b && lb > 0, "%s: perf script gave no stacks", file);
	if (a && b && t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s '%s': first difference on line %zu:\nperfev: %.300s\nperf:   %.300s",
		       file, conv_opts, line, a + start, b + start);
	else if (a && b)
		printf("%s '%s': %zu bytes identical\n", file, conv_opts, la);
	free(a);
	free(b);
}

static void all_modes(const char *file)
{
	same_folded(file, "", "", "");
	same_folded(file, "", "--pid", "--with-pid");
	same_folded(file, "", "--tid --kernel", "--with-tid --kernel-tag");
	same_folded(file, "", "--period", "--value period");
}

int main(void)
{
	char py[128], c[128], cxx[128], bin[128], f[128];

	report_cmp_start("/tmp/perfev-folded-XXXXXX", true);
	/* run from the source tree, as every test */
	snprintf(collapse, sizeof(collapse), "tests/helpers/stackcollapse.py");
	if (access(collapse, R_OK))
		T_FATAL("%s is missing", collapse);
	if (!have("python3"))
		T_SKIP("python3 is not installed (it runs the independent stackcollapse)");
	report_cmp_write(py, sizeof(py), "w.py", report_py_src);
	report_cmp_write(c, sizeof(c), "t.c", report_c_src);
	report_cmp_write(cxx, sizeof(cxx), "t.cc", report_cxx_src);

	/* python3 (no frame pointers: broken chains, [unknown] frames) */
	snprintf(f, sizeof(f), "%s/py.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	all_modes(f);
	same_folded(f, "--comms python3", "", "--comm python3");
	/* the same program unwound with DWARF */
	snprintf(f, sizeof(f), "%s/pyd.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 400000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	all_modes(f);
	/* DWARF gives inline frames: both leave them out */
	CHECK_MSG(!t_sh("%s script -i %s 2>/dev/null | grep -q '(inlined)'", PERF, f),
		  "%s: perf script shows no inline frame (the --no-inline case proves nothing)", f);
	same_folded(f, "--no-inline", "", "--no-inline");
	/* gcc's cc1 */
	if (have("gcc")) {
		snprintf(f, sizeof(f), "%s/cc1.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- gcc -O2 -c %s -o %s/t.o > /dev/null 2>&1",
				  PERF, f, c, dir), 0);
		all_modes(f);
	}
	/* C++ built with -O2 -g: inlined frames */
	snprintf(bin, sizeof(bin), "%s/cxx", dir);
	if (have("g++") && !t_sh("g++ -O2 -g -o %s %s", bin, cxx)) {
		snprintf(f, sizeof(f), "%s/cxx.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- %s 100 > /dev/null 2>&1",
				  PERF, f, bin), 0);
		all_modes(f);
	}

	/* a file perfev recorded (perf script reads it) */
	snprintf(f, sizeof(f), "%s/pev.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  perfev, f, py), 0);
	all_modes(f);
	snprintf(f, sizeof(f), "%s/pevd.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 400000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  perfev, f, py), 0);
	same_folded(f, "", "", "");

	/* bad command lines: exit 2 with a message; a missing file: 1 */
	snprintf(f, sizeof(f), "%s/py.data", dir);
	CHECK_EQ_INT(t_sh("%s convert -i %s > /dev/null 2>&1", perfev, f), 2);
	CHECK_EQ_INT(t_sh("%s convert -i %s --to bogus > /dev/null 2>&1", perfev, f), 2);
	CHECK_EQ_INT(t_sh("%s convert -i %s --to folded --value bytes > /dev/null 2>&1", perfev, f), 2);
	CHECK_EQ_INT(t_sh("%s convert -i %s --to folded --event cycles > /dev/null 2>&1", perfev, f), 2);
	CHECK_EQ_INT(t_sh("%s convert -i %s/none.data --to folded > /dev/null 2>&1", perfev, dir), 1);
	CHECK_EQ_INT(t_sh("%s convert -i %s --to folded -o %s/no/such/dir > /dev/null 2>&1",
			  perfev, f, dir), 1);
	return report_cmp_end();
}
