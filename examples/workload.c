// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The bundled workload for `make demo` and the stat tests: a known amount
 * of work, so the counts perfev prints can be checked.
 *
 *   workload [-l LOOPS] [-p PAGES] [-s SYSCALLS] [-t THREADS] [-S MSECS] [-q]
 *
 * It spins LOOPS iterations of a busy loop, touches PAGES fresh pages
 * (one minor fault each), calls getppid() exactly SYSCALLS times (count
 * them with -e syscalls:sys_enter_getppid), optionally in THREADS threads
 * (each does the busy loop; the getppid calls stay on the main thread),
 * sleeps MSECS in 10 ms steps, and prints what it did. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long loops = 10000000;

static void *spin(void *arg)
{
	volatile unsigned long x = 0;

	for (long i = 0; i < loops; i++)
		x += (unsigned long)i;
	return arg;
}

int main(int argc, char **argv)
{
	long pages = 256, calls = 1000, threads = 1, sleep_ms = 0;
	int quiet = 0, c;

	while ((c = getopt(argc, argv, "l:p:s:t:S:q")) != -1) {
		switch (c) {
		case 'l': loops = atol(optarg); break;
		case 'p': pages = atol(optarg); break;
		case 's': calls = atol(optarg); break;
		case 't': threads = atol(optarg); break;
		case 'S': sleep_ms = atol(optarg); break;
		case 'q': quiet = 1; break;
		default:
			fprintf(stderr, "usage: workload [-l loops] [-p pages] [-s syscalls] "
					"[-t threads] [-S msecs] [-q]\n");
			return 2;
		}
	}
	if (threads < 1 || threads > 64)
		threads = 1;

	pthread_t tids[64];
	for (long t = 1; t < threads; t++)
		if (pthread_create(&tids[t], NULL, spin, NULL)) {
			perror("workload: pthread_create");
			return 1;
		}
	spin(NULL);

	long psz = sysconf(_SC_PAGESIZE);
	if (pages > 0) {
		char *mem = mmap(NULL, (size_t)(pages * psz), PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED) {
			perror("workload: mmap");
			return 1;
		}
		for (long p = 0; p < pages; p++)
			mem[p * psz] = 1;
		munmap(mem, (size_t)(pages * psz));
	}
	/* The raw syscall: glibc does not cache getppid, but say it plainly. */
	for (long i = 0; i < calls; i++)
		syscall(SYS_getppid);
	for (long left = sleep_ms; left > 0; left -= 10) {
		struct timespec ts = { 0, (left < 10 ? left : 10) * 1000000L };
		nanosleep(&ts, NULL);
	}
	for (long t = 1; t < threads; t++)
		pthread_join(tids[t], NULL);
	if (!quiet)
		printf("workload: %ld loop iterations x %ld thread(s), %ld pages touched, "
		       "%ld getppid() calls, slept %ld ms\n", loops, threads, pages, calls, sleep_ms);
	return 0;
}
