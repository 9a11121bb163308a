// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Adding a parsed event list to a counter set. */
#include <errno.h>

#include <perfev/counter.h>
#include <perfev/event.h>
#include "count/counter_priv.h"

PEV_EXPORT int pev_counters_add_evlist(struct pev_counters *c,
				       struct pev_evlist *list)
{
	size_t base, n;

	if (!c || !list)
		return -EINVAL;
	if (c->is_open)
		return -EBUSY;
	base = c->nr;
	n = pev_evlist_count(list);
	for (size_t i = 0; i < n; i++) {
		const struct pev_event *e = pev_evlist_event(list, i);
		struct pev_counter_event ce = {
			.size = sizeof(ce),
			.attr = &e->attr.attr,
			.name = e->name,
			/* The list's leader indexes are its own: shift them
			 * past the events already in the set. */
			.leader = e->leader < 0 || (size_t)e->leader == i ? -1 :
				  (int)(base + (size_t)e->leader),
			.cpus = e->cpus,
			.scale = e->scale,
			.unit = e->unit,
		};
		int r = pev_counters_add_event(c, &ce);

		if (r < 0) {
			pev__counters_truncate(c, base);
			return r;
		}
	}
	return (int)base;
}
