// SPDX-License-Identifier: GPL-2.0-only
/* perfev report on a file cut short exited 0 (only script said so, with
 * exit 3), and skipped records of an unknown type without a word (perf
 * 6.1 counts them: "Found N unknown events!").  Now every reader follows
 * script's rule: what the file holds is reported, then one warning line
 * says what is missing, exit 3.
 *  - A file perf records here (perf bench sched messaging -t) is cut in
 *    the middle of its data section and right after it (the feature
 *    sections lost).  The oracle is perf report --stdio on a copy trimmed
 *    by hand to the same whole records, its header's data size set to
 *    them and its feature bits cleared (the cut file has lost them too),
 *    which perf reads whole: the outputs are equal byte for byte.  With
 *    the header's data size 0 (a recording that never finished): exit 3
 *    and one warning.
 *  - A file written with our writer, an unknown record type (30) after
 *    each sample: perf stops at the first one; the oracle is perf report
 *    on the same file written without them, and perfev warns with the
 *    count and exits 0. */
#include <fcntl.h>
#include <unistd.h>

#include "report_cmp.h"
#include "built_file.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define TRAILER (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER)

static unsigned char *full;
static size_t full_len;
static uint64_t data_off, data_size;

static void write_bytes(const char *path, const unsigned char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0 && write(fd, buf, len) == (ssize_t)len);
	close(fd);
}

/* Where the last whole record before `end` ends (an offset in the file). */
static uint64_t records_end(uint64_t end)
{
	uint64_t pos = data_off;

	while (pos + 8 <= end) {
		uint16_t size;

		memcpy(&size, full + pos + 6, 2);
		if (size < 8 || pos + size > end)
			break;
		pos += size;
	}
	return pos;
}

/* perfev report on the cut file: exit 3, one warning line holding want;
 * stdout equal to perf report's on the trimmed copy. */
static void check_cut(const char *what, const char *cut, const char *trimmed,
		      const char *want, const char *opts)
{
	size_t la, lb, le, line, start;
	char pa[128], pb[128], pe[128];
	int ra = t_sh("%s report -i %s %s > %s/a.txt 2> %s/a.err", perfev, cut, opts, dir, dir);

	CHECK_MSG(ra == 3, "%s %s: perfev report exited %d, want 3", what, opts, ra);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pe, sizeof(pe), "%s/a.err", dir);
	char *a = t_slurp(pa, &la), *e = t_slurp(pe, &le);

	CHECK_MSG(e && !strncmp(e, "perfev: warning: ", 17) && strchr(e, '\n') == e + le - 1 &&
		  strstr(e, want), "%s %s: want one warning line with '%s', got: %s",
		  what, opts, want, e ? e : "");
	if (trimmed) {
		CHECK_EQ_INT(t_sh("%s report --stdio -i %s %s > %s/b.txt 2> /dev/null", PERF, trimmed,
				  opts, dir), 0);
		snprintf(pb, sizeof(pb), "%s/b.txt", dir);
		char *b = t_slurp(pb, &lb);

		if (a && b) {
			cut_tip(a, &la);
			cut_tip(b, &lb);
			if (t_first_diff(a, la, b, lb, &line, &start))
				T_FAIL("%s %s: output differs at line %zu:\n  perfev: %.160s\n  perf:   %.160s",
				       what, opts, line, a + start, b + start);
			else
				printf("%s %s: %zu bytes identical, exit 3\n", what, opts, la);
		}
		free(b);
	}
	free(a);
	free(e);
}

/* The recording cut at `cut` bytes, and the copy trimmed to its whole
 * records with no feature bits. */
static void cut_pair(const char *name, uint64_t cut, char *cpath, char *tpath, size_t sz)
{
	uint64_t end = records_end(cut), ds = end - data_off;
	unsigned char *t = malloc(end);

	snprintf(cpath, sz, "%s/%s-cut.data", dir, name);
	snprintf(tpath, sz, "%s/%s-trim.data", dir, name);
	write_bytes(cpath, full, cut);
	if (!t)
		T_FATAL("malloc");
	memcpy(t, full, end);
	memcpy(t + 48, &ds, 8);
	memset(t + 72, 0, 32);	/* adds_features */
	write_bytes(tpath, t, end);
	free(t);
}

/* perfev report `in` against perf report on file other, byte for byte
 * with the tips cut */
static void same_report_in_vs(const char *what, const char *in, const char *other)
{
	size_t la, lb, line, start;
	char pa[128], pb[128];

	CHECK_EQ_INT(t_sh("%s report %s > %s/a.txt 2> %s/a.err", perfev, in, dir, dir), 0);
	CHECK_EQ_INT(t_sh("%s report --stdio -i %s > %s/b.txt 2> /dev/null", PERF, other, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	if (a && b) {
		cut_tip(a, &la);
		cut_tip(b, &lb);
		if (t_first_diff(a, la, b, lb, &line, &start))
			T_FAIL("%s: output differs at line %zu:\n  perfev: %.160s\n  perf:   %.160s",
			       what, line, a + start, b + start);
		else
			printf("%s: %zu bytes identical\n", what, la);
	}
	free(a);
	free(b);
}

static void write_unknown(const char *path, bool unknown)
{
	static struct rb b;
	uint64_t t = 1000000000ull;
	int fd;
	struct pev_data_writer *w = built_start(path, ST, 7, &fd);

	if (!w)
		return;
	rb_begin(&b, PERF_RECORD_COMM, 0);
	rb_u32(&b, 55);
	rb_u32(&b, 55);
	rb_str(&b, "unk");
	rb_trailer(&b, TRAILER, 55, 55, t, 7, 0, 0);
	built_emit(w, &b);
	for (int i = 0; i < 6; i++) {
		rb_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		rb_u64(&b, 7);
		rb_u64(&b, 0x401000 + (i % 3) * 0x10);
		rb_u32(&b, 55);
		rb_u32(&b, 55);
		rb_u64(&b, t += 1000);
		rb_u64(&b, 1000);
		built_emit(w, &b);
		if (unknown) {	/* a kernel record type perf 6.1 does not know */
			rb_begin(&b, 30, 0);
			rb_u64(&b, 1);
			rb_u64(&b, 2);
			built_emit(w, &b);
		}
	}
	pev_data_writer_sample_time(w, 1000000000ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

int main(void)
{
	char path[256], cpath[256], tpath[256];
	size_t le;

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-rcut-XXXXXX", true);
	snprintf(path, sizeof(path), "%s/full.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -c 100000 -o %s -- %s bench sched messaging -t -g 2 -l 100 > /dev/null 2>&1",
			  PERF, path, PERF), 0);
	full = (unsigned char *)t_slurp(path, &full_len);
	if (!full || full_len < 104)
		T_FATAL("cannot read %s", path);
	memcpy(&data_off, full + 40, 8);
	memcpy(&data_size, full + 48, 8);
	CHECK(data_off + data_size <= full_len && data_size > 4096);

	/* in the middle of the data section (3 bytes into a record, likely) */
	cut_pair("mid", data_off + data_size / 2 + 3, cpath, tpath, sizeof(tpath));
	check_cut("cut in the data", cpath, tpath, "is cut short", "");
	check_cut("cut in the data", cpath, tpath, "is cut short", "--sort dso,sym -n");
	check_cut("cut in the data", cpath, tpath, "is cut short", "--stats");
	/* right after it: the feature sections lost */
	cut_pair("end", data_off + data_size, cpath, tpath, sizeof(tpath));
	check_cut("cut after the data", cpath, tpath, "feature sections", "");
	check_cut("cut after the data", cpath, tpath, "feature sections", "--sort pid");
	/* the header's data size never written */
	unsigned char *z = malloc(data_off + data_size / 2);

	if (!z)
		T_FATAL("malloc");
	memcpy(z, full, data_off + data_size / 2);
	memset(z + 48, 0, 8);
	memset(z + 72, 0, 32);	/* perf record sets the feature bits at the end */
	snprintf(cpath, sizeof(cpath), "%s/zero.data", dir);
	write_bytes(cpath, z, data_off + data_size / 2);
	free(z);
	check_cut("data size 0", cpath, NULL, "0 bytes of data", "");
	check_cut("data size 0", cpath, NULL, "0 bytes of data", "-q");
	/* the whole file: exit 0, no warning */
	same_report("whole", path, "");

	/* unknown record types: skipped, counted in one warning, exit 0 */
	snprintf(cpath, sizeof(cpath), "%s/unknown.data", dir);
	snprintf(tpath, sizeof(tpath), "%s/known.data", dir);
	write_unknown(cpath, true);
	write_unknown(tpath, false);
	CHECK_EQ_INT(t_sh("%s report --stdio -i %s > %s/b.txt 2> %s/b.err", PERF, cpath, dir, dir), 0);
	snprintf(path, sizeof(path), "%s/b.err", dir);
	char *e = t_slurp(path, &le);

	CHECK_MSG(e && strstr(e, "Found 1 unknown events!"),
		  "perf 6.1 no longer counts unknown events: %s", e ? e : "");
	free(e);
	char in[300];

	/* perfev on the file with them, perf on the file without */
	snprintf(in, sizeof(in), "-i %s", cpath);
	same_report_in_vs("unknown types", in, tpath);
	snprintf(path, sizeof(path), "%s/a.err", dir);
	e = t_slurp(path, &le);
	CHECK_MSG(e && !strncmp(e, "perfev: warning: found 6 unknown events in ", 43) &&
		  strchr(e, '\n') == e + le - 1,
		  "unknown types: want one warning counting 6 unknown events, got: %s", e ? e : "");
	free(e);
	free(full);
	return report_cmp_end();
}
