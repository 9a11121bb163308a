// SPDX-License-Identifier: GPL-2.0-only
/* poll() on a ring: POLLIN after one sample with wakeup_events = 1, and
 * POLLHUP when the monitored child exits. */
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <perfev/perfev.h>
#include "ring_live.h"

int main(void)
{
	int go[2];
	CHECK(pipe(go) == 0);
	pid_t child = fork();
	if (child == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		busy_ms(100);
		/* Wait for the parent's word to exit. */
		if (read(go[0], &c, 1) != 1)
			_exit(0);
		_exit(0);
	}
	close(go[0]);

	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000000;	/* 1 ms */
	a.sample_type = PERF_SAMPLE_IP;
	a.exclude_kernel = 1;
	pev_attr_wakeup_events(&a, 1);
	CHECK(a.wakeup_events == 1 && !a.watermark);
	int fd = pev_sys_open(&a, child, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		kill(child, SIGKILL), waitpid(child, NULL, 0);
	skip_if_cannot_open(fd, &a, child, -1, "cpu-clock on a child");
	struct pev_ring *r = map_ring(fd, 4, PEV_RING_FORWARD);
	short rev = 0;

	/* Nothing yet: the child is blocked. */
	CHECK_EQ_INT(pev_ring_poll(&r, 1, 0, &rev), 0);
	CHECK(write(go[1], "g", 1) == 1);
	int n = pev_ring_poll(&r, 1, 5000, &rev);
	CHECK_EQ_INT(n, 1);
	CHECK_MSG(rev & POLLIN, "revents %#x", rev);
	CHECK(!(rev & POLLHUP));
	CHECK(pev_ring_read_init(r) > 0);
	pev_ring_read_done(r);

	/* Let the child exit: POLLHUP (drain as we go). */
	close(go[1]);
	int hup = 0;
	for (int i = 0; i < 200 && !hup; i++) {
		n = pev_ring_poll(&r, 1, 1000, &rev);
		if (n < 0)
			break;
		if (rev & POLLHUP)
			hup = 1;
		if (pev_ring_read_init(r) > 0)
			pev_ring_read_done(r);
	}
	CHECK_MSG(hup, "no POLLHUP after the child exited");
	int st;
	CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pev_ring_free(r);
	close(fd);
	return t_done();
}
