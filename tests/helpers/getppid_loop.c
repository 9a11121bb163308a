// SPDX-License-Identifier: GPL-2.0-only
/* Test helper: call getppid() argv[1] times (raw syscalls, so libc cannot
 * cache it), then exit with status argv[2] (default 0), or die of signal
 * argv[3] when given. */
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	if (argc > 3) {
		signal(atoi(argv[3]), SIG_DFL);
		raise(atoi(argv[3]));
	}
	return argc > 2 ? atoi(argv[2]) : 0;
}
