// SPDX-License-Identifier: GPL-2.0-only
/* perfev record puts a DSO's debug file into the build-id cache as perf
 * 6.1 does: the file found at /usr/lib/debug/.build-id/xx/<rest>.debug
 * is copied next to the DSO's copy as `debug`
 * (~/.debug/<path>/<id>/{elf,debug,probes}).  perfev copied `elf` only.
 *
 * The oracle is perf's own layout: `perf buildid-cache -a libc.so.6` in
 * one HOME; perfev record of a program built here that spends its time
 * in libc's memset in another; the libc folders of both caches hold the
 * same files with the same bytes, and the .build-id links agree. */
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include "report_cmp.h"

#define LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"

static const char prog[] =
	"#include <string.h>\n"
	"static void *(*volatile set)(void *, int, size_t) = memset;\n"
	"static char buf[1 << 20];\n"
	"int main(void) { for (int i = 0; i < 3000; i++) set(buf, i, sizeof(buf)); return buf[7] == 1; }\n";

int main(void)
{
	char f[128], id[64] = "";

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-bdebug-XXXXXX", true);
	if (access(LIBC, R_OK))
		T_SKIP("%s is not there", LIBC);
	snprintf(f, sizeof(f), "%s/id", dir);
	CHECK_EQ_INT(t_sh("readelf -n %s | awk '/Build ID/ {print $3}' > %s", LIBC, f), 0);
	char *s = t_slurp(f, &(size_t){0});

	if (s)
		sscanf(s, "%63s", id);
	free(s);
	if (strlen(id) != 40)
		T_SKIP("%s has no 20-byte build id", LIBC);
	snprintf(f, sizeof(f), "/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2);
	if (access(f, R_OK))
		T_SKIP("no debug file for libc at %s (libc6-dbg)", f);

	CHECK_EQ_INT(t_sh("cd %s && mkdir hp hv && HOME=%s/hp %s buildid-cache -a %s", dir, dir, PERF, LIBC), 0);
	snprintf(f, sizeof(f), "%s/m.c", dir);
	FILE *src = fopen(f, "w");

	CHECK(src && fputs(prog, src) >= 0 && fclose(src) == 0);
	CHECK_EQ_INT(t_sh("gcc -O2 -o %s/m %s/m.c && HOME=%s/hv timeout -k 2 60 %s record -q -e task-clock "
			  "-o %s/v.data %s/m >/dev/null 2>&1", dir, dir, dir, perfev, dir, dir), 0);

	const char *libdir = ".debug/usr/lib/x86_64-linux-gnu/libc.so.6";

	CHECK_MSG(!t_sh("cd %s && test -f hp/%s/%s/debug", dir, libdir, id),
		  "perf buildid-cache made no %s/%s/debug", libdir, id);
	CHECK_MSG(!t_sh("cd %s && (cd hp/%s/%s && ls) > p.txt && (cd hv/%s/%s && ls) > v.txt && cmp -s p.txt v.txt",
			dir, libdir, id, libdir, id),
		  "perfev's cached libc folder holds other files than perf's: %s",
		  t_sh("cd %s && diff p.txt v.txt >&2", dir) ? "(above)" : "");
	CHECK_MSG(!t_sh("cd %s && cmp -s hp/%s/%s/debug hv/%s/%s/debug", dir, libdir, id, libdir, id),
		  "perfev's cached debug file is not perf's");
	CHECK_MSG(!t_sh("cd %s && test \"$(readlink hp/.debug/.build-id/%.2s/%s)\" = "
			"\"$(readlink hv/.debug/.build-id/%.2s/%s)\"", dir, id, id + 2, id, id + 2),
		  "the .build-id links differ");
	return report_cmp_end();
}
