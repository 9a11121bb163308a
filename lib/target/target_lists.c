// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* CPU lists ("0-3,5") and id lists ("12,345"): pure parsers, bounds-checked,
 * plus the online CPU list from sysfs. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/target.h>
#include "target/target_priv.h"
#include "core/util.h"

/* Parse a decimal number below limit at *s; advance *s.  -EINVAL if none. */
static int parse_num(const char **s, long limit, long *out)
{
	const char *p = *s;
	long v = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p - '0');
		if (v >= limit)
			return -EINVAL;
		p++;
	}
	*s = p;
	*out = v;
	return 0;
}

PEV_EXPORT int pev_cpulist_parse(const char *list, int *cpus, size_t max)
{
	/* A bitmap keeps the result sorted and de-duplicated for free. */
	unsigned char seen[PEV_MAX_CPUS / 8];
	const char *p = list;
	size_t n = 0, out = 0;

	if (!list)
		return -EINVAL;
	memset(seen, 0, sizeof(seen));
	while (*p == ' ')
		p++;
	if (*p == '\0' || *p == '\n')
		return -EINVAL;
	for (;;) {
		long a, b;

		if (parse_num(&p, PEV_MAX_CPUS, &a) < 0)
			return -EINVAL;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_num(&p, PEV_MAX_CPUS, &b) < 0 || b < a)
				return -EINVAL;
		}
		for (long c = a; c <= b; c++) {
			if (!(seen[c / 8] & (1u << (c % 8)))) {
				seen[c / 8] |= (unsigned char)(1u << (c % 8));
				n++;
			}
		}
		if (*p != ',')
			break;
		p++;
	}
	if (*p == '\n')
		p++;
	if (*p != '\0')
		return -EINVAL;
	if (cpus && n > max)
		return -ERANGE;
	if (cpus) {
		for (int c = 0; c < PEV_MAX_CPUS && out < n; c++)
			if (seen[c / 8] & (1u << (c % 8)))
				cpus[out++] = c;
	}
	return (int)n;
}

PEV_EXPORT int pev_idlist_parse(const char *list, pid_t *ids, size_t max)
{
	const char *p = list;
	size_t n = 0;

	if (!list)
		return -EINVAL;
	for (;;) {
		long v;

		while (*p == ' ')
			p++;
		/* pid_t is int: 2^31 - 1 at most (PID_MAX_LIMIT is 2^22). */
		if (parse_num(&p, 0x7fffffffL, &v) < 0 || v == 0)
			return -EINVAL;
		if (ids && n < max)
			ids[n] = (pid_t)v;
		n++;
		if (n > 0x7fffffff)
			return -EINVAL;
		while (*p == ' ')
			p++;
		if (*p != ',')
			break;
		p++;
	}
	if (*p != '\0')
		return -EINVAL;
	if (ids && n > max)
		return -ERANGE;
	return (int)n;
}

PEV_EXPORT int pev_cpus_online(int *cpus, size_t max)
{
	char buf[4096];
	int r = pev__read_small(AT_FDCWD, "/sys/devices/system/cpu/online", buf, sizeof(buf));

	if (r < 0)
		return r;
	return pev_cpulist_parse(buf, cpus, max);
}
