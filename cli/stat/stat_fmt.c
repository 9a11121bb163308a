// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat: what the three output back-ends (stat_human.c, stat_csv.c,
 * stat_json.c) share, so that none of them calls another: the count as
 * perf formats it, a topology unit's name and the running share. */
#include <inttypes.h>
#include <stdio.h>

#include "stat/stat.h"

char *stat_format_count(char *buf, size_t size, double v, bool fractional, bool group)
{
	/* "%'" groups with the LC_NUMERIC separator (none in "C"); the
	 * caller sets the locale only when it has one. */
	if (group)
		snprintf(buf, size, fractional ? "%'.2f" : "%'.0f", v);
	else
		snprintf(buf, size, fractional ? "%.2f" : "%.0f", v);
	return buf;
}

char *stat_aggr_name(char *buf, size_t size, enum stat_aggr a, const struct stat_line *l)
{
	switch (a) {
	case STAT_AGGR_SOCKET:
		snprintf(buf, size, "S%d", l->socket);
		break;
	case STAT_AGGR_DIE:
		snprintf(buf, size, "S%d-D%d", l->socket, l->die);
		break;
	case STAT_AGGR_CORE:
		snprintf(buf, size, "S%d-D%d-C%d", l->socket, l->die, l->core);
		break;
	case STAT_AGGR_NODE:
		snprintf(buf, size, "N%d", l->node);
		break;
	default:
		snprintf(buf, size, "%s", "");
		break;
	}
	return buf;
}

/* perf's percentage here is integer arithmetic on u64 (100 * run / ena),
 * printed with "%.2f": keep that, so the columns match perf's. */
double stat_pcnt_running(uint64_t run, uint64_t ena)
{
	return run != ena && ena ? (double)(100 * run / ena) : 100.0;
}
