// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Pure helpers of counting: the read() layout for every read_format, and
 * perf's arithmetic on (value, enabled, running) triples. */
#include <errno.h>
#include <string.h>

#include <perfev/counter.h>

PEV_EXPORT size_t pev_read_size(uint64_t read_format, size_t nr)
{
	size_t per, head;

	if (read_format & ~(uint64_t)PEV_READ_FORMAT_ALL)
		return 0;
	per = 1 + !!(read_format & PERF_FORMAT_ID) + !!(read_format & PERF_FORMAT_LOST);
	head = !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	       !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	if (!(read_format & PERF_FORMAT_GROUP))
		return (head + per) * 8;
	if (nr > (SIZE_MAX / 8 - head - 1) / per)
		return 0;
	return (1 + head + nr * per) * 8;
}

static uint64_t get_u64(const unsigned char *p, size_t idx)
{
	uint64_t v;

	memcpy(&v, p + idx * 8, 8);	/* the caller's buffer may be unaligned */
	return v;
}

PEV_EXPORT int pev_read_parse(const void *buf, size_t len, uint64_t read_format,
			      struct pev_read_value *vals, size_t max,
			      uint64_t *enabled, uint64_t *running)
{
	const unsigned char *p = buf;
	size_t words = len / 8, w = 0, nr = 1;
	uint64_t ena = 0, run = 0;
	bool group = read_format & PERF_FORMAT_GROUP;

	if (!buf || !vals || (read_format & ~(uint64_t)PEV_READ_FORMAT_ALL))
		return -EINVAL;
	if (group) {
		if (words < 1)
			return -EBADMSG;
		uint64_t n = get_u64(p, w++);
		/* Compare in words first so that a huge nr cannot overflow
		 * the size computation. */
		if (n == 0 || n > words)
			return -EBADMSG;
		nr = (size_t)n;
	}
	if (pev_read_size(read_format, nr) > len)
		return -EBADMSG;
	if (nr > max)
		return -ENOSPC;
	if (group) {
		if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			ena = get_u64(p, w++);
		if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			run = get_u64(p, w++);
	}
	for (size_t i = 0; i < nr; i++) {
		struct pev_read_value *v = &vals[i];

		memset(v, 0, sizeof(*v));
		v->value = get_u64(p, w++);
		if (!group) {
			/* Non-group: the times sit between value and id. */
			if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
				ena = get_u64(p, w++);
			if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
				run = get_u64(p, w++);
		}
		if (read_format & PERF_FORMAT_ID)
			v->id = get_u64(p, w++);
		if (read_format & PERF_FORMAT_LOST)
			v->lost = get_u64(p, w++);
	}
	if (enabled)
		*enabled = ena;
	if (running)
		*running = run;
	return (int)nr;
}

PEV_EXPORT int pev_count_scale(const struct pev_count *c, double *scaled)
{
	double v = 0;
	int ret;

	if (c->run == 0) {
		ret = -1;
	} else if (c->run < c->ena) {
		v = (double)c->val * (double)c->ena / (double)c->run;
		ret = 1;
	} else {
		v = (double)c->val;
		ret = 0;
	}
	if (scaled)
		*scaled = v;
	return ret;
}

PEV_EXPORT double pev_count_running_fraction(const struct pev_count *c)
{
	if (c->ena == 0)
		return c->run == 0 ? 1.0 : 0.0;
	if (c->run >= c->ena)
		return 1.0;
	return (double)c->run / (double)c->ena;
}

static uint64_t sub(uint64_t now, uint64_t prev)
{
	return now >= prev ? now - prev : now;
}

PEV_EXPORT void pev_count_delta(const struct pev_count *now,
				const struct pev_count *prev,
				struct pev_count *out)
{
	struct pev_count d = *now;

	d.val = sub(now->val, prev->val);
	d.ena = sub(now->ena, prev->ena);
	d.run = sub(now->run, prev->run);
	d.lost = sub(now->lost, prev->lost);
	*out = d;
}
