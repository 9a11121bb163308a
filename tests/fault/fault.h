/* SPDX-License-Identifier: GPL-2.0-only */
/* Fault injection harness: each case runs one perfev command under
 * `strace -f -e inject=...` (Debian's strace 6.1), in its own directory and
 * process group, under a watchdog, and checks the rules every command keeps
 * whatever fails under it:
 *   - never a hang: a case still running at its limit is killed (SIGKILL to
 *     its process group) and FAILS;
 *   - never a crash: no death by signal, no sanitizer report on stderr;
 *   - exit 0 only when nothing was lost: the counts are printed, a file or
 *     stream is read by perf with as many samples as perfev's summary says,
 *     a script output is perf script's;
 *   - a failure is one line `perfev: error: ...` naming the operation and the
 *     errno text (each '|'-separated word of the case's `say`);
 *   - where a fallback exists (EINTR and EAGAIN retried, no pidfd) it is
 *     taken: those cases want exit 0.
 *
 * Words in a case's strings: @P perfev, @D the case's directory, @H the test
 * helpers (build/tests/helpers), @I the shared inputs made by fx_setup. */
#ifndef PEV_FAULT_H
#define PEV_FAULT_H

#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <time.h>

#include "cliutil.h"
#include "testutil.h"

enum fx_want {
	FX_OK = 1,	/* exit 0, the fallback or retry was taken */
	FX_ERR,		/* exit != 0 with one error line */
	FX_ANY,		/* either, each checked by its own rule */
};

enum fx_check {
	C_STAT = 1 << 0,	/* exit 0: the counts of task-clock are printed */
	C_FILE = 1 << 1,	/* @D/perf.data must be read by perf (see fx_check_data) */
	C_PIPE = 1 << 2,	/* @D/out is a pipe-mode stream; same rule */
	C_SCRIPT = 1 << 3,	/* exit 0: @D/out is perf script's output of the input */
	C_LIST = 1 << 4,	/* exit 0: stdout lists task-clock */
	C_WARN = 1 << 5,	/* exit 0 still needs a warning line with `say` */
	C_MNTNS = 1 << 6,	/* run in a private mount namespace (unshare -m) */
	C_SCRIPTP = 1 << 7,	/* exit 0: @D/out is perf script's output of @I/in.pipe */
	C_OLD = 1 << 8,		/* @D/perf.data still holds "old" (the pre's) */
	C_SPIN30 = 1 << 9,	/* exit 0: task-clock of record_work -m 30 (see fx_run) */
};

struct fx_case {
	const char *name;
	const char *strace;	/* strace options: -e inject=..., -P path */
	const char *cmd;	/* the command strace runs (redirections allowed) */
	enum fx_want want;
	const char *say;	/* words the error line must hold, '|'-separated */
	unsigned check;
	const char *pre;	/* shell run first in @D, or NULL */
};

static char fx_root[256], fx_helpers[512], fx_perfev[512];
static int fx_limit_s = 20;
/* openat and read calls the dynamic loader makes before perfev's main (a
 * sanitizer build loads more libraries): @O<n> and @R<n> in a case are the
 * n-th call after them, so that a fault meant for perfev hits perfev. */
static int fx_ld_openat, fx_ld_read;

static inline double fx_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* s with @P, @D, @H, @I replaced (static buffer, one at a time per slot). */
static inline char *fx_subst(const char *s, const char *dir, char *out, size_t cap)
{
	size_t n = 0;

	for (; s && *s && n + 1 < cap; s++) {
		const char *rep = NULL;

		if (s[0] == '@' && (s[1] == 'O' || s[1] == 'R')) {
			char *end;
			long k = strtol(s + 2, &end, 10);

			n += (size_t)snprintf(out + n, cap - n, "%ld",
					      k + (s[1] == 'O' ? fx_ld_openat : fx_ld_read));
			if (n >= cap)
				n = cap - 1;
			s = end - 1;
			continue;
		}
		if (s[0] == '@' && s[1]) {
			switch (s[1]) {
			case 'P': rep = fx_perfev; break;
			case 'D': rep = dir; break;
			case 'H': rep = fx_helpers; break;
			case 'I': rep = fx_root; break;
			}
		}
		if (rep) {
			n += (size_t)snprintf(out + n, cap - n, "%s", rep);
			if (n >= cap)
				n = cap - 1;
			s++;
			continue;
		}
		out[n++] = *s;
	}
	out[n] = 0;
	return out;
}

/* The program's scratch root, the paths of perfev and the helpers, and a
 * check that strace can inject here (else skip: an independent probe). */
static inline void fx_init(void)
{
	const char *b = getenv("PERFEV_BUILD");

	if (!realpath(t_perfev(), fx_perfev))
		T_SKIP("perfev binary %s not found", t_perfev());
	snprintf(fx_helpers, sizeof(fx_helpers), "%s/tests/helpers", b && *b ? b : "build");
	char tmp[512];
	if (realpath(fx_helpers, tmp))
		snprintf(fx_helpers, sizeof(fx_helpers), "%s", tmp);
	snprintf(fx_root, sizeof(fx_root), "/tmp/perfev-fault-XXXXXX");
	if (!mkdtemp(fx_root))
		T_FATAL("mkdtemp: %s", strerror(errno));
	if (t_sh("strace -V >/dev/null 2>&1") != 0)
		T_SKIP("strace is not installed (scripts/deps.sh installs it)");
	if (t_sh("strace -f -qq -o /dev/null -e inject=getpid:error=EIO true") != 0)
		T_SKIP("strace cannot trace here (ptrace refused)");
	char tr[300];
	snprintf(tr, sizeof(tr), "%s/loader.trace", fx_root);
	if (t_sh("ASAN_OPTIONS=detect_leaks=0 strace -qq -o %s -e trace=openat,read %s version >/dev/null",
		 tr, fx_perfev) != 0)
		T_FATAL("cannot trace '%s version'", fx_perfev);
	FILE *f = fopen(tr, "r");
	char ln[512];
	while (f && fgets(ln, sizeof(ln), f)) {
		fx_ld_openat += !strncmp(ln, "openat(", 7);
		fx_ld_read += !strncmp(ln, "read(", 5);
	}
	if (f)
		fclose(f);
	const char *l = getenv("FAULT_LIMIT");
	if (l && atoi(l) > 0)
		fx_limit_s = atoi(l);
}

static inline void fx_cleanup(void)
{
	if (!getenv("KEEP"))
		t_sh("rm -rf '%s'", fx_root);
	else
		printf("kept %s\n", fx_root);
}

/* Run a shell line in its own process group under the watchdog.  Returns
 * the raw wait status, or -1 when it hung (then it was SIGKILLed). */
static inline int fx_watch(const char *line, bool mntns, int limit_s, double *took)
{
	double t0 = fx_now();
	pid_t pid = fork();

	if (pid < 0)
		T_FATAL("fork: %s", strerror(errno));
	if (pid == 0) {
		setpgid(0, 0);
		if (mntns)
			execlp("unshare", "unshare", "-m", "--propagation", "private",
			       "/bin/sh", "-c", line, (char *)NULL);
		else
			execl("/bin/sh", "sh", "-c", line, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	for (;;) {
		int st;
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid) {
			*took = fx_now() - t0;
			kill(-pid, SIGKILL);	/* nothing of the case outlives it */
			return st;
		}
		if (fx_now() - t0 > limit_s) {
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			*took = fx_now() - t0;
			return -1;
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

/* The number N of "(N samples)" in perfev record's summary, or -1. */
static inline long fx_summary_samples(const char *err)
{
	const char *p = strstr(err, "samples) ]");
	if (!p)
		return -1;
	while (p > err && p[-1] != '(')
		p--;
	return strtol(p, NULL, 10);
}

/* perf reads the file (or stream) without complaint, and finds as many
 * samples as perfev said it wrote. */
static inline bool fx_check_data(const char *name, const char *dir, const char *file,
				 const char *err)
{
	char cmd[1024];
	struct t_run r;

	snprintf(cmd, sizeof(cmd), "%s/%s", dir, file);
	if (t_run_argv((char *const[]){ "perf", "script", "-i", cmd, "-F", "ip", NULL },
		       NULL, &r) < 0)
		T_FATAL("cannot run perf");
	bool ok = true;
	if (r.exit_code != 0 || strstr(r.err, "WARNING") || strstr(r.err, "rror")) {
		T_FAIL("%s: perf script cannot read %s (exit %d): %.300s", name, file,
		       r.exit_code, r.err);
		ok = false;
	} else {
		long want = fx_summary_samples(err);
		long got = 0;
		for (const char *p = r.out; *p; p++)
			got += *p == '\n';
		if (want < 0 && strstr(err, "perfev: error:") == NULL) {
			T_FAIL("%s: no summary line on stderr: %.300s", name, err);
			ok = false;
		} else if (want >= 0 && want != got) {
			T_FAIL("%s: summary says %ld samples, perf reads %ld in %s", name, want,
			       got, file);
			ok = false;
		}
	}
	t_run_free(&r);
	return ok;
}

/* The error line: exactly one `perfev: error:` line, holding every word. */
static inline bool fx_check_say(const char *name, const char *err, const char *say,
				const char *kind)
{
	char tag[32];
	snprintf(tag, sizeof(tag), "perfev: %s:", kind);
	const char *line = strstr(err, tag);
	if (!line) {
		T_FAIL("%s: no '%s' line; stderr: %.400s", name, tag, err);
		return false;
	}
	if (!strcmp(kind, "error") && strstr(line + 1, tag)) {
		T_FAIL("%s: more than one error line: %.400s", name, err);
		return false;
	}
	/* the line and the caret lines under it (an event's error) */
	size_t len = strcspn(line, "\n");
	while (line[len] == '\n' && line[len + 1] && strncmp(line + len + 1, "perfev:", 7) &&
	       strncmp(line + len + 1, "[ perfev", 8))
		len += 1 + strcspn(line + len + 1, "\n");
	char words[256];
	snprintf(words, sizeof(words), "%s", say ? say : "");
	for (char *sv, *w = strtok_r(words, "|", &sv); w; w = strtok_r(NULL, "|", &sv)) {
		const char *hit = strcasestr(line, w);
		if (!hit || hit >= line + len) {
			T_FAIL("%s: the %s line lacks \"%s\": %.*s", name, kind, w, (int)len, line);
			return false;
		}
	}
	return true;
}

static int fx_case_no;

/* Run one case and check it; prints one line per case. */
static inline void fx_run(const struct fx_case *c)
{
	char dir[512], line[8192], pre[1024], strace[1024], cmd[2048];
	int before = t_failures;

	snprintf(dir, sizeof(dir), "%s/c%03d", fx_root, ++fx_case_no);
	mkdir(dir, 0700);
	fx_subst(c->pre, dir, pre, sizeof(pre));
	fx_subst(c->strace, dir, strace, sizeof(strace));
	fx_subst(c->cmd, dir, cmd, sizeof(cmd));
	snprintf(line, sizeof(line),
		 /* LeakSanitizer cannot run under ptrace: no leak check here */
		 "cd '%s' && { %s%s export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\";"
		 " exec strace -f -qq -o /dev/null %s %s >'%s/out' 2>'%s/err'; }",
		 dir, pre, c->pre ? ";" : "", strace, cmd, dir, dir);
	double took;
	int st = fx_watch(line, c->check & C_MNTNS, fx_limit_s, &took);
	size_t len;
	char ep[600];
	snprintf(ep, sizeof(ep), "%s/err", dir);
	char *err = t_slurp(ep, &len);
	snprintf(ep, sizeof(ep), "%s/out", dir);
	char *out = t_slurp(ep, &len);
	int rc = st < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	if (st < 0) {
		T_FAIL("%s: HANG: still running after %d s, killed: %s", c->name, fx_limit_s, line);
		goto done;
	}
	if (WIFSIGNALED(st)) {
		T_FAIL("%s: CRASH: died of signal %d (%s); stderr: %.400s", c->name,
		       WTERMSIG(st), strsignal(WTERMSIG(st)), err);
		goto done;
	}
	if (strstr(err, "Sanitizer") || strstr(err, "runtime error:")) {
		T_FAIL("%s: sanitizer report: %.600s", c->name, err);
		goto done;
	}
	if (c->want == FX_OK && rc != 0) {
		T_FAIL("%s: exit %d, want 0 (fallback or retry); stderr: %.400s", c->name, rc, err);
		goto done;
	}
	if (c->want == FX_ERR && rc == 0) {
		T_FAIL("%s: exit 0 although the injected fault is fatal; stderr: %.400s", c->name, err);
		goto done;
	}
	if (rc != 0) {
		if (!fx_check_say(c->name, err, c->say, "error"))
			goto done;
	} else if (c->check & C_WARN) {
		if (!fx_check_say(c->name, err, c->say, "warning"))
			goto done;
	}
	if (rc == 0 && (c->check & C_STAT) &&
	    (!strstr(err, "Performance counter stats") || !strstr(err, " msec task-clock") ||
	     strstr(err, "<not counted> msec task-clock")))
		T_FAIL("%s: exit 0 without the counts: %.400s", c->name, err);
	if (rc == 0 && (c->check & C_SPIN30)) {
		/* The workload spins 30 ms of its own CPU time, a lower bound
		 * for task-clock; under strace both perf and perfev read up to
		 * a third less at times (the ptrace stops at each of its
		 * clock_gettime calls), so only half is required: what a
		 * retry that lost the counts would fall below. */
		const char *m = strstr(err, " msec task-clock");
		const char *b = m;
		while (b && b > err && b[-1] != ' ')
			b--;
		double ms = b ? strtod(b, NULL) : 0;
		if (ms < 15.0)
			T_FAIL("%s: task-clock %.2f msec, the workload spun 30 msec", c->name, ms);
	}
	if (rc == 0 && (c->check & C_LIST) && !strstr(out, "task-clock"))
		T_FAIL("%s: exit 0 but the list lacks task-clock (%zu bytes)", c->name, len);
	/* A file or stream: when perfev says it was written (exit 0, or the
	 * "cut back" message), perf must read all it says is there. */
	bool claims = rc == 0 || strstr(err, "cut back");
	if (c->check & C_OLD) {
		char op[600];
		size_t ol;
		snprintf(op, sizeof(op), "%s/perf.data", dir);
		char *old = t_slurp(op, &ol);
		if (strcmp(old, "old\n"))
			T_FAIL("%s: the existing perf.data was not kept (%zu bytes now)", c->name, ol);
		free(old);
	}
	if ((c->check & C_FILE) && claims)
		fx_check_data(c->name, dir, "perf.data", err);
	if ((c->check & C_PIPE) && claims)
		fx_check_data(c->name, dir, "out", err);
	if (rc == 0 && (c->check & (C_SCRIPT | C_SCRIPTP))) {
		char rp[600];
		size_t rl;
		snprintf(rp, sizeof(rp), "%s/expect.%s", fx_root,
			 c->check & C_SCRIPT ? "data" : "pipe");
		char *want = t_slurp(rp, &rl);
		if (strcmp(want, out))
			T_FAIL("%s: exit 0 but the output differs from perf script's (%zu bytes, want %zu)",
			       c->name, strlen(out), rl);
		free(want);
	}
done:
	printf("%s %-44s exit %3d %5.2fs  %s\n", t_failures == before ? "ok  " : "FAIL", c->name,
	       rc, took, strchr(err, '\n') ? "" : err);
	if (t_failures != before || getenv("V")) {
		printf("      %s\n", line);
		char *l1 = strstr(err, "perfev:");
		if (l1)
			printf("      %.*s\n", (int)strcspn(l1, "\n"), l1);
	}
	fflush(stdout);
	free(err);
	free(out);
}

static inline int fx_run_all(const struct fx_case *cs, size_t n)
{
	const char *only = getenv("ONLY");

	for (size_t i = 0; i < n; i++)
		if (!only || strstr(cs[i].name, only))
			fx_run(&cs[i]);
	fx_cleanup();
	return t_done();
}

#endif
