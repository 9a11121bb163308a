// SPDX-License-Identifier: GPL-2.0-only
/* A call chain holding an unknown context marker (seen in a real cc1
 * recording: 0xffffffffffffffff after the user IP) is corrupt for perf 6.1,
 * which drops the whole chain (kernel part included) and prints the sample
 * with no frames; perfev script printed the frames around the marker.
 *
 * perf records a frame-pointer program with -g; the test then writes, in
 * a copy of the file, 0xffffffffffffffff over the word after the user IP
 * of every sample (kernel samples keep their kernel part before it), and
 * compares perfev script with perf script on both files, byte for byte. */
#include <stdint.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64];

static void same_output(const char *file, const char *fields)
{
	char pa[128], pb[128];
	size_t la, lb;

	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/a.txt 2>/dev/null", t_perfev(),
			  file, fields, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/b.txt 2>/dev/null", PERF, file,
			  fields, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(lb > 0 && strstr(b, "script_deep"), "perf script: %.300s", b);
	CHECK_MSG(la == lb && !memcmp(a, b, la), "%s '%s':\nperfev:\n%.600s\nperf:\n%.600s",
		  file, fields, a, b);
	free(a);
	free(b);
}

/* Overwrites the word after the first user IP of every sample's chain
 * with -1 (the file is perf's: native order, samples with CALLCHAIN as
 * their only variable field before it when recorded with -g -e
 * cpu-clock).  Returns how many samples it changed. */
static int corrupt(const char *src, const char *dst)
{
	size_t len;
	char *b = t_slurp(src, &len);
	uint64_t off, size;
	int n = 0;

	CHECK(b && len > 56);
	memcpy(&off, b + 40, 8);
	memcpy(&size, b + 48, 8);
	CHECK(off + size <= len);
	for (uint64_t p = off; p + 8 <= off + size;) {
		uint32_t type;
		uint16_t sz;

		memcpy(&type, b + p, 4);
		memcpy(&sz, b + p + 6, 2);
		if (sz < 8)
			break;
		for (uint64_t w = p + 8; type == PERF_RECORD_SAMPLE && w + 24 <= p + sz; w += 8) {
			uint64_t v;

			memcpy(&v, b + w, 8);
			if (v == PERF_CONTEXT_USER) {
				v = UINT64_MAX;
				memcpy(b + w + 16, &v, 8);
				n++;
				break;
			}
		}
		p += sz;
	}
	FILE *f = fopen(dst, "w");

	CHECK(f && fwrite(b, 1, len, f) == len && fclose(f) == 0);
	free(b);
	return n;
}

int main(void)
{
	char good[128], bad[128], helper[4096];
	const char *bdir = getenv("PERFEV_BUILD");

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	snprintf(helper, sizeof(helper), "%s/tests/helpers/script_deep",
		 bdir ? bdir : "build");
	strcpy(dir, "/tmp/perfev-bctx-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(good, sizeof(good), "%s/good.data", dir);
	snprintf(bad, sizeof(bad), "%s/bad.data", dir);
	if (t_sh("%s record -q -e cpu-clock -c 1000000 -g -o %s -- %s 300 6 >/dev/null 2>&1",
		 PERF, good, helper))
		T_SKIP("perf record -g cannot sample cpu-clock here");
	int n = corrupt(good, bad);

	CHECK_MSG(n >= 5, "only %d samples have a user chain of 3 or more", n);
	same_output(good, "");
	same_output(good, "-F comm,tid,ip,sym,dso");
	same_output(bad, "");
	same_output(bad, "-F comm,tid,ip,sym,dso");
	/* perf's own output on the corrupt file has no frame line. */
	CHECK_EQ_INT(t_sh("%s script -i %s 2>/dev/null | grep -q script_deep_leaf", PERF, bad), 1);
	t_sh("rm -rf %s", dir);
	return t_done();
}
