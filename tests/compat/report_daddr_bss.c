// SPDX-License-Identifier: GPL-2.0-only
/* A data address in the .bss that shares a library's last file page: ld.so
 * zeroes that part of the page (a page fault at the first .bss byte, here
 * the object completed.0).  perf places each symbol by the segment whose
 * memory holds it (p_memsz), so it names completed.0; perfev looked the
 * file offset up only within the segments' file bytes (p_filesz), found
 * none, and named the symbol before it (seen on libm.so.6 in a
 * system-wide page-faults -d recording: `__FRAME_END__+0x674` where perf
 * prints `completed.0+0x0`).
 *
 * A shared library built here (its .data ends where .bss starts with
 * completed.0), a program that uses it; perf records page-faults -c 1 -d;
 * report --mem-mode -s symbol_daddr and script's page-fault addresses
 * against perf's. */
#include "report_cmp.h"

static const char lib_src[] =
	"int lib_data[4] = { 1 };\nint lib_bss_a;\nint lib_bss_b[512];\n"
	"int lib_touch(int i) { lib_bss_b[i & 511] += i; lib_bss_a += lib_data[i % 4]; return lib_bss_a; }\n";
static const char main_src[] =
	"int lib_touch(int);\n"
	"int main(void) { int s = 0; for (int i = 0; i < 5000; i++) s += lib_touch(i); return s == 42; }\n";

int main(void)
{
	char p[256];

	report_cmp_start("/tmp/perfev-dbss-XXXXXX", false);
	if (!have("gcc"))
		T_SKIP("gcc is not installed");
	if (t_sh("%s record -q -e page-faults -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record cannot sample page-faults here");
	report_cmp_write(p, sizeof(p), "t.c", lib_src);
	report_cmp_write(p, sizeof(p), "m.c", main_src);
	CHECK_EQ_INT(t_sh("cd %s && gcc -O1 -shared -fPIC -o libt.so t.c && "
			  "gcc -O1 -o m m.c -L. -lt -Wl,-rpath,'$ORIGIN'", dir), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e page-faults -c 1 -d -o t.data ./m > /dev/null 2>&1",
			  dir, PERF), 0);
	snprintf(p, sizeof(p), "%s/t.data", dir);
	/* perf names the object at ld.so's memset of the .bss */
	same_script(p, "-F addr,ip,sym,dso", "completed.0 (");
	same_report("bss", p, "--mem-mode -s symbol_daddr");
	same_report("bss", p, "--mem-mode -s symbol_daddr,dso_daddr,sym");
	same_report("bss", p, "--mem-mode");
	CHECK_EQ_INT(t_sh("grep -q '\\[\\.\\] completed.0+0x0' %s/a.txt", dir), 0);
	return report_cmp_end();
}
