// SPDX-License-Identifier: GPL-2.0-only
/* perf's evsel__name from an attr (attr_name.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/attr_name.h"

/* perf's evsel__add_modifiers: the levels an event counts and its
 * precision, ":" first. */
static size_t attr_modifiers(const struct perf_event_attr *a, char *b, size_t sz)
{
	size_t n = 0, colon = 0;
	bool guest_default = false;

#define MOD(excl, c) do { if (!(excl) && n + 2 < sz) { if (!colon) colon = ++n; b[n++] = (c); } } while (0)
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD(a->exclude_kernel, 'k');
		MOD(a->exclude_user, 'u');
		MOD(a->exclude_hv, 'h');
		guest_default = true;
	}
	if (a->precise_ip) {
		if (!colon)
			colon = ++n;
		for (unsigned i = 0; i < a->precise_ip && i < 3 && n + 2 < sz; i++)
			b[n++] = 'p';
		guest_default = true;
	}
	if (a->exclude_host || a->exclude_guest == guest_default) {
		MOD(a->exclude_host, 'H');
		MOD(a->exclude_guest, 'G');
	}
#undef MOD
	if (colon)
		b[colon - 1] = ':';
	b[n < sz ? n : sz - 1] = 0;
	return n;
}

const char *cli_attr_name(const struct perf_event_attr *a, char *buf, size_t sz)
{
	const struct pev_symbolic_event *se;

	if (!a || sz < 8 || (a->type != PERF_TYPE_HARDWARE && a->type != PERF_TYPE_SOFTWARE &&
			     a->type != PERF_TYPE_HW_CACHE))
		return NULL;
	for (size_t k = 0; (se = pev_symbolic_event(k)); k++) {
		if (se->type != a->type || se->config != a->config)
			continue;
		/* perf's names: "cycles", "branches", the software ones in full */
		const char *n = a->type == PERF_TYPE_HARDWARE && se->alias &&
				strncmp(se->alias, "idle-", 5) ? se->alias : se->name;
		size_t l = (size_t)snprintf(buf, sz, "%s", n);

		if (l < sz)
			attr_modifiers(a, buf + l, sz - l);
		return buf;
	}
	return NULL;
}
