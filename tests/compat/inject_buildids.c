// SPDX-License-Identifier: GPL-2.0-only
/* perfev inject -b against perf inject -b 6.1, on recordings without
 * build ids of a program built here (its time split between its own loop
 * and libc's snprintf): one by perf record --no-buildid, one by perfev
 * record -B, one perf pipe stream.  perf buildid-list -i of perfev's
 * output prints what it prints for perf's (the header table), also with
 * -H (the injected records), and names the program and libc with the
 * build ids readelf -n shows; perf script reads perfev's output of
 * perf's file as it reads perf's.  perfev reads perf's output too, whose BUILD_ID records
 * are 36 + 64n bytes (perfev refused them as "not a multiple of 8"). */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

/* Under tests/valgrind/run.sh perfev runs in valgrind, which maps no
 * vDSO into it: perfev then has no running vDSO's build id to give (perf
 * reads its own), so the "ID [vdso]" line is left out of both. */
static void drop_vdso(char *s)
{
	char *l;

	if (!getenv("PERFEV_VALGRIND"))
		return;
	while ((l = strstr(s, " [vdso]\n"))) {
		char *bol = l, *eol = l + 8;

		while (bol > s && bol[-1] != '\n')
			bol--;
		memmove(bol, eol, strlen(eol) + 1);
	}
}

/* `cmd` (run in dir, HOME=dir) prints the same in a.txt and b.txt
 * for the two outputs; returns perf's output's (to free). */
static char *same(const char *what, const char *cmd_a, const char *cmd_b)
{
	int ra = t_sh("cd %s && HOME=%s %s > a.txt 2>/dev/null", dir, dir, cmd_a);
	int rb = t_sh("cd %s && HOME=%s %s > b.txt 2>/dev/null", dir, dir, cmd_b);
	char *a = t_slurp_in(dir, "a.txt"), *b = t_slurp_in(dir, "b.txt");

	drop_vdso(a);
	drop_vdso(b);
	CHECK_MSG(ra == 0 && rb == 0, "%s: exit %d (perf's output: %d)", what, ra, rb);
	CHECK_MSG(*b, "%s: nothing printed", what);
	CHECK_MSG(!strcmp(a, b), "%s differs:\n-- perfev's output:\n%s-- perf's:\n%s", what, a, b);
	if (!strcmp(a, b))
		printf("%s: %zu bytes identical\n", what, strlen(a));
	free(a);
	return b;
}

/* The readelf -n build id of `file` and its line in list. */
static void has_id(const char *what, const char *list, const char *file)
{
	char line[4200];

	t_sh("readelf -n %s | sed -n 's/.*Build ID: *\\([0-9a-f]*\\).*/\\1/p' > %s/id.txt", file, dir);
	char *id = t_slurp_in(dir, "id.txt");

	id[strcspn(id, "\n")] = 0;
	snprintf(line, sizeof(line), "%s %s\n", id, file);
	CHECK_MSG(strlen(id) == 40 && strstr(list, line), "%s: no line '%s %s' in:\n%s", what, id, file, list);
	free(id);
}

static void check(const char *what, const char *in, const char *libc, bool full)
{
	char a[4400], b[4400], pa[4400], pb[4400];

	snprintf(pa, sizeof(pa), "%s inject -b -i %s -o %s.pev", perfev, in, what);
	snprintf(pb, sizeof(pb), "%s inject -b -i %s -o %s.perf", PERF, in, what);
	CHECK_MSG(t_sh("cd %s && HOME=%s %s", dir, dir, pa) == 0, "%s: perfev inject -b failed", what);
	CHECK_MSG(t_sh("cd %s && HOME=%s %s 2>/dev/null", dir, dir, pb) == 0, "%s: perf inject -b failed", what);
	snprintf(a, sizeof(a), "%s buildid-list -i %s.pev", PERF, what);
	snprintf(b, sizeof(b), "%s buildid-list -i %s.perf", PERF, what);
	char *l = same(what, a, b);

	snprintf(pa, sizeof(pa), "%s/app", dir);
	has_id(what, l, pa);
	has_id(what, l, libc);
	free(l);
	snprintf(a, sizeof(a), "%s buildid-list -H -i %s.pev", PERF, what);
	snprintf(b, sizeof(b), "%s buildid-list -H -i %s.perf", PERF, what);
	free(same("  with -H", a, b));
	if (!full)
		return;
	snprintf(a, sizeof(a), "%s script -i %s.pev", PERF, what);
	snprintf(b, sizeof(b), "%s script -i %s.perf", PERF, what);
	free(same("  perf script", a, b));
	/* perfev reads perf's output (BUILD_ID records of 100 bytes) */
	snprintf(a, sizeof(a), "%s buildid-list -H -i %s.perf", perfev, what);
	snprintf(b, sizeof(b), "%s buildid-list -H -i %s.perf", PERF, what);
	free(same("  perfev buildid-list -H of perf's output", a, b));
	snprintf(a, sizeof(a), "%s script -i %s.perf", perfev, what);
	snprintf(b, sizeof(b), "%s script -i %s.perf", PERF, what);
	free(same("  perfev script of perf's output", a, b));
}

int main(void)
{
	char libc[4096];

	if (access(PERF, X_OK))
		T_SKIP("perf is not installed");
	if (t_sh("gcc --version > /dev/null 2>&1 && readelf --version > /dev/null 2>&1"))
		T_SKIP("gcc or readelf is not installed");
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	snprintf(dir, sizeof(dir), "/tmp/pev-injbid-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	CHECK_EQ_INT(t_sh("cd %s && printf '%%s\\n' '#include <stdio.h>' "
			  "'static volatile unsigned long sink;' "
			  "'int main(void) { char b[64]; for (int i = 0; i < 100000; i++) {' "
			  "'  snprintf(b, sizeof(b), \"%%d %%f\", i, i * 0.5); for (int k = 0; k < 300; k++) sink += k; }' "
			  "'  return 0; }' > app.c && gcc -O1 -Wl,--build-id -o app app.c && "
			  "ldd ./app | sed -n 's|.*libc.so.6 => \\([^ ]*\\).*|\\1|p' > libc.txt", dir), 0);
	char *s = t_slurp_in(dir, "libc.txt");

	s[strcspn(s, "\n")] = 0;
	if (!realpath(s, libc))
		T_FATAL("libc '%s' not found", s);
	free(s);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 60 %s record -q --no-buildid -e task-clock -c 100000 "
			  "-o p.data ./app > /dev/null 2>&1", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 60 %s record -q -e task-clock -c 100000 -o - ./app "
			  "2> /dev/null > pipe.data", dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s timeout -k 2 60 %s record -q -B -e task-clock -c 100000 "
			  "-o q.data ./app > /dev/null", dir, dir, perfev), 0);
	/* the inputs name no build ids (so what follows comes from inject) */
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s buildid-list -i p.data | grep -q '^[0-9a-f]'", dir, dir, PERF), 1);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s %s buildid-list -i q.data | grep -q '^[0-9a-f]'", dir, dir, PERF), 1);

	check("perf-file", "p.data", libc, true);
	check("perfev-file", "q.data", libc, false);
	check("pipe", "- < pipe.data", libc, false);

	CHECK_EQ_INT(t_sh("cd %s && %s inject -b --jit -i p.data -o x.data 2>/dev/null", dir, perfev), 2);
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
