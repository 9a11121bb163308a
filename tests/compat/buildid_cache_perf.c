// SPDX-License-Identifier: GPL-2.0-only
/* perfev buildid-cache against perf buildid-cache 6.1, each in a HOME of
 * its own (temp dirs): -a of two programs built here (relative paths, one
 * comma-separated list) makes the same tree under ~/.debug (paths, types,
 * modes, sizes, link targets); -l prints what perf prints, the ids being
 * readelf -n's; a program rebuilt and added again leaves its old id out of
 * -l in both; -r, -p, -u and -P remove and add what perf does; the cache
 * moves with --buildid-dir in both (and with $PERF_BUILDID_DIR in
 * perfev).  A missing file, a file that is not
 * ELF, a directory exit 1 with a line that says so; no action exits 2. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

/* Runs `args` with perf in HOME=h1 and perfev in HOME=h2, then compares
 * the two trees. */
static void both(const char *what, const char *args)
{
	CHECK_MSG(t_sh("cd %s && HOME=%s/h1 %s buildid-cache %s > /dev/null 2>&1", dir, dir, PERF, args) == 0,
		  "%s: perf failed", what);
	int rc = t_sh("cd %s && HOME=%s/h2 %s buildid-cache %s > out.txt 2> err.txt", dir, dir, perfev, args);
	char *err = t_slurp_in(dir, "err.txt");

	CHECK_MSG(rc == 0, "%s: perfev exit %d: %s", what, rc, err);
	free(err);
	/* the tree: type, path, link target, mode, size */
	t_sh("cd %s/h1 && find . -printf '%%y %%p %%l %%m %%s\\n' | sort > ../t1.txt", dir);
	t_sh("cd %s/h2 && find . -printf '%%y %%p %%l %%m %%s\\n' | sort > ../t2.txt", dir);
	char *a = t_slurp_in(dir, "t1.txt"), *b = t_slurp_in(dir, "t2.txt");

	CHECK_MSG(!strcmp(a, b), "%s: the caches differ:\n-- perfev:\n%s-- perf:\n%s", what, b, a);
	if (!strcmp(a, b))
		printf("%s: same tree (%zu bytes of listing)\n", what, strlen(a));
	free(a);
	free(b);
}

/* -l of both; returns perf's output (to free). */
static char *lists(const char *what)
{
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/h1 %s buildid-cache -l > l1.txt 2>/dev/null", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/h2 %s buildid-cache -l > l2.txt", dir, dir, perfev), 0);
	char *a = t_slurp_in(dir, "l1.txt"), *b = t_slurp_in(dir, "l2.txt");

	CHECK_MSG(!strcmp(a, b), "%s: -l differs:\n-- perfev:\n%s-- perf:\n%s", what, b, a);
	free(b);
	return a;
}

/* The build id readelf -n shows for a file of dir. */
static void readelf_id(const char *file, char *hex, size_t size)
{
	t_sh("cd %s && readelf -n %s | sed -n 's/.*Build ID: *\\([0-9a-f]*\\).*/\\1/p' > id.txt", dir, file);
	char *s = t_slurp_in(dir, "id.txt");

	snprintf(hex, size, "%.40s", s);
	free(s);
	CHECK_MSG(strlen(hex) == 40, "readelf -n %s: no build id", file);
}

/* perfev buildid-cache `args` in HOME=h2 exits `want` saying `say`. */
static void refused(const char *args, int want, const char *say)
{
	int rc = t_sh("cd %s && HOME=%s/h2 %s buildid-cache %s > /dev/null 2> err.txt", dir, dir, perfev, args);
	char *err = t_slurp_in(dir, "err.txt");

	const char *nl = strchr(err, '\n');

	/* one line */
	CHECK_MSG(rc == want && strstr(err, say) && nl && !nl[1],
		  "buildid-cache %s: exit %d (want %d), said: %s", args, rc, want, err);
	free(err);
}

int main(void)
{
	char id1[48], id2[48], old[48], line[256];

	if (access(PERF, X_OK))
		T_SKIP("perf is not installed");
	if (t_sh("gcc --version > /dev/null 2>&1 && readelf --version > /dev/null 2>&1"))
		T_SKIP("gcc or readelf is not installed");
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	snprintf(dir, sizeof(dir), "/tmp/pev-bidcache-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	CHECK_EQ_INT(t_sh("cd %s && mkdir h1 h2 && printf 'int main(void) { return 1; }\\n' > a.c && "
			  "printf 'int main(void) { return 2; }\\n' > b.c && gcc -Wl,--build-id -o app a.c && "
			  "gcc -Wl,--build-id -o tool b.c && echo text > notes.txt", dir), 0);
	readelf_id("app", old, sizeof(old));
	readelf_id("tool", id2, sizeof(id2));

	both("-a app,tool", "-a ./tool,./app");
	char *l = lists("after -a");

	snprintf(line, sizeof(line), "%s %s/app\n", old, dir);
	CHECK_MSG(strstr(l, line), "perf -l lacks '%s':\n%s", line, l);
	free(l);
	both("-a again (nothing changes)", "-a ./app");

	/* app rebuilt: two ids at its path, -l shows the current one only */
	CHECK_EQ_INT(t_sh("cd %s && printf 'int main(void) { return 3; }\\n' > a.c && "
			  "gcc -Wl,--build-id -o app a.c", dir), 0);
	readelf_id("app", id1, sizeof(id1));
	CHECK_MSG(strcmp(id1, old), "the rebuilt app has the old build id %s", old);
	both("-a of the rebuilt app", "-a ./app");
	l = lists("after the rebuild");
	snprintf(line, sizeof(line), "%s %s/app\n%s %s/tool\n", id1, dir, id2, dir);
	if (strcmp(id1, id2) > 0)
		snprintf(line, sizeof(line), "%s %s/tool\n%s %s/app\n", id2, dir, id1, dir);
	CHECK_MSG(!strcmp(l, line), "perf -l after the rebuild:\n%s", l);
	free(l);

	both("-r tool", "-r ./tool");
	both("-p app (both of its ids)", "-p ./app");
	both("-u app", "-u ./app");
	both("-a tool, -u app", "-a ./tool -u ./app");
	both("-P", "-P");
	free(lists("after -P"));

	/* --buildid-dir moves the cache (perf's is a global option) */
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/h1 %s --buildid-dir %s/h1/c buildid-cache -a ./app 2>/dev/null && "
			  "HOME=%s/h2 %s buildid-cache --buildid-dir %s/h2/c -a ./app", dir, dir, PERF, dir,
			  dir, perfev, dir), 0);
	both("--buildid-dir", "-l");
	CHECK_EQ_INT(t_sh("cd %s && test -L h2/c/.build-id/%.2s/%s", dir, id1, id1 + 2), 0);
	/* and so does $PERF_BUILDID_DIR, as for perfev record and archive
	 * (perf sets it for its perf-archive script only) */
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/h2 PERF_BUILDID_DIR=%s/h2/e %s buildid-cache -a ./app && "
			  "test -L h2/e/.build-id/%.2s/%s", dir, dir, dir, perfev, id1, id1 + 2), 0);

	refused("-a ./missing", 1, "'./missing': no such file");
	refused("-a ./notes.txt", 1, "'./notes.txt': not an ELF file");
	refused("-a /tmp", 1, "'/tmp': it is a directory");
	refused("-r ./missing", 1, "cannot remove './missing'");
	refused("", 2, "nothing to do");
	refused("extra", 2, "unexpected argument 'extra'");
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
