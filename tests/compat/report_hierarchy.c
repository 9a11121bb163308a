// SPDX-License-Identifier: GPL-2.0-only
/* perfev report --hierarchy against perf report --stdio --hierarchy 6.1,
 * byte for byte (perf's random tip left out), on files recorded by
 * /usr/bin/perf here: python3 without call chains, a system-wide
 * recording (many comms, the kernel, comms longer than their column) and
 * python3 with -g (perf drops children mode in a hierarchy and prints the
 * leaves' call graphs as the flat table does).  The options perfev
 * refuses with --hierarchy (-t, --percent-limit, -j, the entry filters)
 * are refused with exit 2. */
#include <unistd.h>

#include "report_cmp.h"

static const char *const flat[] = {
	"--hierarchy", "--hierarchy --no-children", "--hierarchy --sort comm,dso,sym",
	"--hierarchy --sort dso,sym", "--hierarchy --sort sym", "--hierarchy --sort dso,comm",
	"--hierarchy --sort pid,sym", "--hierarchy --sort cpu,comm",
	"--hierarchy -n --show-total-period", "--hierarchy -q",
	"--hierarchy --time 10%/2", "--hierarchy --show-cpu-utilization", NULL,
};

static const char *const graph[] = {
	"--hierarchy", "--hierarchy --no-children", "--hierarchy -G", "--hierarchy -g none",
	"--hierarchy -g callee", "--hierarchy -g folded", "--hierarchy -g fractal",
	"--hierarchy --no-children --sort dso,sym", "--hierarchy --sort comm,dso", NULL,
};

static const char py[] = "python3 -c 'sum(range(3000000))'";

int main(void)
{
	char file[256];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-rhier-XXXXXX", true);
	if (!have("python3"))
		T_SKIP("python3 is not installed");

	snprintf(file, sizeof(file), "%s/py.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 999 -o %s -- %s > /dev/null 2>&1",
			  PERF, file, py), 0);
	for (const char *const *m = flat; *m; m++)
		same_report("python3", file, *m);

	/* refused, not printed wrong */
	static const char *const refused[] = {
		"-t ,", "--percent-limit 1", "-j", "--comms python3", "--dsos libc.so.6",
		"--symbols main", "--symbol-filter Py", NULL,
	};
	for (const char *const *m = refused; *m; m++)
		CHECK_MSG(t_sh("%s report -i %s --hierarchy %s > /dev/null 2>&1", perfev, file, *m) == 2,
			  "--hierarchy %s: not refused with exit 2", *m);

	/* system-wide: perf -a may be refused here (perf_event_paranoid) */
	snprintf(file, sizeof(file), "%s/sw.data", dir);
	if (!t_sh("%s record -q -a -e cpu-clock -F 999 -o %s -- %s > /dev/null 2>&1",
		  PERF, file, py)) {
		/* not a symbol level without a DSO level above it: perf's
		 * order of unresolved addresses of equal period there is
		 * not modelled (perfev-report(1), --hierarchy) */
		for (const char *const *m = flat; *m; m++)
			if (strcmp(*m, "--hierarchy --sort sym") && strcmp(*m, "--hierarchy --sort pid,sym"))
				same_report("system-wide", file, *m);
		same_report("system-wide", file, "--hierarchy --cpu 0");
	} else {
		printf("perf record -a is refused here: no system-wide case\n");
	}

	snprintf(file, sizeof(file), "%s/py-g.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 999 -g -o %s -- %s > /dev/null 2>&1",
			  PERF, file, py), 0);
	for (const char *const *m = graph; *m; m++)
		same_report("python3 -g", file, *m);
	return report_cmp_end();
}
