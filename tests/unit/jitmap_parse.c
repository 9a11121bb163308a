// SPDX-License-Identifier: GPL-2.0-only
/* perf map text (/tmp/perf-PID.map) parsed as perf 6.1 parses it, with
 * hand-computed answers: perf's strtoull reading, the last character of
 * every line dropped, too-short lines skipped, size 0 holding one
 * address, wrapped ends, and overlapping entries looked up through the
 * same red-black tree as perf's; malformed input never reads past the
 * buffer (the buffers here are exactly sized, so ASan sees any overrun). */
#include <elf.h>

#include "testutil.h"
#include <perfev/perfev.h>
#include <perfev/jit.h>

static struct pev_symtab *parse(const char *text)
{
	size_t n = strlen(text);
	char *copy = malloc(n ? n : 1);	/* no NUL after the text */

	memcpy(copy, text, n);
	struct pev_symtab *st = pev_perfmap_parse(copy, n);

	free(copy);
	CHECK(st);
	return st;
}

static const char *at(const struct pev_symtab *st, uint64_t a)
{
	const struct pev_symbol *s = pev_symtab_lookup(st, a);

	return s ? s->name : "(none)";
}

static void test_basic(void)
{
	struct pev_symtab *st = parse("1000 100 alpha\n2000 10 beta gamma\n");

	CHECK_EQ_U64(pev_symtab_count(st), 2);
	CHECK_STR(at(st, 0xfff), "(none)");
	CHECK_STR(at(st, 0x1000), "alpha");
	CHECK_STR(at(st, 0x10ff), "alpha");
	CHECK_STR(at(st, 0x1100), "(none)");		/* end is exclusive */
	CHECK_STR(at(st, 0x2005), "beta gamma");	/* spaces stay */
	const struct pev_symbol *s = pev_symtab_symbol(st, 0);

	CHECK(s && s->binding == STB_GLOBAL && s->type == STT_FUNC);
	CHECK_EQ_U64(s->end, 0x1100);
	pev_symtab_free(st);
}

static void test_perf_quirks(void)
{
	/* The last line has no newline: perf cuts its last real character.
	 * "0x" prefixes and leading blanks are strtoull's; a CR stays. */
	struct pev_symtab *st = parse("0x10 8 hex_prefix\n  20 8 blanks\n30 8 cr\r\n40 8 lastname");

	CHECK_EQ_U64(pev_symtab_count(st), 4);
	CHECK_STR(at(st, 0x10), "hex_prefix");
	CHECK_STR(at(st, 0x20), "blanks");
	CHECK_STR(at(st, 0x30), "cr\r");
	CHECK_STR(at(st, 0x40), "lastnam");
	pev_symtab_free(st);

	/* perf skips a line unless 2 chars follow each number and its
	 * separator: "50 8 ab" (line_len 7 after the newline goes, name at
	 * 5: 5 + 2 >= 7) is skipped, "60 8 abc" kept; no numbers at all is
	 * start 0 size 0 at index 1. */
	st = parse("50 8 ab\n60 8 abc\n\n\nzz\nbad line here\n");
	CHECK_STR(at(st, 0x50), "(none)");
	CHECK_STR(at(st, 0x60), "abc");
	/* "bad line here": "bad" is hex (start 0xbad), "line" is not (size
	 * 0, no chars), so the name starts one past the second separator. */
	CHECK_STR(at(st, 0xbad), "ine here");
	CHECK_EQ_U64(pev_symtab_count(st), 2);
	pev_symtab_free(st);
}

static void test_sizes(void)
{
	/* Size 0 holds only its start; size -1 wraps the end to just below
	 * the start (perf's u64), and perf's search, which tests ip > end
	 * first, never finds the symbol. */
	struct pev_symtab *st = parse("100 0 zero\n200 -1 wrapped\nffffffffffffff00 ff top\n");

	CHECK_STR(at(st, 0x100), "zero");
	CHECK_STR(at(st, 0x101), "(none)");
	CHECK_STR(at(st, 0x200), "(none)");
	CHECK_STR(at(st, 0x201), "(none)");
	CHECK_STR(at(st, 0xfffffffffffffffeull), "top");
	CHECK_STR(at(st, 0xffffffffffffffffull), "(none)");
	pev_symtab_free(st);
	/* Overflowing numbers are ULLONG_MAX, as strtoull makes them. */
	st = parse("123456789abcdef0123 10 huge\n");
	CHECK_EQ_U64(pev_symtab_symbol(st, 0)->start, UINT64_MAX);
	pev_symtab_free(st);
}

static void test_overlap_tree(void)
{
	/* A names of one or two characters make a line too short for perf:
	 * these are three long.
	 * A [100,200) then B [180,280) then C [100,140): the tree becomes
	 * C(root) with A left and B right.  0x150 is inside A, but perf's
	 * search goes C -> right (past C's end) -> B -> left (before B's
	 * start) -> nothing. */
	struct pev_symtab *st = parse("100 100 AAA\n180 100 BBB\n100 40 CCC\n");

	CHECK_STR(at(st, 0x100), "CCC");
	CHECK_STR(at(st, 0x13f), "CCC");
	CHECK_STR(at(st, 0x140), "(none)");
	CHECK_STR(at(st, 0x150), "(none)");
	CHECK_STR(at(st, 0x190), "BBB");
	CHECK_STR(at(st, 0x27f), "BBB");
	/* Listed by address, equal starts in file order. */
	CHECK_EQ_U64(pev_symtab_count(st), 3);
	CHECK_STR(pev_symtab_symbol(st, 0)->name, "AAA");
	CHECK_STR(pev_symtab_symbol(st, 1)->name, "CCC");
	CHECK_STR(pev_symtab_symbol(st, 2)->name, "BBB");
	CHECK(pev_symtab_symbol(st, 3) == NULL);
	pev_symtab_free(st);
	/* Two entries at one start: the first is the root, the second its
	 * right child, so the first wins wherever it holds the address. */
	st = parse("100 100 AAA\n100 40 CCC\n");
	CHECK_STR(at(st, 0x120), "AAA");
	CHECK_STR(at(st, 0x150), "AAA");
	pev_symtab_free(st);
	st = parse("100 40 CCC\n100 100 AAA\n");
	CHECK_STR(at(st, 0x120), "CCC");
	CHECK_STR(at(st, 0x150), "AAA");
	pev_symtab_free(st);
}

static void test_malformed(void)
{
	/* Embedded NULs end a name; a lone newline, no text, a line of
	 * only a NUL. */
	static const char nul[] = "10 8 ab\0cd\n\n";
	struct pev_symtab *st = pev_perfmap_parse(nul, sizeof(nul) - 1);

	CHECK(st);
	CHECK_STR(at(st, 0x10), "ab");
	pev_symtab_free(st);
	st = pev_perfmap_parse("", 0);
	CHECK(st && pev_symtab_count(st) == 0 && !pev_symtab_lookup(st, 0));
	pev_symtab_free(st);
	st = pev_perfmap_parse(NULL, 0);
	CHECK(st);
	pev_symtab_free(st);
	CHECK(pev_perfmap_parse(NULL, 1) == NULL && errno == EINVAL);
	st = pev_perfmap_parse("\0", 1);
	CHECK(st && pev_symtab_count(st) == 0);
	pev_symtab_free(st);
	/* Many overlapping lines: the tree stays searchable. */
	char *big = malloc(1 << 20);
	size_t n = 0;

	for (int i = 0; i < 20000; i++)
		n += (size_t)sprintf(big + n, "%x %x fn%d\n", (i * 7919) % 5000, i % 64, i);
	st = pev_perfmap_parse(big, n);
	CHECK(st && pev_symtab_count(st) == 20000);
	for (uint64_t a = 0; a < 5100; a++) {
		const struct pev_symbol *s = pev_symtab_lookup(st, a);

		CHECK(!s || (s->start <= a && (a < s->end || a == s->start)));
	}
	pev_symtab_free(st);
	free(big);
	CHECK(pev_perfmap_load("/nonexistent/perf-1.map") == NULL && errno == ENOENT);
	CHECK(pev_perfmap_is_name("/tmp/perf-12.map"));
	CHECK(!pev_perfmap_is_name("/usr/lib/libc.so.6"));
}

int main(void)
{
	test_basic();
	test_perf_quirks();
	test_sizes();
	test_overlap_tree();
	test_malformed();
	return t_failures ? 1 : 0;
}
