// SPDX-License-Identifier: GPL-2.0-only
/* The vDSO of a 32-bit process is "[vdso32]" with its own symbols
 * (__kernel_vsyscall), as perf 6.1 prints it; perfev printed "[vdso]"
 * and [unknown] (it looked the addresses up in its own 64-bit vDSO).
 *
 * A 32-bit program built here without libc (gcc -m32 -nostdlib: the
 * machine needs no 32-bit libc) calls getppid through the vDSO's
 * __kernel_vsyscall in a loop; perf records it with -g; perf script,
 * perf report and perfev's read the file.  The 32-bit vDSO image comes
 * from perfev-read-vdso32 next to perfev (built where -m32 builds). */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include "report_cmp.h"

static const char prog[] =
	"__attribute__((used)) void cmain(unsigned *sp)\n"
	"{ unsigned argc = sp[0], *p = sp + 1 + argc + 1, vsys = 0;\n"
	"  while (*p) p++;\n"
	"  for (p++; p[0]; p += 2) if (p[0] == 32) vsys = p[1];\n"
	"  for (unsigned i = 0; i < 300000; i++) { unsigned r;\n"
	"    __asm__ volatile(\"call *%1\" : \"=a\"(r) : \"r\"(vsys), \"0\"(64) : \"memory\", \"ecx\", \"edx\"); }\n"
	"  __asm__ volatile(\"movl $1, %eax; xorl %ebx, %ebx; int $0x80\"); }\n"
	"__asm__(\".globl _start\\n_start:\\n mov %esp, %eax\\n push %eax\\n call cmain\\n\");\n";

int main(void)
{
	char f[128], rv[4200];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-vdso32-XXXXXX", true);
	snprintf(f, sizeof(f), "%s/v32.c", dir);
	FILE *src = fopen(f, "w");

	CHECK(src && fputs(prog, src) >= 0 && fclose(src) == 0);
	if (t_sh("cd %s && gcc -m32 -O1 -nostdlib -static -fno-pie -no-pie -fno-stack-protector "
		 "-o v32 v32.c >/dev/null 2>&1", dir))
		T_SKIP("gcc cannot build -m32 code here");
	if (t_sh("%s/v32", dir))
		T_SKIP("this kernel does not run 32-bit programs (IA32 emulation off)");
	snprintf(rv, sizeof(rv), "%s", perfev);
	char *slash = strrchr(rv, '/');

	snprintf(slash ? slash + 1 : rv, sizeof(rv) - (size_t)(slash ? slash + 1 - rv : 0),
		 "perfev-read-vdso32");
	CHECK_MSG(access(rv, X_OK) == 0, "%s was not built (gcc -m32 works here)", rv);
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e cpu-clock -c 100000 -g -o v.data -- ./v32 >/dev/null 2>&1",
			  dir, PERF), 0);
	snprintf(f, sizeof(f), "%s/v.data", dir);
	same_script(f, "", "__kernel_vsyscall+0x");
	same_script(f, "-F ip,sym,symoff,dso", "([vdso32])");
	same_report("vdso32", f, "--sort dso,sym");
	return report_cmp_end();
}
