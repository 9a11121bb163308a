// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The kernel's own cost of sampling a command, with a reader that costs
 * nothing:
 *   sample_floor FREQ [-g] -- command [args]
 * Opens cpu-clock at FREQ Hz (callchains with -g) on every online CPU for
 * the command, with inherit and enable_on_exec, exactly as `perfev record`
 * does, maps one ring per CPU, and on every wakeup marks the rings read
 * without looking at them (so the kernel writes every sample, as it does
 * for a real recorder, instead of dropping them once a ring is full);
 * prints the command's wall time in ms.  bench/record-overhead.sh uses it
 * to show how much of a recorder's overhead is the kernel's (interrupts,
 * unwinding, output) and how much is the recorder's. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <perfev/perfev.h>

static void on_child(int sig)
{
	(void)sig;	/* only to interrupt the poll */
}

int main(int argc, char **argv)
{
	int i = 1, cpus[PEV_MAX_CPUS];
	struct pev_ring *rings[PEV_MAX_CPUS];
	bool callchain = false;

	if (argc < 4) {
		fprintf(stderr, "usage: sample_floor FREQ [-g] -- command [args]\n");
		return 2;
	}
	long freq = atol(argv[i++]);
	if (!strcmp(argv[i], "-g")) {
		callchain = true;
		i++;
	}
	if (strcmp(argv[i++], "--") || i >= argc) {
		fprintf(stderr, "usage: sample_floor FREQ [-g] -- command [args]\n");
		return 2;
	}
	struct pev_workload *w = pev_workload_new(argv + i, NULL);
	int ncpu = pev_cpus_online(cpus, PEV_MAX_CPUS);
	if (!w || ncpu <= 0) {
		perror("sample_floor");
		return 1;
	}
	for (int c = 0; c < ncpu; c++) {
		struct perf_event_attr a = { .size = sizeof(a) };
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.freq = 1;
		a.sample_freq = (uint64_t)freq;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				PERF_SAMPLE_PERIOD | (callchain ? PERF_SAMPLE_CALLCHAIN : 0);
		a.inherit = a.disabled = a.enable_on_exec = 1;
		a.exclude_guest = a.sample_id_all = 1;
		a.mmap = a.comm = a.task = 1;
		int fd = pev_sys_open(&a, pev_workload_pid(w), cpus[c], -1, PERF_FLAG_FD_CLOEXEC);
		struct pev_ring_opts o = { .size = sizeof(o) };
		if (fd < 0 || !(rings[c] = pev_ring_new(fd, &o, NULL))) {
			fprintf(stderr, "sample_floor: cannot open cpu-clock on cpu %d: %s\n",
				cpus[c], strerror(fd < 0 ? -fd : errno));
			return 1;
		}
	}
	struct timespec t0, t1;
	struct sigaction sa = { .sa_handler = on_child };	/* no SA_RESTART */
	int st;

	sigaction(SIGCHLD, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pev_workload_start(w) < 0) {
		perror("sample_floor: workload");
		return 1;
	}
	for (;;) {
		int got = pev_workload_poll(w, &st);

		if (got < 0) {
			perror("sample_floor: workload");
			return 1;
		}
		if (got > 0)
			break;
		pev_ring_poll(rings, (size_t)ncpu, 100, NULL);
		for (int c = 0; c < ncpu; c++) {
			struct pev_ring_span sp[2];

			if (pev_ring_read_init(rings[c]) > 0) {
				pev_ring_read_spans(rings[c], sp);
				pev_ring_read_done(rings[c]);
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.0f\n", (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	return 0;	/* rings and fds go with the process */
}
