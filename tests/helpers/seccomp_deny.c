// SPDX-License-Identifier: GPL-2.0-only
/* Test helper: install a seccomp filter as a container runtime would
 * (tests/seccomputil.h) that makes the named syscalls fail with an errno,
 * then exec a command.
 *   seccomp_deny ERRNO SYSCALL[,SYSCALL...] -- CMD [ARGS...]
 * ERRNO: EPERM, ENOSYS, EACCES or a number; SYSCALL: perf_event_open,
 * mount, pidfd_open or a number.  Exits 126 when the filter cannot be
 * installed (the caller decides what that means). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "seccomputil.h"

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
	long nrs[16];
	unsigned k = 0;

	if (argc < 5 || strcmp(argv[3], "--")) {
		fprintf(stderr, "usage: seccomp_deny ERRNO SYSCALL[,SYSCALL] -- CMD...\n");
		return 2;
	}
	char *list = strdup(argv[2]);
	for (char *t = strtok(list, ","); t && k < 16; t = strtok(NULL, ","))
		nrs[k++] = parse_nr(t);
	int r = t_seccomp_deny((int)parse_errno(argv[1]), nrs, k);
	if (r < 0) {
		fprintf(stderr, "seccomp_deny: cannot install the filter: %s\n", strerror(-r));
		return 126;
	}
	execvp(argv[4], argv + 4);
	perror("seccomp_deny: exec");
	return 127;
}
