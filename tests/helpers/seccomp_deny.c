/* Test helper: install a seccomp filter as a container runtime would
 * (PR_SET_NO_NEW_PRIVS, then a raw BPF program via seccomp(2)) that makes
 * the named syscalls fail with an errno, then exec a command.
 *   seccomp_deny ERRNO SYSCALL[,SYSCALL...] -- CMD [ARGS...]
 * ERRNO: EPERM, ENOSYS, EACCES or a number; SYSCALL: perf_event_open,
 * mount, pidfd_open or a number.  Exits 126 when the filter cannot be
 * installed (the caller decides what that means). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "add this architecture's AUDIT_ARCH"
#endif

static long parse_errno(const char *s)
{
	if (!strcmp(s, "EPERM")) return EPERM;
	if (!strcmp(s, "ENOSYS")) return ENOSYS;
	if (!strcmp(s, "EACCES")) return EACCES;
	return strtol(s, NULL, 0);
}

static long parse_nr(const char *s)
{
	if (!strcmp(s, "perf_event_open")) return SYS_perf_event_open;
	if (!strcmp(s, "mount")) return SYS_mount;
#ifdef SYS_pidfd_open
	if (!strcmp(s, "pidfd_open")) return SYS_pidfd_open;
#endif
	return strtol(s, NULL, 0);
}

int main(int argc, char **argv)
{
	struct sock_filter f[64];
	unsigned n = 0;
	long nrs[16];
	unsigned k = 0;

	if (argc < 5 || strcmp(argv[3], "--")) {
		fprintf(stderr, "usage: seccomp_deny ERRNO SYSCALL[,SYSCALL] -- CMD...\n");
		return 2;
	}
	long err = parse_errno(argv[1]);
	char *list = strdup(argv[2]);
	for (char *t = strtok(list, ","); t && k < 16; t = strtok(NULL, ","))
		nrs[k++] = parse_nr(t);

	/* Wrong architecture: kill (as Docker's profile does for unknown
	 * arches); then one equality test per syscall. */
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (unsigned i = 0; i < k; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned)nrs[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA));
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

	struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		perror("seccomp_deny: PR_SET_NO_NEW_PRIVS");
		return 126;
	}
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		perror("seccomp_deny: seccomp");
		return 126;
	}
	execvp(argv[4], argv + 4);
	perror("seccomp_deny: exec");
	return 127;
}
