// SPDX-License-Identifier: GPL-2.0-only
/* Event groups in report: perf 6.1 shows the members of a group
 * ({a,b} in the file's GROUP_DESC) side by side, a percentage (and -n,
 * --show-total-period ...) column each, by default; --group makes all
 * the events of a file without groups one group; --no-group gives each
 * its own table.  perfev refused --group and printed a table per event;
 * its own record wrote no GROUP_DESC.  Against perf report --stdio, byte
 * for byte with the random tip left out, on files perf records here:
 * a two-event group with -g (children, self, sort keys, filters, -t,
 * colour, the entries only a member has), a named three-event group, two
 * events outside a group; a group that samples its leader and reads the
 * members ({a,b}:S: perf counts each value read by its growth since the
 * last read, as a sample of that event; perfev counted the leader's
 * samples by their period and nothing for the members); and a group
 * perfev records, whose GROUP_DESC perf must read back. */
#include "report_cmp.h"

static const char *const gmodes[] = {
	"", "--no-children", "-n --show-total-period --sort dso", "--sort dso,sym -n",
	"--no-group", "--percent-limit 2", "--comms ls --percentage relative",
	"-F overhead,sample,sym --no-children", "-t , -n", NULL,
};

static const char *const nmodes[] = { "--group", "--group -n --no-children", NULL };
static const char *const tmodes[] = { "-n --no-children", NULL };
static const char *const pmodes[] = { "", NULL };
static const char *const smodes[] = { "", "-n --no-group", NULL };

#define WORK "sh -c 'for i in 1 2 3 4 5 6; do ls / > /dev/null; done'"

int main(void)
{
	char g[256], n[256], t[256], pv[256], sr[256];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-rgroup-XXXXXX", false);
	snprintf(g, sizeof(g), "%s/g.data", dir);
	snprintf(n, sizeof(n), "%s/n.data", dir);
	snprintf(t, sizeof(t), "%s/t.data", dir);
	snprintf(pv, sizeof(pv), "%s/pv.data", dir);
	snprintf(sr, sizeof(sr), "%s/sr.data", dir);
	/* the four recordings at once: perf record mostly waits */
	CHECK_EQ_INT(t_sh("%s record -q -g -e '{task-clock/period=200000/,page-faults/period=1/}' "
			  "-o %s -- " WORK " > /dev/null 2>&1 & "
			  "%s record -q -e task-clock/period=200000/,page-faults/period=1/ "
			  "-o %s -- " WORK " > /dev/null 2>&1 & "
			  "%s record -q -e 'foo{task-clock/period=300000/,page-faults/period=1/,"
			  "minor-faults/period=2/}' -o %s -- " WORK " > /dev/null 2>&1 & "
			  "%s record -q -e '{task-clock/period=200000/,page-faults/period=1/}' "
			  "-o %s -- " WORK " > /dev/null 2>&1 & "
			  "%s record -q -e '{task-clock/period=200000/,page-faults}:S' "
			  "-o %s -- " WORK " > /dev/null 2>&1 & wait",
			  PERF, g, PERF, n, PERF, t, perfev, pv, PERF, sr), 0);
	/* perf's own recordings are the probe: without them the machine
	 * cannot sample these software events */
	if (access(g, R_OK) || access(n, R_OK) || access(t, R_OK) || access(sr, R_OK))
		T_SKIP("perf record cannot sample the group {task-clock,page-faults} here");
	CHECK_MSG(!access(pv, R_OK), "perfev record wrote no %s", pv);
	for (const char *const *m = gmodes; *m; m++)
		same_report("group -g", g, *m);
	for (const char *const *m = nmodes; *m; m++)
		same_report("no group", n, *m);
	for (const char *const *m = tmodes; *m; m++)
		same_report("named group of 3", t, *m);
	for (const char *const *m = smodes; *m; m++)
		same_report("group read by its leader (:S)", sr, *m);
	/* perf reads the group perfev wrote (GROUP_DESC), then the same report */
	CHECK_EQ_INT(t_sh("%s report --header-only -i %s 2>/dev/null | grep -qx "
			  "'# group: {task-clock/period=200000/,page-faults/period=1/}'", PERF, pv), 0);
	for (const char *const *m = pmodes; *m; m++)
		same_report("perfev-recorded group", pv, *m);
	/* --hierarchy does not show a group: said, not a wrong table */
	CHECK_EQ_INT(t_sh("%s report -i %s --hierarchy > /dev/null 2>&1", perfev, g), 2);
	return report_cmp_end();
}
