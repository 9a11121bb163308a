// SPDX-License-Identifier: GPL-2.0-only
/* perfev archive against perf archive 6.1, and the way back: a program
 * built here is recorded by perf (HOME in a temp dir, so perf's build-id
 * cache is ours); perfev archive packs the same files as perf archive
 * (same tar listing); unpacked into a fresh HOME's ~/.debug after the
 * program was rebuilt into something else, perfev script prints what perf
 * script prints there, every frame of the old program named from the
 * archive (before perfev read perf's cache layout, they were [unknown]).
 * With an empty cache (perfev record does not fill it), perfev archive
 * builds the entries from the files themselves, and they read back the
 * same way.  Usage errors exit 2, a missing file 1. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

/* perfev script and perf script in HOME=dir/home agree, and name the
 * program's frames. */
static void reads_back(const char *what, const char *home)
{
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/%s %s script -i a.data > perf.txt 2>/dev/null", dir, dir, home, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/%s %s script -i a.data > pev.txt 2>/dev/null", dir, dir, home, perfev), 0);
	char *a = t_slurp_in(dir, "pev.txt"), *b = t_slurp_in(dir, "perf.txt");

	/* leaf_work: the hot function, in every sample (gcc 12 -O1 gives it
	 * no frame of its own, so a frame-pointer chain skips middle_layer
	 * unless a sample lands in middle_layer itself: a check on it failed
	 * on the runs without one) */
	CHECK_MSG(strstr(b, "leaf_work+") && strstr(b, "/app)"), "%s: perf does not name the program's frames", what);
	if (strcmp(a, b)) {
		size_t i = 0;

		while (a[i] && a[i] == b[i])
			i++;
		while (i && a[i - 1] != '\n')
			i--;
		T_FAIL("%s: perfev script differs:\n  perfev: %.150s\n  perf:   %.150s", what, a + i, b + i);
	} else {
		printf("%s: %zu bytes identical to perf script\n", what, strlen(a));
	}
	free(a);
	free(b);
}

int main(void)
{
	if (access(PERF, X_OK) || access("/usr/lib/perf-core/perf-archive", X_OK))
		T_SKIP("perf or its perf-archive script is not installed");
	if (t_sh("gcc --version > /dev/null 2>&1 && tar --version > /dev/null 2>&1 && bzip2 --help > /dev/null 2>&1"))
		T_SKIP("gcc, tar or bzip2 is not installed");
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	snprintf(dir, sizeof(dir), "/tmp/pev-archive-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	CHECK_EQ_INT(t_sh("cd %s && mkdir -p h1/.debug h2/.debug h3/.debug empty && printf '%%s\\n' "
			  "'static volatile unsigned long sink;' "
			  "'static __attribute__((noinline)) void leaf_work(void) { for (int i = 0; i < 1000; i++) sink += i; }' "
			  "'static __attribute__((noinline)) void middle_layer(void) { for (int i = 0; i < 10; i++) leaf_work(); }' "
			  "'int main(void) { for (int i = 0; i < 30000; i++) middle_layer(); return 0; }' > app.c && "
			  "gcc -O1 -g -fno-omit-frame-pointer -Wl,--build-id -o app app.c", dir), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/h1 timeout -k 2 60 %s record -q -g -e task-clock -o a.data ./app "
			  "> /dev/null 2>&1", dir, dir, PERF), 0);
	/* The same files as perf archive. */
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/h1 %s archive a.data > /dev/null 2>&1 && tar tjf a.data.tar.bz2 | sort "
			  "> perf.list && mv a.data.tar.bz2 perf.tar.bz2", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/h1 %s archive a.data > msg.txt && tar tjf a.data.tar.bz2 | sort > pev.list",
			  dir, dir, perfev), 0);
	char *pl = t_slurp_in(dir, "perf.list"), *ql = t_slurp_in(dir, "pev.list"), *msg = t_slurp_in(dir, "msg.txt");

	CHECK_MSG(strstr(pl, "/app/") && strstr(pl, ".build-id/"), "perf archive packed:\n%s", pl);
	CHECK_MSG(!strcmp(pl, ql), "the archives differ:\n-- perfev:\n%s-- perf:\n%s", ql, pl);
	CHECK_MSG(strstr(msg, "tar xvf a.data.tar.bz2 -C ~/.debug"), "message: %s", msg);
	/* kallsyms is packed when samples hit the kernel: not every run of
	 * a CPU loop has one, perf's archive tells. */
	bool kernel = strstr(pl, "kallsyms") != NULL;
	free(pl);
	free(ql);
	free(msg);
	/* Another machine: a fresh HOME, the program rebuilt into another. */
	CHECK_EQ_INT(t_sh("cd %s && tar xf a.data.tar.bz2 -C h2/.debug && "
			  "printf 'int main(void) { return 3; }\\n' > other.c && gcc -o app other.c", dir), 0);
	reads_back("unpacked archive", "h2");
	/* Nothing in the cache: built from the files (the old program is
	 * back for that). */
	CHECK_EQ_INT(t_sh("cd %s && gcc -O1 -g -fno-omit-frame-pointer -Wl,--build-id -o app app.c && "
			  "HOME=%s/empty %s archive a.data > /dev/null && tar tjf a.data.tar.bz2 > staged.list && "
			  "tar xf a.data.tar.bz2 -C h3/.debug && rm app", dir, dir, perfev), 0);
	char *sl = t_slurp_in(dir, "staged.list");

	CHECK_MSG(strstr(sl, "/app/") && strstr(sl, "/elf") && (!kernel || strstr(sl, "kallsyms")),
		  "staged archive:\n%s", sl);
	free(sl);
	reads_back("archive built without a cache", "h3");
	CHECK_EQ_INT(t_sh("cd %s && %s archive a.data b.data > /dev/null 2>&1", dir, perfev), 2);
	CHECK_EQ_INT(t_sh("cd %s && %s archive --bogus > /dev/null 2>&1", dir, perfev), 2);
	CHECK_EQ_INT(t_sh("cd %s && %s archive none.data > /dev/null 2>&1", dir, perfev), 1);
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
