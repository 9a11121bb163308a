/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks shared by the commands that read a perf.data file (script,
 * report): perf's ownership rule and the warning for a file cut short. */
#ifndef PEV_CLI_INPUT_H
#define PEV_CLI_INPUT_H

#include <stdbool.h>

#include <perfev/data.h>

/* perf's rule: a file owned by someone other than the user and root is
 * refused unless -f/--force.  0, or EXIT_ERROR after the error line.
 * Not for "-" (a pipe). */
int cli_check_owner(const char *path, bool force);

/* After reading d to its end: when the file was cut short (data section
 * or features past the end of the file, data size 0 in the header),
 * one warning on stderr saying what is missing, and EXIT_INCOMPLETE;
 * else EXIT_OK. */
int cli_report_cut(const char *path, const struct pev_data *d);

/* perf's default --max-stack: kernel.perf_event_max_stack, 127 without. */
int cli_max_stack_default(void);

/* Removes a half-written output file after an error, only when path is a
 * regular file (not a device such as /dev/full, a FIFO or a symlink). */
void cli_unlink_partial(const char *path);

/* The reason to print after "cannot read 'FILE': ": the library's message
 * err without its "perf.data: " prefix (the line names the file already),
 * or strerror(errnum) when err is empty. */
const char *cli_data_errmsg(const char *err, int errnum);

#endif
