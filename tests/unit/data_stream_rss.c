// SPDX-License-Identifier: GPL-2.0-only
/* The reader streams: reading a 192 MiB perf.data file front to back, in
 * file order and in time order, raises the peak RSS (VmHWM, read from
 * /proc/self/status) by well under the file's size.  It used to map the
 * whole file and keep every page it had touched: the peak grew with the
 * file (a 1 GB file took 1 GB). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <perfev/perfev.h>
#include <perfev/data.h>
#include "testutil.h"

#define FILE_MB		192
#define REC_SIZE	32	/* header, ip, pid/tid, time */
#define CHUNK		(1u << 20)

static long hwm_kb(void)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* Resets the peak to the current RSS (echo 5 > clear_refs). */
static int hwm_reset(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);
	int ok = fd >= 0 && write(fd, "5", 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

int main(void)
{
	char path[] = "/tmp/perfev-rss-XXXXXX";
	int fd = mkstemp(path);
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
					.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 1,
					.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						       PERF_SAMPLE_TIME };
	uint64_t id = 7, t = 1000, nrec = 0;
	uint64_t *buf = malloc(CHUNK);

	if (fd < 0 || !buf)
		T_FATAL("mkstemp/malloc: %s", strerror(errno));
	if (hwm_kb() < 0 || hwm_reset() < 0)
		T_SKIP("no VmHWM in /proc/self/status or no /proc/self/clear_refs");
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);

	CHECK_EQ_INT(pev_data_writer_add_attr(w, &attr, &id, 1, "cpu-clock"), 0);
	CHECK_OK(pev_data_writer_start(w));
	for (unsigned c = 0; c < FILE_MB; c++) {
		for (size_t k = 0; k < CHUNK / 8; k += REC_SIZE / 8) {
			struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, REC_SIZE };

			memcpy(&buf[k], &h, 8);
			buf[k + 1] = 0x401000 + (t & 0xfff);
			buf[k + 2] = (uint64_t)42 << 32 | 42;
			buf[k + 3] = t++;
			nrec++;
		}
		CHECK_OK(pev_data_writer_write(w, buf, CHUNK));
		CHECK_OK(pev_data_writer_finished_round(w));
	}
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
	free(buf);

	for (int ordered = 0; ordered < 2; ordered++) {
		char err[256];
		struct pev_data_event ev;
		uint64_t samples = 0;
		int n;

		hwm_reset();
		long before = hwm_kb();
		struct pev_data *d = pev_data_open(path, NULL, err, sizeof(err));

		if (!d)
			T_FATAL("pev_data_open: %s", err);
		while ((n = ordered ? pev_data_next_ordered(d, &ev) : pev_data_next(d, &ev)) > 0)
			samples += ev.rec.type == PERF_RECORD_SAMPLE;
		long peak = hwm_kb();

		pev_data_close(d);
		CHECK_EQ_INT(n, 0);
		CHECK_EQ_U64(samples, nrec);
		printf("%s order: %llu samples of a %d MiB file, peak RSS +%ld MiB\n",
		       ordered ? "time" : "file", (unsigned long long)samples, FILE_MB,
		       (peak - before) / 1024);
		CHECK_MSG(peak - before < 112 * 1024, "peak RSS grew by %ld MiB reading a %d MiB file",
			  (peak - before) / 1024, FILE_MB);
	}
	unlink(path);
	return t_failures ? 1 : 0;
}
