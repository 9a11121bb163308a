/* perfev report -F/--fields: perf's output fields.  The forms that are
 * perf's default layout under other options are taken: the overhead
 * columns in perf's order (overhead_children,overhead in children mode,
 * overhead without it; then overhead_sys,overhead_us; sample; period)
 * followed by sort keys, which become the sort order when -s is not
 * given.  Other orders (a sort key before an overhead column, overhead
 * without Children in children mode) sort and lay out entries in ways
 * perfev does not reproduce yet: they are refused, exit 2. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static const char *const hpp_order[] = {
	"overhead_children", "overhead", "overhead_sys", "overhead_us", "sample", "period",
};
#define NHPP (sizeof(hpp_order) / sizeof(hpp_order[0]))

static int hpp_index(const char *t)
{
	for (size_t i = 0; i < NHPP; i++)
		if (!strcasecmp(t, hpp_order[i]))
			return (int)i;
	return -1;
}

static int refuse(const char *f, const char *why)
{
	cli_error("-F/--fields '%s' is not supported by perfev report yet: %s", f, why);
	return -EINVAL;
}

int report_parse_fields(struct report *r, bool cumulate)
{
	char *buf = strdup(r->fields), *keys = calloc(1, strlen(r->fields) + 1);
	int last = -1, rc = 0;
	bool seen[NHPP] = { false };

	if (!buf || !keys) {
		free(buf);
		free(keys);
		cli_error("out of memory");
		return -ENOMEM;
	}
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && !rc;
	     t = strtok_r(NULL, ",", &save)) {
		int h = hpp_index(t);

		if (h < 0) {
			if (keys[0])
				strcat(keys, ",");
			strcat(keys, t);
			continue;
		}
		if (keys[0])
			rc = refuse(r->fields, "give the overhead fields before the sort keys");
		else if (h <= last)
			rc = refuse(r->fields, "give the overhead fields in perf's order: overhead_children,overhead,overhead_sys,overhead_us,sample,period");
		else
			seen[h] = true;
		last = h;
	}
	if (!rc && r->sort)
		rc = refuse(r->fields, "with -s/--sort");
	else if (!rc && !keys[0])
		rc = refuse(r->fields, "name at least one sort key (comm, dso, sym, ...)");
	else if (!rc && seen[0] != cumulate)
		rc = refuse(r->fields, cumulate ?
			    "in children mode begin with overhead_children,overhead (or add --no-children)" :
			    "overhead_children needs call chains and children mode");
	else if (!rc && !seen[1])
		rc = refuse(r->fields, "begin with overhead");
	else if (!rc && seen[2] != seen[3])
		rc = refuse(r->fields, "give overhead_sys and overhead_us together");
	if (!rc) {
		r->show_cpu_util |= seen[2];
		r->show_nr |= seen[4];
		r->show_total_period |= seen[5];
		rc = report_parse_sort(r, keys);
		r->sort = keys;		/* freed at exit with the report */
		r->fields_keys = keys;
		keys = NULL;
	}
	free(buf);
	free(keys);
	return rc;
}

/* With -F perf names the self column "Overhead" in children mode too. */
void report_fields_cols(struct report *r)
{
	for (unsigned i = 0; r->fields && i < r->ncols; i++)
		if (r->cols[i].kind == C_OVERHEAD)
			r->cols[i].name = "Overhead";
}
