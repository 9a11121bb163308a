// SPDX-License-Identifier: GPL-2.0-only
/* perfev inject -i - (a pipe stream on stdin): perfev refused it ("reads a
 * file, not a pipe").  perf 6.1's inject passes a stream on record for
 * record, so its -o file is the stream itself, which perf report reads in
 * pipe mode.  On streams perf records at test time (python3 with -g;
 * cpu-clock with a tracepoint):
 *  - `perf record -o - | perfev inject -i - -o out.data` through a real
 *    pipe gives a file perf report reads, with the report of the same
 *    file through perf inject;
 *  - perfev's output is perf inject's, byte for byte, from the same stream;
 *  - -o - passes the stream on unchanged, a tracepoint's too (its
 *    TRACING_DATA record is followed by the tracing data: perf 6.1 itself
 *    stops there, "unexpected end of event stream", so that stream is
 *    not compared with perf inject's);
 *  - a stream cut inside a record: the complete records are kept, as
 *    perf keeps them (byte for byte with perf's), with a warning and exit
 *    3 (perf exits 0). */
#include "report_cmp.h"

static void same_file(const char *a, const char *b)
{
	CHECK_MSG(t_sh("cmp -s %s/%s %s/%s", dir, a, dir, b) == 0, "%s and %s differ", a, b);
}

int main(void)
{
	char f[256];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-injpipe-XXXXXX", true);
	char *abs = realpath(perfev, NULL);	/* the commands run in dir */

	if (abs) {
		snprintf(perfev, sizeof(perfev), "%s", abs);
		free(abs);
	}
	if (!have("python3"))
		T_SKIP("python3 is not installed");
	/* a real pipe from perf record */
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -g -e cpu-clock -o - -- python3 -c 'sum(range(3000000))' 2>/dev/null | "
			  "%s inject -i - -o live.data", dir, PERF, perfev), 0);
	snprintf(f, sizeof(f), "%s/live.data", dir);
	CHECK_EQ_INT(t_sh("cd %s && %s inject -i - -o live-perf.data < live.data", dir, PERF), 0);
	same_file("live.data", "live-perf.data");
	CHECK_EQ_INT(t_sh("cd %s && %s report --stdio -i live.data > a.txt 2>/dev/null && "
			  "%s report --stdio -i live-perf.data > b.txt 2>/dev/null && grep -q '%%' a.txt && "
			  "sed -i '/^# (/d' a.txt b.txt && cmp -s a.txt b.txt", dir, PERF, PERF), 0);
	same_report("injected stream", f, "--no-children --sort comm,dso,sym");
	/* the same stream through both */
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e cpu-clock -e page-faults -o - -- ls -R /usr/include 2>/dev/null > sw.stream; "
			  "test -s sw.stream", dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s inject -i - -o sw-perf.data < sw.stream && %s inject -i - -o sw.data < sw.stream",
			  dir, PERF, perfev), 0);
	same_file("sw.data", "sw-perf.data");
	CHECK_EQ_INT(t_sh("cd %s && %s inject -i - -o - < sw.stream > sw-out.stream", dir, perfev), 0);
	same_file("sw-out.stream", "sw.stream");
	if (!access("/sys/kernel/tracing/events/syscalls/sys_enter_openat", F_OK)) {
		CHECK_EQ_INT(t_sh("cd %s && %s record -q -e cpu-clock -e syscalls:sys_enter_openat -o - -- ls /usr 2>/dev/null > tp.stream; "
				  "test -s tp.stream", dir, PERF), 0);
		CHECK_EQ_INT(t_sh("cd %s && %s inject -i - -o - < tp.stream > tp-out.stream", dir, perfev), 0);
		same_file("tp-out.stream", "tp.stream");
	}
	/* cut inside a record */
	CHECK_EQ_INT(t_sh("cd %s && head -c $(( $(stat -c %%s sw.stream) - 5 )) sw.stream > cut.stream && "
			  "%s inject -i - -o cut-perf.data < cut.stream 2>/dev/null", dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s inject -i - -o cut.data < cut.stream 2> err.txt", dir, perfev), 3);
	same_file("cut.data", "cut-perf.data");
	CHECK_EQ_INT(t_sh("grep -q \"perfev: warning: '-' was cut short\" %s/err.txt", dir), 0);
	/* a file that is no stream, without --jit: copied (compat/inject_file) */
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e cpu-clock -o file.data -- true > /dev/null 2>&1 && "
			  "%s inject -i file.data -o x.data 2>/dev/null", dir, PERF, perfev), 0);
	return report_cmp_end();
}
