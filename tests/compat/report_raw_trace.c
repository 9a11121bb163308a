// SPDX-License-Identifier: GPL-2.0-only
/* perfev report --raw-trace: with the trace key, a tracepoint sample's
 * raw fields (" name=value" each, no print fmt, no plugin) as perf 6.1
 * prints them, byte for byte against perf report --stdio: strings, data_loc
 * strings, arrays of numbers as "ARRAY[..]" bytes, pointers and unsigned
 * longs in hex, other numbers in decimal (perf's own libtraceevent; the
 * system's newer one follows the print fmt instead).  perfev had no
 * --raw-trace (exit 2).  On a file of tracepoints only perf's default
 * order then becomes trace_fields (a column per field), which perfev
 * refuses with a usage error.  The -j trace key is checked against
 * perf's column too.  Files recorded by /usr/bin/perf at test time.
 * An array that ends the output (raw_syscalls:sys_enter's args) is
 * followed in perf by uninitialized heap bytes (its trace_seq is not
 * terminated after the closing bracket), which also keeps equal entries
 * apart: there only the distinct texts up to the bracket are compared. */
#include <errno.h>
#include <sys/mount.h>

#include "report_cmp.h"

static bool have_tracefs(void)
{
	size_t len;
	char *fs = t_slurp("/proc/filesystems", &len);
	bool known = fs && strstr(fs, "\ttracefs\n") != NULL;

	free(fs);
	if (!access("/sys/kernel/tracing/events/header_page", R_OK))
		return true;
	if (!known)
		return false;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) && errno != EBUSY)
		T_SKIP("tracefs is not mounted and cannot be mounted: %s", strerror(errno));
	return !access("/sys/kernel/tracing/events/header_page", R_OK);
}

static const char *const opts[] = {
	"--raw-trace -s trace", "--raw-trace -s trace,comm -n", "--raw-trace -s comm,trace",
	"--raw-trace -s pid,trace --percent-limit 2", NULL,
};

int main(void)
{
	char file[256];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-rawtr-XXXXXX", false);
	if (!have_tracefs())
		T_SKIP("this kernel has no tracefs (/proc/filesystems)");
	snprintf(file, sizeof(file), "%s/tp.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_switch -e sched:sched_process_exec "
			  "-e syscalls:sys_enter_openat -o %s -- "
			  "sh -c 'ls /usr > /dev/null; cat /etc/hostname > /dev/null' > /dev/null 2>&1",
			  PERF, file), 0);
	/* not vacuous: a pointer and a data_loc string printed raw */
	CHECK_MSG(!t_sh("%s report --stdio -i %s --raw-trace -s trace 2>/dev/null | grep -q ' filename=0x' && "
			"%s report --stdio -i %s --raw-trace -s trace 2>/dev/null | grep -q ' filename=/usr/bin/'",
			PERF, file, PERF, file), "perf printed no raw pointer or data_loc string");
	for (size_t i = 0; opts[i]; i++)
		same_report("raw trace", file, opts[i]);
	/* perf's default order with --raw-trace on tracepoints only */
	CHECK_EQ_INT(t_sh("%s report -i %s --raw-trace > /dev/null 2> %s/err.txt", perfev, file, dir), 2);
	CHECK_EQ_INT(t_sh("grep -q \"perfev: error: sort key 'trace_fields' is not supported\" %s/err.txt",
			  dir), 0);
	/* -j: the trace key holds what perf's column shows, entry by entry */
	if (have("python3"))
		CHECK_EQ_INT(t_sh("%s report -i %s --raw-trace -s trace -j > %s/a.json && "
				  "%s report --stdio -i %s --raw-trace -s trace -t '|' 2>/dev/null > %s/b.txt && "
				  "python3 -c 'import json, sys\n"
				  "ev = json.load(open(sys.argv[1]))[\"events\"]\n"
				  "rows = [l.rstrip(\"\\n\").split(\"|\", 1)[1].strip() for l in open(sys.argv[2]) if \"|\" in l and not l.startswith(\"#\")]\n"
				  "got = [e[\"trace\"].strip() for x in ev for e in x[\"entries\"]]\n"
				  "sys.exit(0 if got == rows and rows else 1)' %s/a.json %s/b.txt",
				  perfev, file, dir, PERF, file, dir, dir, dir), 0);
	snprintf(file, sizeof(file), "%s/sys.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e raw_syscalls:sys_enter -o %s -- ls /usr > /dev/null 2>&1",
			  PERF, file), 0);
	CHECK_EQ_INT(t_sh("%s report -i %s --raw-trace -s trace 2>/dev/null | grep -a 'args=ARRAY' | "
			  "sed 's/^ *[0-9.]*%%  *//; s/\\].*/]/' | sort -u > %s/a.txt && "
			  "%s report --stdio -i %s --raw-trace -s trace 2>/dev/null | grep -a 'args=ARRAY' | "
			  "sed 's/^ *[0-9.]*%%  *//; s/\\].*/]/' | sort -u > %s/b.txt && "
			  "test -s %s/b.txt && cmp -s %s/a.txt %s/b.txt", perfev, file, dir, PERF, file,
			  dir, dir, dir, dir), 0);
	return report_cmp_end();
}
