/* SPDX-License-Identifier: GPL-2.0-only */
/* Install a seccomp filter as a container runtime does: PR_SET_NO_NEW_PRIVS,
 * then a raw BPF program (seccomp(2), SECCOMP_SET_MODE_FILTER) that makes
 * the listed syscalls fail with err and allows the rest.  0, or -errno. */
#ifndef PEV_SECCOMPUTIL_H
#define PEV_SECCOMPUTIL_H

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define T_SECCOMP_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define T_SECCOMP_ARCH AUDIT_ARCH_AARCH64
#else
#error "add this architecture's AUDIT_ARCH"
#endif

static inline int t_seccomp_deny(int err, const long *nrs, unsigned n)
{
	struct sock_filter f[4 + 2 * 16 + 1];
	unsigned k = 0;

	if (n > 16)
		return -E2BIG;
	/* Another architecture: kill, as Docker's profile does; then one
	 * equality test per syscall. */
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, T_SECCOMP_ARCH, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (unsigned i = 0; i < n; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned)nrs[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA));
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

	struct sock_fprog prog = { .len = (unsigned short)k, .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return -errno;
	return 0;
}

#endif
