// SPDX-License-Identifier: GPL-2.0-only
/* perf.data writer -> reader round trips: file mode, pipe mode, the other
 * byte order, zstd compression, and recovery of unfinished files. */
#include "../testutil.h"
#include "data_util.h"

#define NREC 3000

static unsigned char recs[NREC * 64 + 4096] __attribute__((aligned(8)));
static size_t rec_off[NREC + 8], nrecs, recs_len;
static struct perf_event_attr attr_a, attr_b;
static const uint64_t ids_a[2] = { 11, 12 }, ids_b[1] = { 21 };
static const uint8_t bid[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
				 14, 15, 16, 17, 18, 19, 20 };

static void add(size_t n)
{
	rec_off[nrecs++] = recs_len;
	recs_len += n;
}

static void build_records(void)
{
	du_attr(&attr_a, PERF_COUNT_SW_CPU_CLOCK);
	du_attr(&attr_b, PERF_COUNT_SW_TASK_CLOCK);
	add(du_comm(recs + recs_len, &attr_a, 11, 100, 101, "worker", 5));
	for (int i = 0; nrecs < NREC; i++) {
		uint64_t id = i % 3 == 0 ? 21 : (i % 2 ? 11 : 12);

		add(du_sample(recs + recs_len, id, 0x400000 + (uint64_t)i * 16,
			      100, 101, 1000 + (uint64_t)i * 7, (uint32_t)i % 2,
			      1000 + (uint64_t)i));
	}
}

static void fill_features(struct pev_data_features *f)
{
	static const char *const argv[] = { "perfev", "record", "-e", "cpu-clock" };

	CHECK_OK(pev_data_features_from_host(f));
	CHECK_OK(pev_data_features_set_cmdline(f, 4, argv));
	CHECK_OK(pev_data_features_add_build_id(f, -1, PERF_RECORD_MISC_KERNEL,
						bid, 20, "[kernel.kallsyms]"));
	CHECK_OK(pev_data_features_add_build_id(f, 100, PERF_RECORD_MISC_USER,
						bid, 16, "/usr/bin/some-long-program-name"));
	f->groups = calloc(1, sizeof(*f->groups));
	f->groups[0].name = strdup("{anon_group}");
	f->groups[0].leader_idx = 0;
	f->groups[0].nr_members = 2;
	f->nr_groups = 1;
	pev_data_features_set(f, PEV_FEAT_GROUP_DESC, true);
	f->clockid_res_ns = 1;
	pev_data_features_set(f, PEV_FEAT_CLOCKID, true);
	f->clock_data.version = 1;
	f->clock_data.clockid = 1;
	f->clock_data.tod_ns = 1795312973338825000ULL;
	f->clock_data.clockid_ns = 3557303459837ULL;
	pev_data_features_set(f, PEV_FEAT_CLOCK_DATA, true);
	f->tracing_data = malloc(13);
	memcpy(f->tracing_data, "\x17\x08\x44tracing0.6", 13);
	f->tracing_data_size = 13;
	pev_data_features_set(f, PEV_FEAT_TRACING_DATA, true);
	du_fill_sys_features(f);
}

/* Writes every record: in chunks of `chunk` records, a FINISHED_ROUND
 * after each; returns the fd. */
static int write_file(const struct pev_data_writer_opts *o, size_t chunk,
		      bool finish)
{
	int fd = du_memfd();
	struct pev_data_writer *w = pev_data_writer_new(fd, o);

	CHECK(w != NULL);
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &attr_a, ids_a, 2, "cpu-clock"), 0);
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &attr_b, ids_b, 1, "task-clock"), 1);
	fill_features(pev_data_writer_features(w));
	CHECK_OK(pev_data_writer_start(w));
	for (size_t i = 0; i < nrecs; i += chunk) {
		size_t end = i + chunk < nrecs ? i + chunk : nrecs;
		size_t a = rec_off[i], b = end < nrecs ? rec_off[end] : recs_len;
		/* two spans cut inside a record, as a ring wrap does */
		const void *bufs[2] = { recs + a, recs + a + (b - a) / 2 + 3 };
		size_t lens[2] = { (b - a) / 2 + 3, (b - a) - ((b - a) / 2 + 3) };

		if (o->foreign_endian) {
			CHECK_OK(pev_data_writer_write(w, recs + a, b - a));
		} else {
			CHECK_OK(pev_data_writer_writev(w, bufs, lens, 2));
		}
		CHECK_OK(pev_data_writer_finished_round(w));
	}
	pev_data_writer_sample_time(w, 1000, 1000 + (NREC - 2) * 7);
	if (finish)
		CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	return fd;
}

static void check_features(const struct pev_data_features *f, bool pipe)
{
	struct pev_data_features h = { 0 };

	CHECK_OK(pev_data_features_from_host(&h));
	CHECK_STR(f->hostname, h.hostname);
	CHECK_STR(f->osrelease, h.osrelease);
	CHECK_STR(f->arch, h.arch);
	CHECK_STR(f->version, "perfev " "0.1.0");
	CHECK_EQ_U64(f->nr_cpus_avail, h.nr_cpus_avail);
	CHECK_EQ_U64(f->nr_cpus_online, h.nr_cpus_online);
	CHECK_EQ_U64(f->total_mem, h.total_mem);
	if (h.cpuid)
		CHECK_STR(f->cpuid, h.cpuid);
	if (h.cpudesc)
		CHECK_STR(f->cpudesc, h.cpudesc);
	CHECK_EQ_U64(f->nr_cmdline, 4);
	if (f->nr_cmdline == 4)
		CHECK_STR(f->cmdline[3], "cpu-clock");
	CHECK_EQ_U64(f->nr_event_desc, 2);
	if (f->nr_event_desc == 2) {
		CHECK_STR(f->event_desc[0].name, "cpu-clock");
		CHECK_STR(f->event_desc[1].name, "task-clock");
		CHECK_EQ_U64(f->event_desc[0].nr_ids, 2);
		CHECK_EQ_U64(f->event_desc[0].ids[1], 12);
		CHECK_EQ_U64(f->event_desc[1].ids[0], 21);
		CHECK_EQ_U64(f->event_desc[1].attr.attr.config, PERF_COUNT_SW_TASK_CLOCK);
		CHECK_EQ_U64(f->event_desc[1].attr.attr.sample_type, DU_SAMPLE_TYPE);
		CHECK_EQ_U64(f->event_desc[1].attr.attr.sample_id_all, 1);
	}
	CHECK_EQ_U64(f->nr_core_siblings, h.nr_core_siblings);
	CHECK_EQ_U64(f->nr_topo_cpus, h.nr_topo_cpus);
	CHECK_EQ_U64(f->has_dies, h.has_dies);
	for (uint32_t i = 0; i < f->nr_topo_cpus && i < h.nr_topo_cpus; i++) {
		CHECK_EQ_U64(f->topo_cpus[i].core_id, h.topo_cpus[i].core_id);
		CHECK_EQ_U64(f->topo_cpus[i].die_id, h.topo_cpus[i].die_id);
	}
	CHECK_EQ_U64(f->nr_numa_nodes, h.nr_numa_nodes);
	if (f->nr_numa_nodes && h.nr_numa_nodes)
		CHECK_STR(f->numa_nodes[0].cpus, h.numa_nodes[0].cpus);
	CHECK_EQ_U64(f->nr_pmu_mappings, h.nr_pmu_mappings);
	for (uint32_t i = 0; i < f->nr_pmu_mappings && i < h.nr_pmu_mappings; i++) {
		CHECK_STR(f->pmu_mappings[i].name, h.pmu_mappings[i].name);
		CHECK_EQ_U64(f->pmu_mappings[i].type, h.pmu_mappings[i].type);
	}
	CHECK_EQ_U64(f->nr_groups, 1);
	if (f->nr_groups == 1) {
		CHECK_STR(f->groups[0].name, "{anon_group}");
		CHECK_EQ_U64(f->groups[0].nr_members, 2);
	}
	CHECK_EQ_U64(f->clockid_res_ns, 1);
	CHECK(pev_data_features_has(f, PEV_FEAT_CLOCK_DATA));
	CHECK_EQ_U64(f->clock_data.version, 1);
	CHECK_EQ_U64(f->clock_data.clockid, 1);
	CHECK_EQ_U64(f->clock_data.tod_ns, 1795312973338825000ULL);
	CHECK_EQ_U64(f->clock_data.clockid_ns, 3557303459837ULL);
	CHECK(pev_data_features_has(f, PEV_FEAT_TRACING_DATA));
	CHECK_EQ_U64(f->tracing_data_size, pipe ? 16 : 13);	/* padded in pipes */
	CHECK(f->tracing_data && !memcmp(f->tracing_data, "\x17\x08\x44tracing0.6", 13));
	du_check_sys_features(f, pipe);
	if (!pipe) {
		CHECK_EQ_U64(f->first_sample_time, 1000);
		CHECK_EQ_U64(f->last_sample_time, 1000 + (NREC - 2) * 7);
		CHECK_EQ_U64(f->nr_build_ids, 2);
		if (f->nr_build_ids == 2) {
			CHECK_EQ_INT(f->build_ids[0].pid, -1);
			CHECK_EQ_U64(f->build_ids[0].misc, PERF_RECORD_MISC_KERNEL);
			CHECK_EQ_U64(f->build_ids[1].size, 16);
			CHECK(!memcmp(f->build_ids[1].id, bid, 16));
			CHECK_STR(f->build_ids[1].filename,
				  "/usr/bin/some-long-program-name");
		}
	}
	pev_data_features_release(&h);
}

/* Every kernel record comes back byte for byte, with FINISHED_ROUNDs. */
static size_t chunk_recs = 100;

static void check_records(struct pev_data *d, bool compressed, size_t expect)
{
	struct pev_data_event ev;
	size_t k = 0, rounds = 0;
	int r;

	while ((r = pev_data_next(d, &ev)) > 0) {
		if (ev.rec.type == PEV_RECORD_FINISHED_ROUND) {
			rounds++;
			continue;
		}
		if (ev.rec.type >= PEV_RECORD_USER_TYPE_START)
			continue;	/* pipe metadata */
		CHECK_EQ_INT(ev.decode_error, 0);
		CHECK_EQ_INT(ev.compressed, compressed);
		if (k < nrecs) {
			size_t len = (k + 1 < nrecs ? rec_off[k + 1] : recs_len) - rec_off[k];

			CHECK_EQ_U64(ev.rec.size, len);
			if (memcmp(ev.rec.raw, recs + rec_off[k], len))
				T_FAIL("record %zu differs", k);
		}
		if (k == 0) {
			CHECK_EQ_U64(ev.rec.type, PERF_RECORD_COMM);
			CHECK_STR(ev.rec.u.comm.comm, "worker");
			CHECK_EQ_U64(ev.rec.sample_id.time, 5);
			CHECK_EQ_U64(ev.rec.sample_id.id, 11);
		}
		if (k == 4) {
			CHECK_EQ_U64(ev.rec.u.sample.id, 21);
			CHECK_EQ_INT(ev.rec.attr_index, 1);
			CHECK_EQ_U64(ev.rec.u.sample.time, 1000 + 3 * 7);
		}
		k++;
	}
	CHECK_EQ_INT(r, 0);
	if (r < 0)
		printf("error: %s\n", pev_data_error(d));
	CHECK_EQ_U64(k, expect);
	if (expect == nrecs)
		CHECK_EQ_U64(rounds, (nrecs + chunk_recs - 1) / chunk_recs);
}

static void check_open(int fd, bool pipe, bool swapped, bool compressed)
{
	char err[512];
	struct pev_data *d = pev_data_open_fd(fd, NULL, err, sizeof(err));

	if (!d)
		T_FATAL("open: %s", err);
	CHECK_EQ_INT(pev_data_is_pipe(d), pipe);
	CHECK_EQ_INT(pev_data_is_swapped(d), swapped);
	CHECK(pev_data_recovered(d) == NULL);
	const struct pev_decoder *dec = pev_data_decoder(d);

	CHECK_EQ_U64(pev_decoder_nr_attrs(dec), 2);
	CHECK_EQ_INT(pev_decoder_find_id(dec, 12), 0);
	CHECK_EQ_INT(pev_decoder_find_id(dec, 21), 1);
	CHECK_EQ_U64(pev_decoder_attr(dec, 1)->config, PERF_COUNT_SW_TASK_CLOCK);
	CHECK_EQ_U64(pev_decoder_attr(dec, 0)->size, 128);
	CHECK_STR(pev_data_event_name(d, 0), "cpu-clock");
	CHECK_STR(pev_data_event_name(d, 1), "task-clock");
	check_features(pev_data_features(d), pipe);
	if (compressed) {
		CHECK_EQ_U64(pev_data_features(d)->compressed.type, 1);
		CHECK_EQ_U64(pev_data_features(d)->compressed.level, 3);
	}
	check_records(d, compressed, nrecs);
	/* a second pass gives the same */
	CHECK_OK(pev_data_rewind(d));
	check_records(d, compressed, nrecs);
	pev_data_close(d);
}

static void test_recovery(void)
{
	struct pev_data_writer_opts o = { .size = sizeof(o) };
	int fd = write_file(&o, 100, false);	/* never finished */
	size_t len;
	unsigned char *buf = du_slurp(fd, &len);
	char err[512];
	struct pev_data_open_opts strict = { .size = sizeof(strict), .strict = true };

	CHECK(pev_data_open_mem(buf, len, &strict, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "data size is 0") != NULL);
	/* cut inside the last sample: everything before it comes back */
	struct pev_data *d = pev_data_open_mem(buf, len - 20, NULL, err, sizeof(err));

	if (!d)
		T_FATAL("open unfinished: %s", err);
	CHECK(pev_data_recovered(d) && strstr(pev_data_recovered(d), "did not finish"));
	check_records(d, false, nrecs - 1);
	CHECK(strstr(pev_data_recovered(d), "stopped at offset") != NULL);
	pev_data_close(d);
	free(buf);
	close(fd);

	/* a finished file cut short: data.size runs past the end */
	fd = write_file(&o, 100, true);
	buf = du_slurp(fd, &len);
	struct pev_data_open_opts dflt = { .size = sizeof(dflt) };
	uint64_t data_off, data_size;

	memcpy(&data_off, buf + 40, 8);
	memcpy(&data_size, buf + 48, 8);
	d = pev_data_open_mem(buf, (size_t)(data_off + data_size - 100), &dflt,
			      err, sizeof(err));
	if (!d)
		T_FATAL("open cut: %s", err);
	CHECK(pev_data_recovered(d) && strstr(pev_data_recovered(d), "cut by the end"));
	check_records(d, false, nrecs - 2);
	pev_data_close(d);
	free(buf);
	close(fd);
}

int main(void)
{
	build_records();
	struct pev_data_writer_opts o = { .size = sizeof(o) };
	int fd = write_file(&o, 100, true);
	size_t len;
	unsigned char *buf = du_slurp(fd, &len);
	uint64_t v;

	/* The header: magic, size, attr_size 128 + 16, data after attrs. */
	CHECK(!memcmp(buf, "PERFILE2", 8));
	memcpy(&v, buf + 8, 8);
	CHECK_EQ_U64(v, 104);
	memcpy(&v, buf + 16, 8);
	CHECK_EQ_U64(v, 144);
	memcpy(&v, buf + 24, 8);
	CHECK_EQ_U64(v, 104 + 3 * 8);	/* attrs after the 3 ids */
	memcpy(&v, buf + 48, 8);
	CHECK_EQ_U64(v, recs_len + 8 * ((nrecs + 99) / 100));
	free(buf);
	check_open(fd, false, false, false);
	close(fd);

	o.pipe = true;
	fd = write_file(&o, 100, true);
	check_open(fd, true, false, false);
	close(fd);

	o.pipe = false;
	o.foreign_endian = true;
	fd = write_file(&o, 100, true);
	buf = du_slurp(fd, &len);
	CHECK(!memcmp(buf, "2ELIFREP", 8));
	free(buf);
	check_open(fd, false, true, false);
	close(fd);

	o.pipe = true;
	fd = write_file(&o, 100, true);
	check_open(fd, true, true, false);
	close(fd);

	o.pipe = false;
	o.foreign_endian = false;
	o.compress_level = 3;
	/* 1000-record chunks: several COMPRESSED records per chunk would
	 * need > 64 KiB; records span the compressed-record boundaries. */
	chunk_recs = 1000;
	fd = write_file(&o, 1000, true);
	check_open(fd, false, false, true);
	chunk_recs = 100;
	close(fd);
	o.pipe = true;
	fd = write_file(&o, 100, true);
	check_open(fd, true, false, true);
	close(fd);

	test_recovery();
	return t_done();
}
