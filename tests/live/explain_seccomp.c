// SPDX-License-Identifier: GPL-2.0-only
/* perfev under a seccomp filter that refuses perf_event_open, as a
 * container runtime's profile does: tests/helpers/seccomp_deny installs
 * the filter (raw BPF, PR_SET_NO_NEW_PRIVS + seccomp(2)) and execs perfev.
 * The error must name the seccomp filter, and no other cause (exclude
 * modifiers, paranoid, a kernel without perf events). */
#include <sys/syscall.h>
#include <perfev/perfev.h>
#include "testutil.h"
#include "cliutil.h"
#include "seccomputil.h"

static char helper[512];

/* The library, live: in a child under the filter, an open fails and
 * pev_explain_detail (settings read live) must say seccomp. */
static void library_live(int err)
{
	fflush(stdout);
	pid_t p = fork();
	if (p < 0)
		T_FATAL("fork");
	if (p == 0) {
		long nr = SYS_perf_event_open;
		int r = t_seccomp_deny(err, &nr, 1);
		if (r < 0) {
			printf("cannot install the filter: %s\n", strerror(-r));
			_exit(77);
		}
		struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
					     .config = PERF_COUNT_SW_CPU_CLOCK, .disabled = 1,
					     .exclude_guest = 1, .exclude_hv = 1 };
		int fd = pev_sys_open(&a, -1, 0, -1, 0);
		CHECK_EQ_INT(fd, -err);
		struct pev_explain_ctx c = { .size = sizeof(c), .attr = &a, .pid = -1, .cpu = 0,
					     .group_fd = -1, .first_unknown_offset = -1 };
		struct pev_explanation e;
		int k = pev_explain_detail(fd, &c, &e);
		printf("library, %s: %s; %s\n", strerror(err), e.reason, e.remedy);
		CHECK_MSG(k == PEV_EXPLAIN_SECCOMP, "library, %s: kind %s", strerror(err),
			  pev_explain_kind_name(k));
		struct pev_system_settings s;
		pev_system_settings_read(&s);
		CHECK_EQ_INT(s.seccomp_mode, 2);
		CHECK(s.seccomp_filters >= 1);
		CHECK_EQ_INT(s.probe_err, err);
		fflush(stdout);
		_exit(t_failures ? 1 : 0);
	}
	int st;
	waitpid(p, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
		T_SKIP("seccomp filters cannot be installed here");
	CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "library child, %s: status 0x%x",
		  strerror(err), st);
}

static void check_line(const char *what, const struct t_run *r, const char *errname)
{
	char want[64];

	printf("%s: exit %d: %s", what, r->exit_code, r->err);
	CHECK_MSG(r->exit_code == 1, "%s: exit %d, expected 1", what, r->exit_code);
	CHECK_MSG(strstr(r->err, "perfev: error: cannot open '"), "%s: no error line", what);
	CHECK_MSG(strstr(r->err, "blocked by a seccomp filter"), "%s: seccomp not named", what);
	snprintf(want, sizeof(want), "gets %s", errname);
	CHECK_MSG(strstr(r->err, want), "%s: '%s' missing", what, want);
	CHECK_MSG(strstr(r->err, "allow perf_event_open"), "%s: no remedy", what);
	/* Another cause's words must not appear. */
	CHECK_MSG(!strstr(r->err, "exclude") && !strstr(r->err, "':u'"),
		  "%s: blames the exclude modifiers", what);
	CHECK_MSG(!strstr(r->err, "paranoid"), "%s: blames perf_event_paranoid", what);
	CHECK_MSG(!strstr(r->err, "CONFIG_PERF_EVENTS"), "%s: blames the kernel config", what);
	/* One error line, not one per event or CPU. */
	const char *p = strstr(r->err, "perfev: error:");
	CHECK_MSG(p && !strstr(p + 1, "perfev: error:"), "%s: more than one error line", what);
}

static void run(const char *errname, const char *what, char *const argv[])
{
	char *full[32];
	struct t_run r;
	int n = 0;

	full[n++] = helper;
	full[n++] = (char *)errname;
	full[n++] = "perf_event_open";
	full[n++] = "--";
	for (int i = 0; argv[i] && n < 31; i++)
		full[n++] = argv[i];
	full[n] = NULL;
	if (t_run_argv(full, NULL, &r) < 0)
		T_FATAL("cannot run %s", helper);
	if (r.exit_code == 126)
		T_SKIP("seccomp filters cannot be installed here: %s", r.err);
	char label[128];
	snprintf(label, sizeof(label), "%s under %s", what, errname);
	check_line(label, &r, errname);
	t_run_free(&r);
}

int main(void)
{
	const char *b = getenv("PERFEV_BUILD");
	char data[] = "/tmp/pev_seccomp_XXXXXX";

	snprintf(helper, sizeof(helper), "%s/tests/helpers/seccomp_deny", b && *b ? b : "build");
	/* Independent probe: the kernel reports seccomp support in status. */
	size_t len;
	char *st = t_slurp("/proc/self/status", &len);
	if (!strstr(st, "\nSeccomp:"))
		T_SKIP("kernel without CONFIG_SECCOMP (no Seccomp: in /proc/self/status)");
	free(st);
	st = NULL;
	int fd = mkstemp(data);
	if (fd < 0)
		T_FATAL("mkstemp");
	close(fd);

	/* The settings agree with /proc/self/status and with a raw open of
	 * the probe's event, both done here. */
	struct pev_system_settings set;
	pev_system_settings_read(&set);
	st = t_slurp("/proc/self/status", &len);
	CHECK_EQ_INT(set.seccomp_mode, atoi(strstr(st, "\nSeccomp:") + 9));
	free(st);
	struct perf_event_attr pa = { .size = sizeof(pa), .type = PERF_TYPE_SOFTWARE,
				      .config = PERF_COUNT_SW_TASK_CLOCK, .disabled = 1,
				      .exclude_kernel = 1, .exclude_hv = 1 };
	long pfd = syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0);
	CHECK_EQ_INT(set.probe_err, pfd < 0 ? errno : 0);
	if (pfd >= 0)
		close((int)pfd);
	library_live(EPERM);
	library_live(ENOSYS);

	static const char *const errs[] = { "EPERM", "ENOSYS" };
	for (int i = 0; i < 2; i++) {
		char *pe = (char *)t_perfev();
		run(errs[i], "stat task-clock",
		    (char *[]){ pe, "stat", "-e", "task-clock", "--", "true", NULL });
		run(errs[i], "stat task-clock:u",
		    (char *[]){ pe, "stat", "-e", "task-clock:u", "--", "true", NULL });
		run(errs[i], "stat -a",
		    (char *[]){ pe, "stat", "-a", "-e", "cpu-clock", "--", "true", NULL });
		run(errs[i], "record",
		    (char *[]){ pe, "record", "-o", data, "--", "true", NULL });
		run(errs[i], "record task-clock:u",
		    (char *[]){ pe, "record", "-o", data, "-e", "task-clock:u", "--", "true", NULL });
	}
	unlink(data);
	return t_done();
}
