/* perfev report's branch mode (perf report -b: one entry per branch of
 * the samples' branch stacks, period 1 each) against perf report --stdio
 * 6.1, byte for byte.  This machine has no LBR, so perf cannot record
 * branch stacks here: the test builds a program with gcc -O2 -g -no-pie,
 * writes a perf.data whose samples carry branch stacks between that
 * program's functions and the test's own libc (branch_data.h, through
 * perfev's data writer), checks that perf accepts it (perf script -F
 * brstack prints every sample), then compares the reports: branch mode
 * by default (the file has the BRANCH_STACK feature) with perf's default
 * sort comm,dso_from,symbol_from,symbol_to,cycles, -b, the branch keys
 * dso_from, dso_to, symbol_to, addr_to, cycles, srcline_from (":0" for
 * libc code without a line row, from addr2line's symbol answer),
 * srcline_to, and
 * mispredict, in_tx and abort (which perf compares with !=, so that equal
 * entries stay apart where its trees keep them from meeting) in
 * -s and -F, with -n and --show-total-period, dso and sym (which read the
 * branch's target in branch mode), and --no-branch-stack (the samples
 * themselves).  A branch key outside branch mode is refused
 * (exit 2), -b on a file without branch stacks too (exit 1); -j gives
 * perf's branch count and its first entry's ends.  perf's
 * closing random tip is left out.
 * Not compared: sorts naming "symbol" (perf 6.1 adds ipc_lbr and crashes
 * on them), and two srcline keys at once (perf prints "(null)" for
 * the second where its entries never met). */
#include "branch_data.h"
#include "report_cmp.h"

static const char *const branch_opts[] = {
	"", "-b", "-n --show-total-period", "--no-branch-stack",
	"--no-branch-stack --sort dso,sym", "-F symbol_to,overhead",
	"-s dso_from,dso_to", "-s comm,dso_to,addr_to", "-s cycles",
	"-s mispredict", "-s dso_from,srcline_to", "-s srcline_to,dso_to",
	"-s srcline_from", "-s srcline_from,dso_from",
	"-F overhead,sample,addr_to,cycles", "-F dso_to,overhead -s comm",
	"-s pid,dso_to", "--percent-limit 0.5", "-s dso,sym,addr_from", "-s sym",
	"-s dso_size,dso_to", "-s comm,dso,sym -n", "-F overhead,dso,symbol_to",
	/* perf compares these with !=: equal entries can stay apart */
	"-s in_tx,abort", "-s comm,dso_from,mispredict", "-s comm,abort,in_tx,mispredict",
	"-s mispredict,in_tx,abort,cycles",
	NULL,
};

int main(int argc, char **argv)
{
	char path[256], file[256], why[256], in[300];
	static const unsigned sizes[] = { 300, 1500 };

	report_cmp_start("/tmp/perfev-rbranch-XXXXXX", false);
	if (!have("gcc") || !have("nm")) {
		t_sh("rm -rf %s", dir);
		T_SKIP("no gcc or nm in PATH to build the program the branches point into");
	}
	report_cmp_write(path, sizeof(path), "b.c", bd_prog_src);
	CHECK_EQ_INT(t_sh("gcc -O2 -g -no-pie -o %s/bprog %s", dir, path), 0);
	snprintf(path, sizeof(path), "%s/bprog", dir);
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		char what[64];

		snprintf(file, sizeof(file), "%s/br%u.data", dir, sizes[z]);
		if (bd_write(file, path, sizes[z], why, sizeof(why)) < 0)
			T_FATAL("%s", why);
		/* the file is valid for perf: every sample's branches printed */
		CHECK_EQ_INT(t_sh("test \"$(%s script -i %s -F brstack 2> %s/s.err | grep -c /)\" = %u",
				  PERF, file, dir, sizes[z]), 0);
		CHECK_EQ_INT(t_sh("test ! -s %s/s.err", dir), 0);
		snprintf(what, sizeof(what), "branch stacks, %u samples", sizes[z]);
		for (size_t i = 0; branch_opts[i]; i++)
			same_report(what, file, branch_opts[i]);
		/* -j: the branches perf counts, the first entry's ends */
		if (have("python3"))
			CHECK_EQ_INT(t_sh("test \"$(%s report -i %s -j | python3 -c 'import json,sys; "
					  "e = json.load(sys.stdin)[\"events\"][0]; f = e[\"entries\"][0]; "
					  "print(e[\"event_count\"], f[\"from\"][\"symbol\"], f[\"to\"][\"symbol\"])')\" = "
					  "\"$(%s report --stdio -i %s 2> /dev/null | awk '/^# Event count/ { n = $NF } "
					  "/%%/ && !s { s = $5 \" \" $7 } END { print n, s }')\"",
					  perfev, file, PERF, file), 0);
		if (argc > 1)
			printf("kept %s\n", dir);
	}
	/* a branch key outside branch mode; -b without branch stacks */
	snprintf(in, sizeof(in), "-i %s", file);
	CHECK_EQ_INT(t_sh("%s report %s --no-branch-stack -s dso_from > /dev/null 2>&1", perfev, in), 2);
	if (!t_sh("%s record -q -e cpu-clock -o %s/nb.data -- true > /dev/null 2>&1", PERF, dir))
		CHECK_EQ_INT(t_sh("%s report -i %s/nb.data -b > /dev/null 2>&1", perfev, dir), 1);
	else
		printf("-b without branch stacks not checked: perf cannot sample cpu-clock here\n");
	if (argc < 2)
		t_sh("rm -rf %s", dir);
	(void)argv;
	return t_done();
}
