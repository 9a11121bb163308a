// SPDX-License-Identifier: GPL-2.0-only
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
 * themselves).  A third file also has call chains: -g, -G and
 * --children in branch mode print the plain table as perf's do (its
 * branch entries carry no chain), --no-branch-stack the chains.  A branch
 * key outside branch mode is refused (exit 2), -b on a file without
 * branch stacks too (exit 1), -g on one without chains (exit 1); -j gives
 * perf's branch count and its first entry's ends.  perf's
 * closing random tip is left out.
 * A fourth file has no cycle count in the samples' first branches, where
 * perf 6.1 does not crash on sorts naming "symbol" (it adds its ipc_lbr
 * key, the IPC column): those are compared there; a sort naming "ipc" is
 * refused (exit 2), as perf refuses it.
 * Not compared: two srcline keys at once (perf prints "(null)" for
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

/* On a file whose samples also carry call chains: perf 6.1's branch mode
 * adds no chain to the branch entries, so -g (any mode) and --children
 * print the plain table; --no-branch-stack reports the chains. */
static const char *const chain_opts[] = {
	"", "-g", "-b -g --children", "-G -n", "-g folded,0.1,callee",
	"-g caller --no-children -s dso_to", "--no-branch-stack",
	"--no-branch-stack -g caller --no-children",
	/* chains matched by address carry their srclines: children entries
	 * of libc frames take them (msort.c:307, not qsort+<raw address>) */
	"--no-branch-stack -g address -s srcline,symbol,dso",
	/* --branch-history: the branches in the call graphs, with perf's
	 * counts (predicted, abort, cycles, calltrace) */
	"--branch-history", "--branch-history --no-children", "--branch-history -n",
	"--branch-history -G", "--branch-history -s sym", "--branch-history -g folded",
	"--branch-history -g fractal", "--branch-history --no-children -g callee,0.1",
	"--branch-history -g flat --no-children", "--branch-history --max-stack 3",
	"--branch-history --percent-limit 2", "-b --branch-history", NULL,
};

/* Sorts naming "symbol": perf 6.1 adds its ipc_lbr key (the IPC column),
 * and crashes when a sample's first branch has a cycle count; on a file
 * where none has, every symbol reads 0.00 [0.0%] (report_branch_ipc
 * checks the values with cycles, by hand). */
static const char *const ipc_opts[] = {
	"-s symbol", "-s dso,symbol -n", "-s symbol_to", "-s symbol_from,symbol_to,cycles",
	"-s comm,symbol_size", "-F overhead,ipc_null", "--no-branch-stack -s symbol", NULL,
};

int main(int argc, char **argv)
{
	char path[256], file[256], why[256], in[300];
	static const unsigned sizes[] = { 300, 1500, 400, 500 };
	static const unsigned flags[] = { 0, 0, BD_CHAINS, BD_FIRST_NO_CYCLES };

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

		bool chains = flags[z] & BD_CHAINS, ipc = flags[z] & BD_FIRST_NO_CYCLES;

		snprintf(file, sizeof(file), "%s/br%u%s.data", dir, sizes[z],
			 chains ? "c" : ipc ? "f" : "");
		if (bd_write(file, path, sizes[z], flags[z], why, sizeof(why)) < 0)
			T_FATAL("%s", why);
		/* the file is valid for perf: every sample's branches printed */
		CHECK_EQ_INT(t_sh("test \"$(%s script -i %s -F brstack 2> %s/s.err | grep -c /)\" = %u",
				  PERF, file, dir, sizes[z]), 0);
		CHECK_EQ_INT(t_sh("test ! -s %s/s.err", dir), 0);
		snprintf(what, sizeof(what), "branch stacks%s, %u samples",
			 chains ? " and call chains" : ipc ? " (no first cycles)" : "", sizes[z]);
		for (size_t i = 0; !flags[z] && branch_opts[i]; i++)
			same_report(what, file, branch_opts[i]);
		for (size_t i = 0; ipc && ipc_opts[i]; i++)
			same_report(what, file, ipc_opts[i]);
		for (size_t i = 0; chains && chain_opts[i]; i++)
			same_report(what, file, chain_opts[i]);
		/* --branch-history without call chains: the branches alone */
		if (z == 0) {
			same_report(what, file, "--branch-history");
			same_report(what, file, "--branch-history -g fractal,0.1,callee --no-children");
		}
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
	/* a branch key outside branch mode; -b without branch stacks; -g
	 * in branch mode on a file without call chains (perf: "no callchain") */
	snprintf(in, sizeof(in), "-i %s/br300.data", dir);
	CHECK_EQ_INT(t_sh("%s report %s -b -g > /dev/null 2>&1", perfev, in), 1);
	/* -j: the srcline_to key, as perf's first row shows it */
	if (have("python3"))
		CHECK_EQ_INT(t_sh("test \"$(%s report %s -j -s srcline_to,dso_to | python3 -c 'import json,sys; "
				  "print(json.load(sys.stdin)[\"events\"][0][\"entries\"][0][\"srcline_to\"])')\" = "
				  "\"$(%s report --stdio %s -s srcline_to,dso_to 2> /dev/null | awk '/%%/ { print $2; exit }')\"",
				  perfev, in, PERF, in), 0);
	/* perf refuses a sort naming "ipc" (it prints its usage) */
	CHECK_EQ_INT(t_sh("%s report %s -s ipc_lbr > /dev/null 2>&1", perfev, in), 2);
	CHECK_EQ_INT(t_sh("%s report %s -s sym,ipc_null > /dev/null 2>&1", perfev, in), 2);
	CHECK_EQ_INT(t_sh("%s report %s --no-branch-stack -s dso_from > /dev/null 2>&1", perfev, in), 2);
	if (!t_sh("%s record -q -e cpu-clock -o %s/nb.data -- true > /dev/null 2>&1", PERF, dir)) {
		CHECK_EQ_INT(t_sh("%s report -i %s/nb.data -b > /dev/null 2>&1", perfev, dir), 1);
		/* --branch-history without branch stacks */
		CHECK_EQ_INT(t_sh("%s report -i %s/nb.data --branch-history > /dev/null 2>&1",
				  perfev, dir), 1);
	} else {
		printf("-b without branch stacks not checked: perf cannot sample cpu-clock here\n");
	}
	if (argc < 2)
		t_sh("rm -rf %s", dir);
	(void)argv;
	return t_done();
}
