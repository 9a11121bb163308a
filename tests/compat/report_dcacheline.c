// SPDX-License-Identifier: GPL-2.0-only
/* report --mem-mode -s dcacheline orders (and merges) entries of equal
 * weight as perf 6.1's sort__dcacheline_cmp does: by cpumode, then the
 * data map's DSO id (major, minor, inode, inode generation from MMAP2),
 * then, for private anonymous user memory (an all-zero id), by process,
 * then by cache line.  perfev compared the DSOs by file name: two files
 * whose names sort one way and whose inodes sort the other, and [heap],
 * [stack] and //anon (all id 0, told apart by perf only by process and
 * address), came out in another order.
 *
 * A perf.data built here: MMAP2 data mappings of two files (names and
 * inodes in opposite orders), a hard link of one (same id, other name),
 * [heap], [stack], //anon in two processes, a shared anonymous mapping,
 * a shared file mapping (perf's [s]), and one page-fault sample of weight
 * 1 in each, plus kernel ones. */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report_cmp.h"
#include "unit/data_util.h"

struct dmap {
	const char *name;
	uint32_t maj, min, flags;
	uint64_t ino, gen, start;
};

static const struct dmap maps[] = {
	{ "/zz/first.dat", 8, 1, MAP_PRIVATE, 100, 0, 0x7f0000000000 },
	{ "/aa/second.dat", 8, 1, MAP_PRIVATE, 200, 0, 0x7f1000000000 },
	{ "/mm/other-disk.dat", 9, 0, MAP_PRIVATE, 50, 0, 0x7f1800000000 },
	{ "/mm/gen.dat", 8, 1, MAP_PRIVATE, 100, 7, 0x7f1c00000000 },
	{ "/bb/first-link.dat", 8, 1, MAP_PRIVATE, 100, 0, 0x7f2000000000 },
	{ "[heap]", 0, 0, MAP_PRIVATE, 0, 0, 0x55000000 },
	{ "[stack]", 0, 0, MAP_PRIVATE, 0, 0, 0x7ffd00000000 },
	{ "//anon", 0, 0, MAP_PRIVATE, 0, 0, 0x7f3000000000 },
	{ "/dev/zero (deleted)", 0, 0, MAP_SHARED, 0, 0, 0x7f4000000000 },
	{ "/ss/shared.dat", 8, 1, MAP_SHARED, 300, 0, 0x7f5000000000 },
};
#define NMAPS (sizeof(maps) / sizeof(maps[0]))

static size_t mmap2(void *buf, const struct perf_event_attr *a, uint64_t id, uint32_t pid,
		    const struct dmap *m, uint64_t t)
{
	unsigned char *p = buf;
	size_t n = (strlen(m->name) + 1 + 7) & ~(size_t)7;
	uint32_t u32[2] = { pid, pid };
	uint64_t u64[3] = { m->start, 0x100000, 0 };

	memcpy(p + 8, u32, 8);
	memcpy(p + 16, u64, 24);
	u32[0] = m->maj;
	u32[1] = m->min;
	memcpy(p + 40, u32, 8);
	memcpy(p + 48, &m->ino, 8);
	memcpy(p + 56, &m->gen, 8);
	u32[0] = PROT_READ | PROT_WRITE;
	u32[1] = m->flags;
	memcpy(p + 64, u32, 8);
	memset(p + 72, 0, n);
	memcpy(p + 72, m->name, strlen(m->name));
	size_t tr = pev_synth_sample_id(a, pid, pid, t, id, 0, p + 72 + n);
	struct perf_event_header h = { PERF_RECORD_MMAP2,
				       PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA,
				       (uint16_t)(72 + n + tr) };

	memcpy(p, &h, 8);
	return h.size;
}

static void write_file(const char *path)
{
	struct perf_event_attr a;
	unsigned char buf[512] __attribute__((aligned(8)));
	const uint64_t id = 7;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);
	uint64_t t = 1000000000ull;

	CHECK(fd >= 0 && w);
	du_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	a.mmap_data = 1;
	a.mmap2 = 1;
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &a, &id, 1, "page-faults"), 0);
	CHECK_OK(pev_data_writer_start(w));
	for (uint32_t pid = 10; pid <= 11; pid++) {
		CHECK_OK(pev_data_writer_write(w, buf, du_comm(buf, &a, id, pid, pid, "memw", ++t)));
		for (size_t i = 0; i < NMAPS; i++)
			CHECK_OK(pev_data_writer_write(w, buf, mmap2(buf, &a, id, pid, &maps[i], ++t)));
	}
	/* one sample per (process, map, line), lines in both orders; then
	 * kernel-mode samples on user and kernel addresses */
	for (unsigned r = 0; r < 3; r++) {
		for (uint32_t pid = 11; pid >= 10; pid--) {
			for (size_t i = 0; i < NMAPS; i++) {
				uint64_t off = r == 1 ? 0x40 : r == 2 ? 0x1000 : 0x80;
				/* identifier, ip, tid, time, addr, cpu, period,
				 * weight, data_src */
				uint64_t v[10] = { 0, id, 0x401000 + 16 * i,
						   pid | (uint64_t)pid << 32, ++t,
						   maps[i].start + off + 8 * pid, 0, 1, 1,
						   0x29100142 };
				struct perf_event_header h = { PERF_RECORD_SAMPLE,
							       PERF_RECORD_MISC_USER,
							       sizeof(v) };

				memcpy(v, &h, 8);
				CHECK_OK(pev_data_writer_write(w, v, sizeof(v)));
			}
		}
	}
	for (unsigned i = 0; i < 4; i++) {
		uint64_t v[10] = { 0, id, 0xffffffff81000000 + 16 * i, 10 | (uint64_t)10 << 32,
				   ++t, i & 1 ? 0xffff888000001000 + 64 * i : maps[i].start + 64 * i,
				   0, 1, 1, 0x29100142 };
		struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL,
					       sizeof(v) };

		memcpy(v, &h, 8);
		CHECK_OK(pev_data_writer_write(w, v, sizeof(v)));
	}
	pev_data_writer_sample_time(w, 1000000001ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

int main(void)
{
	char file[256];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-dcl-XXXXXX", false);
	snprintf(file, sizeof(file), "%s/dcl.data", dir);
	write_file(file);
	same_report_norm("dcacheline", file, "--mem-mode -s dcacheline", NULL);
	same_report_norm("dcacheline", file, "--mem-mode -s dcacheline -n", NULL);
	same_report_norm("dcacheline", file, "--mem-mode -s dcacheline,pid", NULL);
	same_report_norm("dcacheline", file, "--mem-mode -s pid,dcacheline", NULL);
	/* the case is not vacuous: perf shows the shared file mapping as [s] */
	CHECK_EQ_INT(t_sh("grep -q '\\[s\\] 0x' %s/b.txt", dir), 0);
	return report_cmp_end();
}
