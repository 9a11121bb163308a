// SPDX-License-Identifier: GPL-2.0-only
/* sigtrap: a write watchpoint with attr.sigtrap and sig_data: N writes
 * give N synchronous SIGTRAPs with si_code TRAP_PERF, si_perf_data =
 * sig_data, si_perf_type = PERF_TYPE_BREAKPOINT, si_addr = the address. */
#include <signal.h>
#include <linux/hw_breakpoint.h>
#include <perfev/perfev.h>
#include "ring_live.h"

static volatile uint64_t watched;
static volatile sig_atomic_t traps, wrong;
static struct pev_sigtrap_info last;

static void handler(int sig, siginfo_t *si, void *uc)
{
	struct pev_sigtrap_info in;
	(void)uc;
	if (sig != SIGTRAP || pev_siginfo_perf(si, &in) != 0) {
		wrong++;
		return;
	}
	last = in;
	if (in.data != 0x1234abcd || in.type != PERF_TYPE_BREAKPOINT)
		wrong++;
	traps++;
}

int main(void)
{
	const int N = 50;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);

	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uint64_t)(uintptr_t)&watched;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.sample_period = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	pev_attr_sigtrap(&a, 0x1234abcd);
	CHECK(a.sigtrap && a.remove_on_exec && a.sig_data == 0x1234abcd);
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	skip_if_cannot_open(fd, &a, 0, -1, "write watchpoint with sigtrap (kernel older than 5.13?)");

	/* The kernel requires remove_on_exec with sigtrap. */
	struct perf_event_attr b = a;
	b.remove_on_exec = 0;
	int fb = pev_sys_open(&b, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK_EQ_INT(fb, -EINVAL);

	for (int i = 0; i < N; i++)
		watched = (uint64_t)i;
	uint64_t count = 0;
	CHECK_EQ_INT(read(fd, &count, 8), 8);
	CHECK_EQ_U64(count, N);
	CHECK_EQ_INT(traps, N);
	CHECK_EQ_INT(wrong, 0);
	CHECK_EQ_U64(last.data, 0x1234abcd);
	CHECK_EQ_INT(last.type, PERF_TYPE_BREAKPOINT);
	CHECK_MSG(last.addr == (void *)&watched, "si_addr %p, watched %p", last.addr, (void *)&watched);
	CHECK_EQ_INT(last.flags, 0);	/* synchronous */
	(void)watched;	/* reads do not trap a write watchpoint */
	CHECK_EQ_INT(traps, N);
	close(fd);

	siginfo_t si;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGTRAP;
	si.si_code = 1;	/* TRAP_BRKPT */
	struct pev_sigtrap_info x;
	CHECK_EQ_INT(pev_siginfo_perf(&si, &x), -EINVAL);
	return t_done();
}
