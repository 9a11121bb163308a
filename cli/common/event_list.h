/* SPDX-License-Identifier: GPL-2.0-only */
/* The events this machine offers, collected for `perfev list` (which
 * prints them) and for the -e values of stat and record (--list-values). */
#ifndef PEV_CLI_EVENT_LIST_H
#define PEV_CLI_EVENT_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pev_pmu_list;

struct entry {
	char *name;		/* "cpu-cycles", "msr/tsc/", "sched:sched_switch" */
	const char *alias;	/* "cycles" or NULL */
	const char *type;	/* "Hardware event" ... */
	const char *unit;	/* PMU: "cpu", "software", "msr", "tracepoint" */
	const char *desc;	/* or NULL */
	char *encoding;		/* "type=1,config=0x3" or the alias terms */
	bool avail;
	bool syntax;		/* a syntax line (rNNN), not an event */
};

struct listing {
	struct entry *e;
	size_t n, cap;
	const char *glob;	/* NULL: everything */
	bool substring;		/* glob without wildcards: match inside names */
	bool no_probe;		/* names only: no test open (avail is false) */
};

/* The events (and syntax lines) of the kinds asked for, matching l->glob;
 * the PMUs read stay in *pmusp (their names are l's).  -ENOMEM or 0. */
int event_list_collect(struct listing *l, struct pev_pmu_list **pmusp, bool hw, bool sw,
		       bool cache, bool pmu, bool tp, bool syntax);
void event_list_release(struct listing *l, struct pev_pmu_list *pmus);
/* Every event name (and alias) this machine lists, one a line, as
 * `perfev list --raw-dump` has them. */
void event_list_names(FILE *out);

#endif
