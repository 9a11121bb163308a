// SPDX-License-Identifier: GPL-2.0-only
/* Where symbols come from when the binary is not the one recorded, or is
 * stripped, against perf script 6.1 on the same files:
 *   - perf's build-id cache in its layout (.build-id/xx/rest is a link to
 *     a directory holding `elf`): a program recorded by perf and rebuilt
 *     differently still resolves (perfev printed [unknown] before: it
 *     opened the link as a file);
 *   - perfev record adds the DSOs with samples to that cache in perf's
 *     layout, so that perf too resolves the rebuilt program (perf printed
 *     [unknown] before: nothing was added); -N adds nothing;
 *   - a stripped program whose debug file is found through .gnu_debuglink
 *     or /usr/lib/debug/.build-id/xx/rest.debug gets its names and
 *     srclines (run in a private mount namespace with an empty tmpfs on
 *     /usr/lib/debug, so that only our debug file is there). */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[PATH_MAX];

static const char prog_v1[] =
	"#include <stdio.h>\n"
	"__attribute__((noinline)) long spin_here(long n) { long s = 0;"
	" for (long i = 0; i < n; i++) s += i * i ^ s; return s; }\n"
	"int main(void) { printf(\"%ld\\n\", spin_here(200000000)); return 0; }\n";

/* Another layout: a new function before spin_here moves every address. */
static const char prog_v2[] =
	"#include <stdio.h>\n"
	"__attribute__((noinline)) long other(long n) { long s = 1;"
	" for (long i = 1; i < n; i++) s = s * i % 1000003; return s; }\n"
	"__attribute__((noinline)) long spin_here(long n) { long s = 0;"
	" for (long i = 0; i < n; i++) s += i * i ^ s; return s + other(3); }\n"
	"int main(void) { printf(\"%ld\\n\", spin_here(2)); return 0; }\n";

static void write_file(const char *name, const char *text)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		T_FATAL("cannot write %s", p);
}

/* perf script and perfev script (HOME=home, in sh_prefix's environment)
 * on data with args; equal outputs; returns perf's (malloc'ed). */
static char *same(const char *what, const char *prefix, const char *home,
		  const char *data, const char *args)
{
	char pa[128], pb[128];
	size_t la, lb;

	int ra = t_sh("cd %s && %s env HOME=%s %s script -i %s %s > a.txt 2> a.err",
		      dir, prefix, home, perfev, data, args);
	int rb = t_sh("cd %s && %s env HOME=%s %s script -i %s %s > b.txt 2> /dev/null",
		      dir, prefix, home, PERF, data, args);

	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(ra == 0, "%s: perfev script exited %d", what, ra);
	CHECK_MSG(rb == 0 && lb > 0, "%s: perf script exited %d", what, rb);
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start)) {
		T_FAIL("%s: output differs at line %zu:\n  perfev: %.160s\n  perf:   %.160s",
		       what, line, a + start, b + start);
	} else {
		printf("%s: %zu bytes identical\n", what, la);
	}
	free(a);
	return b;
}

static void build(const char *src, const char *flags, const char *out)
{
	write_file("prog.c", src);
	if (t_sh("cd %s && gcc %s -o %s prog.c", dir, flags, out))
		T_FATAL("gcc %s failed", flags);
}

/* A program recorded by perf, then rebuilt: perf's cached copy answers. */
static void test_perf_cache(void)
{
	build(prog_v1, "-O1", "p1");
	CHECK_EQ_INT(t_sh("cd %s && mkdir -p h1 && HOME=%s/h1 %s record -q -e cpu-clock -o p1.data ./p1 > /dev/null 2>&1",
			  dir, dir, PERF), 0);
	build(prog_v2, "-O0", "p1");
	char *b = same("rebuilt after perf record", "", "h1", "p1.data", "-F ip,sym,symoff,dso");

	CHECK_MSG(strstr(b, "spin_here+"), "perf did not resolve spin_here from its cache");
	free(b);
}

/* perfev record fills the cache as perf does; perf reads it. */
static void test_perfev_record_cache(void)
{
	char link[PATH_MAX], elf[PATH_MAX + 8], id[64] = "";
	struct stat sb;
	FILE *f;

	build(prog_v1, "-O1", "p2");
	snprintf(link, sizeof(link), "cd %s && readelf -n p2 | awk '/Build ID/ {print $3}'", dir);
	f = popen(link, "r");
	if (!f || !fgets(id, sizeof(id), f))
		T_FATAL("readelf -n p2 gave no build id");
	pclose(f);
	id[strcspn(id, "\n")] = 0;
	CHECK_EQ_INT(t_sh("cd %s && mkdir -p h2 h3 && HOME=%s/h2 %s record -q -e cpu-clock -o p2.data ./p2 > /dev/null 2>&1",
			  dir, dir, perfev), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/h3 %s record -N -q -e cpu-clock -o p3.data ./p2 > /dev/null 2>&1",
			  dir, dir, perfev), 0);
	snprintf(link, sizeof(link), "%s/h2/.debug/.build-id/%.2s/%s", dir, id, id + 2);
	CHECK_MSG(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode), "%s is not a link", link);
	CHECK_MSG(stat(link, &sb) == 0 && S_ISDIR(sb.st_mode), "%s is not a directory", link);
	snprintf(elf, sizeof(elf), "%s/elf", link);
	CHECK_EQ_INT(t_sh("cmp -s %s %s/p2", elf, dir), 0);
	snprintf(elf, sizeof(elf), "%s/h3/.debug", dir);
	CHECK_MSG(stat(elf, &sb) != 0, "perfev record -N created %s", elf);
	build(prog_v2, "-O0", "p2");
	char *b = same("rebuilt after perfev record", "", "h2", "p2.data", "-F ip,sym,symoff,dso");

	CHECK_MSG(strstr(b, "spin_here+"), "perf did not resolve spin_here from perfev's cache");
	free(b);
}

/* Stripped programs with their debug files where perf looks. */
static void test_debug_files(void)
{
	const char *ns = "unshare -m sh -c 'mount -t tmpfs none /usr/lib/debug && \"$0\" \"$@\"'";
	char cmd[512], *b;

	if (t_sh("unshare -m sh -c 'mount -t tmpfs none /usr/lib/debug' > /dev/null 2>&1")) {
		printf("no private mount namespace with a tmpfs on /usr/lib/debug here: debug-file cases skipped\n");
		return;
	}
	/* .gnu_debuglink next to the program */
	build(prog_v1, "-O1 -g", "s1");
	CHECK_EQ_INT(t_sh("cd %s && objcopy --only-keep-debug s1 s1.debug && strip -s s1 && "
			  "objcopy --add-gnu-debuglink=s1.debug s1 && mkdir -p h4 && "
			  "HOME=%s/h4 %s record -N -q -e cpu-clock -g -o s1.data ./s1 > /dev/null 2>&1",
			  dir, dir, PERF), 0);
	b = same("stripped, .gnu_debuglink", ns, "h4", "s1.data", "-F ip,sym,symoff,srcline,dso");
	CHECK_MSG(strstr(b, "spin_here+") && strstr(b, "prog.c:"), "perf printed no name or srcline from s1.debug");
	free(b);
	free(same("stripped, .gnu_debuglink, default fields", ns, "h4", "s1.data", ""));

	/* /usr/lib/debug/.build-id/xx/rest.debug */
	build(prog_v1, "-O1 -g", "s2");
	CHECK_EQ_INT(t_sh("cd %s && objcopy --only-keep-debug s2 s2.debug && strip -s s2 && "
			  "HOME=%s/h4 %s record -N -q -e cpu-clock -g -o s2.data ./s2 > /dev/null 2>&1",
			  dir, dir, PERF), 0);
	snprintf(cmd, sizeof(cmd),
		 "unshare -m sh -c 'id=$(readelf -n s2 | awk \"/Build ID/ {print \\$3}\" | cut -c1-40); "
		 "mount -t tmpfs none /usr/lib/debug && d=/usr/lib/debug/.build-id/$(echo $id | cut -c1-2) && "
		 "mkdir -p $d && cp s2.debug $d/$(echo $id | cut -c3-).debug && \"$0\" \"$@\"'");
	b = same("stripped, /usr/lib/debug/.build-id", cmd, "h4", "s2.data", "-F ip,sym,symoff,srcline,dso");
	CHECK_MSG(strstr(b, "spin_here+") && strstr(b, "prog.c:"), "perf printed no name or srcline from the .build-id debug file");
	free(b);
}

int main(void)
{
	char *abs;

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("command -v gcc > /dev/null 2>&1 && command -v objcopy > /dev/null 2>&1"))
		T_SKIP("gcc or objcopy is not installed");
	if (t_sh("%s record -q -e cpu-clock -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record cannot sample cpu-clock here");
	abs = realpath(getenv("PERFEV") ? getenv("PERFEV") : "build/perfev", NULL);
	if (!abs)
		T_FATAL("perfev binary not found");
	snprintf(perfev, sizeof(perfev), "%s", abs);
	free(abs);
	strcpy(dir, "/tmp/perfev-symdbg-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	test_perf_cache();
	test_perfev_record_cache();
	test_debug_files();
	t_sh("rm -rf %s", dir);
	return t_done();
}
