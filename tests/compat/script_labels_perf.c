// SPDX-License-Identifier: GPL-2.0-only
/* Labels inside functions (STT_NOTYPE symbols, local and global, that
 * perf 6.1 keeps from text sections and whose ends it stretches to the
 * next symbol): perfev script names samples and -g call-chain entries as
 * perf script does, on programs built here (a hand-written assembly PIE
 * with a local label in main; labels at a local function's entry; C with asm labels in a local and a global
 * function, -O0 frame pointers and -O2) and recorded by perf. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static const char asm_src[] =
	"\t.text\n\t.globl main\n\t.type main, @function\nmain:\n"
	"\tmovl $150000000, %ecx\n\tnop\ninner:\n\tsubl $1, %ecx\n\tjnz inner\n"
	"\txorl %eax, %eax\n\tret\n\t.size main, .-main\n"
	"\t.section .note.GNU-stack,\"\",@progbits\n";

/* Labels at a local function's first address, before and after it in
 * the symbol table: after perf's end fixes the longer name wins at fn
 * (fn_entry_label_long) and fn2 keeps its own. */
static const char entry_src[] =
	"\t.text\n\t.type fn, @function\nfn:\nfn_entry_label_long:\n"
	"\tmovl $100000000, %ecx\n1:\tsubl $1, %ecx\n\tjnz 1b\n\tret\n\t.size fn, .-fn\n"
	"lab_before_long_name:\n\t.type fn2, @function\nfn2:\n"
	"\tmovl $100000000, %ecx\n1:\tsubl $1, %ecx\n\tjnz 1b\n\tret\n\t.size fn2, .-fn2\n"
	"\t.globl main\n\t.type main, @function\nmain:\n\tcall fn\n\tcall fn2\n"
	"\txorl %eax, %eax\n\tret\n\t.size main, .-main\n"
	"\t.section .note.GNU-stack,\"\",@progbits\n";

static const char c_src[] =
	"#include <stdlib.h>\n"
	"static volatile long sink;\n"
	"__attribute__((noinline)) static void work(long n)\n"
	"{ for (long i = 0; i < n; i++) { sink += i; if (i == 5) __asm__ volatile(\"lab_in_work:\"); sink ^= i; } }\n"
	"__attribute__((noinline)) void outer(long n)\n"
	"{ work(n); __asm__ volatile(\".globl glab\\nglab:\"); work(n / 2); }\n"
	"int main(int c, char **v) { outer(c > 1 ? atol(v[1]) : 30000000); return 0; }\n";

static char dir[64], perfev[4096];

static void same(const char *name, const char *src, const char *ext, const char *cflags)
{
	char path[128], a[128], b[128];
	size_t la, lb;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	if (!(f = fopen(path, "w")))
		T_FATAL("cannot write %s", path);
	fputs(src, f);
	fclose(f);
	CHECK_EQ_INT(t_sh("cd %s && gcc %s -o %s %s.%s", dir, cflags, name, name, ext), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 60 %s record -q -g -e task-clock -o %s.data ./%s "
			  "> /dev/null 2>&1", dir, dir, PERF, name, name), 0);
	t_sh("cd %s && HOME=%s %s script -i %s.data -F ip,sym,symoff,dso > %s.perf 2>/dev/null",
	     dir, dir, PERF, name, name);
	t_sh("cd %s && HOME=%s %s script -i %s.data -F ip,sym,symoff,dso > %s.perfev 2>&1",
	     dir, dir, perfev, name, name);
	snprintf(a, sizeof(a), "%s/%s.perfev", dir, name);
	snprintf(b, sizeof(b), "%s/%s.perf", dir, name);
	char *x = t_slurp(a, &la), *y = t_slurp(b, &lb);

	CHECK_MSG(lb > 0 && y && (strstr(y, "inner") || strstr(y, "work+") || strstr(y, "fn2+")),
		  "%s: perf names no sample in the program", name);
	CHECK_MSG(la == lb && x && !memcmp(x, y, la), "%s: perfev script differs from perf script "
		  "(diff %s/%s.perfev %s/%s.perf)", name, dir, name, dir, name);
	printf("%s: %zu bytes identical\n", name, la);
	free(x);
	free(y);
}

int main(void)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("gcc --version > /dev/null 2>&1"))
		T_SKIP("gcc is not installed");
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	snprintf(dir, sizeof(dir), "/tmp/pev-labels-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	same("asm", asm_src, "s", "-pie -fPIE");
	same("entry", entry_src, "s", "-pie -fPIE");
	same("c0", c_src, "c", "-O0 -fno-omit-frame-pointer -pie -fPIE");
	same("c2", c_src, "c", "-O2 -pie -fPIE");
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
