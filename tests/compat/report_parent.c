// SPDX-License-Identifier: GPL-2.0-only
/* perfev report's parent key (perf's --sort parent, -p/--parent REGEX,
 * -x/--exclude-other) against perf report --stdio 6.1, byte for byte, on
 * -g files recorded by /usr/bin/perf at test time: dd copying through
 * read and write system calls (kernel samples and chains: ksys_read,
 * vfs_write, ...)
 * and python3 running a script (user frames only); children and
 * --no-children, caller and callee graphs, -g none, --max-stack,
 * --percentage relative with -x.  perf's closing random tip is left out
 * of the comparison.  An invalid regex is a usage error (exit 2). */
#include <unistd.h>

#include "report_cmp.h"

static const char *const dd_opts[] = {
	"--sort parent", "-p ksys_", "-s sym,parent -p '^ksys_|^__x64_sys'",
	"-x -p ksys_", "-s parent -p vfs_ -g none", "-s parent,sym -p vfs -G",
	"-s parent,dso -p ksys --max-stack 3", "-s parent,comm -p ksys -g callee",
	"-s pid,parent -p write -n --percentage relative -x", "-x",
	"-s symbol -p ksys_", NULL,
};

static const char *const py_opts[] = {
	"-s parent -p '^_PyEval_EvalFrameDefault$'", "-s dso,parent -p '^PyObject_'",
	"-s dso,parent -p '^Py' -g caller", NULL,
};

static void modes(const char *what, const char *file, const char *const *opts)
{
	char o[160];

	for (size_t i = 0; opts[i]; i++) {
		same_report(what, file, opts[i]);
		snprintf(o, sizeof(o), "%s --no-children", opts[i]);
		same_report(what, file, o);
	}
}

int main(void)
{
	char path[256], file[256];

	report_cmp_start("/tmp/perfev-rparent-XXXXXX", true);
	snprintf(file, sizeof(file), "%s/dd.data", dir);
	/* kernel samples and chains only: dd's own code has no symbols
	 * and its user chains hold stale addresses, entries perfev does not
	 * always order as perf yet (README); the parents are kernel code */
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock:k -g --kernel-callchains -o %s -- dd if=/dev/zero of=/dev/null count=200000 > /dev/null 2>&1",
			  PERF, file), 0);
	/* not vacuous: perf finds ksys_read / ksys_write parents */
	CHECK_MSG(!t_sh("%s report --stdio -i %s -s parent -p ksys_ 2>/dev/null | grep -q '%%  ksys_'",
			PERF, file), "perf found no ksys_ parent in the dd recording");
	modes("dd -g", file, dd_opts);
	/* perf's default regex ^sys_|^do_page_fault: every sample [other] on
	 * kernels whose entry points are __x64_sys_* */
	CHECK_EQ_INT(t_sh("%s report -i %s -p '(' > /dev/null 2> %s/err.txt", perfev, file, dir), 2);
	CHECK_EQ_INT(t_sh("grep -c 'perfev: error: invalid -p/--parent regex' %s/err.txt | grep -qx 1", dir), 0);
	if (have("python3")) {
		report_cmp_write(path, sizeof(path), "w.py", report_py_src);
		snprintf(file, sizeof(file), "%s/py-g.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock:u -F 2000 -g -o %s -- python3 %s > /dev/null 2>&1",
				  PERF, file, path), 0);
		modes("python3 -g", file, py_opts);
	} else {
		printf("python3 part skipped: no python3 in PATH\n");
	}
	return report_cmp_end();
}
