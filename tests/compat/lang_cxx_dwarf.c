// SPDX-License-Identifier: GPL-2.0-only
/* C++ programs unwound with --call-graph dwarf and fp: perfev prints the
 * frames and the reports perf 6.1 prints.
 *
 * perf report builds its chains caller first (its default -g order) and
 * so asks addr2line for the inline frames of a sample's outermost frame
 * first; binutils names a function g++ wrote no linkage name for (a
 * template instance only ever inlined, std::__introsort_loop<...>'s own
 * DWARF) by its ELF symbol the first time it is asked and by its DWARF
 * name after, so the order of the questions shows in the names.  perfev
 * asked leaf first: 3 of 830 samples of the program below put
 * "__introsort_loop<...long int...> (inlined)" where perf's report put
 * std::__introsort_loop<...>, and report's caller graph differed (158 of
 * 228 lines, the percentages of every level of the sort's recursion).
 *
 * The program (lang_cxx.h) is built here with g++ -O2 -g and recorded by
 * perf --call-graph dwarf, by perf --call-graph fp and by perfev record
 * --call-graph dwarf; each file is read by both: script (--no-inline
 * byte for byte, with the chains reaching work::run, and with the inline
 * frames), --no-demangle, report --no-children in caller and callee
 * order, report --children with and without the inline frames (with
 * them, each name's entries added up: lang_cxx_children). */
#include "lang_cxx.h"

static char dir[64];

static void same(const char *file, const char *cmd, const char *opts, const char *needle)
{
	lang_cxx_same(dir, file, cmd, opts, needle);
}

/* script --no-inline byte for byte, and perf's chains reach work::run
 * (the recording holds whole stacks). */
static void unwound(const char *file)
{
	char *b = lang_script(dir, file, "", "main");
	size_t all, with;

	if (b) {
		lang_chains(b, "work::run", &all, &with);
		CHECK_MSG(with * 10 >= all * 7, "%s: perf's chains reach work::run in %zu of %zu samples",
			  file, with, all);
		free(b);
	}
}

int main(void)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("command -v g++ >/dev/null"))
		T_SKIP("g++ is not installed");
	lang_mkdir(dir, sizeof(dir), "cxx");
	lang_write(dir, "p.cpp", lang_cxx_prog);
	if (t_sh("cd %s && %s record -q --call-graph dwarf -o probe.data -- true >/dev/null 2>&1",
		 dir, PERF))
		T_SKIP("perf record --call-graph dwarf cannot sample here");
	if (t_sh("cd %s && g++ -O2 -g -o gxx p.cpp >gxx.log 2>&1", dir))
		T_FATAL("g++ -O2 -g failed (see %s/gxx.log)", dir);

	/* perf record --call-graph dwarf */
	CHECK_EQ_INT(t_sh("cd %s && %s record -q --call-graph dwarf -o d.data -- ./gxx "
			  LANG_CXX_ROUNDS " >/dev/null 2>&1", dir, PERF), 0);
	unwound("d.data");
	same("d.data", "report", "--stdio --no-children -g caller --sort sym", "std::__introsort_loop<");
	same("d.data", "report", "--stdio --no-children -g callee --sort sym", "work::run");
	same("d.data", "report", "--stdio --children --no-inline --sort sym -g none",
	     "work::(anonymous namespace)::hidden_rec");
	lang_cxx_children(dir, "d.data", "--stdio --children --sort sym -g none");
	same("d.data", "script", "--no-inline --no-demangle", "_ZN4work3runEl");
	same("d.data", "report", "--stdio --no-children --no-demangle --sort sym", "_ZN4work3runEl");

	/* perf record --call-graph fp (g++ -O2 keeps no frame pointer: the
	 * same broken chains in both) */
	CHECK_EQ_INT(t_sh("cd %s && %s record -q --call-graph fp -o f.data -- ./gxx "
			  LANG_CXX_ROUNDS " >/dev/null 2>&1", dir, PERF), 0);
	same("f.data", "script", "", "work::run");
	same("f.data", "report", "--stdio --children --sort sym", "work::run");

	/* perfev record --call-graph dwarf */
	CHECK_EQ_INT(t_sh("cd %s && timeout -k 2 60 %s record -q --call-graph dwarf -o p.data -- ./gxx "
			  LANG_CXX_ROUNDS " >/dev/null 2>&1", dir, lang_perfev()), 0);
	unwound("p.data");
	same("p.data", "script", "", " (inlined)");
	same("p.data", "report", "--stdio --no-children -g caller --sort sym", "std::__introsort_loop<");

	if (t_failures)
		printf("files kept in %s\n", dir);
	else
		t_sh("rm -rf %s", dir);
	return t_done();
}
