// SPDX-License-Identifier: GPL-2.0-only
/* perf.data input checks for script and report (see input.h). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/input.h"

int cli_check_owner(const char *path, bool force)
{
	struct stat st;

	if (force || !strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	/* perf 6.1 (perf_data__open): "File %s not owned by current user
	 * or root (use -f to override)". */
	if (st.st_uid && st.st_uid != geteuid()) {
		cli_error("'%s' is owned by another user (uid %u), not by you or root; give -f/--force to read it anyway",
			  path, (unsigned)st.st_uid);
		return EXIT_ERROR;
	}
	return 0;
}

int cli_report_cut(const char *path, const struct pev_data *d)
{
	struct pev_data_cut c;

	if (!pev_data_cut_info(d, &c))
		return EXIT_OK;
	if (c.data_size_zero) {
		cli_warn("'%s' is incomplete: its header says 0 bytes of data (the recording never finished: killed, or the disk was full); "
			 "read %" PRIu64 " of the %" PRIu64 " bytes after the header as whole records%s; samples after that point are missing",
			 path, c.records_end, c.data_in_file,
			 c.records_end < c.data_in_file ? ", the rest is a record cut short" : "");
		return EXIT_INCOMPLETE;
	}
	if (c.header_data_size) {
		uint64_t missing = c.header_data_size - c.records_end;

		cli_warn("'%s' is cut short: its header announces %" PRIu64 " bytes of records, the file holds %" PRIu64
			 "; %" PRIu64 " bytes (%.1f%%) of records are missing after the last whole record%s; copy or record it again",
			 path, c.header_data_size, c.data_in_file, missing,
			 100.0 * (double)missing / (double)c.header_data_size,
			 c.features_lost ? ", and so are the feature sections (build ids, event names, topology)" : "");
		return EXIT_INCOMPLETE;
	}
	cli_warn("'%s' is cut short after its records: %u feature sections (build ids, event names, topology) are missing; the records were read whole",
		 path, c.nr_features_lost);
	return EXIT_INCOMPLETE;
}

int cli_max_stack_default(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	int v = 127;

	if (f) {
		if (fscanf(f, "%d", &v) != 1 || v <= 0)
			v = 127;
		fclose(f);
	}
	return v;
}

void cli_unlink_partial(const char *path)
{
	struct stat st;

	/* never a device, a FIFO or a link: `-o /dev/null` as root must not
	 * remove /dev/null */
	if (path && !lstat(path, &st) && S_ISREG(st.st_mode))
		unlink(path);
}

const char *cli_data_errmsg(const char *err, int errnum)
{
	if (!err || !err[0])
		return strerror(errnum);
	return strncmp(err, "perf.data: ", 11) ? err : err + 11;
}
