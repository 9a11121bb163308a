// SPDX-License-Identifier: GPL-2.0-only
/* DWARF unwinding through signal frames and PLT stubs, as perf 6.1
 * (libunwind 1.6, as Debian builds perf) prints them, byte for byte.
 *
 * A program built here (-O2 -g -fno-builtin) spends its time calling
 * labs and abs through its PLT, and in a SIGPROF handler (setitimer, every
 * 3 ms of CPU time; the handler runs for half of that, measured on the
 * thread's CPU clock: the signal comes on a tick, as cpu-clock's samples
 * do, so a short handler ran between samples on a quiet machine, and a
 * fixed amount of work, 8 ms on a slower machine, took longer than the
 * interval: the program never left its handlers):
 *  - a sample in the handler unwinds through glibc's __restore_rt, whose
 *    CFI ('S' augmentation) reads the interrupted registers from the
 *    ucontext with DW_CFA_def_cfa_expression and DW_CFA_expression.
 *    libunwind prints the handler's and __restore_rt's pcs as return
 *    addresses - 1 and the interrupted pc as it is (perfev printed the
 *    first two as they are and the third - 1);
 *  - a sample in a PLT stub steps by the .plt's CFA expression
 *    (CFA = %rsp + 8 + ((%rip & 15) >= 11) * 8);
 *  - with a restorer of its own without CFI (rt_sigaction with
 *    SA_RESTORER, "raw" mode, built with frame pointers), libunwind 1.6
 *    does not know the signal frame and guesses from %rbp, as for any
 *    code without CFI.
 * Files recorded by perf at test time; perf script and perfev script
 * print the same bytes.  The resolver then walks every sample of the
 * files through pev_chain_resolve and counts, from its internal state,
 * the samples libdwfl's walk unwound instead of perfev's libunwind-like
 * walk: none (before, every signal and PLT sample went to libdwfl). */
#include <unistd.h>

#include <linux/perf_event.h>
#include <perfev/perfev.h>

#include "testutil.h"
#include "cliutil.h"
#include "unwind/unwind_internal.h"
#include "unwind/unwind_state.h"

#define PERF "/usr/bin/perf"
#define GCC "/usr/bin/gcc"

static char dir[64];

static const char prog[] =
	"#include <signal.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"#include <sys/syscall.h>\n"
	"#include <sys/time.h>\n"
	"#include <time.h>\n"
	"#include <unistd.h>\n"
	"static volatile unsigned long sink;\n"
	"static volatile long nsig;\n"
	"__asm__(\".text\\n.align 16\\nnop\\n.align 16\\n.globl raw_restorer\\n\"\n"
	"\".type raw_restorer,@function\\nraw_restorer:\\nmov $15, %rax\\nsyscall\\nhlt\\n\"\n"
	"\".size raw_restorer, .-raw_restorer\\n\");\n"
	"void raw_restorer(void);\n"
	"__attribute__((noinline)) void in_handler(long n) { for (long i = 0; i < n; i++) sink += i; }\n"
	"static long cpu_ns(void)\n"
	"{ struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1000000000L + t.tv_nsec; }\n"
	"static void handler(int sig)\n"
	"{ long t0 = cpu_ns(); (void)sig; do in_handler(100000); while (cpu_ns() - t0 < 1500000); nsig++; }\n"
	"__attribute__((noinline)) void plt_loop(long n)\n"
	"{ for (long i = 0; i < n; i++) sink += labs(i) + abs((int)i); }\n"
	"struct ksa { void (*h)(int); unsigned long flags; void (*restorer)(void); unsigned long mask; };\n"
	"int main(int argc, char **argv)\n"
	"{ long ms = argc > 1 ? atol(argv[1]) : 100;\n"
	"  struct itimerval it = { { 0, 3000 }, { 0, 3000 } };\n"
	"  if (argc > 2) { struct ksa k = { handler, 0x04000000 | SA_RESTART, raw_restorer, 0 };\n"
	"    if (syscall(SYS_rt_sigaction, SIGPROF, &k, NULL, 8)) return 2; }\n"
	"  else { struct sigaction sa; memset(&sa, 0, sizeof(sa)); sa.sa_handler = handler;\n"
	"    sa.sa_flags = SA_RESTART; sigaction(SIGPROF, &sa, NULL); }\n"
	"  setitimer(ITIMER_PROF, &it, NULL);\n"
	"  for (long k = 0; k < ms; k++) plt_loop(1000000);\n"
	"  return 0; }\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

/* perf script and perfev script print the same bytes on file; perf's
 * output holds needle1, and needle2 or needle3. */
static void same_output(const char *file, const char *needle1, const char *needle2,
			const char *needle3)
{
	char pa[128], pb[128];
	size_t la, lb, line, start;

	CHECK_EQ_INT(t_sh("%s script -i %s/%s > %s/a.txt 2>/dev/null", t_perfev(), dir, file, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s/%s > %s/b.txt 2>/dev/null", PERF, dir, file, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	CHECK_MSG(a && b, "no output");
	if (!a || !b)
		return;
	CHECK_MSG(strstr(b, needle1), "%s: perf's output lacks '%s'", file, needle1);
	CHECK_MSG(strstr(b, needle2) || strstr(b, needle3), "%s: perf's output lacks '%s'",
		  file, needle2);
	if (t_first_diff(a, la, b, lb, &line, &start))
		T_FAIL("%s: first difference on line %zu:\nperfev: %.300s\nperf:   %.300s",
		       file, line, a + start, b + start);
	free(a);
	free(b);
}

/* Every sample of file through one resolver: how many were unwound by
 * the fast walk and how many by libdwfl's. */
static void count_walks(const char *file, uint64_t *fast, uint64_t *libdw)
{
	char path[128], err[256];
	struct pev_data_event ev;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	struct pev_data *d = pev_data_open(path, NULL, err, sizeof(err));
	struct pev_dso_cache *dc = pev_dso_cache_new(NULL);
	struct pev_machine *m = dc ? pev_machine_new(dc) : NULL;
	struct pev_chain *c = m ? pev_chain_new(m, NULL) : NULL;

	*fast = *libdw = 0;
	CHECK_MSG(d && c, "%s: %s", file, d ? "no resolver" : err);
	while (d && c && pev_data_next_ordered(d, &ev) > 0) {
		const struct pev_frame *fr;

		switch (ev.rec.type) {
		case PERF_RECORD_SAMPLE:
			CHECK(pev_chain_resolve(c, &ev.rec.u.sample, &fr) >= 0);
			break;
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2:
		case PERF_RECORD_COMM:
		case PERF_RECORD_FORK:
		case PERF_RECORD_EXIT:
			pev_machine_process(m, &ev.rec);
			break;
		}
	}
	if (c && c->uw) {
		*fast = c->uw->nr_fast;
		*libdw = c->uw->nr_libdw;
	}
	pev_chain_free(c);
	pev_machine_free(m);
	pev_dso_cache_free(dc);
	if (d)
		pev_data_close(d);
}

int main(void)
{
	char f[192];
	uint64_t fast, libdw;

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (access(GCC, X_OK))
		T_SKIP("%s is not installed", GCC);
	strcpy(dir, "/tmp/perfev-sig-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(f, sizeof(f), "%s/s.c", dir);
	write_file(f, prog);
	CHECK_EQ_INT(t_sh("cd %s && %s -O2 -g -fno-builtin -o s s.c && "
			  "%s -O2 -g -fno-builtin -fno-omit-frame-pointer -o r s.c", dir, GCC, GCC), 0);
	if (t_sh("cd %s && %s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o s.data -- ./s 150 >/dev/null 2>&1",
		 dir, PERF))
		T_SKIP("perf record --call-graph dwarf cannot sample cpu-clock here");

	/* glibc's __restore_rt and the PLT stubs. */
	/* perf names a PLT stub NAME@plt, or _init+N in some layouts. */
	same_output("s.data", "in_handler+0x", "@plt+0x", "_init+0x");
	count_walks("s.data", &fast, &libdw);
	CHECK_MSG(fast > 500 && libdw == 0, "s.data: %llu samples walked fast, %llu by libdwfl",
		  (unsigned long long)fast, (unsigned long long)libdw);

	/* A restorer without CFI: libunwind's %rbp guess. */
	CHECK_EQ_INT(t_sh("cd %s && %s record -q -e cpu-clock -c 1000000 --call-graph dwarf -o r.data -- ./r 150 raw >/dev/null 2>&1",
			  dir, PERF), 0);
	same_output("r.data", "in_handler+0x", "plt_loop+0x", "plt_loop+0x");
	count_walks("r.data", &fast, &libdw);
	CHECK_MSG(fast > 500 && libdw == 0, "r.data: %llu samples walked fast, %llu by libdwfl",
		  (unsigned long long)fast, (unsigned long long)libdw);
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_done();
}
