// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the filter option parsers (perfev/filter.h): the first byte picks
 * the option (comm, pid, tid, cpu, time, dso, symbols), the rest is its
 * string.  Checks what every successful parse must hold: time ranges in
 * order and not backwards, percent ranges within [first, last] once
 * resolved, an error message on failure, matching without crashes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/filter.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pev_filter_opts o = { .size = sizeof(o) };
	char err[256];
	uint64_t st[16], en[16];

	if (size < 1)
		return 0;
	char *s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 7) {
	case 0: o.comm = s; break;
	case 1: o.pid = s; break;
	case 2: o.tid = s; break;
	case 3: o.cpu = s; break;
	case 4: o.time = s; break;
	case 5: o.dso = s; break;
	default: o.symbols = s; break;
	}
	/* file:// would read files of the fuzzing machine */
	if (strstr(s, "file://")) {
		free(s);
		return 0;
	}
	err[0] = '\0';
	struct pev_filter *f = pev_filter_new(&o, err, sizeof(err));

	if (!f) {
		if (errno == EINVAL && !err[0])
			abort();	/* a refusal always says why */
		free(s);
		return 0;
	}
	const uint64_t first = 1000000000ull, last = 3000000000ull;

	if (pev_filter_needs_sample_time(f)) {
		if (pev_filter_set_sample_time(f, first, last, err, sizeof(err)))
			abort();
		size_t n = pev_filter_time_ranges(f, st, en, 16);

		for (size_t i = 0; i < n && i < 16; i++)
			if (st[i] < first || en[i] > last || st[i] > en[i])
				abort();
	} else {
		size_t n = pev_filter_time_ranges(f, st, en, 16);

		for (size_t i = 0; i < n && i < 16; i++) {
			if (en[i] && en[i] < st[i])
				abort();
			if (i && (!en[i - 1] || en[i - 1] >= st[i]))
				abort();
		}
	}
	struct pev_filter_sample smp = {
		.time = 2000000000ull, .cpu = 1, .has_cpu = true, .pid = 10, .tid = 11,
		.comm = s, .dso_short = s, .dso_long = "/x", .sym = s, .ip = 0x1234,
	};
	/* The sample carries the very string that was listed: a string list
	 * of one entry without ',' must match it. */
	unsigned why = pev_filter_match(f, &smp);

	if ((o.comm || o.dso || o.symbols) && !strchr(s, ',') && why)
		abort();
	free(s);
	pev_filter_free(f);
	return 0;
}
