// SPDX-License-Identifier: GPL-2.0-only
/* report --tasks and --mmaps against perf report 6.1 on files recorded by
 * /usr/bin/perf here: a shell that forks ls and sleep (-g), and a
 * system-wide recording (synthesized FORKs: the whole task tree).  The
 * "#  pid tid ppid  comm" table, children indented under their parent,
 * and with --mmaps each task's maps, byte for byte.  perfev had neither
 * option (unknown option). */
#include <fcntl.h>
#include <unistd.h>

#include "report_cmp.h"

int main(void)
{
	char file[256];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-rtasks-XXXXXX", true);
	snprintf(file, sizeof(file), "%s/sh.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -g -o %s -- sh -c 'ls /; sleep 0.1' > /dev/null 2>&1",
			  PERF, file), 0);
	same_report("sh -c 'ls; sleep'", file, "--tasks");
	same_report("sh -c 'ls; sleep'", file, "--mmaps");
	snprintf(file, sizeof(file), "%s/all.data", dir);
	if (t_sh("%s record -q -a -e cpu-clock -F 99 -o %s -- sleep 0.2 > /dev/null 2>&1",
		 PERF, file)) {
		printf("system-wide part skipped: perf record -a failed\n");
	} else {
		same_report("system-wide", file, "--tasks");
		same_report("system-wide", file, "--mmaps");
	}
	return report_cmp_end();
}
