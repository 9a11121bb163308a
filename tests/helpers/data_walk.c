// SPDX-License-Identifier: GPL-2.0-only
/* Reads a perf.data file to the end with the library's reader, in time
 * order (pev_data_next_ordered) or as stored (-r), and prints the record
 * and sample counts and the peak RSS (getrusage), for tests/stress.
 *   data_walk [-r] FILE */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <linux/perf_event.h>
#include <perfev/data.h>

int main(int argc, char **argv)
{
	int raw = argc > 2 && !strcmp(argv[1], "-r");
	const char *path = argv[argc - 1];
	char err[256];
	struct pev_data *d;
	struct pev_data_event ev;
	unsigned long long records = 0, samples = 0;
	struct rusage ru;
	int n;

	if (argc < 2) {
		fprintf(stderr, "usage: data_walk [-r] FILE\n");
		return 2;
	}
	d = pev_data_open(path, NULL, err, sizeof(err));
	if (!d) {
		fprintf(stderr, "data_walk: %s\n", err);
		return 1;
	}
	while ((n = raw ? pev_data_next(d, &ev) : pev_data_next_ordered(d, &ev)) > 0) {
		records++;
		if (ev.rec.type == PERF_RECORD_SAMPLE)
			samples++;
	}
	pev_data_close(d);
	getrusage(RUSAGE_SELF, &ru);
	printf("records %llu samples %llu maxrss_kb %ld\n", records, samples, ru.ru_maxrss);
	if (n < 0) {
		fprintf(stderr, "data_walk: read error %d\n", n);
		return 1;
	}
	return 0;
}
