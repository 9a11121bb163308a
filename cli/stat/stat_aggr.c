// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat --per-socket/--per-die/--per-core/--per-node: which
 * aggregation unit each counted CPU belongs to, in perf's unit order
 * (sorted by node, socket, die, core). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/topology.h>
#include "stat/stat.h"

/* The unit's key: only the ids the mode groups by; the rest are -1 so
 * that they do not split a unit. */
static struct stat_unit key_of(enum stat_aggr a, const struct pev_cpu_topology *t)
{
	struct stat_unit u = { .socket = -1, .die = -1, .core = -1, .node = -1 };

	switch (a) {
	case STAT_AGGR_CORE:
		u.core = t->core;
		/* fall through */
	case STAT_AGGR_DIE:
		u.die = t->die;
		/* fall through */
	case STAT_AGGR_SOCKET:
		u.socket = t->socket;
		break;
	default:
		u.node = t->node;
		break;
	}
	return u;
}

static int cmp_unit(const struct stat_unit *x, const struct stat_unit *y)
{
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return 0;
}

static int cmp_unit_q(const void *a, const void *b)
{
	return cmp_unit(a, b);
}

int stat_units_from_topology(enum stat_aggr a, const struct pev_cpu_topology *topo, size_t n,
			     struct stat_unit *units, int *unit_of)
{
	size_t nu = 0;

	if (!stat_aggr_topo(a))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		struct stat_unit k = key_of(a, &topo[i]);
		size_t j;
		for (j = 0; j < nu && cmp_unit(&units[j], &k); j++)
			;
		if (j == nu)
			units[nu++] = k;
		units[j].nr++;
	}
	qsort(units, nu, sizeof(*units), cmp_unit_q);
	for (size_t i = 0; i < n; i++) {
		struct stat_unit k = key_of(a, &topo[i]);
		for (size_t j = 0; j < nu; j++)
			if (!cmp_unit(&units[j], &k))
				unit_of[i] = (int)j;
	}
	return (int)nu;
}

int stat_units_build(enum stat_aggr a, const int *cpus, size_t n, struct stat_unit *units,
		     int *unit_of)
{
	struct pev_cpu_topology *topo = calloc(n ? n : 1, sizeof(*topo));

	if (!topo)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		int r = pev_cpu_topology(cpus[i], &topo[i]);
		if (r < 0) {
			free(topo);
			return r;
		}
	}
	int r = stat_units_from_topology(a, topo, n, units, unit_of);
	free(topo);
	return r;
}
