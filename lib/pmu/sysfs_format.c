// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* PMU format files: "configN:bits" where bits is a comma list of single
 * bits or lo-hi ranges.  The kernel writes them; we still treat them as
 * untrusted text (fake trees in tests, odd drivers). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <perfev/pmu.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A bit number 0..63; advances *p.  -1 when there is none or it is too big. */
static int bit_number(const char **p)
{
	const char *s = *p;
	int v = 0, n = 0;

	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s - '0');
		if (v > 63)
			return -1;
		s++;
		if (++n > 2)
			return -1;
	}
	if (!n)
		return -1;
	*p = s;
	return v;
}

PEV_EXPORT int pev_pmu_format_parse(const char *text, int *word, uint64_t *mask,
				    char *err, size_t errlen)
{
	const char *p = text;
	uint64_t m = 0;
	int w;

	if (!text || !word || !mask)
		return -EINVAL;
	if (strncmp(p, "config", 6))
		return fail(err, errlen, "expected 'config', 'config1', 'config2' or 'config3' before ':'");
	p += 6;
	if (*p == ':') {
		w = 0;
	} else if (*p >= '1' && *p <= '3' && p[1] == ':') {
		w = *p - '0';
		p++;
	} else {
		return fail(err, errlen, "unknown config word 'config%.8s'; expected config, config1, config2 or config3",
			    *p ? p : "");
	}
	p++;			/* ':' */
	for (;;) {
		const char *at = p;
		int lo = bit_number(&p), hi;

		if (lo < 0)
			return fail(err, errlen, "expected a bit number 0-63 at offset %d", (int)(at - text));
		hi = lo;
		if (*p == '-') {
			p++;
			at = p;
			hi = bit_number(&p);
			if (hi < 0)
				return fail(err, errlen, "expected a bit number 0-63 at offset %d", (int)(at - text));
			if (hi < lo)
				return fail(err, errlen, "bit range %d-%d ends before it starts", lo, hi);
		}
		uint64_t r = (hi == 63 ? ~0ULL : ((1ULL << (hi + 1)) - 1)) & ~((1ULL << lo) - 1);
		if (m & r)
			return fail(err, errlen, "bits %d-%d overlap an earlier range", lo, hi);
		m |= r;
		if (*p == ',') {
			p++;
			continue;
		}
		break;
	}
	while (*p == '\n' || *p == ' ' || *p == '\t')
		p++;
	if (*p)
		return fail(err, errlen, "unexpected '%c' at offset %d", *p, (int)(p - text));
	*word = w;
	*mask = m;
	return 0;
}

PEV_EXPORT uint64_t pev_pmu_format_max(uint64_t mask)
{
	int n = __builtin_popcountll(mask);

	return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

PEV_EXPORT int pev_pmu_format_apply(uint64_t mask, uint64_t value, uint64_t *config)
{
	uint64_t out = 0;

	if (value > pev_pmu_format_max(mask))
		return -ERANGE;
	/* Value bit i lands on the i-th set bit of mask, as the kernel's
	 * format attributes and perf's pmu_format_value() define it. */
	for (int bit = 0; bit < 64 && value; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		if (value & 1)
			out |= 1ULL << bit;
		value >>= 1;
	}
	*config = (*config & ~mask) | out;
	return 0;
}
