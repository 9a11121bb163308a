// SPDX-License-Identifier: GPL-2.0-only
/* perfev report --mem-mode and its memory keys (mem, snoop, tlb, locked,
 * blocked, symbol_daddr, dso_daddr, dcacheline, phys_daddr,
 * data_page_size, symbol_iaddr) against perf report --stdio 6.1, byte for byte:
 *  - on a perf.data built here with chosen PERF_SAMPLE_DATA_SRC values
 *    (memory levels with hit/miss, remote, hops, level numbers, snoop
 *    and snoopx, lock, TLB, blocking), weights (the cost in mem mode),
 *    data and physical addresses and page sizes: this VM has no PMU that
 *    fills data_src;
 *  - on a file perf records at test time with page-faults -d --phys-data
 *    --data-page-size (the faulting address, the kernel's N/A data_src),
 *    where data addresses resolve in data mappings (anon, [heap],
 *    libraries).
 * Memory keys without --mem-mode are refused (exit 2), as perf refuses
 * them.  perf's closing random tip is left out of the comparison. */
#include <fcntl.h>
#include <unistd.h>

#include "report_cmp.h"
#include "unit/data_util.h"

/* data_src fields (perf_event.h's PERF_MEM_S layout) */
#define LVL(x) ((uint64_t)(x) << 5)
#define SNP(x) ((uint64_t)(x) << 19)
#define LCK(x) ((uint64_t)(x) << 24)
#define TLB(x) ((uint64_t)(x) << 26)
#define LVLNUM(x) ((uint64_t)(x) << 33)
#define REMOTE(x) ((uint64_t)(x) << 37)
#define SNPX(x) ((uint64_t)(x) << 38)
#define BLK(x) ((uint64_t)(x) << 40)
#define HOPS(x) ((uint64_t)(x) << 43)

/* (ip, cpumode kernel?, addr, weight, data_src, phys_addr, page size) */
static const uint64_t samples[][7] = {
	{ 0x401000, 0, 0x7f0000001008, 30, 2 | LVL(0x8 | 0x2) | SNP(0x2) | LCK(1) | TLB(0x8 | 0x2) | BLK(1), 0x12345008, 4096 },
	{ 0x401000, 0, 0x7f0000001010, 30, 2 | LVL(0x8 | 0x2) | SNP(0x2) | LCK(1) | TLB(0x8 | 0x2) | BLK(1), 0x12345010, 4096 },
	{ 0x401000, 0, 0x7f0000001040, 200, 2 | LVL(0x80 | 0x4) | SNP(0x8) | LCK(2) | TLB(0x10 | 0x4) | BLK(2), 0x12345040, 4096 },
	{ 0x402000, 0, 0x7f0000002000, 50, 2 | LVL(0x20 | 0x2) | LVLNUM(2) | SNP(0x4) | SNPX(1) | TLB(0x20) | BLK(4), 0x22222000, 2097152 },
	{ 0x402000, 0, 0x7f0000003000, 75, 4 | LVL(0x1000 | 0x2) | REMOTE(1) | HOPS(2) | LVLNUM(0xd) | SNP(0x10) | TLB(0x40) | BLK(6), 0, 1073741824 },
	{ 0x402000, 0, 0x7f0000003100, 0, 4 | LVLNUM(0xb) | SNPX(2) | TLB(1), 0x33333100, 1024 },
	{ 0xffffffff81000000, 1, 0x7f0000004000, 10, 0x1e05080021ull, 0x44444000, 4096 },
	{ 0xffffffff81000000, 1, 0xffff888000001000, 10, 2 | LVL(0x40 | 0x4) | LVLNUM(0x3) | SNP(2), 0x1000, 0 },
	{ 0x401000, 0, 0x7f0000001008, 30, 2 | LVL(0x8 | 0x2) | SNP(0x2) | LCK(1) | TLB(0x8 | 0x2) | BLK(1), 0x12345008, 4096 },
	{ 0x403000, 0, 0x600000, 5, 2 | LVL(0x2000 | 0x4) | LVLNUM(0xe) | SNP(1), 0x55555000, 65536 },
	/* level numbers perf 6.1 names CXL and I/O */
	{ 0x403000, 0, 0x600040, 7, 2 | LVL(0x2) | LVLNUM(0x9) | SNP(1), 0x55555040, 65536 },
	{ 0x403000, 0, 0x600080, 9, 4 | LVL(0x4) | LVLNUM(0xa) | SNP(1), 0x55555080, 65536 },
};

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
	a.sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
			 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE;
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &a, &id, 1, "page-faults"), 0);
	CHECK_OK(pev_data_writer_start(w));
	CHECK_OK(pev_data_writer_write(w, buf, du_comm(buf, &a, id, 10, 10, "memw", t)));
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		/* the sample_type order: identifier, ip, tid, time, addr,
		 * cpu, period, weight, data_src, phys_addr, data_page_size */
		uint64_t v[12] = { 0, id, samples[i][0], 10 | (uint64_t)10 << 32, ++t,
				   samples[i][2], 0, 1, samples[i][3], samples[i][4],
				   samples[i][5], samples[i][6] };
		struct perf_event_header h = { PERF_RECORD_SAMPLE,
					       samples[i][1] ? PERF_RECORD_MISC_KERNEL :
					       PERF_RECORD_MISC_USER, sizeof(v) };

		memcpy(v, &h, 8);
		CHECK_OK(pev_data_writer_write(w, v, sizeof(v)));
	}
	pev_data_writer_sample_time(w, 1000000001ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

static const char *const syn_opts[] = {
	"--mem-mode", "--mem-mode -s mem", "--mem-mode -s snoop,tlb",
	"--mem-mode -s locked,blocked", "--mem-mode -s mem,snoop,tlb,locked,blocked",
	"--mem-mode -s phys_daddr,data_page_size", "--mem-mode -s symbol_daddr",
	"--mem-mode -s dso_daddr,dcacheline", "--mem-mode -s tlb,sym -n",
	"--mem-mode -s data_page_size,mem --percent-limit 10", "--mem-mode -s symbol_iaddr", NULL,
};

static const char *const live_opts[] = {
	"--mem-mode -s mem,snoop,tlb,locked,blocked", "--mem-mode -s phys_daddr,data_page_size",
	"--mem-mode -s dso_daddr", "--mem-mode -s dso,dso_daddr,data_page_size -n",
	"--mem-mode -s symbol_iaddr,mem", NULL,
};

int main(void)
{
	char file[256];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-rmem-XXXXXX", false);
	snprintf(file, sizeof(file), "%s/syn.data", dir);
	write_file(file);
	for (size_t i = 0; syn_opts[i]; i++)
		same_report("synthetic data_src", file, syn_opts[i]);
	/* by hand: the weights are the costs (0 counts 1): 30+30+200+30 of 457 at 0x401000 */
	CHECK_EQ_INT(t_sh("%s report -i %s --mem-mode -s sym 2>/dev/null | grep -q '^    63.46%%  \\[\\.\\] 0x0000000000401000'",
			  perfev, file), 0);
	/* memory keys need --mem-mode (perf: "Invalid --sort key") */
	CHECK_EQ_INT(t_sh("%s report -i %s -s mem > /dev/null 2> %s/err.txt", perfev, file, dir), 2);
	CHECK_EQ_INT(t_sh("grep -q 'perfev: error: .*need --mem-mode' %s/err.txt", dir), 0);
	if (!t_sh("%s record -q -e page-faults -o /dev/null -- true > /dev/null 2>&1", PERF)) {
		snprintf(file, sizeof(file), "%s/pf.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e page-faults -d --phys-data --data-page-size -o %s -- dd if=/dev/zero of=/dev/null count=50 > /dev/null 2>&1",
				  PERF, file), 0);
		for (size_t i = 0; live_opts[i]; i++)
			same_report("page-faults -d", file, live_opts[i]);
		/* call chains: mem mode has no children, the graph is shown */
		snprintf(file, sizeof(file), "%s/pfg.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e page-faults -d -o %s -- dd if=/dev/zero of=/dev/null count=50 > /dev/null 2>&1",
				  PERF, file), 0);
		same_report("page-faults -d -g", file, "--mem-mode -s mem,dso_daddr");
		same_report("page-faults -d -g", file, "--mem-mode -s dso_daddr -g caller");
	} else {
		printf("live part skipped: perf record cannot sample page-faults here\n");
	}
	return report_cmp_end();
}
