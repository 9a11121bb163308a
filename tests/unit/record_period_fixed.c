// SPDX-License-Identifier: GPL-2.0-only
/* A sample without PERF_SAMPLE_PERIOD takes its period from the attr when
 * the period is fixed (-c N: freq 0), as perf does; with a frequency (freq
 * 1) there is no period to take: 0.  With the bit, the sample's own value
 * wins. */
#include "record_build.h"

static uint64_t period_of(uint64_t sample_type, bool freq, uint64_t attr_period,
			  uint64_t sample_period)
{
	struct perf_event_attr a = { .size = sizeof(a), .sample_type = sample_type,
				     .sample_period = attr_period, .freq = freq };
	struct pev_decoder *d = pev_decoder_new();
	struct pev_record rec;
	struct rb b;

	memset(&b, 0, sizeof(b));
	CHECK_EQ_INT(pev_decoder_add_attr(d, &a, NULL, 0), 0);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x401000);			/* IP */
	rb_u64(&b, 77);				/* TIME */
	if (sample_type & PERF_SAMPLE_PERIOD)
		rb_u64(&b, sample_period);
	size_t n = rb_end(&b);
	int r = pev_record_decode(d, rb_p(&b), n, &rec);
	CHECK_EQ_INT(r, 0);
	CHECK_EQ_U64(rec.u.sample.ip, 0x401000);
	CHECK_EQ_U64(rec.u.sample.time, 77);
	pev_decoder_free(d);
	return r ? UINT64_MAX : rec.u.sample.period;
}

int main(void)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;

	CHECK_EQ_U64(period_of(st, false, 5000, 0), 5000);
	CHECK_EQ_U64(period_of(st, true, 4000, 0), 0);
	CHECK_EQ_U64(period_of(st | PERF_SAMPLE_PERIOD, false, 5000, 1234), 1234);
	CHECK_EQ_U64(period_of(st | PERF_SAMPLE_PERIOD, true, 4000, 987654), 987654);
	return t_done();
}
