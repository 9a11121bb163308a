// SPDX-License-Identifier: GPL-2.0-only
/* pev_srclines: this test program's own addresses to its source lines
 * (it is built with -g), the text of those lines, and the answers for
 * what has no line. */
#include <link.h>
#include <unistd.h>

#include "../testutil.h"
#include <perfev/symbols.h>

static uintptr_t load_base;

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	load_base = info->dlpi_addr;	/* the executable comes first */
	return 1;
}

enum { PROBE_LINE = __LINE__ + 1 };
static __attribute__((noinline)) int probe_function(int x) { return x * 3 + 1; }

int main(void)
{
	struct pev_srclines *s = pev_srclines_new();
	const char *file, *file2, *text;
	unsigned line;
	size_t len;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	CHECK(s != NULL && n > 0);
	exe[n > 0 ? n : 0] = 0;
	dl_iterate_phdr(first_object, NULL);
	uint64_t vaddr = (uint64_t)((uintptr_t)probe_function - load_base);

	CHECK_EQ_INT(probe_function(2), 7);
	CHECK_EQ_INT(pev_srclines_lookup(s, exe, vaddr, &file, &line), 1);
	CHECK_MSG(strstr(file, "tests/unit/symbols_srcline.c") && file[0] == '/',
		  "file '%s': not the absolute name of this source", file);
	CHECK_EQ_INT(line, PROBE_LINE);
	/* Cached: the same interned name. */
	CHECK_EQ_INT(pev_srclines_lookup(s, exe, vaddr, &file2, &line), 1);
	CHECK(file2 == file);
	CHECK_EQ_INT(line, PROBE_LINE);
	/* The text of that line, without its newline. */
	text = pev_srclines_text(s, file, line, &len);
	CHECK(text != NULL);
	static const char want[] =
		"static __attribute__((noinline)) int probe_function(int x) { return x * 3 + 1; }";

	CHECK_MSG(text && len == sizeof(want) - 1 && !memcmp(text, want, len),
		  "text '%.*s'", (int)len, text ? text : "");
	/* The first line of the file, and past its end. */
	text = pev_srclines_text(s, file, 1, &len);
	CHECK(text && len > 8 && !strncmp(text, "// SPDX-", 8));
	CHECK(pev_srclines_text(s, file, 1000000, &len) == NULL);
	CHECK(pev_srclines_text(s, file, 0, &len) == NULL);
	CHECK(pev_srclines_text(s, "/nonexistent/x.c", 1, &len) == NULL);
	/* No line: an address outside every unit, a file without DWARF or
	 * not ELF at all, a file that does not exist. */
	CHECK_EQ_INT(pev_srclines_lookup(s, exe, 0x10, &file, &line), 0);
	CHECK_EQ_INT(pev_srclines_lookup(s, "/proc/self/status", 0x1000, &file, &line), 0);
	CHECK_EQ_INT(pev_srclines_lookup(s, "/nonexistent/lib.so", 0x1000, &file, &line), 0);
	CHECK_EQ_INT(pev_srclines_lookup(NULL, exe, vaddr, &file, &line), -EINVAL);
	CHECK_EQ_INT(pev_srclines_lookup(s, NULL, vaddr, &file, &line), -EINVAL);
	/* Every address of the function's first instructions has a line. */
	for (uint64_t a = vaddr; a < vaddr + 4; a++)
		CHECK_EQ_INT(pev_srclines_lookup(s, exe, a, &file, &line), 1);
	pev_srclines_free(s);
	pev_srclines_free(NULL);
	return t_done();
}
