/* SPDX-License-Identifier: GPL-2.0-only */
/* The lang_*_dwarf tests (one per toolchain: a program built by the test
 * in a temporary folder, recorded with --call-graph dwarf by perf and by
 * perfev, read by both): what they share.
 *  - lang_script: `script --no-inline` of perfev and perf on one file,
 *    byte for byte (the unwound frames and their symbols; inline frames
 *    are srcline work, tested elsewhere), and how many of the samples
 *    reach a frame of a given function in each;
 *  - lang_report: the `report --children -g none --sort sym` lines of
 *    the given functions, the same in both;
 *  - lang_chains: the samples of a script output and how many of them
 *    hold a frame of a function. */
#ifndef PERFEV_TESTS_LANG_DWARF_H
#define PERFEV_TESTS_LANG_DWARF_H

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static inline void lang_write(const char *dir, const char *name, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

/* perfev's absolute path, for commands run in another folder. */
static inline const char *lang_perfev(void)
{
	static char abs[4096];

	if (!abs[0] && !realpath(t_perfev(), abs))
		snprintf(abs, sizeof(abs), "%s", t_perfev());
	return abs;
}

/* A made temporary folder "/tmp/perfev-NAME-XXXXXX" into dir. */
static inline void lang_mkdir(char *dir, size_t size, const char *name)
{
	snprintf(dir, size, "/tmp/perfev-%s-XXXXXX", name);
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
}

/* True when line (up to its newline) is a frame of function sym:
 * "<spaces><hex address> sym+0x...". */
static inline bool lang_frame_of(const char *line, const char *sym)
{
	const char *p = line;
	size_t n = strlen(sym);

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isxdigit((unsigned char)*p))
		return false;
	while (isxdigit((unsigned char)*p))
		p++;
	return *p == ' ' && !strncmp(p + 1, sym, n) && !strncmp(p + 1 + n, "+0x", 3);
}

/* In a script output: *all samples, *with of them holding a frame of
 * function sym. */
static inline void lang_chains(const char *text, const char *sym, size_t *all, size_t *with)
{
	bool in = false, hit = false;

	*all = *with = 0;
	for (const char *p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (*p == '\n') {	/* the blank line after a sample */
			*with += in && hit;
			in = hit = false;
			continue;
		}
		if (!in) {
			in = true;
			++*all;
		}
		hit = hit || lang_frame_of(p, sym);
	}
	*with += in && hit;
}

/* What readelf says of the program at path: *pie when it is ET_DYN,
 * *split when its executable PT_LOAD lies at another distance from its
 * file offset than the first PT_LOAD (LLD's layout: the text a page
 * further in memory than in the file, so that map start - pgoff is not
 * the load bias), *lld when .comment names LLD as the linker.  False
 * when readelf fails. */
static inline bool lang_elf_shape(const char *path, bool *pie, bool *split, bool *lld)
{
	char cmd[512], line[512];
	bool ok = false, first = true;
	unsigned long long base = 0;

	*pie = *split = *lld = false;
	snprintf(cmd, sizeof(cmd), "readelf -hlW '%s' 2>/dev/null; readelf -p .comment '%s' 2>/dev/null",
		 path, path);
	FILE *f = popen(cmd, "r");

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long off, vaddr;

		if (strstr(line, "Type:")) {
			ok = true;
			*pie = strstr(line, "DYN") != NULL;
		}
		if (sscanf(line, " LOAD 0x%llx 0x%llx", &off, &vaddr) == 2) {
			if (first)
				base = vaddr - off;
			first = false;
			if (strstr(line, " E ") && vaddr - off != base)
				*split = true;
		}
		if (strstr(line, "Linker: ") && strstr(line, "LLD"))
			*lld = true;
	}
	if (f)
		pclose(f);
	return ok;
}

/* perf script and perfev script (extra: more options, both) on dir/file
 * print the same bytes; returns perf's output (malloc'ed, NULL when
 * none) and prints how many samples reach sym in each. */
static inline char *lang_script(const char *dir, const char *file, const char *extra,
				const char *sym)
{
	char pa[256], pb[256];
	size_t la, lb, line, start, all_a, with_a, all_b, with_b;

	CHECK_EQ_INT(t_sh("%s script --no-inline %s -i %s/%s > %s/a.txt 2>/dev/null",
			  t_perfev(), extra, dir, file, dir), 0);
	CHECK_EQ_INT(t_sh("%s script --no-inline %s -i %s/%s > %s/b.txt 2>/dev/null",
			  PERF, extra, dir, file, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(a && b && lb, "%s: no script output", file);
	if (!a || !b || !lb) {
		free(a);
		free(b);
		return NULL;
	}
	lang_chains(a, sym, &all_a, &with_a);
	lang_chains(b, sym, &all_b, &with_b);
	printf("%s: samples reaching %s: perf %zu of %zu, perfev %zu of %zu\n",
	       file, sym, with_b, all_b, with_a, all_a);
	if (t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s: script differs from perf's, first on line %zu:\nperfev: %.300s\nperf:   %.300s",
		       file, line, a + start, b + start);
	free(a);
	return b;
}

/* The line of function sym in a report output, into out ("" none). */
static inline void lang_report_line(const char *text, const char *sym, char *out, size_t size)
{
	char needle[256];
	const char *p = text;

	snprintf(needle, sizeof(needle), "] %s\n", sym);
	out[0] = 0;
	while ((p = strstr(p, needle))) {
		const char *bol = p;

		while (bol > text && bol[-1] != '\n')
			bol--;
		size_t n = (size_t)(p - bol) + strlen(needle) - 1;

		snprintf(out, size, "%.*s", (int)n, bol);
		return;
	}
}

/* The children lines of each function of syms (NULL-terminated) in
 * `report --children -g none --sort sym`, the same in perfev's and
 * perf's, and present in perf's. */
static inline void lang_report(const char *dir, const char *file, const char *const *syms)
{
	char pa[256], pb[256], la_[512], lb_[512];
	size_t la, lb;

	CHECK_EQ_INT(t_sh("%s report --stdio --children -g none --sort sym -i %s/%s > %s/ra.txt 2>/dev/null",
			  t_perfev(), dir, file, dir), 0);
	CHECK_EQ_INT(t_sh("%s report --stdio --children -g none --sort sym -i %s/%s > %s/rb.txt 2>/dev/null",
			  PERF, dir, file, dir), 0);
	snprintf(pa, sizeof(pa), "%s/ra.txt", dir);
	snprintf(pb, sizeof(pb), "%s/rb.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	for (size_t i = 0; a && b && syms[i]; i++) {
		lang_report_line(a, syms[i], la_, sizeof(la_));
		lang_report_line(b, syms[i], lb_, sizeof(lb_));
		printf("%s: report: perf '%s', perfev '%s'\n", file, lb_, la_);
		CHECK_MSG(lb_[0], "%s: perf's report has no line for %s", file, syms[i]);
		CHECK_MSG(!strcmp(la_, lb_), "%s: report line of %s: perfev '%s', perf '%s'",
			  file, syms[i], la_, lb_);
	}
	free(a);
	free(b);
}

#endif
