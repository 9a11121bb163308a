// SPDX-License-Identifier: GPL-2.0-only
/* perfev report's sort keys symbol_size, dso_size and srcfile (and the
 * "IPC   [IPC Coverage]" column perf 6.1 adds to a sort naming "symbol")
 * against perf report --stdio 6.1, byte for byte, on files recorded by
 * /usr/bin/perf at test time: python3 running a script and a C++ program
 * built with g++ -O2 -g, and srcfile on a C program built with gcc -O1 -g
 * (no code inlined across files), with -g and without, children or not;
 * cgroup and cgroup_id on files recorded with and without --all-cgroups
 * --namespaces.
 * perf's closing random tip is left out of the comparison. */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_cmp.h"

static const char *const key_opts[] = {
	"--sort symbol_size", "--sort dso_size",
	"--sort symbol", "--sort dso_size,sym", "--sort sym,symbol_size",
	"--sort symbol_size,dso", NULL,
};

/* python3: entries without a symbol and of equal period are not all
 * ordered as perf orders them yet (README), so no sort on symbols. */
static const char *const cg_opts[] = { "--sort dso_size", "--sort comm,dso_size", NULL };

/* srcfile: perf names the file of the outermost caller of inlined code
 * (addr2line -i's last answer), perfev the line table's innermost row
 * yet: compared on a program whose code is not inlined across files
 * (ld.so's is: its samples are left out with --dsos). */
static const char *const src_opts[] = {
	"--sort srcfile --dsos wsrc", "--sort srcfile,sym --dsos wsrc",
	"--sort dso,srcfile --dsos wsrc", "--sort comm,dso_size,srcfile --dsos wsrc",
	NULL,
};

/* srcfile wider than its header (a column perf widens, not cuts). */
static const char *const dash_opts[] = {
	"--sort srcfile", "--sort dso,srcfile", "--sort srcfile -g none", NULL,
};

/* cgroup (the sample's cgroup, named by CGROUP records) and cgroup_id
 * (the thread's cgroup namespace, from NAMESPACES records). */
static const char *const cg_keys[] = {
	"--sort cgroup_id", "--sort cgroup", "--sort cgroup,cgroup_id,sym",
	"--sort sym,cgroup", NULL,
};

static const char wsrc_src[] =
	"volatile long x;\n"
	"__attribute__((noinline)) void small(void) { for (int i = 0; i < 1000; i++) x += i; }\n"
	"__attribute__((noinline)) void bigger(void) { for (int i = 0; i < 3000; i++) { x += i; x ^= i * 3; } }\n"
	"int main(void) { for (long j = 0; j < 30000; j++) { small(); bigger(); } return 0; }\n";

static void key_modes(const char *what, const char *file, const char *const *opts)
{
	char o[128];

	for (size_t i = 0; opts[i]; i++) {
		same_report(what, file, opts[i]);
		snprintf(o, sizeof(o), "%s --no-children", opts[i]);
		same_report(what, file, o);
	}
}

int main(void)
{
	char path[256], file[256];

	report_cmp_start("/tmp/perfev-rkeys-XXXXXX", true);

	if (have("python3")) {
		report_cmp_write(path, sizeof(path), "w.py", report_py_src);
		snprintf(file, sizeof(file), "%s/py.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -o %s -- python3 %s > /dev/null 2>&1",
				  PERF, file, path), 0);
		key_modes("python3", file, cg_opts);
		snprintf(file, sizeof(file), "%s/py-g.data", dir);
		/* User space only, as the g++ program below. */
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock:u -F 4000 -g -o %s -- python3 %s > /dev/null 2>&1",
				  PERF, file, path), 0);
		key_modes("python3 -g", file, cg_opts);
	} else {
		printf("python3 part skipped: no python3 in PATH\n");
	}
	if (have("dash")) {
		/* dash (Debian's /bin/sh, not written here): libc's assembly
		 * sources (memmove-vec-unaligned-erms.S) are longer than the
		 * column's header, and perf widens the column for them. */
		report_cmp_write(path, sizeof(path), "loop.sh",
				 "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done\n");
		snprintf(file, sizeof(file), "%s/dash.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -g -o %s -- dash %s > /dev/null 2>&1",
				  PERF, file, path), 0);
		key_modes("dash -g", file, dash_opts);
	} else {
		printf("dash part skipped: no dash in PATH\n");
	}
	if (have("g++")) {
		report_cmp_write(path, sizeof(path), "w.cc", report_cxx_src);
		CHECK_EQ_INT(t_sh("g++ -O2 -g -o %s/wcc %s", dir, path), 0);
		snprintf(file, sizeof(file), "%s/cxx-g.data", dir);
		/* User space only: kernel chains (page faults, RCU) give
		 * branches of equal period whose order perfev does not
		 * always reproduce yet (README), and they vary by run. */
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock:u -F 4000 -g -o %s -- %s/wcc 150 > /dev/null 2>&1",
				  PERF, file, dir), 0);
		key_modes("g++ -O2 -g program -g", file, key_opts);
	} else {
		printf("g++ part skipped: no g++ in PATH\n");
	}
	if (have("gcc")) {
		report_cmp_write(path, sizeof(path), "wsrc.c", wsrc_src);
		CHECK_EQ_INT(t_sh("gcc -O1 -g -o %s/wsrc %s", dir, path), 0);
		snprintf(file, sizeof(file), "%s/wsrc.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -o %s -- %s/wsrc > /dev/null 2>&1",
				  PERF, file, dir), 0);
		key_modes("gcc -O1 -g program", file, src_opts);
		key_modes("gcc -O1 -g program", file, key_opts);
		/* without cgroups or namespaces: "N/A" and 0/0x0 */
		key_modes("gcc -O1 -g program", file, cg_keys);
		snprintf(file, sizeof(file), "%s/wsrc-cg.data", dir);
		if (!t_sh("%s record -q -e cpu-clock -F 4000 --all-cgroups --namespaces -o %s -- %s/wsrc > /dev/null 2>&1",
			  PERF, file, dir))
			key_modes("gcc -O1 -g program --all-cgroups --namespaces", file, cg_keys);
		else if (access("/sys/fs/cgroup/cgroup.controllers", F_OK))
			printf("cgroup part skipped: no cgroup v2 hierarchy at /sys/fs/cgroup\n");
		else
			T_FAIL("perf record --all-cgroups --namespaces failed");
		/* (srcfile with -g in children mode: chain entries do not
		 * all get perf's file yet) */
	} else {
		printf("gcc part skipped: no gcc in PATH\n");
	}
	return report_cmp_end();
}
