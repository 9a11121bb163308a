// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Overflow notification by signal: O_ASYNC/F_SETOWN_EX/F_SETSIG, and the
 * perf fields of a sigtrap siginfo. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <perfev/overflow.h>

PEV_EXPORT int pev_overflow_signal_setup(int fd, int signo, pid_t tid)
{
	struct f_owner_ex owner;
	int fl;

	if (signo <= 0 || signo >= NSIG)
		return -EINVAL;
	owner.type = F_OWNER_TID;
	owner.pid = tid ? tid : gettid();
	if (fcntl(fd, F_SETOWN_EX, &owner) < 0)
		return -errno;
	/* Without F_SETSIG the kernel sends SIGIO with no si_fd/si_code. */
	if (fcntl(fd, F_SETSIG, signo) < 0)
		return -errno;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_ASYNC) < 0)
		return -errno;
	return 0;
}

PEV_EXPORT int pev_overflow_signal_clear(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_ASYNC) < 0)
		return -errno;
	return 0;
}

PEV_EXPORT void pev_attr_sigtrap(struct perf_event_attr *attr, uint64_t sig_data)
{
	if (!attr)
		return;
	attr->sigtrap = 1;
	attr->remove_on_exec = 1;
	attr->sig_data = sig_data;
}

PEV_EXPORT int pev_siginfo_perf(const siginfo_t *si, struct pev_sigtrap_info *out)
{
	/* The kernel's layout (asm-generic/siginfo.h, _sigfault): after
	 * si_addr comes a union aligned like a pointer, whose TRAP_PERF
	 * member is {unsigned long data; u32 type; u32 flags}. */
	const unsigned char *p;
	unsigned long data;

	if (!si || !out || si->si_signo != SIGTRAP || si->si_code != TRAP_PERF)
		return -EINVAL;
	p = (const unsigned char *)si + offsetof(siginfo_t, si_addr) + sizeof(void *);
	memcpy(&data, p, sizeof(data));
	memcpy(&out->type, p + sizeof(unsigned long), sizeof(out->type));
	memcpy(&out->flags, p + sizeof(unsigned long) + 4, sizeof(out->flags));
	out->data = data;
	out->addr = si->si_addr;
	return 0;
}
