// SPDX-License-Identifier: GPL-2.0-only
/* perfev report against perf report --stdio 6.1, byte for byte, on files
 * recorded by /usr/bin/perf at test time (the second half of
 * report_perf): a C++ program built with g++ -O2 -g (with source lines
 * of a C program built -O2 -g), and perf's own threaded "bench sched
 * messaging -t", with -g, in many modes. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_cmp.h"

int main(void)
{
	char path[256], file[256];

	report_cmp_start("/tmp/perfev-report2-XXXXXX", true);

	/* A C++ program built with g++ -O2 -g: source lines too. */
	if (have("g++")) {
		report_cmp_write(path, sizeof(path), "w.cc", report_cxx_src);
		CHECK_EQ_INT(t_sh("g++ -O2 -g -o %s/wcc %s", dir, path), 0);
		snprintf(file, sizeof(file), "%s/cxx-g.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -g -o %s -- %s/wcc 150 > /dev/null 2>&1",
				  PERF, file, dir), 0);
		report_modes("g++ -O2 -g program -g", file, true);
	} else {
		printf("g++ part skipped: no g++ in PATH\n");
	}

	/* Source lines (-g address, --sort srcline) of a C program built with
	 * gcc -O2 -g, with glibc's: perf takes them from binutils' addr2line,
	 * which names the unit's own file for the rows a DWARF 5 sequence
	 * starts with (dl-get-cpu-features.c where the line table says
	 * dl-cacheinfo.h), as perfev now reads them. */
	if (have("gcc")) {
		report_cmp_write(path, sizeof(path), "t.c", report_c_src);
		CHECK_EQ_INT(t_sh("gcc -O2 -g -o %s/ctree %s", dir, path), 0);
		snprintf(file, sizeof(file), "%s/ctree-g.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 8000 -g -o %s -- sh -c "
				  "'for i in 1 2 3 4 5 6 7 8; do %s/ctree; done' > /dev/null 2>&1",
				  PERF, file, dir), 0);
		same_report("gcc -O2 -g program -g", file, "--sort srcline --no-children");
		same_report("gcc -O2 -g program -g", file, "--sort srcline");
		same_report("gcc -O2 -g program -g", file, "-g address");
		same_report("gcc -O2 -g program -g", file, "--no-children -g address,callee --dsos ctree");
	}

	/* Threads: perf's own bench, 20 threads talking over pipes. */
	snprintf(file, sizeof(file), "%s/thr-g.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 2000 -g -o %s -- %s bench sched messaging -t -g 2 -l 200 > /dev/null 2>&1",
			  PERF, file, PERF), 0);
	report_modes("threads -g", file, true);
	same_report("threads -g", file, "--no-children --sort pid,sym");

	return report_cmp_end();
}
