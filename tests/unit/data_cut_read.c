// SPDX-License-Identifier: GPL-2.0-only
/* Reading a perf.data cut short: pev_data_cut_info() says what is missing,
 * with numbers computed here from the bytes written: a file of 100
 * samples of 56 bytes cut 20 bytes into the 61st (60 whole samples read),
 * the same with data size 0 in the header, cut right after the data (the
 * features lost, every sample read), and the whole file (nothing cut).
 * strict mode refuses all three cuts. */
#include "testutil.h"
#include "data_util.h"

#define NS 100
#define SB 56

static unsigned char *file;
static size_t file_len;
static uint64_t data_off, data_size;

static void build(void)
{
	struct perf_event_attr a;
	unsigned char rec[SB] __attribute__((aligned(8)));
	const uint64_t id = 7;
	int fd = du_memfd();
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);

	CHECK(w != NULL);
	du_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &a, &id, 1, "cpu-clock"), 0);
	struct pev_data_features *f = pev_data_writer_features(w);

	f->hostname = strdup("cut-host");
	pev_data_features_set(f, PEV_FEAT_HOSTNAME, true);
	CHECK_OK(pev_data_writer_start(w));
	for (int i = 0; i < NS; i++) {
		CHECK_EQ_INT(du_sample(rec, id, 0x400000, 10, 11, 1000 + (uint64_t)i, 0, 1), SB);
		CHECK_OK(pev_data_writer_write(w, rec, SB));
	}
	pev_data_writer_sample_time(w, 1000, 1000 + NS - 1);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	file = du_slurp(fd, &file_len);
	close(fd);
	memcpy(&data_off, file + 40, 8);
	memcpy(&data_size, file + 48, 8);
	CHECK_EQ_U64(data_size, (uint64_t)NS * SB);	/* nothing else in the data */
}

/* Opens the first len bytes of m, reads every record; samples read. */
static size_t read_all(const unsigned char *m, size_t len, struct pev_data_cut *cut, bool *is_cut,
		       bool strict, bool *opened)
{
	struct pev_data_open_opts o = { .size = sizeof(o), .strict = strict };
	char err[256];
	struct pev_data *d = pev_data_open_mem(m, len, &o, err, sizeof(err));
	struct pev_data_event ev;
	size_t n = 0;

	*opened = d != NULL;
	if (!d)
		return 0;
	while (pev_data_next_ordered(d, &ev) > 0)
		n += ev.rec.type == PERF_RECORD_SAMPLE;
	*is_cut = pev_data_cut_info(d, cut);
	CHECK(*is_cut == (pev_data_recovered(d) != NULL));
	pev_data_close(d);
	return n;
}

int main(void)
{
	struct pev_data_cut c;
	bool cut, opened;
	unsigned char *m;
	size_t len;

	build();
	m = malloc(file_len);
	/* the features the header announces: its bitmap's bits */
	int nfeat = 0;

	for (int i = 72; i < 104; i++)
		nfeat += __builtin_popcount(file[i]);
	CHECK(nfeat >= 2);	/* HOSTNAME, SAMPLE_TIME at least */

	/* 1. cut 20 bytes into sample 61 */
	len = (size_t)data_off + 60 * SB + 20;
	CHECK_EQ_INT(read_all(file, len, &c, &cut, false, &opened), 60);
	CHECK(cut && !c.data_size_zero);
	CHECK_EQ_U64(c.header_data_size, NS * SB);
	CHECK_EQ_U64(c.data_in_file, 60 * SB + 20);
	CHECK_EQ_U64(c.records_end, 60 * SB);
	CHECK(c.features_lost);
	CHECK_EQ_INT(c.nr_features_lost, nfeat);
	read_all(file, len, &c, &cut, true, &opened);
	CHECK(!opened);

	/* 2. the same with data size 0 and no feature bits */
	memcpy(m, file, len);
	memset(m + 48, 0, 8);
	memset(m + 72, 0, 32);
	CHECK_EQ_INT(read_all(m, len, &c, &cut, false, &opened), 60);
	CHECK(cut && c.data_size_zero && !c.features_lost);
	CHECK_EQ_U64(c.header_data_size, 0);
	CHECK_EQ_U64(c.data_in_file, 60 * SB + 20);
	CHECK_EQ_U64(c.records_end, 60 * SB);
	read_all(m, len, &c, &cut, true, &opened);
	CHECK(!opened);

	/* 3. cut right after the data: every sample, the features lost */
	len = (size_t)(data_off + data_size);
	CHECK_EQ_INT(read_all(file, len, &c, &cut, false, &opened), NS);
	CHECK(cut && c.features_lost && !c.data_size_zero);
	CHECK_EQ_U64(c.header_data_size, 0);	/* the data section is whole */
	CHECK_EQ_INT(c.nr_features_lost, nfeat);
	read_all(file, len, &c, &cut, true, &opened);
	CHECK(!opened);

	/* 4. the whole file */
	CHECK_EQ_INT(read_all(file, file_len, &c, &cut, false, &opened), NS);
	CHECK(opened && !cut);
	CHECK_EQ_U64(c.records_end, 0);

	free(m);
	free(file);
	return t_done();
}
