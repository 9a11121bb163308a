// SPDX-License-Identifier: GPL-2.0-only
/* perfev record and the vDSO, against perf record 6.1 on the same program
 * (a clock_gettime loop, served by the vDSO): perf buildid-list on
 * perfev's file names the same `<id> [vdso]` as on perf's; each cache
 * (separate HOMEs) holds the same [vdso]/<id>/vdso image and the same
 * .build-id link; perf script and perfev script on perfev's file resolve
 * the vDSO samples alike (__vdso_clock_gettime), and both read a cached
 * vDSO of another id (a recording from another kernel) from the cache. */
#include <sys/auxv.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

/* The stdout of cmd, run in dir. */
static char *out(const char *cmd)
{
	char path[128];
	size_t n;

	snprintf(path, sizeof(path), "%s/out.txt", dir);
	t_sh("cd %s && %s > out.txt 2>/dev/null", dir, cmd);
	char *s = t_slurp(path, &n);

	return s ? s : strdup("");
}

/* Replaces every copy of from (n bytes) by to in the file at path; how
 * many there were. */
static int patch_file(const char *path, const void *from, const void *to, size_t n)
{
	size_t len;
	char *b = t_slurp(path, &len);
	int count = 0;
	FILE *f;

	if (!b)
		return 0;
	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(b + i, from, n)) {
			memcpy(b + i, to, n);
			count++;
		}
	if (!(f = fopen(path, "w")) || fwrite(b, 1, len, f) != len)
		count = 0;
	if (f)
		fclose(f);
	free(b);
	return count;
}

/* A recording "from another machine": perfev's file and its cached vDSO
 * given another build id, and the cached image's __vdso_clock_gettime
 * renamed; perf and perfev must both name samples from the cached image
 * (__vdso_clock_gettimX), not from their own vDSO. */
static void cached_vdso(const char *id)
{
	uint8_t bid[20], nid[20];
	char nhex[41], p[256], cmd[4200];

	for (int i = 0; i < 20; i++) {
		unsigned v;

		sscanf(id + 2 * i, "%2x", &v);
		bid[i] = (uint8_t)v;
		nid[i] = (uint8_t)(v ^ 0x5a);
	}
	for (int i = 0; i < 20; i++)
		snprintf(nhex + 2 * i, 3, "%02x", nid[i]);
	CHECK_EQ_INT(t_sh("cd %s && mkdir -p 'hx/.debug/[vdso]/%s' hx/.debug/.build-id/%.2s && "
			  "cp 'hv/.debug/[vdso]/%s/vdso' 'hx/.debug/[vdso]/%s/vdso' && "
			  "ln -s '../../[vdso]/%s' hx/.debug/.build-id/%.2s/%s && cp perfev.data moved.data",
			  dir, nhex, nhex, id, nhex, nhex, nhex, nhex + 2), 0);
	snprintf(p, sizeof(p), "%s/hx/.debug/[vdso]/%s/vdso", dir, nhex);
	CHECK_MSG(patch_file(p, bid, nid, 20) == 1, "the vDSO image holds its build id once");
	CHECK_MSG(patch_file(p, "__vdso_clock_gettime", "__vdso_clock_gettimX", 20) >= 1,
		  "the vDSO image names no __vdso_clock_gettime");
	snprintf(p, sizeof(p), "%s/moved.data", dir);
	CHECK_MSG(patch_file(p, bid, nid, 20) >= 1, "perfev's file holds no vDSO build id");

	char *want = out("HOME=hx " PERF " script -i moved.data -F ip,sym,dso");

	snprintf(cmd, sizeof(cmd), "HOME=hx %s script -i moved.data -F ip,sym,dso", perfev);
	char *got = out(cmd);

	CHECK_MSG(strstr(want, "__vdso_clock_gettimX ([vdso])") != NULL,
		  "perf script did not read the cached vDSO");
	CHECK_MSG(!strcmp(want, got), "perfev script differs from perf script with the cached vDSO");
	printf("cached vDSO: %zu bytes of script identical\n", strlen(got));
	free(want);
	free(got);
}

int main(void)
{
	const char *bd = getenv("PERFEV_BUILD");
	char build[4096], helper[4200];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!realpath(t_perfev(), perfev) || !realpath(bd ? bd : "build", build))
		T_FATAL("perfev binary %s is missing", t_perfev());
	if (!getauxval(AT_SYSINFO_EHDR))
		T_SKIP("this kernel maps no vDSO (AT_SYSINFO_EHDR is 0)");
	snprintf(helper, sizeof(helper), "%s/tests/helpers/vdso_loop", build);
	snprintf(dir, sizeof(dir), "/tmp/pev-vdso-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	CHECK_EQ_INT(t_sh("cd %s && mkdir hp hv && HOME=%s/hp timeout -k 2 60 %s record -q -e task-clock "
			  "-o perf.data -- %s 300 > /dev/null 2>&1", dir, dir, PERF, helper), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/hv timeout -k 2 60 %s record -q -e task-clock "
			  "-o perfev.data -- %s 300 > /dev/null 2>&1", dir, dir, perfev, helper), 0);

	char *want = out("HOME=hp " PERF " buildid-list -i perf.data | grep -F '[vdso]'");
	char *got = out("HOME=hv " PERF " buildid-list -i perfev.data | grep -F '[vdso]'");

	CHECK_MSG(strlen(want) == 48, "perf's own file has no vDSO build id: '%s'", want);
	CHECK_MSG(!strcmp(want, got), "perf buildid-list on perfev's file: vDSO line '%s', on perf's '%s'",
		  got, want);
	if (strlen(want) == 48) {
		char id[41];

		memcpy(id, want, 40);
		id[40] = 0;
		CHECK_MSG(t_sh("cd %s && cmp -s 'hp/.debug/[vdso]/%s/vdso' 'hv/.debug/[vdso]/%s/vdso'",
			       dir, id, id) == 0,
			  "hv/.debug/[vdso]/%s/vdso is missing or not perf's image", id);
		CHECK_MSG(t_sh("cd %s && test -f 'hp/.debug/[vdso]/%s/probes' && test -f 'hv/.debug/[vdso]/%s/probes'",
			       dir, id, id) == 0, "no empty probes file next to the cached vDSO, as perf's");
		cached_vdso(id);
		CHECK_MSG(t_sh("cd %s && test \"$(readlink hp/.debug/.build-id/%.2s/%s)\" = "
			       "\"$(readlink hv/.debug/.build-id/%.2s/%s)\"", dir, id, id + 2, id, id + 2) == 0,
			  "the .build-id link of the vDSO differs from perf's");
	}
	free(want);
	free(got);

	char cmd[4200];

	want = out("HOME=hv " PERF " script -i perfev.data -F ip,sym,dso");
	snprintf(cmd, sizeof(cmd), "HOME=hv %s script -i perfev.data -F ip,sym,dso", perfev);
	got = out(cmd);
	CHECK_MSG(strstr(want, "__vdso_clock_gettime ([vdso])") != NULL,
		  "perf script names no __vdso_clock_gettime sample in perfev's file");
	CHECK_MSG(!strcmp(want, got), "perfev script differs from perf script on perfev's file");
	printf("vDSO id, cache and %zu bytes of script identical\n", strlen(got));
	free(want);
	free(got);
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
