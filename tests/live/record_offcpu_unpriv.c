// SPDX-License-Identifier: GPL-2.0-only
/* perfev record --off-cpu as an unprivileged user (nobody, 65534): it works
 * wherever the tracepoint is allowed, and otherwise says what to change.
 * The test runs as root and changes, each for a few seconds and put back
 * on every exit path (exit, fatal check, signal), the permissions of
 * tracefs and kernel.perf_event_paranoid:
 * - tracefs unreadable by nobody (its usual 0700): exit 1, one error line
 *   with the chmod commands that open the tracepoint's id and the formats
 *   the file needs (then done as it says for the next two);
 * - tracefs readable, perf_event_paranoid 2: exit 1, one error line naming
 *   the sysctl and the value to set (perfev's user-space-only fallback
 *   would open the tracepoint, but it never fires in user space);
 * - perf_event_paranoid 1: the recording works, and perf script finds the
 *   1 s (+-5%) of oc_sleep_200ms. */
#include <signal.h>
#include <sys/stat.h>

#include "offcpu_util.h"

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define TFS "/sys/kernel/tracing"
#define TP_ID TFS "/events/sched/sched_switch/id"
/* what the error asks to open, as it says (events/...) */
static const char *const files[] = { "header_page", "header_event",
	"sched/sched_switch/id", "sched/sched_switch/format" };

static char dir[64];
static mode_t tfs_mode, modes[4];
static bool chmodded;
static pid_t owner;

static const char *path(const char *f)
{
	static char p[256];

	snprintf(p, sizeof(p), TFS "/events/%s", f);
	return p;
}

static void modes_restore(void)
{
	if (!chmodded || getpid() != owner)
		return;
	chmod(TFS, tfs_mode);
	for (int i = 0; i < 4; i++)
		chmod(path(files[i]), modes[i]);
	chmodded = false;
}

static void on_signal(int sig)
{
	modes_restore();
	t_sysctl_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static char *slurp_in_dir(const char *name)
{
	char p[128];
	size_t len;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	char *s = t_slurp(p, &len);

	return s ? s : strdup("");
}

/* perfev record --off-cpu as nobody; its exit code, stderr in err.txt. */
static int record_as_nobody(const char *opts)
{
	return t_sh("HOME=%s setpriv --reuid=65534 --regid=65534 --clear-groups -- "
		    "%s record -q -N --off-cpu %s -o %s/u.data -- %s > %s/out.txt 2> %s/err.txt",
		    dir, t_perfev(), opts, dir, oc_work(), dir, dir);
}

static bool nobody_reads_id(void)
{
	return t_sh("setpriv --reuid=65534 --regid=65534 --clear-groups -- "
		    "cat " TP_ID " > /dev/null 2>&1") == 0;
}

static void one_line_error(const char *err, const char *what)
{
	CHECK_MSG(!strncmp(err, "perfev: error: ", 15) &&
		  strchr(err, '\n') == err + strlen(err) - 1, "%s: %s", what, err);
}

int main(void)
{
	struct stat st;

	if (geteuid() != 0)
		T_SKIP("needs root (to drop to nobody and to change tracefs modes)");
	if (access(OC_PERF, X_OK) || access("/usr/bin/setpriv", X_OK))
		T_SKIP("%s or setpriv is not installed", OC_PERF);
	if (stat(TFS, &st) || access(TP_ID, R_OK))
		T_SKIP("no sched:sched_switch under " TFS);
	tfs_mode = st.st_mode & 07777;
	for (int i = 0; i < 4; i++) {
		if (stat(path(files[i]), &st))
			T_FATAL("stat %s", path(files[i]));
		modes[i] = st.st_mode & 07777;
	}
	owner = getpid();
	atexit(modes_restore);
	strcpy(dir, "/tmp/perfev-offcpu-u-XXXXXX");
	if (!mkdtemp(dir) || chmod(dir, 0777))
		T_FATAL("mkdtemp");

	/* 1: tracefs closed to nobody (as this machine has it, or not). */
	if (!nobody_reads_id()) {
		int rc = record_as_nobody("");
		char *err = slurp_in_dir("err.txt");

		printf("tracefs closed: exit %d: %s", rc, err);
		CHECK_EQ_INT(rc, 1);
		one_line_error(err, "tracefs closed");
		CHECK_MSG(strstr(err, "cannot be read (permission denied)") &&
			  strstr(err, "'chmod o+x " TFS " && cd " TFS "/events && chmod o+r "
				 "header_page header_event sched/sched_switch/id "
				 "sched/sched_switch/format'"), "tracefs closed: %s", err);
		free(err);
	} else {
		printf("tracefs closed: not tested, nobody can read " TP_ID " here\n");
	}

	/* 2 and 3: tracefs opened as the error said; paranoid 2, then 1. */
	t_sysctl_set(PARANOID, 2);	/* hooks t_sysctl_restore first */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	chmodded = true;
	if (chmod(TFS, tfs_mode | 0001))
		T_FATAL("chmod: %s", strerror(errno));
	for (int i = 0; i < 4; i++)
		if (chmod(path(files[i]), modes[i] | 0004))
			T_FATAL("chmod %s: %s", path(files[i]), strerror(errno));
	CHECK(nobody_reads_id());
	int rc = record_as_nobody("-e cpu-clock");
	char *err = slurp_in_dir("err.txt");

	printf("paranoid 2: exit %d: %s", rc, err);
	CHECK_EQ_INT(rc, 1);
	one_line_error(err, "paranoid 2");
	CHECK_MSG(strstr(err, "kernel.perf_event_paranoid is 2") &&
		  strstr(err, "'sysctl -w kernel.perf_event_paranoid=1'"), "paranoid 2: %s", err);
	free(err);

	t_sysctl_set(PARANOID, 1);
	rc = record_as_nobody("");
	modes_restore();
	t_sysctl_restore();
	err = slurp_in_dir("err.txt");
	CHECK_MSG(rc == 0, "paranoid 1: exit %d: %s", rc, err);
	free(err);
	if (rc == 0) {
		struct oc_sum s = { .fn = "oc_sleep_200ms" };

		CHECK_EQ_INT(t_sh(OC_PERF " script -f " OC_FIELDS " -i %s/u.data > %s/s.txt 2>/dev/null",
				  dir, dir), 0);
		char *txt = slurp_in_dir("s.txt");

		oc_parse(txt, &s, 1);
		printf("paranoid 1, as nobody: %u samples, %llu ns on %s\n", s.samples,
		       (unsigned long long)s.ns, s.fn);
		CHECK_EQ_INT(s.samples, 5);
		char *wout = slurp_in_dir("out.txt");
		long tid;
		uint64_t slept = 0;

		CHECK(oc_slept(wout, s.fn, &tid, &slept) == 0);
		CHECK_MSG(oc_expected(s.ns, 1000000000, slept), "%llu ns, not 1 s +-5%%",
			  (unsigned long long)s.ns);
		free(wout);
		free(txt);
	}
	CHECK(stat(TFS, &st) == 0 && (st.st_mode & 07777) == tfs_mode);
	t_sh("rm -rf %s", dir);
	return t_done();
}
