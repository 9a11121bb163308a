// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The DWARF that perf inject --jit (6.1) writes into a jitted-PID-N.so for
 * a JIT_CODE_DEBUG_INFO record, rebuilt byte for byte from what perf's
 * files hold (so perf's addr2line and ours read the same lines):
 *
 *   .debug_line    one DWARF 2 line program: header with
 *                  minimum_instruction_length 1, default_is_stmt 1,
 *                  line_base -5, line_range 242 (perf stores -14 in an
 *                  unsigned byte), opcode_base 13, no directories and no
 *                  files; then DW_LNE_set_address 0 and, per entry, a
 *                  DW_LNE_define_file + DW_LNS_set_file when the name
 *                  differs from the previous one (the "\xff" of "same
 *                  name" is a name too, as in perf), then a special
 *                  opcode when the line and address deltas fit, else
 *                  advance_line / advance_pc / copy; DW_LNE_end_sequence.
 *                  Addresses are the entries' less the code's address
 *                  plus 0x80, the code's address in the file (perf
 *                  6.1.x's set_address is 0x80);
 *   .debug_info    one compile unit (version 2, 8-byte addresses, abbrev
 *                  1) whose only attribute is DW_AT_stmt_list = 0;
 *   .debug_abbrev  abbrev 1: DW_TAG_compile_unit, children yes,
 *                  DW_AT_stmt_list DW_FORM_data4. */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/jit.h>

#include "symbol/jit_internal.h"

#define LINE_BASE (-5)
#define LINE_RANGE 242u
#define OPCODE_BASE 13u

static void put(struct pev__jit_buf *b, const void *p, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *d;

		while (cap < b->len + n)
			cap *= 2;
		d = realloc(b->data, cap);
		if (!d) {
			b->failed = true;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void put8(struct pev__jit_buf *b, uint8_t v)
{
	put(b, &v, 1);
}

static void put_u32(struct pev__jit_buf *b, uint32_t v)
{
	put(b, &v, 4);
}

static void uleb(struct pev__jit_buf *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		put8(b, c | (v ? 0x80 : 0));
	} while (v);
}

static void sleb(struct pev__jit_buf *b, int64_t v)
{
	for (;;) {
		uint8_t c = v & 0x7f;

		v >>= 7;		/* arithmetic: gcc and clang */
		if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
			put8(b, c);
			return;
		}
		put8(b, c | 0x80);
	}
}

static void set32(struct pev__jit_buf *b, size_t at, uint32_t v)
{
	if (!b->failed)
		memcpy(b->data + at, &v, 4);
}

/* perf's choice of a special opcode: 0 when none fits. */
static uint8_t special(int32_t line, int32_t last_line, uint64_t addr, uint64_t last_addr)
{
	uint32_t dline = (uint32_t)line - (uint32_t)last_line - (uint32_t)LINE_BASE;
	uint64_t daddr = addr - last_addr, op;

	if (dline >= LINE_RANGE || daddr > 256 / LINE_RANGE)
		return 0;
	op = dline + daddr * LINE_RANGE + OPCODE_BASE;
	return op <= 255 ? (uint8_t)op : 0;
}

static void line_program(struct pev__jit_buf *b, const struct pev_jitdump_header *h,
			 const struct pev_jit_record *dbg, uint64_t code_addr)
{
	static const uint8_t std_lengths[OPCODE_BASE - 1] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
	struct pev_jit_debug_entry e;
	size_t start = b->len, off = 0;
	uint64_t index = 0, last_addr = PEV_JIT_ELF_TEXT_OFFSET, file = 0;
	int32_t last_line = 1;
	const char *cur = NULL;

	put_u32(b, 0);			/* unit_length, set below */
	put(b, &(uint16_t){ 2 }, 2);
	put_u32(b, 0);			/* header_length, set below */
	put8(b, 1);			/* minimum_instruction_length */
	put8(b, 1);			/* default_is_stmt */
	put8(b, (uint8_t)LINE_BASE);
	put8(b, (uint8_t)LINE_RANGE);
	put8(b, OPCODE_BASE);
	put(b, std_lengths, sizeof(std_lengths));
	put8(b, 0);			/* no include directories */
	put8(b, 0);			/* no files */
	set32(b, start + 6, (uint32_t)(b->len - start - 10));

	put8(b, 0);			/* DW_LNE_set_address */
	uleb(b, 9);
	put8(b, DW_LNE_set_address);
	put(b, &last_addr, 8);
	while (pev_jitdump_debug_entry(h, dbg, &off, &index, &e) > 0) {
		const char *name = e.name ? e.name : "\xff";
		uint64_t addr = e.addr - code_addr + PEV_JIT_ELF_TEXT_OFFSET;
		bool row = false;
		uint8_t op;

		if (!cur || strcmp(cur, name)) {
			size_t n = strlen(name);

			put8(b, 0);
			uleb(b, n + 5);
			put8(b, DW_LNE_define_file);
			put(b, name, n + 1);
			put(b, "\0\0", 3);	/* directory, mtime, size */
			cur = name;
			put8(b, DW_LNS_set_file);
			uleb(b, ++file);
			row = true;
		}
		op = special(e.lineno, last_line, addr, last_addr);
		if (op) {
			last_line = e.lineno;
			last_addr = addr;
			put8(b, op);
			continue;
		}
		if (last_line != e.lineno) {
			put8(b, DW_LNS_advance_line);
			/* perf's int difference, wrapped to 32 bits */
			sleb(b, (int32_t)((uint32_t)e.lineno - (uint32_t)last_line));
			last_line = e.lineno;
			row = true;
		}
		if (last_addr != addr) {
			put8(b, DW_LNS_advance_pc);
			uleb(b, addr - last_addr);
			last_addr = addr;
			row = true;
		}
		if (row)
			put8(b, DW_LNS_copy);
	}
	put8(b, 0);			/* DW_LNE_end_sequence */
	uleb(b, 1);
	put8(b, DW_LNE_end_sequence);
	set32(b, start, (uint32_t)(b->len - start - 4));
}

int pev__jit_debug_sections(const struct pev_jitdump_header *h, const struct pev_jit_record *dbg,
			    uint64_t code_addr, struct pev__jit_buf out[3])
{
	struct pev__jit_buf *line = &out[0], *info = &out[1], *abbrev = &out[2];

	memset(out, 0, 3 * sizeof(*out));
	/* .debug_info: unit_length (12: what follows it), version 2,
	 * abbrev offset 0, address size 8, then DIE 1 with its stmt_list. */
	put_u32(info, 12);
	put(info, &(uint16_t){ 2 }, 2);
	put_u32(info, 0);
	put8(info, 8);
	uleb(info, 1);
	put_u32(info, 0);
	line_program(line, h, dbg, code_addr);
	uleb(abbrev, 1);
	uleb(abbrev, DW_TAG_compile_unit);
	uleb(abbrev, DW_CHILDREN_yes);
	uleb(abbrev, DW_AT_stmt_list);
	uleb(abbrev, DW_FORM_data4);
	put(abbrev, "\0\0", 3);
	if (line->failed || info->failed || abbrev->failed) {
		for (int i = 0; i < 3; i++)
			free(out[i].data);
		memset(out, 0, 3 * sizeof(*out));
		return -ENOMEM;
	}
	return 0;
}
