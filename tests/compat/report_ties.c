// SPDX-License-Identifier: GPL-2.0-only
/* Ties between unresolved addresses in perfev report, compared with perf
 * report --stdio byte for byte.  perf compares two addresses without a
 * symbol by their wrapping signed difference (sort__sym_cmp), which is not
 * a total order: 0x1 < 0x6000... < 0xc000... < 0x1.  Entries of equal
 * period keep the order of perf's entries_in and collapsed red-black trees,
 * so the output depends on how each tree was built, in which order and in
 * which direction.  The file is built here: every sample has the same
 * period and user addresses in no map, the callchain frames too, so every
 * entry ties with many others (as garbage frames of a frame-pointer chain
 * through code built without frame pointers do in node or cc1).  Files
 * whose samples repeat a pool of addresses make perf look entries up
 * again after its tree was rebalanced: some lookups miss the entry (the
 * comparison is not transitive) and make a second one with the same
 * address, periods split, as perf shows it. */
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include "unit/data_util.h"

#define PERF "/usr/bin/perf"
#define NSAMPLES 60
#define DEPTH 3

static char dir[64], perfev[4096];

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* An address: small ones, ones around the top bit and anywhere. */
static uint64_t addr(uint64_t *s)
{
	uint64_t r = rnd(s);

	switch (r % 4) {
	case 0:  return r >> 56;
	case 1:  return 0x8000000000000000ull + (r >> 50) - (1ull << 13);
	default: return r & ~0xfull;
	}
}

/* npool > 0: every sample's own address is one of npool addresses
 * spread round the 64-bit circle, so samples look existing entries up
 * again after the tree was rebalanced: perf's lookups miss some (its
 * address comparison is not transitive) and make second entries. */
static void write_file(const char *path, uint64_t seed, bool chains, int npool)
{
	struct perf_event_attr a;
	unsigned char buf[256] __attribute__((aligned(8)));
	const uint64_t id = 7;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);
	uint64_t t = 1000000000ull, s = seed, pool[16], spool[48];

	CHECK(fd >= 0 && w);
	du_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	if (chains)
		a.sample_type |= PERF_SAMPLE_CALLCHAIN;
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &a, &id, 1, "cpu-clock"), 0);
	CHECK_OK(pev_data_writer_start(w));
	CHECK_OK(pev_data_writer_write(w, buf, du_comm(buf, &a, id, 10, 10, "wl", t)));
	/* chain frames from a small pool, so callers repeat and tie */
	for (int i = 0; i < 16; i++)
		pool[i] = addr(&s);
	for (int i = 0; i < npool; i++)
		spool[i] = rnd(&s) & ~0xfull;
	for (int i = 0; i < (npool ? 8 * NSAMPLES : NSAMPLES); i++) {
		uint64_t ip = npool ? spool[rnd(&s) % (uint64_t)npool] : addr(&s);
		size_t len = du_sample(buf, id, ip, 10, 10, ++t, 0, 1000);

		if (chains) {
			uint64_t cc[2 + DEPTH + 1] = { 2 + DEPTH, PERF_CONTEXT_USER, ip };
			struct perf_event_header h;

			for (int j = 0; j < DEPTH; j++)
				cc[3 + j] = pool[rnd(&s) % 16];
			memcpy(buf + len, cc, sizeof(cc));
			memcpy(&h, buf, 8);
			h.size += sizeof(cc);
			memcpy(buf, &h, 8);
			len += sizeof(cc);
		}
		CHECK_OK(pev_data_writer_write(w, buf, len));
	}
	pev_data_writer_sample_time(w, 1000000001ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

/* An MMAP of a file that does not exist (no symbols) with the trailer of
 * attr a. */
static size_t mmap_rec(unsigned char *p, const struct perf_event_attr *a, uint64_t id,
		       uint64_t start, uint64_t len, uint64_t pgoff, const char *name,
		       uint64_t time)
{
	size_t n = (strlen(name) + 1 + 7) & ~(size_t)7;
	uint32_t pt[2] = { 10, 10 };
	uint64_t v[3] = { start, len, pgoff };

	memcpy(p + 8, pt, 8);
	memcpy(p + 16, v, 24);
	memset(p + 40, 0, n);
	memcpy(p + 40, name, strlen(name));
	size_t t = pev_synth_sample_id(a, 10, 10, time, id, 0, p + 40 + n);
	struct perf_event_header h = { PERF_RECORD_MMAP, PERF_RECORD_MISC_USER,
				       (uint16_t)(40 + n + t) };

	memcpy(p, &h, 8);
	return h.size;
}

/* A sample's own address is keyed by its map address (perf's al->addr)
 * and a chain entry by its address: in a map whose start and offset
 * differ, sample A's own 0xdb2ad9 (map address 0x9b2ad9) and sample B's
 * chain entry 0x9b2ad9 are one entry, which prints 0x9b2ad9 and whose
 * call graph holds both (perfev once gave B's entry A's address). */
static void write_split_file(const char *path)
{
	struct perf_event_attr a;
	unsigned char buf[256] __attribute__((aligned(8)));
	const uint64_t id = 7;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);
	uint64_t t = 1000000000ull;
	static const uint64_t ca[] = { 1, PERF_CONTEXT_USER, 0xdb2ad9 };
	static const uint64_t cb[] = { 3, PERF_CONTEXT_USER, 0x700000, 0x9b2ad9, 0x42 };

	CHECK(fd >= 0 && w);
	du_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	a.sample_type |= PERF_SAMPLE_CALLCHAIN;
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &a, &id, 1, "cpu-clock"), 0);
	CHECK_OK(pev_data_writer_start(w));
	CHECK_OK(pev_data_writer_write(w, buf, du_comm(buf, &a, id, 10, 10, "wl", t)));
	CHECK_OK(pev_data_writer_write(w, buf, mmap_rec(buf, &a, id, 0x631000, 0x1000000,
							 0x231000, "/nonexistent/libties.so",
							 t)));
	for (int i = 0; i < 5; i++) {
		const uint64_t *cc = i < 3 ? ca : cb;
		size_t len = du_sample(buf, id, cc[2], 10, 10, ++t, 0, 1000);
		size_t cl = (cc[0] + 2) * sizeof(*cc);
		struct perf_event_header h;
		uint64_t nr = cc[0] + 1;

		memcpy(buf + len, &nr, 8);
		memcpy(buf + len + 8, cc + 1, cl - 8);
		memcpy(&h, buf, 8);
		h.size += cl;
		memcpy(buf, &h, 8);
		CHECK_OK(pev_data_writer_write(w, buf, len + cl));
	}
	pev_data_writer_sample_time(w, 1000000001ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

static void compare(const char *file, const char *what, const char *opts)
{
	int rc = t_sh("%s report -i %s %s 2>&1 | grep -v '^# (' > %s/a.txt", perfev, file, opts, dir);

	CHECK_MSG(rc == 0, "perfev report %s: %d", opts, rc);
	CHECK_EQ_INT(t_sh("%s report --stdio -i %s %s 2>/dev/null | grep -v '^# (' > %s/b.txt",
			  PERF, file, opts, dir), 0);
	if (t_sh("cmp -s %s/a.txt %s/b.txt", dir, dir)) {
		t_sh("diff %s/b.txt %s/a.txt | head -10", dir, dir);
		T_FAIL("%s %s: perfev and perf differ (perf <, perfev >)", what, opts);
	}
}

int main(void)
{
	char file[128], what[64];
	static const char *const flat[] = {
		"--sort sym", "--sort comm,dso,sym", "--sort dso,sym", "--sort sym,srcline",
		"--sort pid,sym", "--sort cpu,sym", "--sort sym,srcfile", "--sort dso,sym,comm", NULL,
	};
	static const char *const graph[] = {
		"", "--no-children", "--sort sym", "--children --sort dso,sym -g none",
		"-g caller", NULL,
	};

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	snprintf(perfev, sizeof(perfev), "%s", getenv("PERFEV") ? getenv("PERFEV") : "build/perfev");
	strcpy(dir, "/tmp/perfev-rties-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(file, sizeof(file), "%s/t.data", dir);
	for (uint64_t seed = 1; seed <= 4; seed++) {
		write_file(file, seed * 0x9e3779b97f4a7c15ull, false, 0);
		snprintf(what, sizeof(what), "seed %d", (int)seed);
		for (size_t i = 0; flat[i]; i++)
			compare(file, what, flat[i]);
		write_file(file, seed * 0x9e3779b97f4a7c15ull, true, 0);
		snprintf(what, sizeof(what), "seed %d -g", (int)seed);
		for (size_t i = 0; graph[i]; i++)
			compare(file, what, graph[i]);
	}
	/* repeated addresses: perf's missed lookups make second entries of
	 * one address (checked in perf's output, so the case is not vacuous) */
	int dups = 0;

	for (uint64_t seed = 1; seed <= 8; seed++) {
		for (int chains = 0; chains <= 1; chains++) {
			write_file(file, seed * 0x2545f4914f6cdd1dull, chains, seed & 1 ? 24 : 48);
			snprintf(what, sizeof(what), "pool seed %d%s", (int)seed, chains ? " -g" : "");
			for (const char *const *m = chains ? graph : flat; *m; m++)
				compare(file, what, *m);
			dups += !t_sh("%s report --stdio -i %s --sort sym 2>/dev/null | "
				      "grep -o '\\] [0-9a-fx]*$' | sort | uniq -d | grep -q .",
				      PERF, file);
		}
	}
	CHECK_MSG(dups > 0, "perf made no second entry of an address: the case is vacuous");
	write_split_file(file);
	for (const char *const *m = graph; *m; m++)
		compare(file, "own address and chain entry", *m);
	CHECK_MSG(!t_sh("%s report --stdio -i %s -s sym -g caller 2>/dev/null | grep -q -- '--0x9b2ad9'",
			PERF, file), "perf's graph lacks B's chain entry: the case is vacuous");
	t_sh("rm -rf %s", dir);
	return t_done();
}
