// SPDX-License-Identifier: GPL-2.0-only
/* perfev script -F ...,data_src against perf script 6.1, byte for byte.
 * perfev printed its own older text ("LVL N/A" where perf prints "LVL
 * N/A or N/A", "L2 hit" for "L2 or L2 hit", "Unknown level 7" for "L7",
 * "Any cache " with a space), did not cut the text where perf does (99
 * characters with the hex value) and did not pad it to the longest one
 * printed so far as perf does.
 *  - a perf.data built here with 160 samples whose data_src values walk
 *    every op, memory level bit, level number, remote/hops, snoop, snoopx,
 *    TLB, lock and blocking value (this VM has no PMU that fills
 *    data_src), in several field lists;
 *  - a file perf records at test time with page-faults -d (the kernel's
 *    N/A data_src). */
#include <fcntl.h>
#include <unistd.h>

#include "report_cmp.h"
#include "unit/data_util.h"

static const uint64_t ops[] = { 0, 1, 2, 4, 8, 16, 6, 3 };
static const uint64_t lvls[] = {
	0, 1, 2, 4, 0x8 | 2, 0x10 | 4, 0x20 | 2, 0x40 | 4, 0x80, 0x100 | 2, 0x200 | 4,
	0x400, 0x800 | 2, 0x1000, 0x2000 | 4, 0x28 | 2, 0x3ff8 | 6, 0x41,
};
static const uint64_t snoops[] = { 0, 1, 2, 4, 8, 16, 6, 0x1f, 0x18 };
static const uint64_t tlbs[] = { 0, 1, 2, 4, 8, 16, 32, 64, 0x0a, 0x1c, 0x7f, 0x30 };

#define DS(op, lvl, snp, lck, tlb, lvlnum, rem, snpx, blk, hops)                     \
	((uint64_t)(op) | (uint64_t)(lvl) << 5 | (uint64_t)(snp) << 19 |               \
	 (uint64_t)(lck) << 24 | (uint64_t)(tlb) << 26 | (uint64_t)(lvlnum) << 33 |     \
	 (uint64_t)(rem) << 37 | (uint64_t)(snpx) << 38 | (uint64_t)(blk) << 40 |       \
	 (uint64_t)(hops) << 43)

#define NS 160

/* Sample i's data_src: each field steps through its values at its own
 * pace, so most pairs of values meet. hops stays within perf's table
 * (0..4): perf indexes its names with it unchecked. */
static uint64_t data_src(unsigned i)
{
	return DS(ops[i % 8], lvls[(i * 7) % 18], snoops[(i * 5) % 9], (i / 3) % 4,
		  tlbs[(i * 11) % 12], (i * 3) % 16, (i / 5) % 2, (i / 2) % 4, (i * 3) % 8,
		  i % 13 < 5 ? i % 13 : 0);
}

static void write_file(const char *path)
{
	struct perf_event_attr a;
	unsigned char buf[256] __attribute__((aligned(8)));
	const uint64_t id = 7;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);
	uint64_t t = 1000000000ull;

	CHECK(fd >= 0 && w);
	du_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &a, &id, 1, "page-faults"), 0);
	CHECK_OK(pev_data_writer_start(w));
	CHECK_OK(pev_data_writer_write(w, buf, du_comm(buf, &a, id, 10, 10, "memw", t)));
	for (unsigned i = 0; i < NS; i++) {
		/* identifier, ip, tid, time, addr, cpu, period, data_src */
		uint64_t v[9] = { 0, id, 0x401000 + 16 * i, 10 | (uint64_t)10 << 32, ++t,
				  0x7f0000001000 + 8 * i, 0, 1, data_src(i) };
		struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
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
	report_cmp_start("/tmp/perfev-sdsrc-XXXXXX", false);
	snprintf(file, sizeof(file), "%s/syn.data", dir);
	write_file(file);
	same_script(file, "-F ip,addr,data_src", "|LVL N/A or L7");
	same_script(file, "-F data_src", "|LVL L2 or L2 hit");
	same_script(file, "-F comm,tid,time,event,addr,data_src,ip,period", "|OP ");
	same_script(file, "-F data_src,addr", "|BLK ");
	if (!t_sh("%s record -q -e page-faults -o /dev/null -- true > /dev/null 2>&1", PERF)) {
		snprintf(file, sizeof(file), "%s/pf.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e page-faults -d -o %s -- dd if=/dev/zero of=/dev/null count=50 > /dev/null 2>&1",
				  PERF, file), 0);
		same_script(file, "-F comm,tid,addr,data_src,ip,sym", "|LVL N/A or N/A");
		same_script(file, "-F data_src", "|OP N/A");
	} else {
		printf("live part skipped: perf record cannot sample page-faults here\n");
	}
	return report_cmp_end();
}
