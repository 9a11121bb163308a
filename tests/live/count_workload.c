// SPDX-License-Identifier: GPL-2.0-only
/* A launched command is counted from its exec on: getppid calls the child
 * makes before exec (after the counters were opened on it) do not count,
 * the M calls of the exec'd program count exactly.  Its exit status and
 * death by signal come back; an exec failure is reported as an errno. */
#include <signal.h>
#include <sys/wait.h>
#include "count_util.h"

static void before_exec(void *arg)
{
	call_getppid((long)(intptr_t)arg);
}

static char helper[512];

/* Run the helper with args; return the count and *status. */
static uint64_t run(const char *n, const char *code, const char *sig, int *status)
{
	char *argv[] = { helper, (char *)n, (char *)code, (char *)sig, NULL };
	struct pev_workload_opts o = { .size = sizeof(o), .child_setup = before_exec,
				       .child_arg = (void *)(intptr_t)500 };
	struct pev_workload *w = pev_workload_new(argv, &o);
	CHECK(w != NULL && pev_workload_pid(w) > 0);
	struct pev_target *t = pev_target_new_workload(w);
	CHECK(t != NULL);
	CHECK_EQ_INT(pev_target_kind(t), PEV_TARGET_WORKLOAD);
	CHECK(pev_target_workload(t) == w);
	CHECK_EQ_INT(pev_target_thread(t, 0), pev_workload_pid(w));
	struct pev_counters *c = new_set(t, false);
	struct perf_event_attr a = tp_attr("syscalls", "sys_enter_getppid");
	CHECK_EQ_INT(pev_counters_add(c, &a, "getppid", -1), 0);
	open_or_skip(c, &a, pev_workload_pid(w), -1);
	CHECK(pev_counters_attr(c, 0)->enable_on_exec == 1);
	CHECK(pev_counters_attr(c, 0)->disabled == 1);
	CHECK_OK(pev_workload_start(w));
	CHECK_EQ_INT(pev_workload_start(w), -EALREADY);
	CHECK_OK(pev_workload_wait(w, status));
	int again = -1;
	CHECK_OK(pev_workload_wait(w, &again));
	CHECK_EQ_INT(again, *status);
	CHECK_EQ_INT(pev_workload_kill(w, SIGTERM), -ESRCH);
	CHECK_OK(pev_counters_read(c));
	uint64_t v = total(c, 0);
	pev_counters_free(c);
	pev_target_free(t);
	pev_workload_free(w);
	return v;
}

int main(void)
{
	const char *build = getenv("PERFEV_BUILD");
	int st = -1;

	snprintf(helper, sizeof(helper), "%s/tests/helpers/getppid_loop", build ? build : "build");
	if (access(helper, X_OK) < 0)
		T_FATAL("helper %s missing (run from the repository root)", helper);
	/* The helper's own start-up calls (the sanitizer runtimes call
	 * getppid; a plain build makes none) are counted too: they come after
	 * the exec.  Measure them with M = 0; they stay far below the 500
	 * calls the child makes before exec, which must never count. */
	uint64_t base = run("0", "0", NULL, &st);
	CHECK_MSG(base < 10, "helper with M=0 counted %" PRIu64, base);
	CHECK_EQ_U64(run("0", "0", NULL, &st), base);
	/* Exactly M (+ the start-up calls), not M + 500. */
	CHECK_EQ_U64(run("321", "0", NULL, &st), 321 + base);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ_U64(run("1000", "7", NULL, &st), 1000 + base);
	CHECK_EQ_INT(pev_wait_status_code(st), 7);
	/* Killed by a signal, it skips the exit path (where the sanitizer
	 * runtimes make their calls): exact in a plain build (base 0). */
	uint64_t v = run("5", "0", "15", &st);
	CHECK_MSG(v >= 5 && v <= 5 + base, "signalled helper counted %" PRIu64, v);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	CHECK_EQ_INT(pev_wait_status_code(st), 128 + SIGTERM);

	/* exec failure: a clear errno, and the child is reaped (status 127). */
	char *missing[] = { "/nonexistent/perfev-no-such-command", NULL };
	struct pev_workload *w = pev_workload_new(missing, NULL);
	CHECK(w != NULL);
	CHECK_EQ_INT(pev_workload_start(w), -ENOENT);
	CHECK_OK(pev_workload_wait(w, &st));
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 127);
	pev_workload_free(w);
	char *noexec[] = { "/etc/passwd", NULL };
	w = pev_workload_new(noexec, NULL);
	CHECK(w != NULL);
	CHECK_EQ_INT(pev_workload_start(w), -EACCES);
	pev_workload_free(w);

	/* Never started: free kills and reaps it. */
	char *sleeper[] = { "sleep", "100", NULL };
	w = pev_workload_new(sleeper, NULL);
	CHECK(w != NULL);
	pid_t pid = pev_workload_pid(w);
	CHECK_OK(pev_workload_poll(w, &st) == 0 ? 0 : -1);
	pev_workload_free(w);
	CHECK(waitpid(pid, &st, WNOHANG) < 0 && errno == ECHILD);

	/* Started, signalled. */
	w = pev_workload_new(sleeper, NULL);
	CHECK_OK(pev_workload_start(w));
	CHECK_OK(pev_workload_kill(w, SIGKILL));
	CHECK_OK(pev_workload_wait(w, &st));
	CHECK_EQ_INT(pev_wait_status_code(st), 137);
	pev_workload_free(w);

	char *empty[] = { NULL };
	errno = 0;
	CHECK(pev_workload_new(empty, NULL) == NULL && errno == EINVAL);
	return t_done();
}
