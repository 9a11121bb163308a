// SPDX-License-Identifier: GPL-2.0-only
/* perfev report against perf report --stdio 6.1 with the filters that
 * select one value (--comm, --pid, --tid, --dsos, --symbols, -C), in
 * children mode and not, on files recorded by /usr/bin/perf at test
 * time: gcc -O2 -c (three processes: gcc, cc1, as) with -g, and the same
 * system wide (-a -g, with CPUs) when perf may record that.  The pids
 * and the symbol filtered on are read from perf's own output.  What this
 * holds perfev to (perf 6.1's rules): --pid and --tid filter at all; an
 * entry is hidden when the sample that made it failed a filter, and
 * later samples of any thread add to it; a column filtered to one value
 * (elided) no longer orders the entries; call-graph percentages stay of
 * the whole period with --percentage relative; -C on a file without
 * CPUs is refused. */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_cmp.h"

static const char c_src[] =
	"#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n"
	"struct node { struct node *l, *r; int k; };\n"
	"static struct node *ins(struct node *n, int k) { if (!n) { n = calloc(1, sizeof(*n)); n->k = k; return n; }\n"
	"  if (k < n->k) n->l = ins(n->l, k); else n->r = ins(n->r, k); return n; }\n"
	"int main(void) { struct node *r = 0; for (int i = 0; i < 1000; i++) r = ins(r, (i * 7919) % 1000);\n"
	"  printf(\"%d\\n\", r->k); return 0; }\n";

/* The first line of a command's output into buf ("" if none). */
static void first_line(char *buf, size_t size, const char *cmd)
{
	char path[128];
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/line.txt", dir);
	buf[0] = '\0';
	if (t_sh("%s > %s 2> /dev/null", cmd, path))
		return;
	char *s = t_slurp(path, &n);

	if (s) {
		snprintf(buf, size, "%.*s", (int)strcspn(s, "\n"), s);
		free(s);
	}
}

/* Entries of equal percentages come out of perf's trees in an order
 * perfev does not always reproduce when unresolved garbage addresses are
 * among them (another part of the issue): with -g none (one line an
 * entry), each run of lines whose percentage columns are equal is
 * compared sorted. */
static int line_order(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
	int c = memcmp(a, b, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

/* The length of a line's leading percentage columns, 0 if none. */
static size_t pct_prefix(const char *l, size_t n)
{
	size_t i = 0, end = 0;

	while (i < n) {
		while (i < n && l[i] == ' ')
			i++;
		size_t t = i;

		while (i < n && l[i] != ' ')
			i++;
		if (i == t || l[i - 1] != '%')
			break;
		end = i;
	}
	return end;
}

static void sort_ties(char *s, size_t len)
{
	static char *lines[16384];
	char *copy = malloc(len + 1), *out = s;

	if (!copy)
		return;
	memcpy(copy, s, len + 1);
	for (char *p = copy; p < copy + len;) {
		size_t n = strcspn(p, "\n"), k = pct_prefix(p, n), nl = 0;
		char *q = p;

		while (k && q < copy + len && nl < 16384) {
			size_t m = strcspn(q, "\n");

			if (pct_prefix(q, m) != k || memcmp(q, p, k))
				break;
			lines[nl++] = q;
			q += m + (q[m] == '\n');
		}
		if (!nl) {
			lines[nl++] = p;
			q = p + n + (p[n] == '\n');
		}
		qsort(lines, nl, sizeof(*lines), line_order);
		for (size_t i = 0; i < nl; i++) {
			size_t m = strcspn(lines[i], "\n");

			memcpy(out, lines[i], m);
			out += m;
			*out++ = '\n';
		}
		p = q;
	}
	free(copy);
}

static void same(const char *what, const char *file, const char *opts)
{
	same_report_norm(what, file, opts, strstr(opts, "-g none") ? sort_ties : NULL);
}

static void filters(const char *what, const char *file, bool system_wide)
{
	static const char *const modes[] = { "-g none", "--no-children -g none", NULL };
	static const char *const comms[] = { "cc1", "gcc", NULL };
	char pid[32], sym[256], opt[400], cmd[1024];

	for (const char *const *m = modes; *m; m++) {
		for (const char *const *c = comms; *c; c++) {
			snprintf(opt, sizeof(opt), "--comm %s %s", *c, *m);
			same(what, file, opt);
			if (system_wide)
				break;
		}
	}
	if (system_wide) {
		same(what, file, "-C 0 -g none");
		return;
	}
	same(what, file, "--dsos libc.so.6 -g none");
	/* the pid of `as`, from perf script */
	snprintf(cmd, sizeof(cmd),
		 PERF " script -i %s -F comm,pid | awk '$1 == \"as\" { print $2; exit }'", file);
	first_line(pid, sizeof(pid), cmd);
	if (pid[0]) {
		snprintf(opt, sizeof(opt), "--pid %s -g none", pid);
		same(what, file, opt);
		snprintf(opt, sizeof(opt), "--tid %s --no-children -g none", pid);
		same(what, file, opt);
	}
	/* the symbol of perf's second --no-children entry */
	snprintf(cmd, sizeof(cmd),
		 PERF " report --stdio -q -i %s --no-children --sort sym -g none | "
		 "awk 'NF >= 3 && $3 !~ /^0x/ { n++; if (n == 2) { print $3; exit } }'", file);
	first_line(sym, sizeof(sym), cmd);
	if (sym[0]) {
		snprintf(opt, sizeof(opt), "--symbols %s -g none", sym);
		same(what, file, opt);
	}
	/* graphs: percentages of the whole period, the threshold of what
	 * the filters keep */
	same(what, file, "--comm cc1 --percentage relative --sort dso");
	same(what, file, "--comm as --percentage relative --no-children --sort dso");
}

int main(void)
{
	char path[256], file[256], errp[128];
	size_t n = 0;

	if (!have("gcc"))
		T_SKIP("no gcc in PATH");
	report_cmp_start("/tmp/perfev-rfilt-XXXXXX", true);
	report_cmp_write(path, sizeof(path), "t.c", c_src);

	snprintf(file, sizeof(file), "%s/cc1-g.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -g -o %s -- gcc -O2 -c -o %s/t.o %s > /dev/null 2>&1",
			  PERF, file, dir, path), 0);
	filters("gcc -O2 -c -g", file, false);

	/* -C on a file without CPUs: perf says "File does not contain CPU
	 * events. Remove -C option to proceed." and prints no entries;
	 * perfev refuses with one line and exit 1. */
	int rc = t_sh("%s report -i %s -C 0 > %s/c.out 2> %s/c.err", perfev, file, dir, dir);

	snprintf(errp, sizeof(errp), "%s/c.err", dir);
	char *err = t_slurp(errp, &n);

	CHECK_EQ_INT(rc, 1);
	CHECK_MSG(err && strstr(err, "perfev: error:") && strstr(err, "-C"),
		  "-C without CPUs: %s", err ? err : "(nothing)");
	free(err);

	/* System wide: samples of every process, kernel frames, CPUs. */
	snprintf(file, sizeof(file), "%s/sys-g.data", dir);
	if (t_sh("%s record -q -a -e cpu-clock -F 500 -g -o %s -- gcc -O2 -c -o %s/t.o %s > /dev/null 2>&1",
		 PERF, file, dir, path))
		printf("system-wide part skipped: perf record -a is refused here\n");
	else
		filters("gcc -O2 -c, -a -g", file, true);

	return report_cmp_end();
}
