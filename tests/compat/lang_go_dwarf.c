// SPDX-License-Identifier: GPL-2.0-only
/* Go programs unwound with --call-graph dwarf: every chain ends where
 * the stack does, with no frame past it.
 *
 * Go's CFI does not mark the end of a stack on x86-64: runtime.goexit,
 * the bottom of every goroutine, has a return address slot like any other
 * function, and perfev read what lies past the goroutine's stack as one
 * more frame (ffffffffffffffff [unknown], 1 [unknown] under
 * runtime.rt0_go, a heap word); across a stack switch (systemstack,
 * mcall, morestack) it read the top of the other stack.  perfev now stops
 * where Go's own traceback stops, by the binary's function table
 * (.gopclntab: TOPFRAME and SPWRITE functions).
 *
 * perf 6.1 gives only the leaf of a Go stack, so the chains are checked
 * against the binary itself: built here by go build (CGO_ENABLED=0,
 * static and -buildmode=pie), a program whose goroutines recurse
 * (main.fib) and allocate (the GC: systemstack, morestack), recorded by
 * perf --call-graph dwarf and by perfev record, with 64 KiB stack dumps
 * (runtime.getproccount, at start-up, has an 8 KiB array on its stack:
 * past the default dump its caller reads as 0, the one closing
 * ffffffffffffffff frame perf prints where a dump ends, which is not
 * what this test is about); on each file
 *  - perf script --no-inline and perfev's print the same samples, and
 *    each of perf's, up to its first user frame, starts perfev's;
 *  - no user frame of perfev's is [unknown] (a word past a stack);
 *  - every chain holding main.fib ends at runtime.goexit, called from
 *    runtime.main or the goroutine's main.main.funcN;
 *  - go tool nm (the Go toolchain's reader of the symbol table) names
 *    every address of those chains as perfev does. */
#include "lang_dwarf.h"

static char dir[64];
static char gobin[256];
static char goenv[512];

static const char prog[] =
	"package main\n"
	"import (\n\t\"fmt\"\n\t\"os\"\n\t\"strconv\"\n\t\"sync\"\n)\n"
	"//go:noinline\n"
	"func fib(n int) int {\n\tif n < 2 {\n\t\treturn n\n\t}\n\treturn fib(n-1) + fib(n-2)\n}\n"
	"//go:noinline\n"
	"func churn(n int) int {\n\ts := 0\n\tfor i := 0; i < n; i++ {\n"
	"\t\tb := make([]byte, 64+i%2048)\n\t\tb[i%len(b)] = byte(i)\n\t\ts += int(b[0]) + len(b)\n\t}\n"
	"\treturn s\n}\n"
	"func main() {\n\tn, m := 30, 200000\n\tif len(os.Args) > 2 {\n"
	"\t\tn, _ = strconv.Atoi(os.Args[1])\n\t\tm, _ = strconv.Atoi(os.Args[2])\n\t}\n"
	"\tvar wg sync.WaitGroup\n\tres := make([]int, 4)\n"
	"\tfor i := 0; i < 4; i++ {\n\t\twg.Add(1)\n\t\tgo func(i int) {\n\t\t\tdefer wg.Done()\n"
	"\t\t\tif i%2 == 0 {\n\t\t\t\tres[i] = fib(n)\n\t\t\t} else {\n\t\t\t\tres[i] = churn(m)\n\t\t\t}\n"
	"\t\t}(i)\n\t}\n\twg.Wait()\n\tfmt.Println(fib(n-2), res)\n}\n";

/* A frame line of script's output: its address, its symbol without the
 * +0x offset (NULL for [unknown]), whether it is the kernel's. */
struct frame {
	unsigned long long addr;
	char sym[256];
	bool kernel, unknown;
};

static bool parse_frame(const char *line, size_t len, struct frame *f)
{
	char buf[1024];
	int n = 0;

	snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
	if (sscanf(buf, " %llx %n", &f->addr, &n) != 1 || !n)
		return false;
	const char *s = buf + n, *plus = strstr(s, "+0x"), *paren = strrchr(s, '(');

	f->kernel = strstr(buf, "([kernel.kallsyms])") != NULL;
	f->unknown = !strncmp(s, "[unknown]", 9);
	f->sym[0] = 0;
	if (!f->unknown && plus && (!paren || plus < paren))
		snprintf(f->sym, sizeof(f->sym), "%.*s", (int)(plus - s), s);
	return true;
}

/* The next sample of a script output at *p: its text [*start, *end). */
static bool next_sample(const char **p, const char **start, const char **end)
{
	while (**p == '\n')
		++*p;
	if (!**p)
		return false;
	*start = *p;
	const char *e = strstr(*p, "\n\n");

	*end = e ? e + 1 : *p + strlen(*p);
	*p = *end;
	return true;
}

static bool is_goexit(const char *sym)
{
	return !strcmp(sym, "runtime.goexit") || !strcmp(sym, "runtime.goexit.abi0");
}

/* The executable PT_LOAD's offset and address in bin. */
static bool text_segment(const char *bin, unsigned long long *off, unsigned long long *vaddr)
{
	char cmd[512], line[512];
	bool found = false;

	snprintf(cmd, sizeof(cmd), "readelf -lW '%s'", bin);
	FILE *f = popen(cmd, "r");

	while (f && fgets(line, sizeof(line), f))
		if (!found && sscanf(line, " LOAD 0x%llx 0x%llx", off, vaddr) == 2 && strstr(line, " E "))
			found = true;
	if (f)
		pclose(f);
	return found;
}

/* The checks on dir/file, recorded from dir/bin. */
static void check_file(const char *bin, const char *file)
{
	char pa[256], pb[256], path[128];
	size_t la, lb;

	CHECK_EQ_INT(t_sh("%s script --no-inline -i %s/%s > %s/a.txt 2>/dev/null", lang_perfev(), dir,
			  file, dir), 0);
	CHECK_EQ_INT(t_sh("%s script --no-inline -i %s/%s > %s/b.txt 2>/dev/null", PERF, dir, file, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	if (!a || !b || !la || !lb) {
		T_FAIL("%s: no script output", file);
		free(a);
		free(b);
		return;
	}
	/* perf's samples, up to the first user frame, start perfev's */
	const char *pp = a, *qq = b, *as, *ae, *bs, *be;
	size_t na = 0, nb = 0, unknown = 0, fib = 0, fib_end = 0, mismatch = 0;
	unsigned long long addrs[256];
	char names[256][128];
	size_t naddrs = 0;

	for (;;) {
		bool ha = next_sample(&pp, &as, &ae), hb = next_sample(&qq, &bs, &be);

		na += ha;
		nb += hb;
		if (!ha || !hb)
			break;
		/* perf's sample up to its first user frame */
		const char *l = memchr(bs, '\n', (size_t)(be - bs)), *cut = be;
		struct frame f;

		for (l = l ? l + 1 : be; l < be; ) {
			const char *nl = memchr(l, '\n', (size_t)(be - l));
			size_t len = nl ? (size_t)(nl - l) : (size_t)(be - l);

			if (parse_frame(l, len, &f) && !f.kernel) {
				cut = l + len;
				break;
			}
			l += len + 1;
		}
		/* Under tests/valgrind/run.sh perfev itself runs in valgrind,
		 * which maps no vDSO into its client: a file perfev recorded
		 * there has no vDSO image saved, so the [vdso] leaf is named
		 * only by perf (which reads its own).  Not a perfev fault. */
		if (getenv("PERFEV_VALGRIND") && strstr(file, ".pev.") &&
		    memmem(bs, (size_t)(cut - bs), "([vdso])", 8))
			continue;
		if ((size_t)(ae - as) < (size_t)(cut - bs) || memcmp(as, bs, (size_t)(cut - bs))) {
			if (!mismatch++)
				T_FAIL("%s: perfev's sample does not start as perf's:\nperfev: %.*s\nperf:   %.*s",
				       file, (int)(ae - as), as, (int)(be - bs), bs);
		}
		/* perfev's user frames */
		struct frame fr[512];
		size_t n = 0;

		l = memchr(as, '\n', (size_t)(ae - as));
		for (l = l ? l + 1 : ae; l < ae && n < 512; ) {
			const char *nl = memchr(l, '\n', (size_t)(ae - l));
			size_t len = nl ? (size_t)(nl - l) : (size_t)(ae - l);

			if (parse_frame(l, len, &fr[n]) && !fr[n].kernel)
				n++;
			l += len + 1;
		}
		bool has_fib = false;

		for (size_t i = 0; i < n; i++) {
			if (fr[i].unknown && !unknown++)
				T_FAIL("%s: an [unknown] user frame: %.*s", file, (int)(ae - as), as);
			has_fib = has_fib || !strcmp(fr[i].sym, "main.fib");
		}
		if (!has_fib)
			continue;
		fib++;
		bool ends = n >= 2 && is_goexit(fr[n - 1].sym) &&
			    (!strcmp(fr[n - 2].sym, "runtime.main") ||
			     !strncmp(fr[n - 2].sym, "main.main.func", 14));

		if (ends)
			fib_end++;
		else if (fib - fib_end == 1)
			T_FAIL("%s: a chain through main.fib does not end at runtime.goexit under "
			       "runtime.main or a main.main.funcN:\n%.*s", file, (int)(ae - as), as);
		for (size_t i = 0; i < n; i++) {
			bool seen = false;

			for (size_t k = 0; k < naddrs && !seen; k++)
				seen = addrs[k] == fr[i].addr;
			if (!seen && naddrs < 256 && fr[i].sym[0]) {
				addrs[naddrs] = fr[i].addr;
				snprintf(names[naddrs], sizeof(names[0]), "%s", fr[i].sym);
				naddrs++;
			}
		}
	}
	printf("%s: %zu samples (perf %zu), %zu [unknown] user frames, %zu of %zu chains through main.fib end at runtime.goexit\n",
	       file, na, nb, unknown, fib_end, fib);
	CHECK_MSG(na == nb, "%s: perfev prints %zu samples, perf %zu", file, na, nb);
	CHECK_MSG(fib * 10 >= na, "%s: only %zu of %zu samples in main.fib", file, fib, na);
	CHECK_MSG(fib_end == fib, "%s: %zu of %zu chains through main.fib end at runtime.goexit",
		  file, fib_end, fib);
	CHECK_MSG(!mismatch, "%s: %zu samples do not start as perf's", file, mismatch);

	/* go tool nm (the Go toolchain's reader of the symbol table) names
	 * each address as perfev does */
	unsigned long long off, vaddr;
	size_t same = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, bin);
	CHECK_MSG(text_segment(path, &off, &vaddr), "%s: no executable PT_LOAD", bin);
	char cmd[1024], line[1024];

	snprintf(cmd, sizeof(cmd), "%s %s tool nm -size -sort address %s 2>/dev/null", goenv, gobin, path);
	FILE *f = popen(cmd, "r");
	bool named[256] = { false };

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long sa, sz;
		char type;
		int n = 0;

		if (sscanf(line, " %llx %llu %c %n", &sa, &sz, &type, &n) != 3 || !n ||
		    (type != 'T' && type != 't'))
			continue;
		line[strcspn(line, "\n")] = 0;
		char *name = line + n;
		size_t ln = strlen(name);

		if (ln > 5 && !strcmp(name + ln - 5, ".abi0"))
			name[ln - 5] = 0;
		for (size_t i = 0; i < naddrs; i++) {
			unsigned long long va = addrs[i] - off + vaddr;

			if (named[i] || va < sa || va >= sa + sz)
				continue;
			named[i] = true;
			size_t lp = strlen(names[i]);

			if (lp > 5 && !strcmp(names[i] + lp - 5, ".abi0"))
				names[i][lp - 5] = 0;
			if (!strcmp(name, names[i]))
				same++;
			else
				T_FAIL("%s: 0x%llx: perfev names it %s, go tool nm %s", file, addrs[i],
				       names[i], name);
		}
	}
	if (f)
		pclose(f);
	printf("%s: go tool nm names %zu of %zu addresses as perfev\n", file, same, naddrs);
	CHECK_MSG(naddrs && same == naddrs, "%s: %zu of %zu addresses named alike", file, same, naddrs);
	free(a);
	free(b);
}

static void check(const char *bin, const char *mode, bool want_pie)
{
	char file[128], path[128];
	bool pie, split, lld;

	if (t_sh("cd %s && %s CGO_ENABLED=0 %s build %s -o %s main.go > %s.log 2>&1", dir, goenv,
		 gobin, mode, bin, bin)) {
		T_FAIL("go build %s failed (see %s/%s.log)", mode, dir, bin);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, bin);
	CHECK_MSG(lang_elf_shape(path, &pie, &split, &lld) && pie == want_pie, "%s: expected %s", bin,
		  want_pie ? "a PIE" : "no PIE");
	snprintf(file, sizeof(file), "%s.data", bin);
	CHECK_EQ_INT(t_sh("cd %s && %s record -q --call-graph dwarf,65528 -o %s -- ./%s 32 20000 >/dev/null 2>&1",
			  dir, PERF, file, bin), 0);
	check_file(bin, file);
	snprintf(file, sizeof(file), "%s.pev.data", bin);
	CHECK_EQ_INT(t_sh("cd %s && %s record -q --call-graph dwarf,65528 -o %s -- ./%s 32 20000 >/dev/null 2>&1",
			  dir, lang_perfev(), file, bin), 0);
	check_file(bin, file);
}

int main(void)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	snprintf(gobin, sizeof(gobin), "/usr/bin/go");
	if (access(gobin, X_OK))
		T_SKIP("%s is not installed (Debian: golang-go)", gobin);
	lang_mkdir(dir, sizeof(dir), "go");
	/* Go's build cache: kept between runs (a -buildmode=pie build
	 * compiles the standard library again: half a minute) */
	snprintf(goenv, sizeof(goenv), "HOME=%s GOPATH=%s/gopath GOCACHE=/tmp/perfev-gocache GOFLAGS=",
		 dir, dir);
	lang_write(dir, "main.go", prog);
	if (t_sh("cd %s && %s record -q --call-graph dwarf -o probe.data -- true >/dev/null 2>&1",
		 dir, PERF))
		T_SKIP("perf record --call-graph dwarf cannot sample here");
	check("static", "", false);
	check("pie", "-buildmode=pie", true);
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_done();
}
