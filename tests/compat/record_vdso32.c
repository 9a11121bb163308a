// SPDX-License-Identifier: GPL-2.0-only
/* perfev record of a 32-bit process: perf 6.1 names its vDSO "[vdso32]"
 * in the file's build-id table, with the 32-bit vDSO's build id, and
 * caches that image (under [vdso]/<id>/vdso); perfev wrote "[vdso]" with
 * its own 64-bit vDSO's id, so perf script on perfev's file printed the
 * vDSO samples as [unknown].
 *
 * The 32-bit program of script_vdso32 (gcc -m32 -nostdlib, no libc
 * needed) calls __kernel_vsyscall in a loop; perf record and perfev record
 * it, each with its own HOME (build-id cache): perf buildid-list prints
 * the same lines on both files, both caches hold the same vdso image and
 * .build-id link, and perf script on perfev's file (with perfev's cache
 * only) names __kernel_vsyscall in [vdso32] and no vDSO sample
 * [unknown]. */
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
	char f[128];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-rvdso32-XXXXXX", true);
	char *abs = realpath(perfev, NULL);	/* the commands run in dir */

	if (abs) {
		snprintf(perfev, sizeof(perfev), "%s", abs);
		free(abs);
	}
	snprintf(f, sizeof(f), "%s/v32.c", dir);
	FILE *src = fopen(f, "w");

	CHECK(src && fputs(prog, src) >= 0 && fclose(src) == 0);
	if (t_sh("cd %s && gcc -m32 -O1 -nostdlib -static -fno-pie -no-pie -fno-stack-protector "
		 "-o v32 v32.c >/dev/null 2>&1", dir))
		T_SKIP("gcc cannot build -m32 code here");
	if (t_sh("%s/v32", dir))
		T_SKIP("this kernel does not run 32-bit programs (IA32 emulation off)");
	CHECK_EQ_INT(t_sh("cd %s && mkdir h1 h2 && HOME=$PWD/h1 %s record -q -e cpu-clock -c 100000 -o perf.data -- ./v32 >/dev/null 2>&1",
			  dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=$PWD/h2 %s record -q -e cpu-clock -c 100000 -o pev.data -- ./v32 >/dev/null 2>&1",
			  dir, perfev), 0);
	/* the build-id tables: kernel, the program, [vdso32] with its id */
	CHECK_EQ_INT(t_sh("cd %s && HOME=$PWD/h1 %s buildid-list -i perf.data > b1.txt 2>/dev/null && "
			  "HOME=$PWD/h2 %s buildid-list -i pev.data > b2.txt 2>/dev/null && "
			  "grep -q ' \\[vdso32\\]$' b1.txt && cmp -s b1.txt b2.txt", dir, PERF, PERF), 0);
	/* the caches: the same 32-bit image and link */
	CHECK_EQ_INT(t_sh("cd %s && id=$(awk '$2 == \"[vdso32]\" { print $1 }' b1.txt) && "
			  "cmp -s \"h1/.debug/[vdso]/$id/vdso\" \"h2/.debug/[vdso]/$id/vdso\" && "
			  "test \"$(readlink h1/.debug/.build-id/${id%%${id#??}}/${id#??})\" = "
			  "\"$(readlink h2/.debug/.build-id/${id%%${id#??}}/${id#??})\"", dir), 0);
	/* perf reads perfev's file as its own: the vDSO samples named */
	CHECK_EQ_INT(t_sh("cd %s && HOME=$PWD/h2 %s script -i pev.data -F ip,sym,dso > s2.txt 2>/dev/null && "
			  "grep -q '__kernel_vsyscall+0x[0-9a-f]* (\\[vdso32\\])' s2.txt || "
			  "grep -q '__kernel_vsyscall (\\[vdso32\\])' s2.txt", dir, PERF), 0);
	CHECK_EQ_INT(t_sh("grep -q '\\[unknown\\] (\\[vdso32\\])' %s/s2.txt", dir), 1);
	/* perfev reads the 32-bit vDSO from perf's cache ([vdso]/<id>/vdso)
	 * when its helper cannot give it (it looked in [vdso32]/<id>) */
	CHECK_EQ_INT(t_sh("cd %s && HOME=$PWD/h1 PERFEV_READ_VDSO32=/nonexistent %s script -i perf.data -F ip,sym,dso 2>/dev/null | "
			  "grep -q '__kernel_vsyscall (\\[vdso32\\])'", dir, perfev), 0);
	return report_cmp_end();
}
