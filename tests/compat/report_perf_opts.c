// SPDX-License-Identifier: GPL-2.0-only
/* perf report options perfev lacked (each refused as unknown before):
 * -U/--hide-unresolved (samples without a symbol left out, and chain
 * frames without one), --symbol-filter (entries whose symbol holds a
 * text; widths of what is shown), --socket-filter (entries of one
 * socket, "# Processor Socket: N" in the header), --inline/--no-inline
 * (the inline frames of DWARF chains), --full-source-path, --samples
 * (perf's TUI only: no effect on text), and --time's "(time slices:
 * ...)" after the event name.  Against perf report --stdio 6.1 on files
 * perf records here: system-wide with -g, a program built here with
 * inline functions recorded with --call-graph dwarf and with -g. */
#include "report_cmp.h"

static const char prog_src[] =
	"#include <stdio.h>\n"
	"__attribute__((noinline)) long leaf(long x) { long s = 0; for (int i = 0; i < 300; i++) s += (x ^ i) % 13; return s; }\n"
	"static inline long mid(long x) { return leaf(x) * 3 + leaf(x + 1); }\n"
	"__attribute__((noinline)) long top(long x) { return mid(x) + 1; }\n"
	"int main(void) { long t = 0; for (int k = 0; k < 40000; k++) t += top(k); printf(\"%ld\\n\", t); return 0; }\n";

static const char cxx_src[] =
	"#include <cstdio>\n"
	"namespace ns { template <typename T> struct Box { T v; __attribute__((noinline)) T work(int n) {\n"
	"  volatile T s = 0; for (int i = 0; i < n; i++) s = s + (v ^ i) % 7; return s; } }; }\n"
	"int main() { ns::Box<long> b{3}; long t = 0; for (int k = 0; k < 100000; k++) t += b.work(300);\n"
	"  std::printf(\"%ld\\n\", t); return 0; }\n";

static const char *const cxx_modes[] = {
	"--no-demangle", "--no-demangle --no-children -g caller", "--demangle",
	"--no-demangle --sort dso,sym -g none", NULL,
};

static const char *const sys_modes[] = {
	"-U", "-U --no-children", "-U -g caller", "--hide-unresolved -n --sort dso,sym",
	"--symbol-filter=_", "--symbol-filter=lock --no-children", "--symbol-filter=e -g caller",
	"--socket-filter 0", "--socket-filter 1", "--socket-filter 0 --sort socket,comm --no-children -g none",
	"--samples 7", "--time 40%", "--time 10%/2 --no-children",
	"-t ,", "-t , --no-children -g none", "-t '|' -n", "--field-separator=';' --show-total-period --no-children",
	"-t , -F overhead,sample,period,pid --sort pid", "-t ,, --sort dso,sym -g caller",
	"--ignore-callees main", "--ignore-callees main -G", "--ignore-callees do_syscall --no-children",
	"--ignore-callees ^entry", "--ignore-callees write -g caller --no-children", NULL,
};

static const char *const dwarf_modes[] = {
	"--no-inline", "--no-inline --no-children -g caller", "--inline",
	"--symbol-filter=l", "--symbol-filter=mid --no-children", "-U --no-inline", NULL,
};

static const char *const fp_modes[] = {
	"--full-source-path --sort srcline", "--full-source-path --sort srcfile,sym",
	"--ignore-callees main --no-children", "--ignore-callees 'leaf|top' -g caller",
	"--ignore-callees ^main -G --sort dso,sym", NULL,
};

int main(void)
{
	char src[256], prog[256], file[256];

	report_cmp_start("/tmp/perfev-popts-XXXXXX", true);
	if (!have("gcc"))
		T_SKIP("no gcc in PATH");
	report_cmp_write(src, sizeof(src), "i.c", prog_src);
	snprintf(prog, sizeof(prog), "%s/i", dir);
	CHECK_EQ_INT(t_sh("gcc -O2 -g -fno-omit-frame-pointer -o %s %s", prog, src), 0);

	/* system-wide: samples with CPUs (the socket filter), unresolved
	 * addresses in the shell */
	snprintf(file, sizeof(file), "%s/a.data", dir);
	if (t_sh("%s record -q -a -g -o %s -- sh -c 'for i in $(seq 2000); do echo $i; done | sort > /dev/null; %s > /dev/null' > /dev/null 2>&1",
		 PERF, file, prog)) {
		printf("perf record -a is refused here: the system-wide cases are left out\n");
	} else {
		for (const char *const *m = sys_modes; *m; m++)
			same_report("-a -g", file, *m);
	}
	snprintf(file, sizeof(file), "%s/d.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -o %s -- %s > /dev/null 2>&1",
			  PERF, file, prog), 0);
	for (const char *const *m = dwarf_modes; *m; m++)
		same_report("dwarf", file, *m);
	snprintf(file, sizeof(file), "%s/g.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -o %s -- %s > /dev/null 2>&1", PERF, file, prog), 0);
	for (const char *const *m = fp_modes; *m; m++)
		same_report("-g", file, *m);
	/* C++: --no-demangle */
	if (have("g++")) {
		report_cmp_write(src, sizeof(src), "w.cc", cxx_src);
		snprintf(prog, sizeof(prog), "%s/w", dir);
		CHECK_EQ_INT(t_sh("g++ -O2 -g -fno-omit-frame-pointer -o %s %s", prog, src), 0);
		snprintf(file, sizeof(file), "%s/cxx.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -o %s -- %s > /dev/null 2>&1", PERF, file, prog), 0);
		for (const char *const *m = cxx_modes; *m; m++)
			same_report("g++ -g", file, *m);
		/* diff starts from report's defaults: demangled names, no
		 * socket filter (its samples have no CPU) */
		CHECK_EQ_INT(t_sh("%s diff %s %s > %s/da.txt 2>/dev/null && %s diff %s %s > %s/db.txt 2>/dev/null && "
				  "grep -q 'ns::Box<long>::work' %s/db.txt && cmp -s %s/da.txt %s/db.txt",
				  perfev, file, file, dir, PERF, file, file, dir, dir, dir, dir), 0);
	}
	return report_cmp_end();
}
