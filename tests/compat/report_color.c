// SPDX-License-Identifier: GPL-2.0-only
/* Colour, as perf 6.1 colours report --stdio on a terminal: each
 * percentage cell and each call-graph percentage red from 5%, green above
 * 0.5% (perf's get_percent_color), never with -t, never into a pipe or a
 * file; perfev printed none.  On a file perf records here with -g:
 *  - --stdio-color always (perf's option), byte for byte with perf's, in
 *    several graph and column modes;
 *  - on a terminal (a pty made by script(1)), perfev report --no-pager
 *    against perf --no-pager report --stdio, and through a pager
 *    (PAGER='cat -v': the escapes reach it), each byte for byte;
 *  - no escape at all into a pipe, with --no-color, --stdio-color never,
 *    NO_COLOR=1 or PERFEV_COLOR=never on the terminal; PERFEV_COLOR=always
 *    into a file gives --stdio-color always's output, a bad mode is a
 *    usage error (exit 2). */
#include "report_cmp.h"

static const char *const modes[] = {
	"", "--no-children", "-g flat", "-g folded", "-g caller", "-G",
	"-g caller,0.5,callee,function,period", "-n --show-total-period",
	"--show-cpu-utilization --no-children",
	"-F overhead,overhead_sys,overhead_us,sample,dso --sort dso,sym -g none",
	"-t ,", "--percentage relative --comms sh", NULL,
};

/* s without its '\r's and its tip block */
static char *clean(const char *path, size_t *len)
{
	char *s = t_slurp(path, len);
	size_t j = 0;

	if (!s)
		return NULL;
	for (size_t i = 0; i < *len; i++)
		if (s[i] != '\r')
			s[j++] = s[i];
	s[j] = 0;
	*len = j;
	cut_tip(s, len);
	return s;
}

static void same_files(const char *what, const char *a_name, const char *b_name, bool want_esc)
{
	char pa[128], pb[128];
	size_t la, lb, line, start;

	snprintf(pa, sizeof(pa), "%s/%s", dir, a_name);
	snprintf(pb, sizeof(pb), "%s/%s", dir, b_name);
	char *a = clean(pa, &la), *b = clean(pb, &lb);

	CHECK_MSG(a && b && lb > 0, "%s: no output", what);
	if (a && b) {
		if (t_first_diff(a, la, b, lb, &line, &start))
			T_FAIL("%s: output differs at line %zu:\n  perfev: %.160s\n  perf:   %.160s",
			       what, line, a + start, b + start);
		else
			printf("%s: %zu bytes identical\n", what, la);
		CHECK_MSG(!want_esc || strchr(b, '\033') || strstr(b, "^["),
			  "%s: perf printed no colour on the terminal", what);
	}
	free(a);
	free(b);
}

/* perfev's output with env and opts (a shell line), into a pipe (or on a
 * pty when pty): false when it holds an escape */
static bool no_escape(const char *what, const char *env, const char *opts, bool pty,
		      const char *file)
{
	char p[128];
	size_t l;

	if (pty)
		t_sh("%s timeout 60 script -qc \"%s report -i %s %s\" /dev/null < /dev/null > %s/n.txt 2>&1",
		     env, perfev, file, opts, dir);
	else
		t_sh("%s %s report -i %s %s 2>&1 | cat > %s/n.txt", env, perfev, file, opts, dir);
	snprintf(p, sizeof(p), "%s/n.txt", dir);
	char *s = t_slurp(p, &l);
	bool ok = s && l > 100 && !memchr(s, '\033', l);

	CHECK_MSG(ok, "%s: an escape (or no output) in: %.200s", what, s ? s : "");
	free(s);
	return ok;
}

int main(void)
{
	char file[256], in[300];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-color-XXXXXX", true);
	snprintf(file, sizeof(file), "%s/g.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -g -o %s -- sh -c "
			  "'for i in $(seq 1 20000); do echo $i; done | sort > /dev/null' > /dev/null 2>&1",
			  PERF, file), 0);
	snprintf(in, sizeof(in), "-i %s", file);
	for (const char *const *m = modes; *m; m++) {
		char o[256];

		snprintf(o, sizeof(o), "--stdio-color always %s", *m);
		same_report_in("always", in, o, NULL);
	}
	if (!have("script") || t_sh("timeout 10 script -qc true /dev/null < /dev/null > /dev/null 2>&1")) {
		printf("no script(1) that makes a pty here: the terminal cases are left out\n");
	} else {
		/* a terminal */
		t_sh("timeout 60 script -qc \"%s report -i %s --no-pager\" /dev/null < /dev/null > %s/ta.txt 2>&1",
		     perfev, file, dir);
		t_sh("timeout 60 script -qc \"%s --no-pager report --stdio -i %s\" /dev/null < /dev/null > %s/tb.txt 2>&1",
		     PERF, file, dir);
		same_files("on a terminal", "ta.txt", "tb.txt", true);
		t_sh("timeout 60 script -qc \"%s report -i %s --no-pager -g caller --no-children\" /dev/null < /dev/null > %s/ta.txt 2>&1",
		     perfev, file, dir);
		t_sh("timeout 60 script -qc \"%s --no-pager report --stdio -i %s -g caller --no-children\" /dev/null < /dev/null > %s/tb.txt 2>&1",
		     PERF, file, dir);
		same_files("on a terminal, -g caller --no-children", "ta.txt", "tb.txt", true);
		/* through a pager */
		t_sh("PAGER='cat -v' timeout 60 script -qc \"%s report -i %s\" /dev/null < /dev/null > %s/ta.txt 2>&1",
		     perfev, file, dir);
		t_sh("PAGER='cat -v' timeout 60 script -qc \"%s report --stdio -i %s\" /dev/null < /dev/null > %s/tb.txt 2>&1",
		     PERF, file, dir);
		same_files("through a pager", "ta.txt", "tb.txt", true);
		no_escape("--no-color", "", "--no-pager --no-color", true, file);
		no_escape("--stdio-color never", "", "--no-pager --stdio-color never", true, file);
		no_escape("NO_COLOR=1", "NO_COLOR=1", "--no-pager", true, file);
		no_escape("PERFEV_COLOR=never", "PERFEV_COLOR=never", "--no-pager", true, file);
	}
	no_escape("a pipe", "", "", false, file);
	no_escape("--stdio-color auto into a pipe", "", "--stdio-color auto", false, file);
	/* PERFEV_COLOR=always: --stdio-color always's output */
	CHECK_EQ_INT(t_sh("PERFEV_COLOR=always %s report -i %s > %s/e.txt && %s report -i %s --stdio-color always > %s/f.txt",
			  perfev, file, dir, perfev, file, dir), 0);
	same_files("PERFEV_COLOR=always", "e.txt", "f.txt", false);
	CHECK_EQ_INT(t_sh("PERFEV_COLOR=sometimes %s report -i %s > /dev/null 2>&1", perfev, file), 2);
	CHECK_EQ_INT(t_sh("%s report -i %s --stdio-color sometimes > /dev/null 2>&1", perfev, file), 2);
	return report_cmp_end();
}
