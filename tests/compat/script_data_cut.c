// SPDX-License-Identifier: GPL-2.0-only
/* A perf.data cut short (a copy that stopped, a full disk) was read
 * silently with exit 0.  Files recorded by perf here (perf bench sched
 * messaging -t, system-wide) are cut three ways:
 *  - in the middle of the data section (perf 6.1: "failed to process
 *    type", exit 234, nothing printed);
 *  - the same with the header's data size 0 (the recording never
 *    finished; perf refuses it, exit 255);
 *  - right after the data section, the feature sections lost (perf reads
 *    it and says nothing).
 * perfev script must print every whole sample the cut file holds (counted
 * here by walking the record headers; each line one perf script prints
 * for the whole file), then one warning line with the numbers taken from
 * the file's header, and exit 3 (README: Exit codes).  Also -f: a file
 * owned by another user is refused without -f, as perf refuses it (by
 * script, report and convert). */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"
/* The fields that identify a sample: the COMM and MMAP records of a
 * thread may lie after the cut (the cut file then names it ":TID" and its
 * DSO "[unknown]"). */
#define FIELDS "-F tid,cpu,time,period,event,ip"

static char dir[64], perfev[4096];
static unsigned char *full;
static size_t full_len;
static uint64_t data_off, data_size;

static void write_file(const char *path, const unsigned char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0 && write(fd, buf, len) == (ssize_t)len);
	close(fd);
}

/* Samples whose whole record lies before `end`, and where the last whole
 * record ends (relative to the data section). */
static size_t whole_samples(uint64_t end, uint64_t *records_end)
{
	uint64_t pos = data_off;
	size_t n = 0;

	while (pos + 8 <= end) {
		uint32_t type;
		uint16_t size;

		memcpy(&type, full + pos, 4);
		memcpy(&size, full + pos + 6, 2);
		if (size < 8 || pos + size > end)
			break;
		n += type == PERF_RECORD_SAMPLE;
		pos += size;
	}
	*records_end = pos - data_off;
	return n;
}

static char *slurp(const char *name, size_t *len)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return t_slurp(path, len);
}

/* Every line of ours is a line perf printed for the whole file. */
static void lines_in_full(const char *out, size_t nlines_want, const char *what)
{
	size_t lp, n = 0;
	char *perf_out = slurp("full.txt", &lp);
	const char *p = out;

	CHECK(perf_out != NULL);
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) + 1 : strlen(p);
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)l, p);
		if (perf_out && !strstr(perf_out, line)) {
			T_FAIL("%s: a line perf does not print: %s", what, line);
			break;
		}
		n++;
		p += l;
	}
	CHECK_MSG(n == nlines_want, "%s: %zu sample lines, the cut file holds %zu whole samples",
		  what, n, nlines_want);
	free(perf_out);
}

static void check_warning(const char *what, const char *want1, const char *want2)
{
	size_t len;
	char *e = slurp("err.txt", &len);

	CHECK_MSG(e && !strncmp(e, "perfev: warning: ", 17) && strchr(e, '\n') == e + len - 1,
		  "%s: want one warning line, got: %s", what, e ? e : "");
	CHECK_MSG(e && strstr(e, want1), "%s: warning lacks '%s': %s", what, want1, e ? e : "");
	CHECK_MSG(e && strstr(e, want2), "%s: warning lacks '%s': %s", what, want2, e ? e : "");
	free(e);
}

int main(void)
{
	char path[128], want1[128], want2[128];
	uint64_t rend;
	size_t len;

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (t_sh("%s record -q -a -e cpu-clock -o /dev/null -- true > /dev/null 2>&1", PERF))
		T_SKIP("perf record -a cannot sample cpu-clock here");
	snprintf(perfev, sizeof(perfev), "%s", t_perfev());
	strcpy(dir, "/tmp/perfev-cut-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	CHECK_EQ_INT(t_sh("%s record -q -a -e task-clock -c 200000 -o %s/full.data -- %s bench sched messaging -t -g 2 -l 100 > /dev/null 2>&1",
			  PERF, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("%s script %s -i %s/full.data > %s/full.txt 2>/dev/null", PERF, FIELDS, dir, dir), 0);
	snprintf(path, sizeof(path), "%s/full.data", dir);
	full = (unsigned char *)t_slurp(path, &full_len);
	if (!full || full_len < 104)
		T_FATAL("cannot read %s", path);
	memcpy(&data_off, full + 40, 8);
	memcpy(&data_size, full + 48, 8);
	CHECK(data_off + data_size <= full_len && data_size > 4096);

	/* 1. Cut in the middle of the data section, 3 bytes into a record
	 * most likely. */
	uint64_t cut = data_off + data_size / 2 + 3;
	size_t nwhole = whole_samples(cut, &rend);

	snprintf(path, sizeof(path), "%s/cut.data", dir);
	write_file(path, full, (size_t)cut);
	int rc = t_sh("%s script %s -i %s > %s/out.txt 2> %s/err.txt", perfev, FIELDS, path, dir, dir);

	CHECK_MSG(rc == 3, "cut in the data: exit %d, want 3", rc);
	char *out = slurp("out.txt", &len);

	lines_in_full(out ? out : "", nwhole, "cut in the data");
	free(out);
	snprintf(want1, sizeof(want1), "announces %llu bytes of records", (unsigned long long)data_size);
	snprintf(want2, sizeof(want2), "; %llu bytes", (unsigned long long)(data_size - rend));
	check_warning("cut in the data", want1, want2);

	/* 2. The same with data size 0 and no feature bits (perf record
	 * killed before it wrote its header). */
	unsigned char *m = malloc(full_len);

	memcpy(m, full, (size_t)cut);
	memset(m + 48, 0, 8);
	memset(m + 72, 0, 32);
	snprintf(path, sizeof(path), "%s/unfinished.data", dir);
	write_file(path, m, (size_t)cut);
	rc = t_sh("%s script %s -i %s > %s/out.txt 2> %s/err.txt", perfev, FIELDS, path, dir, dir);
	CHECK_MSG(rc == 3, "data size 0: exit %d, want 3", rc);
	out = slurp("out.txt", &len);
	lines_in_full(out ? out : "", nwhole, "data size 0");
	free(out);
	snprintf(want1, sizeof(want1), "read %llu of the %llu bytes", (unsigned long long)rend,
		 (unsigned long long)(cut - data_off));
	check_warning("data size 0", "never finished", want1);
	free(m);

	/* 3. Cut right after the data: every record, no features. */
	snprintf(path, sizeof(path), "%s/nofeat.data", dir);
	write_file(path, full, (size_t)(data_off + data_size));
	rc = t_sh("%s script %s -i %s > %s/out.txt 2> %s/err.txt", perfev, FIELDS, path, dir, dir);
	CHECK_MSG(rc == 3, "features cut: exit %d, want 3", rc);
	CHECK_EQ_INT(t_sh("%s script %s -i %s > %s/perf.txt 2>/dev/null", PERF, FIELDS, path, dir), 0);
	CHECK_MSG(t_sh("cmp -s %s/out.txt %s/perf.txt", dir, dir) == 0,
		  "features cut: output differs from perf script's on the same file");
	check_warning("features cut", "feature sections", "missing");

	/* 4. The whole file: no warning, exit 0. */
	rc = t_sh("%s script %s -i %s/full.data > %s/out.txt 2> %s/err.txt", perfev, FIELDS, dir, dir, dir);
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(t_sh("test -s %s/err.txt", dir) != 0, 1);

	/* 5. -f: a file owned by another user (perf: "not owned by current
	 * user or root (use -f to override)"). */
	if (geteuid() == 0) {
		snprintf(path, sizeof(path), "%s/other.data", dir);
		CHECK_EQ_INT(t_sh("cp %s/full.data %s && chown 4242:4242 %s", dir, path, path), 0);
		CHECK_MSG(t_sh("%s script -i %s > /dev/null 2>&1", PERF, path) != 0,
			  "perf reads a file of another user without -f");
		rc = t_sh("%s script %s -i %s > %s/out.txt 2> %s/err.txt", perfev, FIELDS, path, dir, dir);
		CHECK_EQ_INT(rc, 1);
		out = slurp("err.txt", &len);
		CHECK_MSG(out && strstr(out, "perfev: error: ") && strstr(out, "-f"),
			  "no error naming -f: %s", out ? out : "");
		free(out);
		rc = t_sh("%s script %s -f -i %s > %s/out.txt 2>/dev/null", perfev, FIELDS, path, dir);
		CHECK_EQ_INT(rc, 0);
		CHECK_MSG(t_sh("cmp -s %s/out.txt %s/full.txt", dir, dir) == 0,
			  "-f: output differs from perf script's");
		rc = t_sh("%s script --force -i %s > /dev/null 2>&1", perfev, path);
		CHECK_EQ_INT(rc, 0);
		/* report and convert too, as perf report */
		CHECK_MSG(t_sh("%s report --stdio -i %s > /dev/null 2>&1", PERF, path) != 0,
			  "perf report reads a file of another user without -f");
		CHECK_EQ_INT(t_sh("%s report -i %s > /dev/null 2>&1", perfev, path), 1);
		CHECK_EQ_INT(t_sh("%s report -f -i %s > /dev/null 2>&1", perfev, path), 0);
		CHECK_EQ_INT(t_sh("%s convert --to folded -i %s > /dev/null 2>&1", perfev, path), 1);
		CHECK_EQ_INT(t_sh("%s convert --to folded -f -i %s > /dev/null 2>&1", perfev, path), 0);
	} else {
		printf("not root: the -f part needs chown to another user, not run\n");
	}
	free(full);
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	else
		printf("files kept in %s\n", dir);
	return t_done();
}
