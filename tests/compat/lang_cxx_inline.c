// SPDX-License-Identifier: GPL-2.0-only
/* Inline frames and srclines of C++ programs, as perf 6.1 prints them.
 *
 * perf names the inline frames of an address with binutils' addr2line
 * -i, one process per DSO for the whole session.  binutils takes for the
 * function of an address the one whose single address range holding it
 * is the smallest (not the innermost scope), and g++ writes no linkage
 * name for a template instance that is only ever inlined
 * (std::__unguarded_partition<...>, std::sort<...>): binutils names such
 * a function by the ELF symbol holding the address the first time it is
 * asked, then by its DW_AT_name.  perfev took the innermost scope and
 * its DWARF name: 794 of 8879 lines of `script` differed from perf's on
 * the program below (std::__introsort_loop's recursion printed as
 * "__introsort_loop<...long int...> (inlined)" frames, "__sort<...>"
 * where perf prints work::run), report -g's trees with them; perf report
 * builds its chains caller first and asks for the outermost frame first,
 * which changes those names again.  clang's DW_FORM_rnglistx range lists
 * give binutils 2.40 no range: perfev printed inline frames there
 * (std::sort<...> (inlined)) that perf does not.  And -F +srcline: a
 * frame in a unit without a line row for it (ld.so's _start) prints
 * addr2line's answer from the symbols (":0" after the linker's empty
 * file symbol; "crtstuff.c:0" for a function no unit holds), and with
 * --no-inline a frame perf knows no line for prints none (perfev printed
 * "??:0"), as does a frame of a made-up "name@plt" symbol with inline
 * frames on ("libstdc++.so.6.0.30[9a000]" for operator delete@plt).
 *
 * The program (lang_cxx.h) is built here with g++ -O2 -g and recorded
 * by perf --call-graph dwarf; perfev script equals perf script with the
 * default fields (inline frames), -F +srcline, --no-inline -F +srcline,
 * --no-demangle; report --no-children in caller and callee order and
 * --sort srcline equal perf's.  Independently of perf, the srclines of
 * the inline frames of the first sampled addresses of the program are
 * those binutils' addr2line -i -f -C gives for them, frame for frame.
 * Then the same program built by clang++ -fuse-ld=lld (when clang++ and
 * ld.lld are installed; skipped with the reason otherwise), script and
 * report again. */
#include "lang_cxx.h"

#define ADDR2LINE "/usr/bin/addr2line"
#define MAX_GROUPS 40

static char dir[64];

static void same(const char *file, const char *cmd, const char *opts, const char *needle)
{
	lang_cxx_same(dir, file, cmd, opts, needle);
}

/* One address of the program and the srclines perfev printed for its
 * frames (the inlined ones, then the function's). */
struct group {
	unsigned long long ip;
	int n;
	char lines[32][128];
};

static const char *base(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

/* addr2line -i -f -C's srclines for ip in exe, as perf reads them
 * (basename:line, "?" as 0, a discriminator left out), into out; the
 * number of frames, -1 on failure. */
static int a2l_lines(const char *exe, unsigned long long ip, char out[32][128])
{
	char cmd[512], fn[4096], fl[4096];
	int n = 0;

	snprintf(cmd, sizeof(cmd), "%s -i -f -C -e %s 0x%llx", ADDR2LINE, exe, ip);
	FILE *f = popen(cmd, "r");

	if (!f)
		return -1;
	while (n < 32 && fgets(fn, sizeof(fn), f) && fgets(fl, sizeof(fl), f)) {
		char *c = strrchr(fl, ':');

		fl[strcspn(fl, "\n")] = 0;
		if (!c)
			continue;
		*c = 0;
		snprintf(out[n++], 128, "%.100s:%lu", base(fl), strtoul(c + 1, NULL, 10));
	}
	pclose(f);
	return n;
}

/* A frame of perfev's script -F ip,sym,dso,srcline: its ip, whether it
 * names a DSO (the inlined ones do not) and which, its srcline. */
struct frame {
	unsigned long long ip;
	bool dso, ours;
	char src[128];
};

#define MAX_FRAMES 256

/* The leaf address of one sample's frames into g when it is the
 * program's and new: the leading frames with the sample's ip, perf's
 * inline list for it (no frame of a caller has that ip: a return address
 * less one is inside a call instruction, never where one starts). */
static void take_leaf(const struct frame *fr, int n, struct group *g, int *ng)
{
	int j = 0;

	while (j < n && fr[j].ip == fr[0].ip)
		j++;
	if (!n || !fr[j - 1].ours || j > 32 || *ng == MAX_GROUPS)
		return;
	for (int k = 0; k < *ng; k++)
		if (g[k].ip == fr[0].ip)
			return;
	g[*ng].ip = fr[0].ip;
	g[*ng].n = j;
	for (int k = 0; k < j; k++)
		memcpy(g[*ng].lines[k], fr[k].src, sizeof(fr[k].src));
	++*ng;
}

/* The srclines perfev prints for the frames of the program's first
 * sampled addresses (script -F ip,sym,dso,srcline: a frame line, then
 * its srcline), checked against addr2line's, frame for frame. */
static void check_addr2line(const char *file, const char *exe)
{
	static struct group g[MAX_GROUPS];
	static struct frame fr[MAX_FRAMES];
	char path[128], line[4096];
	int ng = 0, nf = 0;
	bool want_src = false;

	CHECK_EQ_INT(t_sh("%s script -F ip,sym,dso,srcline -i %s/%s > %s/sl.txt 2>/dev/null",
			  t_perfev(), dir, file, dir), 0);
	snprintf(path, sizeof(path), "%s/sl.txt", dir);
	FILE *f = fopen(path, "r");

	while (f && ng < MAX_GROUPS && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] != '\t') {
			if (want_src && !strncmp(line, "  ", 2)) {
				char *inl = strstr(line + 2, " (inlined)");

				if (inl)
					*inl = 0;
				snprintf(fr[nf - 1].src, sizeof(fr[nf - 1].src), "%.120s", line + 2);
			}
			want_src = false;
			if (!line[0]) {		/* the end of a sample */
				take_leaf(fr, nf, g, &ng);
				nf = 0;
			}
			continue;
		}
		if (nf == MAX_FRAMES)
			continue;
		/* " (/path)" at the end; C++ names hold parentheses too */
		struct frame *x = &fr[nf++];
		size_t len = strlen(line);
		const char *dso = NULL;

		for (const char *q = strstr(line, " (/"); q; q = strstr(q + 1, " (/"))
			dso = q + 1;
		x->ip = strtoull(line + 1, NULL, 16);
		x->dso = dso && line[len - 1] == ')';
		x->ours = x->dso && !strncmp(dso + 1, exe, strlen(exe)) && dso[1 + strlen(exe)] == ')';
		x->src[0] = 0;
		want_src = true;
	}
	if (f)
		fclose(f);
	CHECK_MSG(ng > 0, "%s: no frame of %s in perfev's script", file, exe);
	int checked = 0, inl = 0;

	for (int i = 0; i < ng; i++) {
		char want[32][128];
		int n = a2l_lines(exe, g[i].ip, want);
		bool ok = n == g[i].n;

		for (int k = 0; ok && k < n; k++)
			ok = !strcmp(want[k], g[i].lines[k]);
		if (!ok) {
			T_FAIL("%s 0x%llx: perfev's %d frames' srclines, from '%s' to '%s'; addr2line -i's %d, from '%s' to '%s'",
			       file, g[i].ip, g[i].n, g[i].n ? g[i].lines[0] : "", g[i].n ? g[i].lines[g[i].n - 1] : "",
			       n, n > 0 ? want[0] : "", n > 0 ? want[n - 1] : "");
			continue;
		}
		checked++;
		inl += n > 1;
	}
	printf("%s: the srclines of %d addresses of the program (%d with inline frames) are addr2line -i's\n",
	       file, checked, inl);
	CHECK_MSG(inl > 0, "%s: no sampled address of the program has inline frames", file);
}

static bool build(const char *out, const char *cxx)
{
	if (t_sh("cd %s && %s -o %s p.cpp >%s.log 2>&1", dir, cxx, out, out)) {
		T_FAIL("%s failed (see %s/%s.log)", cxx, dir, out);
		return false;
	}
	return true;
}

int main(void)
{
	char exe[128];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (access(ADDR2LINE, X_OK))
		T_SKIP("%s is not installed", ADDR2LINE);
	if (t_sh("command -v g++ >/dev/null"))
		T_SKIP("g++ is not installed");
	lang_mkdir(dir, sizeof(dir), "cxxinl");
	lang_write(dir, "p.cpp", lang_cxx_prog);
	if (t_sh("cd %s && %s record -q --call-graph dwarf -o probe.data -- true >/dev/null 2>&1",
		 dir, PERF))
		T_SKIP("perf record --call-graph dwarf cannot sample here");

	/* g++ (GNU ld) */
	if (build("gxx", "g++ -O2 -g")) {
		CHECK_EQ_INT(t_sh("cd %s && %s record -q --call-graph dwarf -o g.data -- ./gxx "
				  LANG_CXX_ROUNDS " >/dev/null 2>&1", dir, PERF), 0);
		same("g.data", "script", "", " (inlined)");
		same("g.data", "script", "-F +srcline", "stl_algo.h:");
		same("g.data", "script", "--no-inline -F +srcline", "p.cpp:");
		same("g.data", "script", "--no-demangle", "_ZN4work3runEl");
		same("g.data", "report", "--stdio --no-children -g caller --sort sym", "(inlined)");
		same("g.data", "report", "--stdio --no-children -g callee --sort sym", "(inlined)");
		same("g.data", "report", "--stdio --no-children --sort srcline -g none", "p.cpp:");
		snprintf(exe, sizeof(exe), "%s/gxx", dir);
		check_addr2line("g.data", exe);
	}

	/* clang++ linked by LLD */
	if (t_sh("command -v clang++ >/dev/null && command -v ld.lld >/dev/null")) {
		printf("clang++ or ld.lld is not installed: the clang++ -fuse-ld=lld half is skipped\n");
	} else if (build("clx", "clang++ -O2 -g -fuse-ld=lld")) {
		CHECK_EQ_INT(t_sh("cd %s && %s record -q --call-graph dwarf -o c.data -- ./clx "
				  LANG_CXX_ROUNDS " >/dev/null 2>&1", dir, PERF), 0);
		same("c.data", "script", "", " (inlined)");
		same("c.data", "script", "-F +srcline", "stl_algo.h:");
		same("c.data", "report", "--stdio --no-children -g caller --sort sym", "work::run");
		lang_cxx_children(dir, "c.data", "--stdio --children --sort sym -g none");
	}
	if (t_failures)
		printf("files kept in %s\n", dir);
	else
		t_sh("rm -rf %s", dir);
	return t_done();
}
