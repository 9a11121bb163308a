// SPDX-License-Identifier: GPL-2.0-only
/* jitdump files built here byte by byte (the layout of perf's jitdump.h)
 * read back with hand-known values: a header in either byte order, every
 * record type, debug entries with "\xff\0" repeats, a last record cut
 * short (the end, as in perf), records lying about their sizes
 * (-EBADMSG), bad magic and versions; and the ELF file written for a
 * CODE_LOAD read back through the symbol loader: one function at 0x80 of
 * the code's size, with the build id handed out. */
#include <elf.h>
#include <byteswap.h>
#include <unistd.h>

#include "testutil.h"
#include <perfev/perfev.h>
#include <perfev/data.h>
#include <perfev/jit.h>

static uint8_t buf[4096];
static size_t len;
static bool sw;

static void put(const void *p, size_t n) { memcpy(buf + len, p, n); len += n; }
static void p32(uint32_t v) { v = sw ? bswap_32(v) : v; put(&v, 4); }
static void p64(uint64_t v) { v = sw ? bswap_64(v) : v; put(&v, 8); }

static void header(uint32_t version, uint64_t flags)
{
	len = 0;
	p32(PEV_JITDUMP_MAGIC); p32(version); p32(40); p32(EM_X86_64); p32(0); p32(4242);
	p64(111); p64(flags);
}

static void load(const char *name, const uint8_t *code, uint32_t csize, uint64_t addr, uint64_t idx)
{
	p32(PEV_JIT_CODE_LOAD); p32(16 + 40 + (uint32_t)strlen(name) + 1 + csize); p64(500 + idx);
	p32(4242); p32(4243); p64(addr); p64(addr); p64(csize); p64(idx);
	put(name, strlen(name) + 1);
	put(code, csize);
}

static void test_records(bool swapped)
{
	static const uint8_t code[] = { 0x55, 0x90, 0xc3 };
	struct pev_jitdump_header h;
	struct pev_jit_record r;
	size_t pos;

	sw = swapped;
	header(1, 0);
	/* DEBUG_INFO: 3 entries, the second repeating the first's file. */
	p32(PEV_JIT_CODE_DEBUG_INFO); p32(16 + 16 + 3 * 16 + 5 + 2 + 5); p64(400);
	p64(0x1000); p64(3);
	p64(0x1000); p32(7); p32(0); put("a.js", 5);
	p64(0x1001); p32(8); p32(1); put("\xff", 2);
	p64(0x1002); p32(9); p32(0); put("b.js", 5);
	/* UNWINDING_INFO: 8 bytes, 4 of them eh_frame_hdr, 16 mapped. */
	p32(PEV_JIT_CODE_UNWINDING_INFO); p32(16 + 24 + 8); p64(450);
	p64(8); p64(4); p64(16); put("\1\2\3\4\5\6\7\10", 8);
	load("JS:fib", code, 3, 0x7f0000001000ull, 0);
	p32(PEV_JIT_CODE_MOVE); p32(16 + 48); p64(600);
	p32(4242); p32(4243); p64(1); p64(0x7f0000001000ull); p64(0x7f0000002000ull); p64(3); p64(0);
	p32(PEV_JIT_CODE_CLOSE); p32(16); p64(700);

	CHECK_OK(pev_jitdump_header_read(buf, len, &h));
	CHECK(h.swapped == swapped);
	CHECK_EQ_U64(h.pid, 4242);
	CHECK_EQ_U64(h.elf_mach, EM_X86_64);
	CHECK_EQ_U64(h.timestamp, 111);
	pos = h.total_size;
	CHECK_EQ_INT(pev_jitdump_next(buf, len, &h, &pos, &r), 1);
	CHECK_EQ_U64(r.id, PEV_JIT_CODE_DEBUG_INFO);
	CHECK_EQ_U64(r.u.debug_info.nr_entry, 3);
	struct pev_jit_debug_entry e;
	size_t off = 0;
	uint64_t idx = 0;

	CHECK_EQ_INT(pev_jitdump_debug_entry(&h, &r, &off, &idx, &e), 1);
	CHECK(e.addr == 0x1000 && e.lineno == 7 && e.name && !strcmp(e.name, "a.js"));
	CHECK_EQ_INT(pev_jitdump_debug_entry(&h, &r, &off, &idx, &e), 1);
	CHECK(e.addr == 0x1001 && e.lineno == 8 && e.discrim == 1 && e.name == NULL);
	CHECK_EQ_INT(pev_jitdump_debug_entry(&h, &r, &off, &idx, &e), 1);
	CHECK(e.lineno == 9 && e.name && !strcmp(e.name, "b.js"));
	CHECK_EQ_INT(pev_jitdump_debug_entry(&h, &r, &off, &idx, &e), 0);
	CHECK_EQ_INT(pev_jitdump_next(buf, len, &h, &pos, &r), 1);
	CHECK_EQ_U64(r.id, PEV_JIT_CODE_UNWINDING_INFO);
	CHECK(r.u.unwinding.unwinding_size == 8 && r.u.unwinding.eh_frame_hdr_size == 4 &&
	      r.u.unwinding.mapped_size == 16 && r.u.unwinding.data[7] == 8);
	CHECK_EQ_INT(pev_jitdump_next(buf, len, &h, &pos, &r), 1);
	CHECK_EQ_U64(r.id, PEV_JIT_CODE_LOAD);
	CHECK_STR(r.u.load.name, "JS:fib");
	CHECK(r.u.load.code_size == 3 && !memcmp(r.u.load.code, code, 3));
	CHECK(r.u.load.pid == 4242 && r.u.load.tid == 4243 && r.u.load.code_addr == 0x7f0000001000ull);
	CHECK_EQ_U64(r.timestamp, 500);
	CHECK_EQ_INT(pev_jitdump_next(buf, len, &h, &pos, &r), 1);
	CHECK(r.id == PEV_JIT_CODE_MOVE && r.u.move.new_code_addr == 0x7f0000002000ull);
	CHECK_EQ_INT(pev_jitdump_next(buf, len, &h, &pos, &r), 1);
	CHECK_EQ_U64(r.id, PEV_JIT_CODE_CLOSE);
	CHECK_EQ_INT(pev_jitdump_next(buf, len, &h, &pos, &r), 0);
	CHECK_EQ_U64(pos, len);
}

static void test_bad(void)
{
	static const uint8_t code[] = { 0xc3 };
	struct pev_jitdump_header h;
	struct pev_jit_record r;
	size_t pos;

	sw = false;
	CHECK_EQ_INT(pev_jitdump_header_read(buf, 39, &h), -EBADMSG);
	header(2, 0);
	CHECK_EQ_INT(pev_jitdump_header_read(buf, len, &h), -ENOTSUP);
	header(1, 2);
	CHECK_EQ_INT(pev_jitdump_header_read(buf, len, &h), -ENOTSUP);
	header(1, 0);
	buf[0] ^= 1;
	CHECK_EQ_INT(pev_jitdump_header_read(buf, len, &h), -EPROTO);
	/* A header claiming more than the file. */
	header(1, 0);
	memcpy(buf + 8, &(uint32_t){ 4000 }, 4);
	CHECK_EQ_INT(pev_jitdump_header_read(buf, len, &h), -EBADMSG);
	/* Cut short: the end. */
	header(1, 0);
	load("name", code, 1, 0x1000, 0);
	CHECK_OK(pev_jitdump_header_read(buf, len - 1, &h));
	pos = h.total_size;
	CHECK_EQ_INT(pev_jitdump_next(buf, len - 1, &h, &pos, &r), 0);
	/* total_size below the prefix; code longer than the record; a name
	 * without its NUL. */
	header(1, 0);
	p32(0); p32(8); p64(0);
	CHECK_OK(pev_jitdump_header_read(buf, len, &h));
	pos = h.total_size;
	CHECK_EQ_INT(pev_jitdump_next(buf, len, &h, &pos, &r), -EBADMSG);
	header(1, 0);
	p32(0); p32(16 + 40 + 2); p64(0);
	p32(1); p32(1); p64(0); p64(0); p64(9); p64(0); put("x", 2);
	pos = 40;
	CHECK_EQ_INT(pev_jitdump_next(buf, len, &h, &pos, &r), -EBADMSG);
	header(1, 0);
	p32(0); p32(16 + 40 + 4); p64(0);
	p32(1); p32(1); p64(0); p64(0); p64(1); p64(0); put("abcd", 4);
	pos = 40;
	CHECK_EQ_INT(pev_jitdump_next(buf, len, &h, &pos, &r), -EBADMSG);
	/* Unwinding data longer than the record. */
	header(1, 0);
	p32(PEV_JIT_CODE_UNWINDING_INFO); p32(16 + 24 + 2); p64(0);
	p64(100); p64(0); p64(0); put("xx", 2);
	pos = 40;
	CHECK_EQ_INT(pev_jitdump_next(buf, len, &h, &pos, &r), -EBADMSG);
}

static void test_elf(void)
{
	static const uint8_t code[40] = { 0x55 };
	char path[] = "/tmp/pev-jitelf-XXXXXX";
	uint8_t bid[20], got[20];
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	CHECK_OK(pev_jit_write_elf(path, EM_X86_64, "JS:~fib x.js:1", 0x7f00, code, sizeof(code), bid));
	struct pev_symtab *st = pev_symtab_load_elf(path);

	CHECK(st);
	CHECK_EQ_U64(pev_symtab_count(st), 1);
	const struct pev_symbol *s = pev_symtab_lookup(st, PEV_JIT_ELF_TEXT_OFFSET + 39);

	CHECK(s && !strcmp(s->name, "JS:~fib x.js:1") && s->start == PEV_JIT_ELF_TEXT_OFFSET &&
	      s->end == PEV_JIT_ELF_TEXT_OFFSET + sizeof(code));
	CHECK(pev_symtab_lookup(st, PEV_JIT_ELF_TEXT_OFFSET + 40) == NULL);
	pev_symtab_free(st);
	CHECK_EQ_INT(pev_elf_build_id(path, got, sizeof(got)), 20);
	CHECK(!memcmp(got, bid, 20));
	unlink(path);
	CHECK_EQ_INT(pev_jit_write_elf("/nonexistent/dir/x.so", EM_X86_64, "f", 0, code, 1, NULL), -ENOENT);
}

/* A DEBUG_INFO record written into the ELF file as perf's .debug_line:
 * each entry's line holds from its address (the code's offset + 0x80 in
 * the file) to the next entry's, the last entry ends the sequence; "\xff"
 * is a file name of its own (perf's writer compares names as strings),
 * and a name with ':' reads as perf reads addr2line (cut at the colon,
 * the line from what follows: "y.js:8" gives 0). */
static void test_debug_line(void)
{
	static const struct { uint64_t off; int32_t line; const char *name; } ent[] = {
		{ 0x00, 10, "a.js" }, { 0x01, 12, "\xff" }, { 0x10, 3, "b.js" },
		{ 0x20, 8, "x:y.js" }, { 0x30, 9, "x:y.js" },
	};
	static const struct { uint64_t vaddr; const char *file; unsigned line; } want[] = {
		{ 0x80, "a.js", 10 }, { 0x81, "\xff", 12 }, { 0x8f, "\xff", 12 }, { 0x90, "b.js", 3 },
		{ 0x9f, "b.js", 3 }, { 0xa0, "x", 0 }, { 0xaf, "x", 0 }, { 0x7f, NULL, 0 }, { 0xb0, NULL, 0 },
	};
	uint8_t dump[512] = { 0 }, code[0x40] = { 0x90 };
	size_t n = 40, pos = 40;
	uint32_t hdr[6] = { PEV_JITDUMP_MAGIC, 1, 40, EM_X86_64, 0, 1 };
	uint32_t rec[4] = { PEV_JIT_CODE_DEBUG_INFO, 0, 0, 0 };
	uint64_t code_addr = 0x7000, nr = sizeof(ent) / sizeof(ent[0]);
	struct pev_jitdump_header h;
	struct pev_jit_record r;
	char path[] = "/tmp/pev-jitdbg-XXXXXX";
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	memcpy(dump, hdr, sizeof(hdr));
	n += 16;
	memcpy(dump + n, &code_addr, 8);
	memcpy(dump + n + 8, &nr, 8);
	n += 16;
	for (size_t i = 0; i < nr; i++) {
		uint64_t a = code_addr + ent[i].off;
		int32_t disc = 0;

		memcpy(dump + n, &a, 8);
		memcpy(dump + n + 8, &ent[i].line, 4);
		memcpy(dump + n + 12, &disc, 4);
		strcpy((char *)dump + n + 16, ent[i].name);
		n += 16 + strlen(ent[i].name) + 1;
	}
	rec[1] = (uint32_t)(n - 40);
	memcpy(dump + 40, rec, 16);
	CHECK_OK(pev_jitdump_header_read(dump, n, &h));
	CHECK_EQ_INT(pev_jitdump_next(dump, n, &h, &pos, &r), 1);
	CHECK_EQ_INT(r.id, PEV_JIT_CODE_DEBUG_INFO);

	struct pev_jit_elf_extra x = { .hdr = &h, .debug = &r };

	CHECK_OK(pev_jit_write_elf_extra(path, EM_X86_64, "f", code_addr, code, sizeof(code), &x, NULL));
	struct pev_srclines *sl = pev_srclines_new();

	CHECK(sl);
	for (size_t i = 0; sl && i < sizeof(want) / sizeof(want[0]); i++) {
		const char *file = NULL;
		unsigned line = 0;
		int rc = pev_srclines_lookup(sl, path, want[i].vaddr, &file, &line);

		if (!want[i].file) {
			CHECK_MSG(rc == 0, "0x%" PRIx64 ": a line (%s:%u) where the table has none",
				  want[i].vaddr, rc == 1 ? file : "", line);
			continue;
		}
		CHECK_MSG(rc == 1 && !strcmp(file, want[i].file) && line == want[i].line,
			  "0x%" PRIx64 ": rc %d %s:%u, want %s:%u", want[i].vaddr, rc,
			  rc == 1 ? file : "-", line, want[i].file, want[i].line);
	}
	pev_srclines_free(sl);
	unlink(path);
}

int main(void)
{
	test_records(false);
	test_records(true);
	test_bad();
	test_elf();
	test_debug_line();
	return t_failures ? 1 : 0;
}
