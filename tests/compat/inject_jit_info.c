// SPDX-License-Identifier: GPL-2.0-only
/* perfev inject --jit writes a jitdump's DEBUG_INFO and UNWINDING_INFO
 * records into the jitted-PID-N.so files as perf inject --jit 6.1 does:
 *
 * - tests/helpers/jit_dump in its "info" mode (line entries chosen to take
 *   every path of perf's .debug_line writer before alpha, an .eh_frame for
 *   beta) recorded by perf with -k mono --call-graph dwarf: every jitted
 *   file perfev writes has perf's bytes but for the 20 of the build id
 *   (perf's are random), perf's alpha has a .debug_line and beta an
 *   .eh_frame; perf script -F ...,srcline prints the same JIT lines on
 *   both injected files, perfev script prints them too, perf report
 *   --sort srcline and perfev report have the same rows for the JIT's
 *   source files; perf script prints the same on perfev's -o - stream as
 *   on perf's, and perfev script the same; perf and perfev script unwind through beta's frame
 *   (main follows it) on perfev's file;
 * - node --perf-prof --perf-prof-unwinding-info (an UNWINDING_INFO before
 *   every CODE_LOAD, DEBUG_INFO for some functions): all of perfev's
 *   jitted files equal perf's but for the build id.
 * Each tool writes its files next to the dump, so perf's are copied aside
 * first; each runs with its own HOME (perf record fills a build-id
 * cache there). */
#include <dirent.h>
#include <elf.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

/* The file's bytes with the build-id note's descriptor zeroed, and
 * whether it has the section named want (NULL: any). */
static char *masked(const char *path, size_t *len, const char *want, bool *has)
{
	char *b = t_slurp(path, len);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;

	*has = false;
	if (!b || *len < sizeof(*eh) || memcmp(b, ELFMAG, SELFMAG) ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > *len || eh->e_shstrndx >= eh->e_shnum)
		return b;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(b + eh->e_shoff);

	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (want && sh[eh->e_shstrndx].sh_offset + sh[i].sh_name < *len &&
		    !strcmp(b + sh[eh->e_shstrndx].sh_offset + sh[i].sh_name, want))
			*has = true;
		if (sh[i].sh_type == SHT_NOTE && sh[i].sh_size >= 36 && sh[i].sh_offset + 36 <= *len)
			memset(b + sh[i].sh_offset + 16, 0, 20);
	}
	return b;
}

/* perf's jitted file perf/NAME against perfev's NAME; true when equal. */
static bool same_elf(const char *name, const char *want, bool *has)
{
	char pa[512], pb[512];
	size_t la, lb;
	bool dummy;

	snprintf(pa, sizeof(pa), "%s/%s", dir, name);
	snprintf(pb, sizeof(pb), "%s/perf/%s", dir, name);
	char *a = masked(pa, &la, NULL, &dummy), *b = masked(pb, &lb, want, has);
	bool same = a && b && la == lb && !memcmp(a, b, la);

	if (!same)
		T_FAIL("%s: perfev's file (%zu bytes) is not perf's (%zu bytes) but for the build id",
		       name, a ? la : 0, b ? lb : 0);
	free(a);
	free(b);
	return same;
}

/* Each line naming a jitted file, with the srcline line after it ("-"
 * when none); *with counts the JIT lines that have one holding `needle`. */
static char *jit_pairs(const char *name, const char *needle, size_t *with)
{
	char p[256];
	size_t len, n = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	char *t = t_slurp(p, &len), *out = calloc(1, 2 * len + 16), *save;
	char *l = t ? strtok_r(t, "\n", &save) : NULL;

	*with = 0;
	while (l) {
		char *next = strtok_r(NULL, "\n", &save);

		if (strstr(l, "/jitted-")) {
			bool src = next && next[0] == ' ' && next[1] == ' ' && next[2] != ' ';

			n += (size_t)sprintf(out + n, "%s => %s\n", l, src ? next : "-");
			if (src && strstr(next, needle))
				(*with)++;
			if (src)
				next = strtok_r(NULL, "\n", &save);
		}
		l = next;
	}
	free(t);
	return out;
}

static char *t_slurp_rel(const char *name)
{
	char p[256];
	size_t len;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return t_slurp(p, &len);
}

static void same_text(const char *what, char *a, char *b)
{
	if (strcmp(a, b)) {
		size_t i = 0;

		while (a[i] && a[i] == b[i])
			i++;
		while (i && a[i - 1] != '\n')
			i--;
		T_FAIL("%s differ:\n  perfev's: %.300s\n  perf's:   %.300s", what, a + i, b + i);
	}
	free(a);
	free(b);
}

/* The rows of a report --stdio output naming a JIT source file. */
static char *js_rows(const char *name)
{
	char p[256];
	size_t len, n = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	char *t = t_slurp(p, &len), *out = calloc(1, len + 1), *save;

	for (char *l = t ? strtok_r(t, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		if (l[0] != '#' && (strstr(l, ".js:") || strstr(l, "\xff:")))
			n += (size_t)sprintf(out + n, "%s\n", l);
	free(t);
	return out;
}

static void test_helper(const char *build)
{
	size_t with, with2;

	CHECK_EQ_INT(t_sh("mkdir -p %s/hp %s/hv %s/perf && cd %s && HOME=%s/hp timeout -k 2 60 %s record -q -k mono "
			  "-e task-clock -c 250000 --call-graph dwarf -o d.data -- %s/tests/helpers/jit_dump 300 info "
			  "> /dev/null 2>&1", dir, dir, dir, dir, dir, PERF, build), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/hp %s inject --jit -i d.data -o perf.inj > /dev/null 2>&1 && "
			  "cp jitted-*.so perf/ && HOME=%s/hp %s script -F comm,tid,time,ip,sym,dso,srcline -G "
			  "-i perf.inj > s-perf.txt 2>/dev/null && HOME=%s/hp %s report --no-children --sort srcline "
			  "--stdio -i perf.inj > r-perf.txt 2>/dev/null && HOME=%s/hp %s script -i perf.inj > c-perf.txt "
			  "2>/dev/null", dir, dir, PERF, dir, PERF, dir, PERF, dir, PERF), 0);
	/* -o -: a pipe stream, as perf's (perf writes its files again). */
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/hp %s inject --jit -i d.data -o - 2>/dev/null | HOME=%s/hp %s script "
			  "-F comm,tid,time,ip,sym,dso -G -i - > p-perf.txt 2>/dev/null", dir, dir, PERF, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/hv %s inject --jit -i d.data -o - | HOME=%s/hv %s script "
			  "-F comm,tid,time,ip,sym,dso -G -i - > p-pev-perf.txt 2> p-pev-perf.err && "
			  "HOME=%s/hv %s inject --jit -i d.data -o - | HOME=%s/hv %s script "
			  "-F comm,tid,time,ip,sym,dso -G -i - > p-pev-pev.txt", dir, dir, perfev, dir, PERF,
			  dir, perfev, dir, perfev), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/hv %s inject --jit -i d.data -o pev.inj > /dev/null", dir, dir, perfev), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/hv %s script -F comm,tid,time,ip,sym,dso,srcline -G -i pev.inj "
			  "> s-pev-perf.txt 2>/dev/null && HOME=%s/hv %s script -F comm,tid,time,ip,sym,dso,srcline -G "
			  "-i pev.inj > s-pev-pev.txt 2>/dev/null", dir, dir, PERF, dir, perfev), 0);
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/hv %s report --no-children --sort srcline --stdio -i pev.inj "
			  "> r-pev-perf.txt 2>/dev/null && HOME=%s/hv %s report --no-children --sort srcline --stdio "
			  "-i pev.inj > r-pev-pev.txt 2>/dev/null", dir, dir, PERF, dir, perfev), 0);
	/* perf's HOME: its build-id cache holds the [vdso] perf record saw. */
	CHECK_EQ_INT(t_sh("cd %s && HOME=%s/hp %s script -i pev.inj > c-pev-perf.txt 2>/dev/null && "
			  "HOME=%s/hv %s script -i pev.inj > c-pev-pev.txt 2>/dev/null", dir, dir, PERF, dir, perfev), 0);

	DIR *d = opendir(dir);
	struct dirent *de;
	int files = 0;

	while (d && (de = readdir(d))) {
		bool has = false;

		if (strncmp(de->d_name, "jitted-", 7))
			continue;
		files++;
		size_t n = strlen(de->d_name);
		bool alpha = n > 5 && !strcmp(de->d_name + n - 5, "-0.so");

		same_elf(de->d_name, alpha ? ".debug_line" : ".eh_frame", &has);
		CHECK_MSG(has, "perf's %s has no %s", de->d_name, alpha ? ".debug_line" : ".eh_frame");
	}
	if (d)
		closedir(d);
	CHECK_EQ_INT(files, 2);
	printf("helper: the 2 jitted files are perf's but for the build id\n");

	char *a = jit_pairs("s-perf.txt", ".js:", &with), *b = jit_pairs("s-pev-perf.txt", ".js:", &with2);

	CHECK_MSG(with >= 10, "perf names a .js line on only %zu JIT samples", with);
	same_text("perf script's JIT srclines on perf's and perfev's file", b, a);
	a = jit_pairs("s-pev-perf.txt", ".js:", &with);
	b = jit_pairs("s-pev-pev.txt", ".js:", &with2);
	same_text("perfev and perf script's JIT srclines on perfev's file", b, a);
	printf("helper: %zu JIT samples with a .js srcline, the same in perf and perfev\n", with);
	a = js_rows("r-perf.txt");
	b = js_rows("r-pev-perf.txt");
	CHECK_MSG(strstr(a, "alpha.js:") && strstr(a, "other.js:"), "perf report has no JIT srcline row:\n%s", a);
	same_text("perf report --sort srcline's JIT rows on perf's and perfev's file", b, a);
	a = js_rows("r-pev-perf.txt");
	b = js_rows("r-pev-pev.txt");
	same_text("perfev and perf report --sort srcline's JIT rows", b, a);
	a = t_slurp_rel("p-pev-perf.txt");
	b = t_slurp_rel("p-perf.txt");
	CHECK_MSG(strstr(b, "jit_beta") && strstr(b, "jit_alpha"), "perf's pipe names no JIT function");
	same_text("perf script on perf's and perfev's -o - stream", a, b);
	a = t_slurp_rel("p-pev-pev.txt");
	b = t_slurp_rel("p-pev-perf.txt");
	same_text("perfev and perf script on perfev's -o - stream", a, b);
	/* perf drops the rounds, so that a pipe reader sorts the loads'
	 * MMAP2s (written at the marker, with later times) among the
	 * samples. */
	CHECK_EQ_INT(t_sh("grep -q 'out of order' %s/p-pev-perf.err", dir), 1);
	/* Unwinding through beta needs its .eh_frame: main follows a beta
	 * frame; perf script prints the same call chains on both files
	 * (before the rounds were dropped, perf took perfev's MMAP2s late
	 * and stopped unwinding midway); perfev unwinds through beta too. */
	CHECK_EQ_INT(t_sh("grep -A1 'jit_beta+' %s/c-pev-perf.txt | grep -q 'main+'", dir), 0);
	same_text("perf script's call chains on perf's and perfev's file", t_slurp_rel("c-pev-perf.txt"),
		  t_slurp_rel("c-perf.txt"));
	CHECK_EQ_INT(t_sh("grep -A1 'jit_beta+' %s/c-pev-pev.txt | grep -q 'main+'", dir), 0);
}

static void test_node(void)
{
	int files = 0, debug = 0, all_eh = 1;

	CHECK_EQ_INT(t_sh("mkdir -p %s/n/hp %s/n/hv %s/n/perf && cd %s/n && printf '%%s\\n' "
			  "'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }' "
			  "'let s = 0; const t = Date.now();' 'while (Date.now() - t < 200) s += fib(18);' "
			  "'if (s < 0) console.log(s);' > loop.js", dir, dir, dir, dir), 0);
	CHECK_EQ_INT(t_sh("cd %s/n && HOME=%s/n/hp timeout -k 2 120 %s record -q -k mono -e task-clock -c 1000000 "
			  "-o jit.data -- node --perf-prof --perf-prof-unwinding-info loop.js > /dev/null 2>&1",
			  dir, dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s/n && HOME=%s/n/hp %s inject --jit -i jit.data -o perf.inj > /dev/null 2>&1 && "
			  "cp jitted-*.so perf/ && HOME=%s/n/hv %s inject --jit -i jit.data -o pev.inj > /dev/null",
			  dir, dir, PERF, dir, perfev), 0);
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/n");

	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		bool has = false, eh = false;
		char p[512];
		size_t len;

		if (strncmp(de->d_name, "jitted-", 7))
			continue;
		files++;
		if (!same_elf(de->d_name, ".debug_line", &has) && t_failures > 5)
			break;
		debug += has;
		snprintf(p, sizeof(p), "%s/perf/%s", dir, de->d_name);
		free(masked(p, &len, ".eh_frame", &eh));
		all_eh &= eh;
	}
	if (d)
		closedir(d);
	dir[strlen(dir) - 2] = 0;
	CHECK_MSG(files > 100 && debug > 0 && all_eh,
		  "node: %d jitted files, %d with .debug_line, all with .eh_frame: %d", files, debug, all_eh);
	printf("node: %d jitted files (%d with .debug_line) are perf's but for the build id\n", files, debug);
}

int main(void)
{
	const char *bd = getenv("PERFEV_BUILD");
	char build[4096];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	if (!realpath(bd ? bd : "build", build))
		T_FATAL("build dir missing");
	snprintf(dir, sizeof(dir), "/tmp/pev-jitinfo-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	test_helper(build);
	if (t_sh("node --version > /dev/null 2>&1"))
		printf("node is not installed: the node part is not run\n");
	else
		test_node();
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
