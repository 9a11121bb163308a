/* Helpers for the perf.data tests: records built by hand, files in
 * memory (memfd). */
#ifndef PEV_TEST_DATA_UTIL_H
#define PEV_TEST_DATA_UTIL_H

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/perfev.h>

#define DU_SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
			PERF_SAMPLE_PERIOD)

static inline void du_attr(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = config;
	a->sample_period = 1000;
	a->sample_type = DU_SAMPLE_TYPE;
	a->sample_id_all = 1;
	a->mmap = a->comm = a->task = 1;
}

/* A sample for DU_SAMPLE_TYPE; returns its size (56 bytes + header). */
static inline size_t du_sample(void *buf, uint64_t id, uint64_t ip,
			       uint32_t pid, uint32_t tid, uint64_t time,
			       uint32_t cpu, uint64_t period)
{
	uint64_t v[7] = { 0, id, ip, (uint64_t)pid | (uint64_t)tid << 32,
			  time, cpu, period };
	struct perf_event_header h = { PERF_RECORD_SAMPLE,
				       PERF_RECORD_MISC_USER, sizeof(v) };

	memcpy(v, &h, 8);
	memcpy(buf, v, sizeof(v));
	return sizeof(v);
}

/* A COMM with the trailer of attr a. */
static inline size_t du_comm(void *buf, const struct perf_event_attr *a,
			     uint64_t id, uint32_t pid, uint32_t tid,
			     const char *comm, uint64_t time)
{
	unsigned char *p = buf;
	size_t n = (strlen(comm) + 1 + 7) & ~(size_t)7;
	uint32_t pt[2] = { pid, tid };

	memcpy(p + 8, pt, 8);
	memset(p + 16, 0, n);
	memcpy(p + 16, comm, strlen(comm));
	size_t t = pev_synth_sample_id(a, pid, tid, time, id, 0, p + 16 + n);
	struct perf_event_header h = { PERF_RECORD_COMM, 0,
				       (uint16_t)(16 + n + t) };

	memcpy(p, &h, 8);
	return h.size;
}

static inline int du_memfd(void)
{
	int fd = memfd_create("perf.data", 0);

	if (fd < 0)
		T_FATAL("memfd_create: %s", strerror(errno));
	return fd;
}

/* The whole content of fd, malloc'ed. */
static inline unsigned char *du_slurp(int fd, size_t *len)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		T_FATAL("fstat");
	unsigned char *p = malloc((size_t)st.st_size + 1);

	if (pread(fd, p, (size_t)st.st_size, 0) != st.st_size)
		T_FATAL("pread");
	*len = (size_t)st.st_size;
	return p;
}

#endif
