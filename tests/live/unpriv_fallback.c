// SPDX-License-Identifier: GPL-2.0-only
/* perf's fallback for unprivileged users: at kernel.perf_event_paranoid 2
 * an ordinary user may count and sample user space only, so perf opens an
 * event that would count the kernel too with exclude_kernel and exclude_hv
 * and names it NAME:u (evsel__fallback).  perfev stat and record do the
 * same; the names and attrs are perf's own, read from perf's output and
 * perf's reading of both files.  An event that excludes user space (':k')
 * has nothing to fall back to and stays refused, in perf and in perfev.
 * Runs as nobody through setpriv; the sysctl is restored on every exit. */
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>

#include "testutil.h"
#include "cliutil.h"

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define NOBODY "setpriv --reuid=nobody --regid=nogroup --clear-groups"

static char dir[] = "/tmp/pev_unpriv_XXXXXX";

/* Run a shell command line; stdout and stderr captured. */
static int sh_run(struct t_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sh_run(struct t_run *r, const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return t_run_argv((char *const[]){ "sh", "-c", cmd, NULL }, NULL, r);
}

/* The third field of each -x, line (the event name), joined by ' '. */
static void csv_names(const char *text, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *a = strchr(p, ','), *b = a ? strchr(a + 1, ',') : NULL;
		const char *e = b ? strchr(b + 1, ',') : NULL;
		const char *nl = strchr(p, '\n');

		if (!e || (nl && e > nl))
			continue;
		n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s%.*s", n ? " " : "",
				      (int)(e - b - 1), b + 1);
	}
}

/* The first line of 'perf evlist -v' on file, with the side-band bits
 * perf 6.1 sets for BPF (perfev does not record BPF events) removed. */
static void evlist_line(const char *file, char *out, size_t size)
{
	char *s, *nl, *k, txt[320];
	size_t n;

	snprintf(txt, sizeof(txt), "%s.evlist", file);
	CHECK_EQ_INT(t_sh("perf evlist -f -v -i %s > %s 2>/dev/null", file, txt), 0);
	if (!(s = t_slurp(txt, &n))) {
		out[0] = '\0';
		return;
	}
	if ((nl = strchr(s, '\n')))
		*nl = '\0';
	if ((k = strstr(s, ", ksymbol: 1")))
		*k = '\0';
	snprintf(out, size, "%s", s);
	free(s);
}

int main(void)
{
	const char *pe = t_perfev();
	struct t_run r, p;
	char a[512], b[512], file[300];
	long par;

	if (access("/usr/bin/setpriv", X_OK) || !getpwnam("nobody"))
		T_SKIP("setpriv or the user nobody is missing");
	if (access("/usr/bin/perf", X_OK))
		T_SKIP("perf is not installed: the oracle is missing");
	if (geteuid() != 0)
		T_SKIP("needs root to set %s", PARANOID);
	if (t_read_long(PARANOID, &par) < 0)
		T_SKIP("%s is missing", PARANOID);
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	chmod(dir, 0777);
	t_sysctl_set(PARANOID, 2);

	/* stat: the names perf gives, exit 0 for both */
	CHECK_OK(sh_run(&r, NOBODY " %s stat -x, -e task-clock,cpu-clock -- true", pe));
	CHECK_OK(sh_run(&p, NOBODY " perf stat -x, -e task-clock,cpu-clock -- true"));
	CHECK_MSG(r.exit_code == 0 && p.exit_code == 0, "exit %d (perf %d): %s", r.exit_code,
		  p.exit_code, r.err);
	csv_names(r.err, a, sizeof(a));
	csv_names(p.err, b, sizeof(b));
	CHECK_STR(b, "task-clock:u cpu-clock:u");
	CHECK_STR(a, b);
	t_run_free(&r);
	t_run_free(&p);

	/* ':k' excludes user space: no fallback, an error naming the level */
	CHECK_OK(sh_run(&r, NOBODY " %s stat -e task-clock:k -- true", pe));
	CHECK_OK(sh_run(&p, NOBODY " perf stat -e task-clock:k -- true"));
	CHECK_MSG(p.exit_code != 0, "perf took task-clock:k as nobody at paranoid 2");
	CHECK_MSG(r.exit_code == 1 && strstr(r.err, "kernel.perf_event_paranoid <= 1, and it is 2"),
		  "exit %d: %s", r.exit_code, r.err);
	t_run_free(&r);
	t_run_free(&p);

	/* record: perf's warning under -v; the attr and name perf writes */
	snprintf(file, sizeof(file), "%s/pev.data", dir);
	CHECK_OK(sh_run(&r, NOBODY " %s record -v -e cpu-clock -o %s -- true", pe, file));
	CHECK_MSG(r.exit_code == 0, "record exit %d: %s", r.exit_code, r.err);
	CHECK_MSG(strstr(r.err, "Warning:\nkernel.perf_event_paranoid=2, trying to fall back to "
			 "excluding kernel and hypervisor  samples\n"), "%s", r.err);
	t_run_free(&r);
	evlist_line(file, a, sizeof(a));
	snprintf(file, sizeof(file), "%s/perf.data", dir);
	CHECK_OK(sh_run(&p, NOBODY " perf record -q -e cpu-clock -o %s -- true", file));
	CHECK_EQ_INT(p.exit_code, 0);
	t_run_free(&p);
	evlist_line(file, b, sizeof(b));
	CHECK_MSG(strncmp(b, "cpu-clock:u: ", 13) == 0 && strstr(b, "exclude_kernel: 1, exclude_hv: 1"),
		  "perf's own: %s", b);
	CHECK_STR(a, b);

	t_sysctl_restore();
	t_sh("rm -rf %s", dir);
	return t_done();
}
