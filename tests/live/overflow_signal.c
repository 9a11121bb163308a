// SPDX-License-Identifier: GPL-2.0-only
/* Overflow signals, exactly: an execute breakpoint with sample_period 1 on
 * a noinline function hit N times gives N signals (POLL_IN, si_fd = the
 * event); REFRESH(K) gives K overflows, the K-th with POLL_HUP, and then
 * the event is disabled (it counts exactly K). */
#include <signal.h>
#include <linux/hw_breakpoint.h>
#include <perfev/perfev.h>
#include "ring_live.h"

static volatile sig_atomic_t n_in, n_hup, n_other, bad_fd;
static volatile int want_fd;

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_fd != want_fd)
		bad_fd++;
	if (si->si_code == POLL_IN)
		n_in++;
	else if (si->si_code == POLL_HUP)
		n_hup++;
	else
		n_other++;
}

__attribute__((noinline, noclone)) static void target(void)
{
	__asm__ __volatile__("" ::: "memory");
}

static int open_bp(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_X;
	a.bp_addr = (uint64_t)(uintptr_t)target;
	a.bp_len = sizeof(long);
	a.sample_period = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	skip_if_cannot_open(fd, &a, 0, -1, "execute breakpoint");
	return fd;
}

int main(void)
{
	const int N = 100, K = 7, sig = SIGRTMIN + 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(sig, &sa, NULL);

	int fd = open_bp();
	want_fd = fd;
	CHECK_OK(pev_overflow_signal_setup(fd, sig, 0));
	CHECK_EQ_INT(pev_overflow_signal_setup(fd, 0, 0), -EINVAL);
	CHECK_OK(pev_ioc_enable(fd, false));
	for (int i = 0; i < N; i++)
		target();
	CHECK_OK(pev_ioc_disable(fd, false));
	uint64_t count = 0;
	CHECK_EQ_INT(read(fd, &count, 8), 8);
	CHECK_EQ_U64(count, N);
	CHECK_EQ_INT(n_in, N);
	CHECK_EQ_INT(n_hup, 0);
	CHECK_EQ_INT(n_other, 0);
	CHECK_EQ_INT(bad_fd, 0);
	CHECK_OK(pev_overflow_signal_clear(fd));
	target();	/* disabled and no O_ASYNC: nothing */
	CHECK_EQ_INT(n_in, N);
	close(fd);

	/* REFRESH(K): enabled for K overflows. */
	n_in = n_hup = 0;
	fd = open_bp();
	CHECK(fd >= 0);
	want_fd = fd;
	CHECK_OK(pev_overflow_signal_setup(fd, sig, 0));
	CHECK_OK(pev_ioc_refresh(fd, K));
	for (int i = 0; i < N; i++)
		target();
	CHECK_EQ_INT(read(fd, &count, 8), 8);
	CHECK_EQ_U64(count, K);
	CHECK_EQ_INT(n_in, K - 1);
	CHECK_EQ_INT(n_hup, 1);
	CHECK_EQ_INT(n_other, 0);
	/* Disabled: more hits neither count nor signal. */
	for (int i = 0; i < N; i++)
		target();
	CHECK_EQ_INT(read(fd, &count, 8), 8);
	CHECK_EQ_U64(count, K);
	CHECK_EQ_INT(n_in + n_hup, K);
	CHECK_EQ_INT(pev_ioc_refresh(fd, 0), -EINVAL);
	close(fd);
	return t_done();
}
