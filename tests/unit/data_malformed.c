// SPDX-License-Identifier: GPL-2.0-only
/* Malformed perf.data files: every truncation, lying sizes and offsets,
 * bad magic, a zero record size.  Each is a clear error (or a recovery),
 * never a read outside the buffer (run under the sanitizer build: the
 * reader gets exactly `len` heap bytes). */
#include "../testutil.h"
#include "data_util.h"

static unsigned char *make_file(size_t *len, bool pipe, int level)
{
	struct perf_event_attr a;
	uint64_t id = 3;
	unsigned char rec[128] __attribute__((aligned(8)));
	int fd = du_memfd();
	struct pev_data_writer_opts o = { .size = sizeof(o), .pipe = pipe,
					  .compress_level = level };
	struct pev_data_writer *w = pev_data_writer_new(fd, &o);

	du_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	CHECK_OK(pev_data_writer_add_attr(w, &a, &id, 1, "cpu-clock"));
	struct pev_data_features *f = pev_data_writer_features(w);

	f->hostname = strdup("host");
	pev_data_features_set(f, PEV_FEAT_HOSTNAME, true);
	f->nr_cpus_avail = f->nr_cpus_online = 2;
	pev_data_features_set(f, PEV_FEAT_NRCPUS, true);
	static const char *const argv[] = { "a", "b" };

	CHECK_OK(pev_data_features_set_cmdline(f, 2, argv));
	CHECK_OK(pev_data_features_add_build_id(f, -1, 1, (const uint8_t *)"0123456789abcdefghij",
						20, "[kernel.kallsyms]"));
	CHECK_OK(pev_data_writer_start(w));
	CHECK_OK(pev_data_writer_write(w, rec, du_comm(rec, &a, 3, 1, 2, "x", 0)));
	for (int i = 0; i < 4; i++)
		CHECK_OK(pev_data_writer_write(w, rec,
			du_sample(rec, 3, 0x1000 + (uint64_t)i, 1, 2, 100 + (uint64_t)i, 0, 1)));
	CHECK_OK(pev_data_writer_finished_round(w));
	pev_data_writer_sample_time(w, 100, 103);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	unsigned char *p = du_slurp(fd, len);

	close(fd);
	return p;
}

/* Opens a copy of exactly len bytes (so ASan sees any over-read) and
 * walks it in both orders; returns the open error text or "" . */
static const char *try_open(const unsigned char *src, size_t len,
			    bool strict, long *nrec)
{
	static char err[512];
	unsigned char *copy = malloc(len ? len : 1);
	struct pev_data_open_opts o = { .size = sizeof(o), .strict = strict };

	memcpy(copy, src, len);
	err[0] = 0;
	struct pev_data *d = pev_data_open_mem(copy, len, &o, err, sizeof(err));

	free(copy);
	*nrec = -1;
	if (!d) {
		CHECK_MSG(!strncmp(err, "perf.data: ", 11), "error without the prefix: %s", err);
		return err;
	}
	struct pev_data_event ev;
	int r;
	long n = 0;

	while ((r = pev_data_next(d, &ev)) > 0)
		n++;
	if (r < 0)
		CHECK(strncmp(pev_data_error(d), "perf.data: ", 11) == 0);
	pev_data_rewind(d);
	while (pev_data_next_ordered(d, &ev) > 0)
		;
	*nrec = r < 0 ? -2 : n;
	pev_data_close(d);
	return "";
}

static void put64(unsigned char *p, size_t off, uint64_t v)
{
	memcpy(p + off, &v, 8);
}

int main(void)
{
	size_t len;
	long n;
	unsigned char *f = make_file(&len, false, 0);
	unsigned char *m = malloc(len);
	const char *e;

	e = try_open(f, len, false, &n);
	CHECK_STR(e, "");
	CHECK_EQ_INT(n, 6);

	/* every truncation: an error or a recovered prefix, never a crash */
	for (size_t cut = 0; cut < len; cut++) {
		e = try_open(f, cut, false, &n);
		if (cut < 104)
			CHECK(*e != 0);
	}
	e = try_open(f, 50, false, &n);
	CHECK(strstr(e, "header of 104 bytes extends past the end of the file (size 50)") != NULL);

	/* bad magic */
	memcpy(m, f, len);
	memcpy(m, "PERFILE3", 8);
	e = try_open(m, len, false, &n);
	CHECK(strstr(e, "bad magic") != NULL);

	/* attrs section lying about its size */
	memcpy(m, f, len);
	put64(m, 32, 1 << 20);
	e = try_open(m, len, false, &n);
	char want[200];

	snprintf(want, sizeof(want), "perf.data: attr section at offset 112 "
		 "extends past the end of the file (size %zu)", len);
	CHECK_STR(e, want);

	/* attr_size that disagrees with the attr's own size */
	memcpy(m, f, len);
	put64(m, 16, 136);
	put64(m, 32, 136);
	e = try_open(m, len, false, &n);
	CHECK(strstr(e, "has size 128 but the header's attr_size says 120") != NULL);
	put64(m, 16, 0);
	e = try_open(m, len, false, &n);
	CHECK(strstr(e, "attr_size 0") != NULL);

	/* ids offset past EOF */
	memcpy(m, f, len);
	put64(m, 112 + 128, len);
	e = try_open(m, len, false, &n);
	CHECK(strstr(e, "ids of attr 0") != NULL);

	/* feature offsets past EOF */
	uint64_t doff, dsize;

	memcpy(&doff, f + 40, 8);
	memcpy(&dsize, f + 48, 8);
	memcpy(m, f, len);
	put64(m, (size_t)(doff + dsize), len + 8);
	e = try_open(m, len, false, &n);
	CHECK(strstr(e, "feature BUILD_ID section at offset") != NULL);
	CHECK(strstr(e, "extends past the end of the file") != NULL);

	/* data size past EOF: strict refuses, default recovers */
	memcpy(m, f, len);
	put64(m, 48, len);
	e = try_open(m, len, true, &n);
	CHECK(strstr(e, "data section at offset") != NULL);
	e = try_open(m, len, false, &n);
	CHECK_STR(e, "");

	/* a record of size 0 */
	memcpy(m, f, len);
	m[doff + 56 + 6] = 0;	/* the first sample's size */
	m[doff + 56 + 7] = 0;
	e = try_open(m, len, false, &n);
	CHECK_STR(e, "");
	CHECK_EQ_INT(n, -2);

	/* a lying feature payload (cmdline count) is kept raw, not parsed */
	memcpy(m, f, len);
	for (size_t i = 0; i < len; i++) {	/* flip each byte: no crash */
		m[i] ^= 0xff;
		try_open(m, len, false, &n);
		m[i] ^= 0xff;
	}
	free(f);

	/* pipe and compressed streams: every truncation and byte flip */
	for (int v = 0; v < 2; v++) {
		f = make_file(&len, true, v ? 1 : 0);
		m = realloc(m, len);
		for (size_t cut = 0; cut < len; cut++)
			try_open(f, cut, false, &n);
		memcpy(m, f, len);
		for (size_t i = 0; i < len; i++) {
			m[i] ^= 0x5a;
			try_open(m, len, false, &n);
			m[i] ^= 0x5a;
		}
		free(f);
	}
	f = make_file(&len, false, 1);
	m = realloc(m, len);
	memcpy(m, f, len);
	for (size_t i = 0; i < len; i++) {
		m[i] ^= 0x5a;
		try_open(m, len, false, &n);
		m[i] ^= 0x5a;
	}
	free(f);
	free(m);
	return t_done();
}
