// SPDX-License-Identifier: GPL-2.0-only
/* perfev report's IPC column in branch mode (perf 6.1's ipc_lbr key,
 * "IPC   [IPC Coverage]", added to a sort naming "symbol") against values
 * computed by hand from perf's definition (sort.c's sym_ipc column over
 * annotate.c's cycle accounting), on a built file whose samples' first
 * branches have cycle counts: there perf 6.1 --stdio crashes (a
 * segmentation fault; report_branch compares the column with perf on a
 * file where it does not, all 0.00).  The definition: a branch with
 * cycles ends a basic block in the function holding its source, started
 * by the previous (older) branch's target when in the same function
 * before it; the longest block per end is kept; IPC = sum of
 * instructions x blocks / sum of cycles, coverage = instructions in
 * blocks / instructions of the function; samples whose newest branch has
 * no cycles count nothing; "-" for an entry without a symbol.
 * Instructions are counted with objdump over the symbol (nm's size). */
#include "branch_data.h"
#include "report_cmp.h"

/* The instruction addresses objdump lists in [sym->addr, + size). */
static unsigned insns(const char *prog, const struct bd_sym *sym, uint64_t *out, unsigned max)
{
	char cmd[600], line[512];
	unsigned n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn --start-address=0x%llx "
		 "--stop-address=0x%llx %s", (unsigned long long)sym->addr,
		 (unsigned long long)(sym->addr + sym->size), prog);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long a;
		char c;

		if (sscanf(line, " %llx%c", &a, &c) == 2 && c == ':' && line[0] == ' ' &&
		    a >= sym->addr && a < sym->addr + sym->size && n < max)
			out[n++] = a;
	}
	pclose(p);
	return n;
}

/* The IPC cell of the row of symbol name in perfev's -s symbol report. */
static void ipc_of(const char *file, const char *name, char *out, size_t size)
{
	char cmd[4800], line[512], pat[80];
	FILE *p;

	out[0] = 0;
	snprintf(cmd, sizeof(cmd), "%s report -i %s --stdio -s symbol 2>&1", perfev, file);
	snprintf(pat, sizeof(pat), "[.] %s ", name);
	p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		char *s = strstr(line, pat);

		if (!s || line[0] == '#')
			continue;
		s += strlen(pat);
		s += strspn(s, " ");
		size_t l = strcspn(s, "\n");

		while (l && s[l - 1] == ' ')
			l--;
		snprintf(out, size, "%.*s", (int)l, s);
	}
	pclose(p);
}

int main(void)
{
	char path[256], file[256], why[256], got[64], want[64];
	struct bd_sym fn[BD_NFN];
	uint64_t a[256], b[256];
	unsigned na, nb;

	report_cmp_start("/tmp/perfev-rbipc-XXXXXX", false);
	if (!have("gcc") || !have("nm") || !have("objdump")) {
		t_sh("rm -rf %s", dir);
		T_SKIP("no gcc, nm or objdump in PATH to build and read the program");
	}
	report_cmp_write(path, sizeof(path), "b.c", bd_prog_src);
	CHECK_EQ_INT(t_sh("gcc -O2 -g -no-pie -o %s/bprog %s", dir, path), 0);
	snprintf(path, sizeof(path), "%s/bprog", dir);
	memset(fn, 0, sizeof(fn));
	if (bd_prog_syms(path, bd_fn, fn, BD_NFN) < 0)
		T_FATAL("nm found not all of the program's functions");
	/* bd_fn: main, mid, leaf_a, leaf_b, walk */
	na = insns(path, &fn[2], a, 256);
	nb = insns(path, &fn[3], b, 256);
	if (na < 4 || nb < 2)
		T_FATAL("objdump lists %u instructions in leaf_a, %u in leaf_b", na, nb);

	const uint64_t M = fn[0].addr, MID = fn[1].addr, W = fn[4].addr;
	/* newest branch first; flags: predicted, cycles */
#define BR(f, t, c) { (f), (t), BD_PREDICTED | BD_CYCLES(c) }
	const struct bd_fixed_sample fixed[] = {
		/* leaf_a's block a[1]..a[na-1]: 10 cycles */
		{ 2, { BR(a[na - 1], W, 10), BR(M, a[1], 5) } },
		/* the same block, 20 cycles (the older branch has none: still
		 * the start) */
		{ 2, { BR(a[na - 1], W, 20), BR(M, a[1], 0) } },
		/* a shorter block to the same end: not kept */
		{ 2, { BR(a[na - 1], W, 7), BR(M, a[2], 3) } },
		/* the newest branch without cycles: nothing counted (leaf_b's
		 * block b[0]..b[nb-1] would be) */
		{ 3, { BR(a[na - 1], W, 0), BR(b[nb - 1], MID, 9), BR(M, b[0], 4) } },
		/* a block in main without a start: not counted */
		{ 1, { BR(M + 4, M, 6) } },
		/* an unmapped target: "-" */
		{ 1, { BR(M, 0x1000, 2) } },
	};
	bd_fixed = fixed;
	bd_nfixed = sizeof(fixed) / sizeof(fixed[0]);
	snprintf(file, sizeof(file), "%s/ipc.data", dir);
	if (bd_write(file, path, bd_nfixed, 0, why, sizeof(why)) < 0)
		T_FATAL("%s", why);
	/* perf accepts the file: every sample's branches printed */
	CHECK_EQ_INT(t_sh("test \"$(%s script -i %s -F brstack 2> /dev/null | grep -c /)\" = %u",
			  PERF, file, bd_nfixed), 0);
	if (t_sh("%s report -i %s --stdio -s symbol > /dev/null 2>&1", PERF, file) >= 128)
		printf("perf report -s symbol crashes on this file, as expected of perf 6.1\n");

	/* leaf_a: na - 1 instructions, 2 blocks, 30 cycles */
	snprintf(want, sizeof(want), "%-5.2f [%5.1f%%]", 2.0 * (na - 1) / 30.0,
		 (na - 1) * 100.0 / na);
	ipc_of(file, "leaf_a", got, sizeof(got));
	CHECK_STR(got, want);
	snprintf(want, sizeof(want), "%-5.2f [%5.1f%%]", 0.0, 0.0);
	ipc_of(file, "leaf_b", got, sizeof(got));
	CHECK_STR(got, want);
	ipc_of(file, "main", got, sizeof(got));
	CHECK_STR(got, want);
	ipc_of(file, "walk", got, sizeof(got));
	CHECK_STR(got, want);
	ipc_of(file, "0x0000000000001000", got, sizeof(got));
	CHECK_STR(got, "-");
	/* -j: the same numbers, unrounded */
	if (have("python3"))
		CHECK_EQ_INT(t_sh("%s report -i %s -j -s symbol | python3 -c 'import json,sys; "
				  "e = [x for x in json.load(sys.stdin)[\"events\"][0][\"entries\"] "
				  "if x[\"symbol\"] == \"leaf_a\"][0]; "
				  "sys.exit(abs(e[\"ipc\"] - %.6f) > 1e-3 or abs(e[\"ipc_coverage\"] - %.6f) > 1e-3)'",
				  perfev, file, 2.0 * (na - 1) / 30.0, (na - 1) * 100.0 / na), 0);
	return report_cmp_end();
}
