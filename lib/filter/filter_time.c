// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* --time as perf 6.1 parses it (util/time-utils.c):
 *  - "START,STOP": seconds with up to 9 decimals, either side empty for
 *    an open end; STOP before START is invalid;
 *  - several such ranges separated by spaces, in increasing order and not
 *    overlapping ("1,2 3,4");
 *  - percent ranges of [first sample, last sample]: "P%" (the first P%),
 *    "P%/N" (the N-th slice of P%), "A%-B%", and ','-separated lists of
 *    the '/' or of the '-' kind.  A fraction f becomes
 *    first + (last - first) * f computed in double and truncated, as perf.
 * A sample passes when some range holds it, ends included; time 0 always
 * passes (perf_time__ranges_skip_sample). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter_internal.h"

#define NSEC_PER_SEC 1000000000ull

static int bad(char *err, size_t errlen, const char *s, const char *why)
{
	if (err && errlen)
		snprintf(err, errlen, "invalid --time '%s': %s", s, why);
	return -EINVAL;
}

/* perf's parse_nsec_time() on s[0..n): "SEC[.FRAC]", FRAC <= 9 digits.
 * Leading blanks are skipped (perf's strtoul does). */
static int parse_ns(const char *s, size_t n, uint64_t *out)
{
	uint64_t sec = 0, ns = 0;
	size_t i = 0, digits = 0;

	while (i < n && isspace((unsigned char)s[i]))
		i++;
	if (i == n || !isdigit((unsigned char)s[i]))
		return -1;
	for (; i < n && isdigit((unsigned char)s[i]); i++) {
		if (sec > (UINT64_MAX / NSEC_PER_SEC - 9) / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < n && s[i] == '.') {
		for (i++; i < n && isdigit((unsigned char)s[i]); i++, digits++) {
			if (digits == 9)
				return -1;
			ns = ns * 10 + (uint64_t)(s[i] - '0');
		}
		for (size_t d = digits; d < 9; d++)
			ns *= 10;
	}
	if (i != n)
		return -1;
	*out = sec * NSEC_PER_SEC + ns;
	return 0;
}

/* One "START,STOP" of s[0..n). */
static int parse_range(const char *s, size_t n, struct pev_filter_range *r)
{
	const char *comma = memchr(s, ',', n);
	size_t a = comma ? (size_t)(comma - s) : n;

	r->start = r->end = 0;
	if (!comma)
		return -1;	/* perf: a range needs its ',' */
	if (a && parse_ns(s, a, &r->start))
		return -1;
	if (n - a - 1 && parse_ns(comma + 1, n - a - 1, &r->end))
		return -1;
	if (r->end && r->end < r->start)
		return -1;
	return 0;
}

static int parse_abs(struct pev_filter *f, const char *s, char *err, size_t errlen)
{
	size_t cap = 1;

	for (const char *c = s; *c; c++)
		cap += *c == ' ';
	f->ranges = calloc(cap, sizeof(*f->ranges));
	if (!f->ranges)
		return -ENOMEM;
	for (const char *p = s; *p;) {
		size_t n;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		n = strcspn(p, " ");
		/* "1, 2" is one range: a blank right after the comma belongs to it. */
		if (n && p[n - 1] == ',' && p[n] == ' ')
			n += strspn(p + n, " ") + strcspn(p + n + strspn(p + n, " "), " ");
		if (parse_range(p, n, &f->ranges[f->nr_ranges]))
			return bad(err, errlen, s,
				   "give START,STOP in seconds (up to 9 decimals, either may be empty), several ranges separated by spaces, or percent ranges such as '10%/2' or '0%-10%'");
		if (f->nr_ranges) {
			const struct pev_filter_range *prev = &f->ranges[f->nr_ranges - 1];

			if (!prev->end || prev->end >= f->ranges[f->nr_ranges].start)
				return bad(err, errlen, s,
					   "the ranges overlap or are not in increasing order");
		}
		f->nr_ranges++;
		p += n;
	}
	if (!f->nr_ranges)
		return bad(err, errlen, s, "empty; give START,STOP in seconds");
	return 0;
}

/* perf's parse_percent(): "P%" -> P / 100; nothing after the '%'. */
static int parse_pct(const char *s, size_t n, double *out)
{
	char buf[64], *end;

	if (!n || n >= sizeof(buf) || s[n - 1] != '%')
		return -1;
	memcpy(buf, s, n - 1);
	buf[n - 1] = '\0';
	if (!buf[0] || memchr(buf, '%', n - 1))
		return -1;
	*out = strtod(buf, &end) / 100.0;
	return *end ? -1 : 0;
}

/* One "P%/N" or "A%-B%" item into [lo, hi]. */
static int parse_pct_item(const char *s, size_t n, char kind, struct pev_filter_pct *r)
{
	const char *sep = memchr(s, kind, n);
	size_t a;

	if (!sep)
		return -1;
	a = (size_t)(sep - s);
	if (kind == '/') {
		double p;
		char buf[24], *end;
		long i;

		if (parse_pct(s, a, &p) || n - a - 1 >= sizeof(buf))
			return -1;
		memcpy(buf, sep + 1, n - a - 1);
		buf[n - a - 1] = '\0';
		i = strtol(buf, &end, 10);
		if (*end || !buf[0] || p <= 0.0)
			return -1;
		r->lo = p * (double)(i - 1);
		r->hi = p * (double)i;
	} else {
		if (parse_pct(s, a, &r->lo) || parse_pct(sep + 1, n - a - 1, &r->hi))
			return -1;
		if (r->lo > r->hi)
			return -1;
	}
	if (r->lo < 0.0 || r->lo > 1.0 || r->hi < 0.0 || r->hi > 1.0)
		return -1;
	return 0;
}

static int parse_percent(struct pev_filter *f, const char *s, char *err, size_t errlen)
{
	char kind = strchr(s, '/') ? '/' : strchr(s, '-') ? '-' : 0;
	size_t cap = 1;

	for (const char *c = s; *c; c++)
		cap += *c == ',';
	f->pct = calloc(cap, sizeof(*f->pct));
	if (!f->pct)
		return -ENOMEM;
	if (!kind) {
		/* "P%": one range, the first P% */
		if (cap != 1 || parse_pct(s, strlen(s), &f->pct[0].hi) ||
		    f->pct[0].hi <= 0.0 || f->pct[0].hi > 1.0)
			goto invalid;
		f->nr_pct = 1;
		return 0;
	}
	for (const char *p = s;;) {
		size_t n = strcspn(p, ",");

		if (parse_pct_item(p, n, kind, &f->pct[f->nr_pct]))
			goto invalid;
		f->nr_pct++;
		if (!p[n] || !p[n + 1])
			break;
		p += n + 1;
	}
	return 0;
invalid:
	return bad(err, errlen, s,
		   "give percent ranges of the recording as 'P%', 'P%/N' (the N-th slice of P%) or 'A%-B%', several separated by ',', each within 0%-100%");
}

int pev_filter_time_parse(struct pev_filter *f, const char *s, char *err, size_t errlen)
{
	f->time_set = true;
	if (strchr(s, '%'))
		return parse_percent(f, s, err, errlen);
	return parse_abs(f, s, err, errlen);
}

bool pev_filter_needs_sample_time(const struct pev_filter *f)
{
	return f && f->nr_pct && !f->nr_ranges;
}

int pev_filter_set_sample_time(struct pev_filter *f, uint64_t first, uint64_t last,
			       char *err, size_t errlen)
{
	if (!pev_filter_needs_sample_time(f))
		return 0;
	if (!first && !last) {
		if (err && errlen)
			snprintf(err, errlen,
				 "percent --time ranges need the first and last sample times, and the file has none (no SAMPLE_TIME header); give --time in seconds instead");
		return -EINVAL;
	}
	f->ranges = calloc(f->nr_pct, sizeof(*f->ranges));
	if (!f->ranges)
		return -ENOMEM;
	for (size_t i = 0; i < f->nr_pct; i++) {
		uint64_t total = last - first;

		/* perf: ptime->start = start + total * start_pcnt (double). */
		f->ranges[i].start = (uint64_t)((double)first + (double)total * f->pct[i].lo);
		f->ranges[i].end = (uint64_t)((double)first + (double)total * f->pct[i].hi);
	}
	f->nr_ranges = f->nr_pct;
	return 0;
}

bool pev_filter_time_ok(const struct pev_filter *f, uint64_t t)
{
	if (!f || !f->time_set || !t)
		return true;
	if (!f->nr_ranges)
		return true;	/* percent ranges never resolved: perf refuses before reading */
	for (size_t i = 0; i < f->nr_ranges; i++) {
		const struct pev_filter_range *r = &f->ranges[i];

		if (t >= r->start && (!r->end || t <= r->end))
			return true;
	}
	return false;
}

size_t pev_filter_time_ranges(const struct pev_filter *f, uint64_t *start, uint64_t *end,
			      size_t max)
{
	if (!f)
		return 0;
	for (size_t i = 0; i < f->nr_ranges && i < max; i++) {
		start[i] = f->ranges[i].start;
		end[i] = f->ranges[i].end;
	}
	return f->nr_ranges;
}
