// SPDX-License-Identifier: GPL-2.0-only
/* The locked-memory budget: as an unprivileged user with RLIMIT_MEMLOCK 0,
 * a ring bigger than kernel.perf_event_mlock_kb x CPUs is refused with
 * EPERM and a reason naming the sysctl; with PEV_RING_SHRINK the ring is
 * halved until it fits, to exactly the largest power of two allowed. */
#include <sys/resource.h>
#include <sys/wait.h>
#include <perfev/perfev.h>
#include "ring_live.h"

static int child(unsigned request, unsigned expect, long mlock_kb)
{
	struct rlimit rl = { 0, 0 };
	if (setrlimit(RLIMIT_MEMLOCK, &rl) || setgid(65534) || setuid(65534)) {
		printf("SKIP: cannot drop to uid 65534 with RLIMIT_MEMLOCK 0\n");
		return 77;
	}
	struct perf_event_attr a;
	int fd = open_clock(&a, 1000000, PERF_SAMPLE_IP);
	if (fd < 0 && t_probe_attr(&a, 0, -1) < 0) {
		printf("SKIP: unprivileged raw perf_event_open refused: %s\n",
		       strerror(-t_probe_attr(&a, 0, -1)));
		return 77;
	}
	if (fd < 0)
		T_FATAL("pev_sys_open failed (%s) where a raw perf_event_open succeeds",
			strerror(-fd));
	char want[64];
	snprintf(want, sizeof(want), "kernel.perf_event_mlock_kb = %ld", mlock_kb);

	struct pev_ring_opts o = { .size = sizeof(o), .data_pages = request };
	struct pev_ring_report rep = { .size = sizeof(rep) };
	struct pev_ring *r = pev_ring_new(fd, &o, &rep);
	CHECK(r == NULL);
	CHECK_EQ_INT(errno, EPERM);
	CHECK_EQ_INT(rep.error, EPERM);
	CHECK_MSG(strstr(rep.reason, want) != NULL, "reason: %s", rep.reason);
	CHECK_EQ_INT(rep.mapped_pages, 0);

	o.flags = PEV_RING_SHRINK;
	r = pev_ring_new(fd, &o, &rep);
	CHECK(r != NULL);
	printf("asked %u data pages, mapped %u after %u refusals: %s\n", rep.requested_pages,
	       rep.mapped_pages, rep.retries, rep.reason);
	CHECK_EQ_INT(rep.requested_pages, request);
	CHECK_EQ_INT(rep.mapped_pages, expect);
	CHECK_EQ_INT(pev_ring_data_pages(r), expect);
	CHECK(rep.retries >= 1);
	CHECK_EQ_INT(rep.error, 0);
	CHECK_MSG(strstr(rep.reason, want) != NULL, "reason: %s", rep.reason);
	pev_ring_free(r);
	close(fd);
	return t_done();
}

int main(void)
{
	long mlock_kb, ncpu = sysconf(_SC_NPROCESSORS_ONLN), ps = sysconf(_SC_PAGESIZE);
	if (t_read_long("/proc/sys/kernel/perf_event_mlock_kb", &mlock_kb) < 0)
		T_SKIP("kernel.perf_event_mlock_kb unreadable");
	if (getuid() != 0)
		T_SKIP("needs root to drop to an unprivileged uid");
	long paranoid;
	if (t_read_long("/proc/sys/kernel/perf_event_paranoid", &paranoid) == 0 && paranoid < 0)
		T_SKIP("perf_event_paranoid -1: the kernel skips the mlock check");
	/* The kernel's free allowance: mlock_kb per CPU, in pages, for the
	 * user page plus the data pages. */
	uint64_t allowed = (uint64_t)mlock_kb * 1024 / (uint64_t)ps * (uint64_t)ncpu;
	unsigned request = 1, expect;
	while (request + 1 <= allowed)
		request *= 2;
	expect = request / 2;
	while (expect && expect + 1 > allowed)
		expect /= 2;
	if (!expect)
		T_SKIP("perf_event_mlock_kb too small to map even one data page");
	printf("mlock_kb %ld x %ld CPUs = %" PRIu64 " pages free\n", mlock_kb, ncpu, allowed);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int rc = child(request, expect, mlock_kb);
		fflush(stdout);
		_exit(rc);
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
		exit(77);
	CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child failed (status %#x)", st);
	return t_done();
}
