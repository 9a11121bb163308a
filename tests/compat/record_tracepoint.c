// SPDX-License-Identifier: GPL-2.0-only
/* perf 6.1 reads the tracepoint recordings perfev record writes (they were
 * refused: "broken or missing trace data", "incompatible file format",
 * for want of the TRACING_DATA feature, and the samples carried no
 * fields without -R):
 * - the attrs are perf's own for the same command line (perf evlist -v on
 *   both files, ksymbol and bpf_event aside: perfev does not ask them),
 *   with and without -a, with -R, -c and -F;
 * - perf script prints every sample with its fields (prev_comm=...
 *   ==> next_comm=...), in file mode and in pipe mode (PERF_RECORD_HEADER_
 *   TRACING_DATA), as many lines as perfev script prints, and perfev
 *   script prints byte for byte what perf script prints. */
#include <errno.h>
#include <sys/mount.h>

#include "../live/record_util.h"

#define PERF "/usr/bin/perf"

static char dir[64];

/* tracefs, mounted at /sys/kernel/tracing if it is not (left mounted:
 * other tests use it); false when this kernel has none. */
static bool have_tracefs(void)
{
	size_t len;
	char *fs = t_slurp("/proc/filesystems", &len);
	bool known = strstr(fs, "\ttracefs\n") != NULL;

	free(fs);
	if (!access("/sys/kernel/tracing/events/header_page", R_OK))
		return true;
	if (!known)
		return false;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) && errno != EBUSY)
		T_SKIP("tracefs is not mounted and cannot be mounted: %s", strerror(errno));
	return !access("/sys/kernel/tracing/events/header_page", R_OK);
}

static char *slurp_in_dir(const char *name)
{
	char p[128];
	size_t len;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return t_slurp(p, &len);
}

/* perf evlist -v of a file, without the bits perfev does not ask. */
static char *evlist(const char *file)
{
	CHECK_EQ_INT(t_sh("%s evlist -v -i %s 2>/dev/null | grep -v '^#' | "
			  "sed 's/, ksymbol: 1, bpf_event: 1//' > %s/evlist.txt",
			  PERF, file, dir), 0);
	return slurp_in_dir("evlist.txt");
}

static void same_attrs(const char *opts)
{
	char a[128], b[128];

	snprintf(a, sizeof(a), "%s/attr-perfev.data", dir);
	snprintf(b, sizeof(b), "%s/attr-perf.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_switch %s -o %s -- sleep 0.01 >/dev/null 2>&1",
			  t_perfev(), opts, a), 0);
	CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_switch %s -o %s -- sleep 0.01 >/dev/null 2>&1",
			  PERF, opts, b), 0);
	char *x = evlist(a), *y = evlist(b);

	CHECK_MSG(*y && !strcmp(x, y), "attrs with '%s':\n perfev: %s perf:   %s", opts, x, y);
	printf("attrs '%s': %s", opts, x);
	free(x);
	free(y);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* perf script and perfev script on `file` (stdin when `pipe`). */
static void read_back(const char *what, const char *file, bool pipe)
{
	const char *in = pipe ? "-i - <" : "-i";
	int rb = t_sh("%s script %s %s > %s/b.txt 2> %s/b.err", PERF, in, file, dir, dir);
	int ra = t_sh("%s script %s %s > %s/a.txt 2> %s/a.err", t_perfev(), in, file, dir, dir);
	char *b = slurp_in_dir("b.txt"), *be = slurp_in_dir("b.err");
	char *a = slurp_in_dir("a.txt");
	size_t lines = count_lines(b), fields = 0;

	/* (perf may warn of LOST records on a loaded machine: not checked) */
	CHECK_MSG(rb == 0 && !strstr(be, "trace data") && !strstr(be, "incompatible") &&
		  !strstr(be, "rror"), "%s: perf script exited %d: %s", what, rb, be);
	CHECK_EQ_INT(ra, 0);
	for (const char *p = b; (p = strstr(p, "sched:sched_switch: prev_comm=")); p++)
		fields += strstr(p, " ==> next_comm=") != NULL;
	CHECK_MSG(lines > 0 && fields == lines, "%s: %zu lines, %zu with the fields:\n%.300s",
		  what, lines, fields, b);
	CHECK_MSG(count_lines(a) == lines, "%s: perfev script %zu lines, perf script %zu",
		  what, count_lines(a), lines);
	if (strcmp(a, b)) {
		size_t i = 0, start = 0;

		while (a[i] && a[i] == b[i])
			if (a[i++] == '\n')
				start = i;
		T_FAIL("%s: perfev script differs:\n  perfev: %.200s\n  perf:   %.200s",
		       what, a + start, b + start);
	}
	printf("%s: perf script read %zu samples with their fields\n", what, lines);
	free(a);
	free(b);
	free(be);
}

int main(void)
{
	char f[128];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!have_tracefs())
		T_SKIP("this kernel has no tracefs (/proc/filesystems)");
	strcpy(dir, "/tmp/perfev-rtp-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");

	same_attrs("");
	same_attrs("-a");
	same_attrs("-R");
	same_attrs("-c 3");
	same_attrs("-F 100");
	same_attrs("-a -c 5");

	for (int raw = 0; raw < 2; raw++) {
		const char *opt = raw ? "-R" : "";

		snprintf(f, sizeof(f), "%s/t.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q %s -e sched:sched_switch -a -o %s -- sleep 0.3",
				  t_perfev(), opt, f), 0);
		read_back(raw ? "file -R" : "file", f, false);
		snprintf(f, sizeof(f), "%s/p.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q %s -e sched:sched_switch -a -o - -- sleep 0.3 > %s",
				  t_perfev(), opt, f), 0);
		read_back(raw ? "pipe -R" : "pipe", f, true);
	}
	/* A pipe straight into perf script. */
	CHECK_EQ_INT(t_sh("%s record -q -e sched:sched_switch -a -o - -- sleep 0.2 | "
			  "%s script -i - > %s/b.txt 2>&1", t_perfev(), PERF, dir), 0);
	char *b = slurp_in_dir("b.txt");

	CHECK_MSG(strstr(b, " ==> next_comm=") && !strstr(b, "trace data"), "%.300s", b);
	free(b);
	t_sh("rm -rf %s", dir);
	return t_done();
}
