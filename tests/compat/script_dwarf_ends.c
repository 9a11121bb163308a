// SPDX-License-Identifier: GPL-2.0-only
/* Where perf 6.1's DWARF unwinding (libunwind, as Debian builds perf)
 * stops or guesses, perfev script prints the same frames, byte for byte.
 *
 * perf's libunwind, on a pc in a DSO whose .eh_frame has no FDE for it,
 * guesses the caller from %rbp: nothing when %rbp is 0, below the CFA or
 * more than 0x4000 above it; else the return address at %rbp + 8 and a
 * CFA 16 bytes higher than the current one (whatever the function pushed
 * since).  perfev's walk followed libdw's frame-pointer fallback there:
 * a closing ffffffffffffffff frame where %rbp held a small integer
 * (seen on Debian's python3: the first byte of libexpat's _init) and the
 * true caller chain where perf prints its guess.
 *
 * Files recorded by perf at test time:
 *  - a C program built here (-O2 -g -fomit-frame-pointer) spinning in two
 *    functions without CFI: one with %rbp = 3, one with a frame pointer
 *    and three more words pushed;
 *  - the same program with a shared library whose constructor spins, so
 *    that the stacks end in ld.so's _dl_start_user (no CFI, %rbp 0);
 *  - a recursion with a 1 KiB stack dump, so that the return address of
 *    a frame lies past the dump: perf's reader gives 0 for it and prints
 *    one ffffffffffffffff frame, then stops (no map at 0);
 *  - a leaf under a frame whose CFA is %rbx + 16 (glibc's
 *    _dl_runtime_resolve has one: a sample at the top of _dl_fixup made
 *    convert_views fail now and then). */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"
#define GCC "/usr/bin/gcc"

static char dir[64];

static const char prog[] =
	"#include <stdlib.h>\n"
	"static volatile unsigned long sink;\n"
	"__asm__(\".text\\n.globl bad_rbp\\n.type bad_rbp,@function\\nbad_rbp:\\n\"\n"
	"\"push %rbp\\nmov $3, %rbp\\n1: dec %rdi\\njnz 1b\\npop %rbp\\nret\\n.size bad_rbp, .-bad_rbp\\n\"\n"
	"\".globl fp_spin\\n.type fp_spin,@function\\nfp_spin:\\n\"\n"
	"\"push %rbp\\nmov %rsp, %rbp\\npush %rbx\\npush %rbx\\npush %rbx\\n2: dec %rdi\\njnz 2b\\n\"\n"
	"\"add $24, %rsp\\npop %rbp\\nret\\n.size fp_spin, .-fp_spin\\n\");\n"
	/* with CFI: a frame whose CFA is %rbx + 16 (as glibc's
	 * _dl_runtime_resolve), and a leaf that leaves %rbx alone */
	"__asm__(\".text\\n.globl rbx_frame\\n.type rbx_frame,@function\\nrbx_frame:\\n.cfi_startproc\\n\"\n"
	"\"push %rbx\\n.cfi_adjust_cfa_offset 8\\n.cfi_offset %rbx, -16\\nmov %rsp, %rbx\\n.cfi_def_cfa_register %rbx\\n\"\n"
	"\"and $-64, %rsp\\nsub $128, %rsp\\ncall leaf_spin\\nmov %rbx, %rsp\\n.cfi_def_cfa_register %rsp\\n\"\n"
	"\"pop %rbx\\n.cfi_adjust_cfa_offset -8\\n.cfi_restore %rbx\\nret\\n.cfi_endproc\\n.size rbx_frame, .-rbx_frame\\n\"\n"
	"\".globl leaf_spin\\n.type leaf_spin,@function\\nleaf_spin:\\n.cfi_startproc\\n3: dec %rdi\\njnz 3b\\nret\\n\"\n"
	"\".cfi_endproc\\n.size leaf_spin, .-leaf_spin\\n\");\n"
	"void rbx_frame(long n);\n"
	"__attribute__((noinline)) void three(long n) { rbx_frame(n); sink++; }\n"
	"void bad_rbp(long n);\n"
	"void fp_spin(long n);\n"
	"__attribute__((noinline)) void one(long n) { bad_rbp(n); sink++; }\n"
	"__attribute__((noinline)) void two(long n) { fp_spin(n); sink++; }\n"
	"__attribute__((noinline)) void cspin(long n) { for (long i = 0; i < n; i++) sink += i; }\n"
	"__attribute__((noinline)) long deep(long d, long n)\n"
	"{ volatile char pad[200]; pad[0] = (char)d; if (d) return deep(d - 1, n) + pad[0];\n"
	"  cspin(n); return 0; }\n"
	"int libf(int);\n"
	"int main(int argc, char **argv)\n"
	"{ long ms = argc > 1 ? atol(argv[1]) : 200;\n"
	"  if (argc > 2 && argv[2][0] == 'r') { for (long k = 0; k < ms; k++) three(300000); return libf(0); }\n"
	"  if (argc > 2) { for (long k = 0; k < ms; k++) deep(12, 300000); return libf(0); }\n"
	"  for (long k = 0; k < ms; k++) { one(300000); two(300000); } return libf(0); }\n";

static const char lib[] =
	"volatile unsigned long lsink;\n"
	"__attribute__((noinline)) void lspin(unsigned long n) { for (unsigned long i = 0; i < n; i++) lsink += i * 7; }\n"
	"__attribute__((constructor)) static void init(void) { lspin(LOOPS); }\n"
	"int libf(int x) { return x; }\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

/* perf script and perfev script print the same bytes on file; perf's
 * output holds each needle. */
static void same_output(const char *file, const char *needle1, const char *needle2)
{
	char pa[128], pb[128];
	size_t la, lb, line, start;

	CHECK_EQ_INT(t_sh("%s script -i %s/%s > %s/a.txt 2>/dev/null", t_perfev(), dir, file, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s/%s > %s/b.txt 2>/dev/null", PERF, dir, file, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(a && b, "no output");
	if (!a || !b)
		return;
	CHECK_MSG(strstr(b, needle1), "%s: perf's output lacks '%s'", file, needle1);
	CHECK_MSG(strstr(b, needle2), "%s: perf's output lacks '%s'", file, needle2);
	if (t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s: first difference on line %zu:\nperfev: %.300s\nperf:   %.300s",
		       file, line, a + start, b + start);
	free(a);
	free(b);
}

int main(void)
{
	char f[192];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (access(GCC, X_OK))
		T_SKIP("%s is not installed", GCC);
	strcpy(dir, "/tmp/perfev-ends-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(f, sizeof(f), "%s/n.c", dir);
	write_file(f, prog);
	snprintf(f, sizeof(f), "%s/l.c", dir);
	write_file(f, lib);
	CHECK_EQ_INT(t_sh("cd %s && %s -O2 -g -fomit-frame-pointer -fPIC -shared -DLOOPS=1 -o libl.so l.c && "
			  "%s -O2 -g -fomit-frame-pointer -o n n.c -L. -ll -Wl,-rpath,%s",
			  dir, GCC, GCC, dir), 0);
	if (t_sh("cd %s && %s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o nc.data -- ./n 400 >/dev/null 2>&1",
		 dir, PERF))
		T_SKIP("perf record --call-graph dwarf cannot sample cpu-clock here");

	/* No CFI: %rbp = 3 ends perf's walk at the first frame; a frame
	 * pointer gives its guess (the CFA 16 above the sampled %rsp). */
	same_output("nc.data", "bad_rbp+0x", "fp_spin+0x");

	/* ld.so's _dl_start_user: no CFI, %rbp cleared. */
	CHECK_EQ_INT(t_sh("cd %s && %s -O2 -g -fomit-frame-pointer -fPIC -shared -DLOOPS=150000000 -o libl.so l.c && "
			  "%s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o ld.data -- ./n 1 >/dev/null 2>&1",
			  dir, GCC, PERF), 0);
	same_output("ld.data", "_dl_start_user+0x", "lspin+0x");

	/* A return address past a 1 KiB dump: one ffffffffffffffff frame. */
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e cpu-clock -c 1000000 --call-graph dwarf,1024 -o cut.data -- ./n 300 deep >/dev/null 2>&1",
			  dir, PERF), 0);
	same_output("cut.data", "deep+0x", "ffffffffffffffff [unknown]");

	/* A CFA in %rbx, which the leaf below never mentions: libdw's
	 * x86-64 ABI rules call %rbx undefined there, libunwind keeps its
	 * value (every unmentioned register is the same value), and perf
	 * unwinds on to three() and main(). */
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o rbx.data -- ./n 300 rbx >/dev/null 2>&1",
			  dir, PERF), 0);
	same_output("rbx.data", "leaf_spin+0x", "three+0x");
	t_sh("rm -rf %s", dir);
	return t_done();
}
