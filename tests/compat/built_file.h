/* SPDX-License-Identifier: GPL-2.0-only */
/* Writing a perf.data file by hand for the compat tests: one cpu-clock
 * attr (period 1000, mmap/comm/task, sample_id_all) with the given
 * sample_type and id, the host's features, records emitted one by one. */
#ifndef PERFEV_TESTS_BUILT_FILE_H
#define PERFEV_TESTS_BUILT_FILE_H

#include <fcntl.h>
#include <string.h>

#include <linux/perf_event.h>
#include <perfev/perfev.h>

#include "testutil.h"
#include "unit/record_build.h"

/* The writer, started, on a new file at path (its fd in *fd). */
static inline struct pev_data_writer *built_start(const char *path, uint64_t sample_type,
						  uint64_t id, int *fd)
{
	struct perf_event_attr a;

	*fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct pev_data_writer *w = *fd >= 0 ? pev_data_writer_new(*fd, NULL) : NULL;

	CHECK(*fd >= 0 && w);
	if (!w)
		return NULL;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000;
	a.sample_type = sample_type;
	a.sample_id_all = 1;
	a.mmap = a.comm = a.task = 1;
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &a, &id, 1, "cpu-clock"), 0);
	CHECK_OK(pev_data_features_from_host(pev_data_writer_features(w)));
	CHECK_OK(pev_data_writer_start(w));
	return w;
}

static inline void built_emit(struct pev_data_writer *w, struct rb *b)
{
	rb_end(b);
	CHECK_OK(pev_data_writer_write(w, rb_p(b), b->len));
}

#endif
