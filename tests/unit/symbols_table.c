// SPDX-License-Identifier: GPL-2.0-only
/* Symbol tables on constructed data: lookup (sorted, overlapping sizes,
 * size 0, before the first and after the last), perf's choice among
 * symbols at one address, and kallsyms text parsing. */
#include <elf.h>

#include "testutil.h"
#include <perfev/perfev.h>
#include <perfev/symbols.h>

static const char *name_at(const struct pev_symtab *st, uint64_t a)
{
	const struct pev_symbol *s = pev_symtab_lookup(st, a);

	return s ? s->name : "(none)";
}

static void test_lookup(void)
{
	struct pev_symtab *st = pev_symtab_new();

	CHECK(st);
	/* Added out of order on purpose. */
	CHECK_OK(pev_symtab_add(st, 0x3000, 0x100, "c", NULL, STB_GLOBAL, STT_FUNC));
	CHECK_OK(pev_symtab_add(st, 0x1000, 0x100, "a", NULL, STB_GLOBAL, STT_FUNC));
	CHECK_OK(pev_symtab_add(st, 0x2000, 0, "b_zero", NULL, STB_LOCAL, STT_FUNC));
	/* big encloses small.  perf walks its rbtree down from the root and
	 * takes the first symbol that holds the address: inserted in this
	 * order, the tree (red-black insertion worked by hand) has b_zero at
	 * the root, a on its left, big on its right with c and small under
	 * it: big answers before small is reached. */
	CHECK_OK(pev_symtab_add(st, 0x4000, 0x1000, "big", NULL, STB_GLOBAL, STT_FUNC));
	CHECK_OK(pev_symtab_add(st, 0x4100, 0x10, "small", NULL, STB_GLOBAL, STT_FUNC));
	CHECK_OK(pev_symtab_add(st, 0x9000, 0, "last_zero", NULL, STB_GLOBAL, STT_FUNC));
	CHECK(pev_symtab_lookup(st, 0x1000) == NULL);	/* not finished yet */
	CHECK_OK(pev_symtab_finish(st));
	CHECK_EQ_INT(pev_symtab_add(st, 1, 1, "x", NULL, 0, 0), -EINVAL);
	CHECK_EQ_U64(pev_symtab_count(st), 6);

	CHECK_STR(name_at(st, 0xfff), "(none)");	/* before the first */
	CHECK_STR(name_at(st, 0x1000), "a");
	CHECK_STR(name_at(st, 0x10ff), "a");
	CHECK_STR(name_at(st, 0x1100), "(none)");	/* gap after a */
	CHECK_STR(name_at(st, 0x2000), "b_zero");	/* size 0: to the next */
	CHECK_STR(name_at(st, 0x2fff), "b_zero");
	CHECK_STR(name_at(st, 0x30ff), "c");
	CHECK_STR(name_at(st, 0x3100), "(none)");
	CHECK_STR(name_at(st, 0x4108), "big");
	CHECK_STR(name_at(st, 0x4110), "big");		/* past small, inside big */
	CHECK_STR(name_at(st, 0x4fff), "big");
	CHECK_STR(name_at(st, 0x5000), "(none)");
	/* The last size-0 symbol ends a page after its page: 0x9000..0xa000. */
	CHECK_STR(name_at(st, 0x9fff), "last_zero");
	CHECK_STR(name_at(st, 0xa000), "(none)");	/* after the last */

	const struct pev_symbol *b = pev_symtab_lookup(st, 0x2abc);

	CHECK(b && b->start == 0x2000 && b->end == 0x3000);
	CHECK(pev_symtab_symbol(st, 0) && pev_symtab_symbol(st, 0)->start == 0x1000);
	CHECK(pev_symtab_symbol(st, 6) == NULL);
	pev_symtab_free(st);
	pev_symtab_free(NULL);
}

/* The same two overlapping symbols added the other way round: small is
 * the root of perf's tree and answers for its own range; past its end the
 * walk goes right, where nothing is, and big (on the left) is never seen:
 * perf finds no symbol there either. */
static void test_overlap_order(void)
{
	struct pev_symtab *st = pev_symtab_new();

	CHECK(st);
	CHECK_OK(pev_symtab_add(st, 0x4100, 0x10, "small", NULL, STB_GLOBAL, STT_FUNC));
	CHECK_OK(pev_symtab_add(st, 0x4000, 0x1000, "big", NULL, STB_GLOBAL, STT_FUNC));
	CHECK_OK(pev_symtab_finish(st));
	CHECK_STR(name_at(st, 0x4108), "small");
	CHECK_STR(name_at(st, 0x4110), "(none)");
	CHECK_STR(name_at(st, 0x4000), "big");
	pev_symtab_free(st);
}

/* perf's choose_best_symbol among symbols at one address. */
static void test_duplicates(void)
{
	struct pev_symtab *st = pev_symtab_new();

	/* sized beats size 0 */
	pev_symtab_add(st, 0x100, 0, "zero", NULL, STB_GLOBAL, STT_FUNC);
	pev_symtab_add(st, 0x100, 8, "sized", NULL, STB_LOCAL, STT_FUNC);
	/* non-weak beats weak */
	pev_symtab_add(st, 0x200, 8, "weak", NULL, STB_WEAK, STT_FUNC);
	pev_symtab_add(st, 0x200, 8, "strong", NULL, STB_LOCAL, STT_FUNC);
	/* global beats local */
	pev_symtab_add(st, 0x300, 8, "local", NULL, STB_LOCAL, STT_FUNC);
	pev_symtab_add(st, 0x300, 8, "global", NULL, STB_GLOBAL, STT_FUNC);
	/* fewer leading underscores */
	pev_symtab_add(st, 0x400, 8, "__GI___libc_foo", NULL, STB_LOCAL, STT_FUNC);
	pev_symtab_add(st, 0x400, 8, "____libc_foo", NULL, STB_LOCAL, STT_FUNC);
	/* then the longer name */
	pev_symtab_add(st, 0x500, 8, "foo", NULL, STB_GLOBAL, STT_FUNC);
	pev_symtab_add(st, 0x500, 8, "foobar", NULL, STB_GLOBAL, STT_FUNC);
	CHECK_OK(pev_symtab_finish(st));
	CHECK_EQ_U64(pev_symtab_count(st), 5);
	CHECK_STR(name_at(st, 0x100), "sized");
	CHECK_STR(name_at(st, 0x200), "strong");
	CHECK_STR(name_at(st, 0x300), "global");
	CHECK_STR(name_at(st, 0x400), "__GI___libc_foo");
	CHECK_STR(name_at(st, 0x500), "foobar");
	pev_symtab_free(st);
}

static void test_kallsyms(void)
{
	static const char text[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000000 T startup_64\n"
		"ffffffff81001000 t local_fn\n"
		"ffffffff81002000 T memcpy\n"
		"ffffffff81002000 T __pi_memcpy\n"
		"ffffffff81003000 W weak_fn\n"
		"ffffffff81004000 r some_rodata\n"	/* not text/data/bss: left out */
		"ffffffff81005000 D some_data\n"
		"0000000000000000 T hidden_by_kptr\n"	/* zero: left out */
		"garbage line\n"
		"ffffffffzz T bad_hex\n"
		"ffffffffc0001000 t mod_fn\t[mymod]\n"
		"ffffffffc0001100 T mod_fn2\t[mymod]";	/* no final newline */
	struct pev_symtab *st = pev_kallsyms_parse(text, sizeof(text) - 1);
	const struct pev_symbol *s;

	CHECK(st);
	if (!st)
		return;
	CHECK_EQ_U64(pev_symtab_count(st), 7);
	/* Several names at one address: the last listed wins (perf fixes the
	 * sizes before dropping duplicates for kallsyms). */
	CHECK_STR(name_at(st, 0xffffffff81000010), "startup_64");
	CHECK_STR(name_at(st, 0xffffffff81002004), "__pi_memcpy");
	s = pev_symtab_lookup(st, 0xffffffff81001abc);
	CHECK(s && !strcmp(s->name, "local_fn") && s->binding == STB_LOCAL &&
	      s->type == STT_FUNC && s->end == 0xffffffff81002000);
	s = pev_symtab_lookup(st, 0xffffffff81003000);
	CHECK(s && s->binding == STB_WEAK);
	/* weak_fn runs to some_data (rodata is not a symbol here). */
	CHECK_STR(name_at(st, 0xffffffff81004abc), "weak_fn");
	s = pev_symtab_lookup(st, 0xffffffff81005000);
	CHECK(s && !strcmp(s->name, "some_data") && s->type == STT_OBJECT && !s->module);
	/* The last kernel symbol before the modules ends a page later, so
	 * the gap up to the modules is nobody's. */
	CHECK_STR(name_at(st, 0xffffffff81005fff), "some_data");
	CHECK_STR(name_at(st, 0xffffffff81006000), "(none)");
	s = pev_symtab_lookup(st, 0xffffffffc0001010);
	CHECK(s && !strcmp(s->name, "mod_fn") && s->module && !strcmp(s->module, "mymod"));
	s = pev_symtab_lookup(st, 0xffffffffc0001100);
	CHECK(s && !strcmp(s->name, "mod_fn2") && s->module && !strcmp(s->module, "mymod"));
	pev_symtab_free(st);

	st = pev_kallsyms_parse("", 0);
	CHECK(st && pev_symtab_count(st) == 0 && !pev_symtab_lookup(st, 1));
	pev_symtab_free(st);

	errno = 0;
	CHECK(pev_kallsyms_load("/nonexistent/kallsyms") == NULL && errno == ENOENT);
}

/* kallsyms out of address order (a module listed first, duplicates
 * apart): the same table as in order, each symbol to the next start. */
static void test_kallsyms_unsorted(void)
{
	static const char text[] =
		"ffffffffc0002000 t mod_b\t[m]\n"
		"ffffffff81003000 T c\n"
		"ffffffff81001000 T a\n"
		"ffffffffc0001000 t mod_a\t[m]\n"
		"ffffffff81002000 T b_long_name\n"
		"ffffffff81001000 T a_alias\n"
		"ffffffff81002000 T b\n";
	struct pev_symtab *st = pev_kallsyms_parse(text, sizeof(text) - 1);

	CHECK(st);
	if (!st)
		return;
	CHECK_EQ_U64(pev_symtab_count(st), 5);
	/* at one address the last one listed (a_alias after a) */
	CHECK_STR(name_at(st, 0xffffffff81001000), "a_alias");
	CHECK_STR(name_at(st, 0xffffffff81001fff), "a_alias");
	CHECK_STR(name_at(st, 0xffffffff81002000), "b");
	CHECK_STR(name_at(st, 0xffffffff81003fff), "c");
	CHECK_STR(name_at(st, 0xffffffff81004000), "(none)");
	CHECK_STR(name_at(st, 0xffffffffc0001fff), "mod_a");
	CHECK_STR(name_at(st, 0xffffffffc0002fff), "mod_b");
	CHECK_STR(name_at(st, 0xffffffffc0003000), "(none)");
	CHECK(pev_symtab_symbol(st, 0) && !strcmp(pev_symtab_symbol(st, 0)->name, "a_alias"));
	CHECK(pev_symtab_symbol(st, 4) && !strcmp(pev_symtab_symbol(st, 4)->name, "mod_b"));
	pev_symtab_free(st);
}

int main(void)
{
	test_lookup();
	test_overlap_order();
	test_duplicates();
	test_kallsyms();
	test_kallsyms_unsorted();
	return t_done();
}
