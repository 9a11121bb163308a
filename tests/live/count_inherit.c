// SPDX-License-Identifier: GPL-2.0-only
/* inherit: a forked child's tracepoint hits are counted with inherit=1
 * (the default for task targets) and not with inherit=0; exact.  Also with
 * a group (GROUP read + inherit where this kernel allows it, else per-fd
 * reads) the sums are exact. */
#include <sys/wait.h>
#include "count_util.h"

static void child_calls(long n)
{
	pid_t pid = fork();

	if (pid == 0) {
		call_getppid(n);
		_exit(0);
	}
	CHECK(pid > 0);
	CHECK(waitpid(pid, NULL, 0) == pid);
}

int main(void)
{
	struct perf_event_attr a = tp_attr("syscalls", "sys_enter_getppid");
	struct perf_event_attr b = tp_attr("syscalls", "sys_enter_getpid");
	struct pev_target *t = pev_target_new_self();

	for (int inherit = 0; inherit < 2; inherit++) {
		struct pev_counters *c = new_set(t, !inherit);

		CHECK_EQ_INT(pev_counters_add(c, &a, "getppid", -1), 0);
		CHECK_EQ_INT(pev_counters_add(c, &a, "g-getppid", -1), 1);
		CHECK_EQ_INT(pev_counters_add(c, &b, "g-getpid", 1), 2);
		open_or_skip(c, &a, 0, -1);
		CHECK_EQ_INT(pev_counters_attr(c, 0)->inherit, inherit);
		if (inherit)
			printf("inherit with a group: %s\n",
			       (pev_counters_attr(c, 1)->read_format & PERF_FORMAT_GROUP) ?
			       "GROUP read" : "each fd read");
		CHECK_OK(pev_counters_enable(c));
		call_getppid(10);
		child_calls(200);
		pid_t pid = fork();
		if (pid == 0) {
			call_getpid(33);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
		CHECK_OK(pev_counters_disable(c));
		CHECK_OK(pev_counters_read(c));
		CHECK_EQ_U64(total(c, 0), inherit ? 210 : 10);
		CHECK_EQ_U64(total(c, 1), inherit ? 210 : 10);
		CHECK_EQ_U64(total(c, 2), inherit ? 33 : 0);
		pev_counters_free(c);
	}
	pev_target_free(t);
	return t_done();
}
