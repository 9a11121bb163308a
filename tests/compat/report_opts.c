// SPDX-License-Identifier: GPL-2.0-only
/* perfev report's --header, --header-only, --stats, -T/--threads and a
 * bare -g (perf's optional argument: `-g`, `-g caller`, `-g -n`, -g last)
 * and the -F/--fields forms perfev takes, --symfs and --vmlinux
 * against perf report --stdio 6.1 (the oracle), byte for byte, on files
 * recorded by /usr/bin/perf at test time: python3 running a script with
 * -g, perf's own threaded "bench sched messaging -t" recorded with -s
 * (per-thread READ records, what -T prints), and a pipe-mode recording
 * read from stdin.  perf ends with a random tip: that block is left out
 * of the comparison. */
#include <sys/stat.h>
#include <unistd.h>

#include "report_cmp.h"

static const char *const modes[] = {
	"--stats", "--header-only", "--header", "--header --no-children",
	"--header --stats", "--header -q", "--header-only -q", "-T", "-T -q",
	"-g", "-g caller", "-g callee", "-g -n", "-n -g", "--call-graph",
	"-gcaller", "-g 0.5", "-g --no-children", "-g caller --no-children",
	"-g folded", "-F overhead_children,overhead,sym",
	"-F overhead_children,overhead,sample,period,dso,sym",
	"-F overhead_children,overhead,comm,dso -g callee",
	"-F overhead,sym --no-children", "-F overhead,sym,comm --no-children",
	"-F overhead,overhead_sys,overhead_us,comm --no-children",
	"-F overhead,comm,sym --no-children -g caller", NULL,
};

static const char py_src[] =
	"import json\ns = 0\nfor i in range(60000):\n"
	"    s += len(json.dumps({'a': i, 'b': [i, str(i) * 3]}))\nprint(s)\n";

int main(void)
{
	char path[256], file[256], in[300];

	report_cmp_start("/tmp/perfev-ropts-XXXXXX", true);

	/* python3 with call chains (or a shell loop where there is none) */
	report_cmp_write(path, sizeof(path), "w.py", py_src);
	snprintf(file, sizeof(file), "%s/py-g.data", dir);
	if (!t_sh("command -v python3 > /dev/null 2>&1"))
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -g -o %s -- python3 %s > /dev/null 2>&1",
				  PERF, file, path), 0);
	else
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -g -o %s -- sh -c "
				  "'for i in $(seq 1 30000); do :; done' > /dev/null 2>&1",
				  PERF, file), 0);
	snprintf(in, sizeof(in), "-i %s", file);
	for (const char *const *m = modes; *m; m++)
		same_report_in("python3 -g", in, *m, NULL);
	same_report_in("python3 -g", in, "--no-children -g", NULL);	/* -g last */

	/* 20 threads with -s: a READ record per thread at its exit, summed
	 * per thread by -T; no call chains */
	snprintf(file, sizeof(file), "%s/thr-s.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -s -e cpu-clock -F 2000 -o %s -- %s bench sched messaging -t -g 2 -l 100 > /dev/null 2>&1",
			  PERF, file, PERF), 0);
	snprintf(in, sizeof(in), "-i %s", file);
	same_report_in("threads -s", in, "-T", NULL);
	same_report_in("threads -s", in, "-T -n --sort pid", NULL);
	same_report_in("threads -s", in, "--stats", NULL);
	same_report_in("threads -s", in, "--header", NULL);
	same_report_in("threads -s", in, "-F overhead,sample,comm", NULL);
	same_report_in("threads -s", in, "-F overhead,period,pid", NULL);
	same_report_in("threads -s", in, "-F overhead,dso,sym", NULL);
	same_report_in("threads -s", in, "-F comm,overhead", NULL);
	same_report_in("threads -s", in, "-F overhead_children,overhead,sym", NULL);

	/* pipe mode, from stdin: the header records are counted in --stats;
	 * perf reports a pipe without children (it decides before reading
	 * the attrs) but in the caller order children mode chose */
	snprintf(file, sizeof(file), "%s/pipe.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -s -e cpu-clock -F 4000 -g -o - -- sh -c "
			  "'for i in $(seq 1 20000); do :; done; seq 1 300000 > /dev/null' "
			  "> %s 2> /dev/null", PERF, file), 0);
	snprintf(in, sizeof(in), "-i - < %s", file);
	same_report_in("pipe", in, "--stats", NULL);
	same_report_in("pipe", in, "--header-only", NULL);
	same_report_in("pipe", in, "--header", NULL);
	same_report_in("pipe", in, "-T", NULL);
	same_report_in("pipe", in, "-g caller", NULL);
	same_report_in("pipe", in, "", NULL);
	same_report_in("pipe", in, "-g callee -n", NULL);

	/* perf record -z: --stats counts the COMPRESSED records too */
	snprintf(file, sizeof(file), "%s/z.data", dir);
	if (!t_sh("%s record -z -q -e cpu-clock -F 4000 -o %s -- sh -c "
		  "'for i in $(seq 1 20000); do :; done' > /dev/null 2>&1", PERF, file)) {
		snprintf(in, sizeof(in), "-i %s", file);
		same_report_in("zstd", in, "--stats", NULL);
		same_report_in("zstd", in, "--header", NULL);
	} else {
		printf("zstd part skipped: this perf cannot record -z\n");
	}

	/* --symfs: a gcc -O1 -g program recorded with perf (no build-id
	 * cache: an empty PERF_BUILDID_DIR, -N), then moved under a symfs
	 * root: found there (kernel symbols then only with --kallsyms, as
	 * in perf); --vmlinux with a file that is not an ELF image leaves
	 * the kernel unresolved, as in perf; a missing one is an error */
	if (!t_sh("command -v gcc > /dev/null 2>&1")) {
		char bid[128];

		snprintf(bid, sizeof(bid), "%s/bid", dir);
		setenv("PERF_BUILDID_DIR", bid, 1);
		CHECK_EQ_INT(t_sh("printf '%%s\\n' '#include <stdio.h>' 'static volatile long x;' "
				  "'__attribute__((noinline)) void spin_a(long n) { for (long i = 0; i < n; i++) x += i; }' "
				  "'__attribute__((noinline)) void spin_b(long n) { for (long i = 0; i < n; i++) x ^= i; }' "
				  "'int main(void) { for (int k = 0; k < 30; k++) { spin_a(2000000); spin_b(1000000); } printf(\"%%ld\\n\", x); return 0; }' "
				  "> %s/t.c && gcc -O1 -g -o %s/prog %s/t.c", dir, dir, dir), 0);
		snprintf(file, sizeof(file), "%s/prog.data", dir);
		CHECK_EQ_INT(t_sh("%s record -N -q -e task-clock -o %s -- %s/prog > /dev/null 2>&1",
				  PERF, file, dir), 0);
		CHECK_EQ_INT(t_sh("mkdir -p %s/root%s && mv %s/prog %s/root%s/prog", dir, dir, dir, dir, dir), 0);
		snprintf(in, sizeof(in), "-i %s", file);
		char opt[300];

		same_report_in("symfs", in, "", NULL);
		snprintf(opt, sizeof(opt), "--symfs %s/root", dir);
		same_report_in("symfs", in, opt, NULL);
		snprintf(opt, sizeof(opt), "--symfs %s/root/ --no-children -n", dir);
		same_report_in("symfs", in, opt, NULL);
		snprintf(opt, sizeof(opt), "--symfs %s/root --kallsyms /proc/kallsyms", dir);
		same_report_in("symfs", in, opt, NULL);
		same_report_in("symfs", in, "--symfs /", NULL);
		same_report_in("vmlinux", in, "--vmlinux /etc/passwd", NULL);
		same_report_in("vmlinux", in, "--vmlinux /etc/passwd --kallsyms /proc/kallsyms", NULL);
		CHECK_EQ_INT(t_sh("%s report %s --vmlinux %s/none > /dev/null 2>&1", perfev, in, dir), 1);
		unsetenv("PERF_BUILDID_DIR");
	}

	return report_cmp_end();
}
