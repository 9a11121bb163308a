// SPDX-License-Identifier: GPL-2.0-only
/* report -j/--json with the memory keys (mem, snoop, tlb, locked,
 * blocked, symbol_daddr, dso_daddr, dcacheline, phys_daddr,
 * data_page_size, symbol_iaddr) and the weight keys: perfev printed
 * none of them.  The JSON is parsed back (python3) and each entry checked
 * against the same row of perf report --stdio -t '|' -n on the same file
 * and keys: overhead, samples, each key's text (perf's rendering of the
 * raw JSON values: page sizes in perf's units, DSO short names, addresses
 * or symbol+offset).
 *  - a perf.data built here with chosen data_src values, weights, data
 *    and physical addresses and page sizes (no PMU here fills data_src);
 *  - a file perf records at test time with page-faults -d --phys-data
 *    --data-page-size (data addresses that resolve to symbols). */
#include <fcntl.h>
#include <unistd.h>

#include "report_cmp.h"
#include "unit/data_util.h"

#define LVL(x) ((uint64_t)(x) << 5)
#define SNP(x) ((uint64_t)(x) << 19)
#define LCK(x) ((uint64_t)(x) << 24)
#define TLB(x) ((uint64_t)(x) << 26)
#define LVLNUM(x) ((uint64_t)(x) << 33)
#define REMOTE(x) ((uint64_t)(x) << 37)
#define SNPX(x) ((uint64_t)(x) << 38)
#define BLK(x) ((uint64_t)(x) << 40)
#define HOPS(x) ((uint64_t)(x) << 43)

/* (ip, kernel?, addr, weight, data_src, phys_addr, page size) */
static const uint64_t samples[][7] = {
	{ 0x401000, 0, 0x7f0000001008, 30, 2 | LVL(0x8 | 0x2) | SNP(0x2) | LCK(1) | TLB(0x8 | 0x2) | BLK(1), 0x12345008, 4096 },
	{ 0x401000, 0, 0x7f0000001040, 200, 2 | LVL(0x80 | 0x4) | SNP(0x8) | LCK(2) | TLB(0x10 | 0x4) | BLK(2), 0x12345040, 4096 },
	{ 0x402000, 0, 0x7f0000002000, 50, 2 | LVL(0x20 | 0x2) | LVLNUM(2) | SNP(0x4) | SNPX(1) | TLB(0x20) | BLK(4), 0x22222000, 2097152 },
	{ 0x402000, 0, 0x7f0000003000, 75, 4 | LVL(0x1000 | 0x2) | REMOTE(1) | HOPS(2) | LVLNUM(0xd) | SNP(0x10) | TLB(0x40) | BLK(6), 0, 1073741824 },
	{ 0x402000, 0, 0x7f0000003100, 0, 4 | LVLNUM(0xb) | SNPX(2) | TLB(1), 0x33333100, 1024 },
	{ 0xffffffff81000000, 1, 0xffff888000001000, 10, 2 | LVL(0x40 | 0x4) | LVLNUM(0x3) | SNP(2), 0x1000, 0 },
	{ 0x401000, 0, 0x7f0000001008, 30, 2 | LVL(0x8 | 0x2) | SNP(0x2) | LCK(1) | TLB(0x8 | 0x2) | BLK(1), 0x12345008, 4096 },
	{ 0x403000, 0, 0x600000, 5, 2 | LVL(0x2000 | 0x4) | LVLNUM(0x9) | SNP(1), 0x55555000, 65536 },
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

/* argv: perfev's JSON, perf's -t '|' -n table, the keys */
static const char checker[] =
	"import json, os, sys\n"
	"doc = json.load(open(sys.argv[1]))\n"
	"rows = [l.rstrip('\\n').split('|') for l in open(sys.argv[2]) if l.strip() and not l.startswith('#')]\n"
	"keys = sys.argv[3].split(',')\n"
	"ents = doc['events'][0]['entries']\n"
	"bad = []\n"
	"def unit(n):\n"
	"    if not n: return 'N/A'\n"
	"    i = 0\n"
	"    while n // 1024 > 1 and i < 3: n //= 1024; i += 1\n"
	"    return '%d%s' % (n, 'BKMG'[i])\n"
	"def short(p):\n"
	"    if p is None: return '[unknown]'\n"
	"    return os.path.basename(p) if p.startswith('/') else p\n"
	"def addr_or_sym(text, sym, addr, off=None):\n"
	"    t = text[4:].strip()\n"
	"    if sym is None: return int(t, 16) == int(addr, 16)\n"
	"    if off is not None and '+0x' in t: return t == '%s+0x%x' % (sym, off)\n"
	"    return t == sym\n"
	"if len(rows) != len(ents): bad.append('%d rows, %d entries' % (len(rows), len(ents)))\n"
	"for r, e in zip(rows, ents):\n"
	"    c = [x.strip() for x in r]\n"
	"    ok = c[0] == '%.2f%%' % e['overhead'] and int(c[1]) == e['samples']\n"
	"    for k, v in zip(keys, c[2:]):\n"
	"        if k in ('mem', 'snoop', 'tlb', 'locked', 'blocked'): ok &= v == e[k]\n"
	"        elif k == 'symbol_daddr': ok &= addr_or_sym(v, e['daddr_symbol'], e['daddr'], e.get('daddr_offset'))\n"
	"        elif k == 'dso_daddr': ok &= v == short(e['daddr_dso'])\n"
	"        elif k == 'phys_daddr': ok &= int(v[4:], 16) == int(e['phys_addr'], 16)\n"
	"        elif k == 'data_page_size': ok &= v == unit(e['data_page_size'])\n"
	"        elif k == 'symbol_iaddr': ok &= addr_or_sym(v, e['iaddr_symbol'], e['iaddr'])\n"
	"        elif k in ('weight', 'local_weight'): ok &= int(v) == e[k]\n"
	"        elif k == 'dcacheline':\n"
	"            ok &= (v[1] == 's') == e['dcacheline_shared']\n"
	"            if v[4:6] in ('0x', '00'): ok &= int(v[4:], 16) == int(e['dcacheline'], 16)\n"
	"        else: ok = False\n"
	"    if not ok: bad.append('perf %s, perfev %s' % (c, e))\n"
	"print('\\n'.join(bad[:3]) if bad else '%d entries agree' % len(ents))\n"
	"sys.exit(1 if bad else 0)\n";

static const char *const key_sets[] = {
	"mem,snoop,tlb,locked,blocked",
	"symbol_daddr,dso_daddr,phys_daddr,data_page_size",
	"symbol_iaddr,local_weight,weight,dcacheline",
	"dso_daddr,symbol_daddr,mem", NULL,
};

static void check_json(const char *file)
{
	for (size_t i = 0; key_sets[i]; i++) {
		int rc = t_sh("%s report -i %s --mem-mode -j -s %s > %s/a.json 2>/dev/null && "
			      "%s report --stdio -i %s --mem-mode -n -t '|' -s %s > %s/b.txt 2>/dev/null && "
			      "python3 %s/check.py %s/a.json %s/b.txt %s",
			      perfev, file, key_sets[i], dir, PERF, file, key_sets[i], dir, dir, dir,
			      dir, key_sets[i]);

		CHECK_MSG(rc == 0, "%s -s %s: perfev's JSON disagrees with perf's table", file,
			  key_sets[i]);
	}
}

int main(void)
{
	char file[256], py[256];

	report_cmp_start("/tmp/perfev-rjson-XXXXXX", false);
	if (!have("python3"))
		T_SKIP("python3 is not installed (it parses the JSON)");
	report_cmp_write(py, sizeof(py), "check.py", checker);
	snprintf(file, sizeof(file), "%s/syn.data", dir);
	write_file(file);
	check_json(file);
	if (!t_sh("%s record -q -e page-faults -o /dev/null -- true > /dev/null 2>&1", PERF)) {
		snprintf(file, sizeof(file), "%s/pf.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e page-faults -d --phys-data --data-page-size -o %s -- python3 -c 'import json' > /dev/null 2>&1",
				  PERF, file), 0);
		check_json(file);
	} else {
		printf("live part skipped: perf record cannot sample page-faults here\n");
	}
	return report_cmp_end();
}
