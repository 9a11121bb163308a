// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat: one counter line in the chosen format; the only caller of
 * the three back-ends. */
#include "stat/stat.h"

void stat_print_line(const struct stat_out *o, const struct stat_line *l)
{
	switch (o->kind) {
	case STAT_OUT_CSV:
		stat_csv_line(o, l);
		break;
	case STAT_OUT_JSON:
		stat_json_line(o, l);
		break;
	default:
		stat_human_line(o, l);
		break;
	}
}
