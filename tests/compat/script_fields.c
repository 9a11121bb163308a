// SPDX-License-Identifier: GPL-2.0-only
/* perfev script -F's less common fields against perf script 6.1 (the
 * oracle), byte for byte: on a synthetic perf.data file written with our
 * writer (branch stacks with and without hw_idx and every flag, register
 * sets, weight structs, page sizes, bpf-output data, a raw event, the
 * CLOCK_DATA feature; this VM has no LBR nor PEBS), and on files perf
 * records here (user and interrupt registers, code page sizes, tod,
 * srcline/srccode with and without callchains).  Also the errors: unknown
 * names, fields the samples lack. */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include "unit/record_build.h"
#include <perfev/perfev.h>
#include <perfev/symbols.h>

#define PERF "/usr/bin/perf"
#define BASE 0x555555554000ull
#define PID 4242

static char dir[64];
static char perfev[4096], helper[4096];

/* Runs both tools with the same arguments and compares stdout; `needle`
 * (may be NULL) must be in it, so that a field printing nothing in both
 * cannot pass unnoticed. */
static void same_output(const char *args, const char *needle)
{
	size_t la, lb;
	int ra = t_sh("TZ=UTC %s script %s > %s/a.txt 2> %s/a.err", perfev, args, dir, dir);
	int rb = t_sh("TZ=UTC %s script %s > %s/b.txt 2> %s/b.err", PERF, args, dir, dir);
	char pa[128], pb[128];

	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(ra == 0, "%s: perfev script exited %d", args, ra);
	CHECK_MSG(rb == 0, "%s: perf script exited %d", args, rb);
	CHECK_MSG(lb > 0, "%s: perf printed nothing", args);
	if (needle)
		CHECK_MSG(strstr(b, needle), "%s: perf's output lacks '%s'", args, needle);
	size_t line, start;

	if (t_first_diff(a, la, b, lb, &line, &start)) {
		T_FAIL("%s: output differs at line %zu:\n  perfev: %.300s\n  perf:   %.300s",
		       args, line, a + start, b + start);
	}
	printf("-F %s: %zu bytes identical\n", strstr(args, "-F") ? strstr(args, "-F") + 3 : args, la);
	free(a);
	free(b);
}

/* ---- The synthetic file. */

#define ST_COMMON (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		   PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define ST_HW (ST_COMMON | PERF_SAMPLE_ADDR | PERF_SAMPLE_BRANCH_STACK | \
	       PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR | \
	       PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | \
	       PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE | \
	       PERF_SAMPLE_CODE_PAGE_SIZE)
#define ST_RAW (ST_COMMON | PERF_SAMPLE_ADDR | PERF_SAMPLE_BRANCH_STACK | \
		PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | \
		PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE | \
		PERF_SAMPLE_CODE_PAGE_SIZE)
#define ST_BPF (ST_COMMON | PERF_SAMPLE_RAW)
#define TRAILER (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
		 PERF_SAMPLE_IDENTIFIER)

/* AX, BX, SP, IP */
#define UREGS_MASK ((1ull << 0) | (1ull << 1) | (1ull << 7) | (1ull << 8))
/* All general registers and XMM0 (two bits; perf names the first). */
#define IREGS_MASK (((1ull << 24) - 1) | (3ull << 32))

static uint64_t leaf, leaf_end, main_sym;
/* The register masks in use (x86's above, or arm64's for the aarch64
 * file: x0..x28, x29, lr, sp, pc, vg and bits no register has). */
static uint64_t uregs_mask = UREGS_MASK, iregs_mask = IREGS_MASK;
#define ARM64_UREGS ((1ull << 29) | (1ull << 30) | (1ull << 31) | (1ull << 32))
#define ARM64_IREGS (((1ull << 33) - 1) | (1ull << 40) | (1ull << 46))

static void find_symbols(void)
{
	struct pev_symtab *st = pev_symtab_load_elf(helper);
	const struct pev_symbol *sym;

	if (!st)
		T_FATAL("cannot read the symbols of %s", helper);
	for (size_t i = 0; (sym = pev_symtab_symbol(st, i)); i++) {
		if (!strcmp(sym->name, "script_deep_leaf")) {
			leaf = sym->start;
			leaf_end = sym->end;
		} else if (!strcmp(sym->name, "main")) {
			main_sym = sym->start;
		}
	}
	pev_symtab_free(st);
	if (!leaf || !main_sym)
		T_FATAL("no script_deep_leaf or main in %s", helper);
}

static uint64_t popcount(uint64_t m)
{
	return (uint64_t)__builtin_popcountll(m);
}

/* flags of branch entry i: every prediction state, in_tx, abort, cycles,
 * every type (with EXTEND_ABI's new types) and speculation value. */
static uint64_t br_flags_for(unsigned i)
{
	uint64_t mispred = i % 4 == 1, predicted = i % 4 == 2 || i % 4 == 3;
	uint64_t in_tx = i % 5 == 3, abort = i % 7 == 4;
	uint64_t cycles = i % 3 ? (uint64_t)i * 37 % 65536 : 0;
	uint64_t type = i % 16, spec = i % 3 == 2 ? i % 4 : 0;
	uint64_t new_type = type == 15 ? i / 16 % 8 : 0;

	return mispred | predicted << 1 | in_tx << 2 | abort << 3 |
	       cycles << 4 | type << 20 | spec << 24 | new_type << 26;
}

static void put_branches(struct rb *b, unsigned n, bool hw_idx, unsigned seed)
{
	rb_u64(b, n);
	if (hw_idx)
		rb_u64(b, seed % 3 ? n - 1 : (uint64_t)-1);
	for (unsigned i = 0; i < n; i++) {
		unsigned k = seed * 5 + i;
		uint64_t from = BASE + leaf + (k * 13) % (leaf_end - leaf);
		uint64_t to = k % 6 == 5 ? 0x1000 + k : BASE + main_sym + k % 32;

		rb_u64(b, from);
		rb_u64(b, to);
		rb_u64(b, br_flags_for(k));
	}
}

static const uint64_t page_sizes[] = {
	4096, 2 << 20, 1 << 30, 0, 1024, 2048, 16ull << 30, 512, 65536,
};
#define NPS (sizeof(page_sizes) / sizeof(page_sizes[0]))

static void emit(struct pev_data_writer *w, struct rb *b)
{
	rb_end(b);
	CHECK_OK(pev_data_writer_write(w, rb_p(b), b->len));
}

static void head(struct rb *b, uint64_t id, uint64_t ip, uint64_t t, uint32_t cpu)
{
	rb_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb_u64(b, id);
	rb_u64(b, ip);
	rb_u32(b, PID);
	rb_u32(b, PID);
	rb_u64(b, t);
}

static void write_synthetic(const char *path, const char *arch)
{
	struct perf_event_attr hw, raw, bpf;
	static struct rb b;
	const uint64_t id_hw = 101, id_raw = 102, id_bpf = 103;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);
	uint64_t t = 1000000000ull;

	CHECK(fd >= 0 && w);
	memset(&hw, 0, sizeof(hw));
	hw.size = sizeof(hw);
	hw.type = PERF_TYPE_HARDWARE;
	hw.config = PERF_COUNT_HW_CPU_CYCLES;
	hw.sample_period = 100003;
	hw.sample_type = ST_HW;
	hw.sample_id_all = 1;
	hw.mmap = hw.comm = hw.task = 1;
	hw.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	hw.sample_regs_user = uregs_mask;
	hw.sample_regs_intr = iregs_mask;
	raw = hw;
	raw.type = PERF_TYPE_RAW;
	raw.config = 0x1cd;
	raw.mmap = raw.comm = raw.task = 0;
	raw.sample_type = ST_RAW;
	raw.branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	raw.sample_regs_user = raw.sample_regs_intr = 0;
	bpf = raw;
	bpf.type = PERF_TYPE_SOFTWARE;
	bpf.config = PERF_COUNT_SW_BPF_OUTPUT;
	bpf.sample_type = ST_BPF;
	bpf.branch_sample_type = 0;
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &hw, &id_hw, 1, "cycles"), 0);
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &raw, &id_raw, 1, "r1cd"), 1);
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &bpf, &id_bpf, 1, "bpf-output"), 2);
	struct pev_data_features *f = pev_data_writer_features(w);

	CHECK_OK(pev_data_features_from_host(f));
	if (arch) {
		free(f->arch);
		f->arch = strdup(arch);
	}
	f->clock_data.version = 1;
	f->clock_data.clockid = 1;
	f->clock_data.tod_ns = 1795312973338825123ull;
	f->clock_data.clockid_ns = 999000000ull;
	pev_data_features_set(f, PEV_FEAT_CLOCK_DATA, true);
	f->clockid_res_ns = 1;
	pev_data_features_set(f, PEV_FEAT_CLOCKID, true);
	CHECK_OK(pev_data_writer_start(w));

	/* The process: its name and its one map (the whole helper binary). */
	struct stat stt;

	CHECK(stat(helper, &stt) == 0);
	rb_begin(&b, PERF_RECORD_COMM, 0);
	rb_u32(&b, PID);
	rb_u32(&b, PID);
	rb_str(&b, "fieldtest");
	rb_trailer(&b, TRAILER, PID, PID, t, id_hw, 0, 0);
	emit(w, &b);
	rb_begin(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	rb_u32(&b, PID);
	rb_u32(&b, PID);
	rb_u64(&b, BASE);
	rb_u64(&b, ((uint64_t)stt.st_size + 4095) & ~4095ull);
	rb_u64(&b, 0);
	rb_str(&b, helper);
	rb_trailer(&b, TRAILER, PID, PID, t, id_hw, 0, 0);
	emit(w, &b);

	for (unsigned i = 0; i < 24; i++) {
		uint64_t ip = BASE + leaf + i * 3 % (leaf_end - leaf);
		uint32_t cpu = i % 2;

		t += 1000 + i * 977;
		/* cycles: everything */
		head(&b, id_hw, ip, t, cpu);
		rb_u64(&b, 0x7ffc0000 + i * 8);		/* addr */
		rb_u32(&b, cpu);
		rb_u32(&b, 0);
		rb_u64(&b, 100003);
		put_branches(&b, i % 5 == 4 ? 0 : 1 + i % 7, false, i);
		rb_u64(&b, i % 6 == 5 ? PERF_SAMPLE_REGS_ABI_NONE : PERF_SAMPLE_REGS_ABI_64);
		if (i % 6 != 5)
			for (uint64_t r = 0; r < popcount(uregs_mask); r++)
				rb_u64(&b, 0x1000 * i + r);
		/* weight struct: var1_dw, var2_w (ins_lat), var3_w */
		rb_u64(&b, (uint64_t)(i * 11) | (uint64_t)(i * 300 + 7) << 32 |
			   (uint64_t)(i + 1) << 48);
		rb_u64(&b, 0x68100142);			/* data_src */
		rb_u64(&b, PERF_SAMPLE_REGS_ABI_64);
		for (uint64_t r = 0; r < popcount(iregs_mask); r++)
			rb_u64(&b, r == 3 ? 0 : 0xffff0000ull * i + r);
		rb_u64(&b, 0x123456000ull + i);		/* phys_addr */
		rb_u64(&b, page_sizes[i % NPS]);
		rb_u64(&b, page_sizes[(i + 3) % NPS]);
		emit(w, &b);

		/* r1cd: raw defaults, hw_idx branch stacks */
		t += 500;
		head(&b, id_raw, ip + 1, t, cpu);
		rb_u64(&b, 0x7ffd0000 + i * 64);
		rb_u32(&b, cpu);
		rb_u32(&b, 0);
		rb_u64(&b, 20011);
		put_branches(&b, 2 + i % 3, true, i + 100);
		rb_u64(&b, (uint64_t)(i * 5) | (uint64_t)(i * 3) << 32);
		rb_u64(&b, 0x68100142);
		rb_u64(&b, 0xabc000ull + i);
		rb_u64(&b, page_sizes[(i + 5) % NPS]);
		rb_u64(&b, page_sizes[(i + 1) % NPS]);
		emit(w, &b);

		/* bpf-output: a string, binary data, an empty record */
		if (i % 8 == 0) {
			static const char data[4][24] = {
				"hello from bpf", "\x01\x02\x03\xff" "abc\0def\0\x7f" "0123456789",
				"", "exactly8",
			};
			const char *d = data[i / 8 % 4];	/* 24 bytes each */
			uint32_t sz = i / 8 % 4 == 1 ? 21 : (uint32_t)strlen(d) + 1;

			if (i / 8 % 4 == 2)
				sz = 4;
			t += 300;
			head(&b, id_bpf, ip, t, cpu);
			rb_u32(&b, cpu);
			rb_u32(&b, 0);
			rb_u64(&b, 1);
			uint32_t padded = (sz + 4 + 7) / 8 * 8 - 4;
			unsigned char buf[64] = { 0 };

			memcpy(buf, d, sz);
			rb_u32(&b, padded);
			rb_raw(&b, buf, padded);
			emit(w, &b);
		}
	}
	pev_data_writer_sample_time(w, 1000000000ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

/* The register names of an arm64 file (its ARCH feature), read here. */
static void test_arm64(void)
{
	char path[128], args[512];

	uregs_mask = ARM64_UREGS;
	iregs_mask = ARM64_IREGS;
	snprintf(path, sizeof(path), "%s/arm64.data", dir);
	write_synthetic(path, "aarch64");
	uregs_mask = UREGS_MASK;
	iregs_mask = IREGS_MASK;
	snprintf(args, sizeof(args), "-i %s -F hw:ip,iregs", path);
	same_output(args, "   vg:0x");
	snprintf(args, sizeof(args), "-i %s -F hw:ip,uregs", path);
	same_output(args, "   pc:0x");
}

static void test_synthetic(void)
{
	char path[128], args[512];
	static const char *const sets[][2] = {
		{ "", "BPF output:" },	/* defaults: raw's and bpf-output's */
		{ "-F ip,brstack", "/P/" },
		{ "-F ip,dso,brstack", "(" },
		{ "-F ip,sym,brstacksym", "script_deep_leaf+0x" },
		{ "-F ip,dso,brstacksym", "[unknown]" },
		{ "-F ip,brstackoff", "/M/" },
		{ "-F ip,dso,brstackoff", NULL },
		{ "-F event,ip,brstack,brstacksym", NULL },
		{ "-F hw:ip,iregs,uregs", " ABI:2 " },
		{ "-F hw:ip,iregs", "XMM0:" },
		{ "-F hw:ip,weight,ins_lat,phys_addr", NULL },
		{ "-F hw:ip,data_page_size,code_page_size", "1024B" },
		{ "-F comm,bpf-output", NULL },
		{ "-F +tod", "2026-" },
		{ "-F +tod --ns", NULL },
		{ "-F +flags", NULL },
		{ "-F +misc", " U      " },
		{ "-F ip,sym,flags,ipc,synth,callindent,metric", NULL },
		{ "-F -period,+ipc", NULL },
		{ "-F raw:ip,addr,ins_lat", NULL },
		{ "-F sw:comm,bpf-output", "BPF string:" },
		{ "-F +srcline", "script_deep.c:" },
	};

	snprintf(path, sizeof(path), "%s/synth.data", dir);
	write_synthetic(path, NULL);
	/* perf must take the file as it is. */
	CHECK_EQ_INT(t_sh("%s script -i %s > /dev/null 2> %s/e.txt", PERF, path, dir), 0);
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		snprintf(args, sizeof(args), "-i %s %s", path, sets[i][0]);
		same_output(args, sets[i][1]);
	}
}

/* Files perf records here: registers, page sizes, tod (-k), srcline and
 * srccode of the helper built with -g, with and without callchains. */
static void test_recorded(void)
{
	char args[1024];
	static const char *const flat[][2] = {
		{ "-F ip,sym,uregs", "   AX:0x" },
		{ "-F +iregs", " FLAGS:0x" },
		{ "-F +uregs,+iregs,+code_page_size,+data_page_size", "4K" },
		{ "-F +tod", NULL },
		{ "-F +tod,+flags --ns", NULL },
		{ "-F +srcline", "script_deep.c:" },
		{ "-F ip,sym,srcline,srccode", "|" },
		{ "-F ip,srccode", "sink" },
		{ "-F +insn,+insnlen", " ilen: 3 insn: " },
		{ "-F ip,insnlen", " ilen: " },
		{ "-F +misc --show-mmap-events --show-task-events", " U     " },
		{ "-F comm,misc,tod,ip --show-mmap-events --show-task-events", " E     " },
	};
	static const char *const chain[][2] = {
		{ "-F +srcline", "script_deep.c:" },
		{ "-F +srccode", "|" },
		{ "-F comm,tid,ip,sym,dso,srcline", "\n  " },
		{ "-F +tod,+srcline -G", NULL },
		{ "-F ip,sym,insn,insnlen", " insn: " },
	};

	if (t_sh("%s record -q -e cpu-clock -F 1000 --user-regs=ax,bx,sp,ip -I --code-page-size "
	       "--data-page-size -k CLOCK_MONOTONIC -o %s/r.data -- %s 120 4 2 > /dev/null 2>&1",
	       PERF, dir, helper)) {
		printf("recorded part skipped: perf record cannot sample registers here\n");
		return;
	}
	for (size_t i = 0; i < sizeof(flat) / sizeof(flat[0]); i++) {
		snprintf(args, sizeof(args), "-i %s/r.data %s", dir, flat[i][0]);
		same_output(args, flat[i][1]);
	}
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 2000 -g -k CLOCK_MONOTONIC -o %s/g.data "
			"-- %s 200 6 2 > /dev/null 2>&1", PERF, dir, helper), 0);
	for (size_t i = 0; i < sizeof(chain) / sizeof(chain[0]); i++) {
		snprintf(args, sizeof(args), "-i %s/g.data %s", dir, chain[i][0]);
		same_output(args, chain[i][1]);
	}
	/* Pipe mode: the clock data and the arch arrive as records. */
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 1000 -k CLOCK_MONOTONIC --user-regs=ax,sp "
			"-o - -- %s 60 2 > %s/p.data 2> /dev/null", PERF, helper, dir), 0);
	snprintf(args, sizeof(args), "-i - -F +tod,+uregs,+insn,+srcline < %s/p.data", dir);
	same_output(args, " ABI:2 ");
}

/* Exit status and message of perfev for args; perf's status too when
 * perf_rc >= 0. */
static void check_fails(const char *args, int rc, int perf_rc, const char *msg)
{
	char path[128];
	size_t len;

	CHECK_EQ_INT(t_sh("%s script %s > %s/a.txt 2> %s/a.err", perfev, args, dir, dir), rc);
	if (perf_rc >= 0)
		CHECK_EQ_INT(t_sh("%s script %s > /dev/null 2>&1", PERF, args), perf_rc);
	snprintf(path, sizeof(path), "%s/a.err", dir);
	char *e = t_slurp(path, &len);

	CHECK_MSG(!strncmp(e, "perfev: error: ", 15) && strstr(e, msg),
		  "%s: message '%s' lacks '%s'", args, e, msg);
	snprintf(path, sizeof(path), "%s/a.txt", dir);
	free(e);
	e = t_slurp(path, &len);
	CHECK_MSG(len == 0, "%s: printed %zu bytes before failing", args, len);
	free(e);
}

static void test_errors(void)
{
	char f[256], args[512];

	/* A plain file: no registers, no clock data, no branch stack. */
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 500 -o %s/n.data -- %s 50 2 > /dev/null 2>&1",
			PERF, dir, helper), 0);
	snprintf(f, sizeof(f), "%s/n.data", dir);
	/* Unknown names: usage error listing every field. */
	snprintf(args, sizeof(args), "-i %s -F comm,bogus", f);
	check_fails(args, 2, -1, "ins_lat,cgroup");
	snprintf(args, sizeof(args), "-i %s -F +iregs,+nosuch", f);
	check_fails(args, 2, -1, "'nosuch'");
	snprintf(args, sizeof(args), "-i %s -F nosuchtype:ip", f);
	check_fails(args, 2, -1, "'nosuchtype'");
	/* Fields the samples lack: exit 1, as perf fails. */
	static const char *const lack[][2] = {
		{ "-F ip,iregs", "'iregs'" },
		{ "-F +uregs", "'uregs'" },
		{ "-F ip,ins_lat", "'ins_lat'" },
		{ "-F +data_page_size", "'data_page_size'" },
		{ "-F +code_page_size", "'code_page_size'" },
		{ "-F ip,brstackinsn", "-b" },
		{ "-F ip,brstackinsnlen", "-b" },
		{ "-F sym,srcline", "without 'ip'" },
		{ "-F +tod", "clock data" },
	};
	for (size_t i = 0; i < sizeof(lack) / sizeof(lack[0]); i++) {
		snprintf(args, sizeof(args), "-i %s %s", f, lack[i][0]);
		check_fails(args, 1, 255, lack[i][1]);
	}
	/* Defaults the samples cannot fill are dropped, and fields that
	 * print nothing for such samples are accepted. */
	snprintf(args, sizeof(args), "-i %s -F +brstack,+brstacksym,+ipc,+metric,+callindent", f);
	same_output(args, "script_deep_leaf");
}

int main(void)
{
	const char *b = getenv("PERFEV_BUILD");

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	snprintf(perfev, sizeof(perfev), "%s", getenv("PERFEV") ? getenv("PERFEV") : "build/perfev");
	snprintf(helper, sizeof(helper), "%s/tests/helpers/script_deep", b ? b : "build");
	if (access(helper, X_OK))
		T_FATAL("helper %s is missing", helper);
	char real[4096];

	if (!realpath(helper, real))
		T_FATAL("realpath %s", helper);
	snprintf(helper, sizeof(helper), "%s", real);
	strcpy(dir, "/tmp/perfev-fields-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	find_symbols();
	test_synthetic();
	test_arm64();
	test_recorded();
	test_errors();
	if (!getenv("KEEP")) t_sh("rm -rf %s", dir);
	return t_done();
}
