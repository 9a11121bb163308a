// SPDX-License-Identifier: GPL-2.0-only
/* Source lines as perf 6.1 prints them: it asks binutils' addr2line, so
 * perfev's DWARF answers must read as addr2line's.  Checked two ways:
 * - pev_srclines_addr2line() against addr2line itself (the program perf
 *   runs, the oracle) at every 7th address of the code of ld.so and libc
 *   (their debug files from /usr/lib/debug/.build-id when installed),
 *   of python3 (no line tables) and of a program built here: the file of
 *   rows before a DWARF 5 sequence's first file change (addr2line: the
 *   unit's own file, e.g. dl-get-cpu-features.c where the line table says
 *   dl-cacheinfo.h), and addresses without a row (addr2line's answer from
 *   the symbol table: ":?" after an empty file symbol, "??:?", "??:0");
 * - perfev report --sort srcline and script -F srcline against perf on
 *   files perf records here (python3: PLT stubs are "name@plt+0" in perf,
 *   its other code "??:0"; the program built here, calling through its
 *   PLT, with ld.so's startup code). */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <unistd.h>

#include "report_cmp.h"
#include <perfev/symbols.h>

/* addr2line's line "path:line" cut to "base:line" (perf prints the base
 * name); the discriminator note dropped. */
static void base_line(const char *in, char *out, size_t size)
{
	const char *colon = strrchr(in, ':'), *slash;
	char file[4096];

	if (!colon) {
		snprintf(out, size, "%s", in);
		return;
	}
	snprintf(file, sizeof(file), "%.*s", (int)(colon - in), in);
	slash = strrchr(file, '/');
	if (snprintf(out, size, "%s:%s", slash ? slash + 1 : file, colon + 1) >= (int)size)
		out[0] = 0;
	out[strcspn(out, " ")] = 0;
}

/* Every 7th address of path's code sections (and 64 bytes past each). */
static size_t code_addrs(const char *path, uint64_t **out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		for (uint64_t a = sh.sh_addr; a < sh.sh_addr + sh.sh_size + 64; a += 7) {
			if (n == cap) {
				cap = cap ? cap * 2 : 4096;
				*out = realloc(*out, cap * sizeof(**out));
				CHECK(*out != NULL);
			}
			(*out)[n++] = a;
		}
	}
	elf_end(e);
	close(fd);
	return n;
}

/* perfev's answers against addr2line's for one file; at most one in
 * `per` may differ (binutils' own slips, README; 0: none). */
static void against_addr2line(const char *what, const char *path, size_t per)
{
	char in[128], out[128], line[4096], want[4096], got[4096];
	uint64_t *addrs;
	size_t n = code_addrs(path, &addrs), bad = 0;
	struct pev_srclines *s = pev_srclines_new();
	FILE *f;

	CHECK_MSG(n > 0, "%s: no code in %s", what, path);
	snprintf(in, sizeof(in), "%s/addrs", dir);
	snprintf(out, sizeof(out), "%s/a2l", dir);
	f = fopen(in, "w");
	CHECK(f != NULL);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "0x%llx\n", (unsigned long long)addrs[i]);
	fclose(f);
	CHECK_EQ_INT(t_sh("addr2line -e '%s' < %s > %s", path, in, out), 0);
	f = fopen(out, "r");
	CHECK(f != NULL);
	for (size_t i = 0; i < n && fgets(line, sizeof(line), f); i++) {
		const char *file;
		unsigned ln;
		int r = pev_srclines_addr2line(s, path, addrs[i], &file, &ln);

		line[strcspn(line, "\n")] = 0;
		base_line(line, want, sizeof(want));
		if (r < 0)
			snprintf(got, sizeof(got), "error %d", r);
		else if (!r)
			snprintf(got, sizeof(got), "??:0");
		else {
			const char *b = strrchr(file, '/');

			if (ln)
				snprintf(got, sizeof(got), "%s:%u", b ? b + 1 : file, ln);
			else
				snprintf(got, sizeof(got), "%s:?", b ? b + 1 : file);
		}
		if (strcmp(want, got) && bad++ < 5)
			printf("%s: %#llx: addr2line %s, perfev %s\n", what,
			       (unsigned long long)addrs[i], want, got);
	}
	fclose(f);
	size_t allowed = per ? n / per : 0;

	CHECK_MSG(bad <= allowed, "%s: %zu of %zu addresses differ from addr2line's answer",
		  what, bad, n);
	printf("%s: %zu addresses, %zu differ (at most %zu)\n", what, n, bad, allowed);
	free(addrs);
	pev_srclines_free(s);
}

/* The debug file of a library by its build id, else the library. */
static void symbol_file(const char *lib, char *path, size_t size)
{
	char out[128];
	size_t len;

	snprintf(out, sizeof(out), "%s/bid", dir);
	snprintf(path, size, "%s", lib);
	if (t_sh("readelf -n %s | awk '/Build ID/ {print $3}' > %s", lib, out))
		return;
	char *id = t_slurp(out, &len);

	id[strcspn(id, "\n")] = 0;
	if (strlen(id) > 2) {
		char dbg[512];

		snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2);
		if (!access(dbg, R_OK))
			snprintf(path, size, "%s", dbg);
	}
	free(id);
}

static const char prog_src[] =
	"#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\n"
	"int main(int argc, char **argv)\n{\n"
	"\tchar a[8] = \"abcdefg\", b[8] = \"abcdefh\";\n"
	"\tlong n = argc > 1 ? atol(argv[1]) : 1000000, s = 0;\n"
	"\tfor (long i = 0; i < n; i++) {\n"
	"\t\ta[i & 3] = (char)i;\n"
	"\t\ts += memcmp(a, b, 1 + (i & 3));\n"
	"\t\ts += strlen(a + (i & 1));\n\t}\n"
	"\tprintf(\"%ld\\n\", s);\n\treturn 0;\n}\n";

static const char py_src[] =
	"import re\nd = {}\n"
	"for i in range(200000):\n"
	"    k = 'key%d' % (i % 1000)\n"
	"    d[k] = d.get(k, 0) + len(k.encode()) + (1 if re.match(r'key1', k) else 0)\n"
	"print(len(d))\n";

int main(void)
{
	char path[512], file[256], src[256];

	report_cmp_start("/tmp/perfev-srcl-XXXXXX", true);
	if (!have("addr2line") || !have("readelf"))
		T_SKIP("binutils' addr2line or readelf is not installed");

	symbol_file("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", path, sizeof(path));
	if (!access(path, R_OK))
		against_addr2line("ld.so", path, 2000);
	symbol_file("/usr/lib/x86_64-linux-gnu/libc.so.6", path, sizeof(path));
	if (!access(path, R_OK))
		against_addr2line("libc", path, 2000);
	if (have("python3") && realpath("/usr/bin/python3", path))
		against_addr2line("python3", path, 0);

	if (have("gcc")) {
		report_cmp_write(src, sizeof(src), "p.c", prog_src);
		CHECK_EQ_INT(t_sh("gcc -O1 -g -fno-builtin -o %s/prog %s", dir, src), 0);
		snprintf(path, sizeof(path), "%s/prog", dir);
		against_addr2line("program", path, 0);
		snprintf(file, sizeof(file), "%s/prog.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 20000 -o %s -- %s/prog 20000000 "
				  "> /dev/null 2>&1", PERF, file, dir), 0);
		same_report("program", file, "--sort srcline");
		same_report("program", file, "--sort dso,srcline");
		same_script(file, "-F ip,sym,dso,srcline", "p.c:");
	}
	if (have("python3")) {
		report_cmp_write(src, sizeof(src), "w.py", py_src);
		snprintf(file, sizeof(file), "%s/py.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 20000 -g -o %s -- python3 %s "
				  "> /dev/null 2>&1", PERF, file, src), 0);
		same_report("python3 -g", file, "--sort srcline --no-children");
		same_report("python3 -g", file, "--sort dso,srcline --no-children");
		same_script(file, "-F ip,sym,dso,srcline", "\n  ");
	}
	return report_cmp_end();
}
