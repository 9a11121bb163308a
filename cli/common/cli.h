/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by every subcommand: exit codes, messages, the command table. */
#ifndef PEV_CLI_H
#define PEV_CLI_H

#include <stdbool.h>
#include <stdio.h>

/* Exit codes (documented in perfev(1), EXIT STATUS).  A command that
 * runs a workload exits with the workload's status instead, or 128+N
 * when the workload died of signal N. */
enum {
	EXIT_OK = 0,
	EXIT_ERROR = 1,		/* the operation failed (message on stderr) */
	EXIT_USAGE = 2,		/* bad command line */
	/* script, report: the input file was cut short; everything it
	 * holds was read and printed, and a warning says what is missing */
	EXIT_INCOMPLETE = 3,
};

/* "perfev: error: <msg>" on stderr.  Messages are lowercase, name the
 * thing that failed in quotes, and end with what to do. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "WHAT 'NAME': ..." for a cgroup (-G) that could not be opened: no cgroup2
 * mount, or the directory looked for under it does not exist. */
void cli_cgroup_error(const char *what, const char *name, int err);
/* "WHAT 'CPUS': ..." for a -C list (or -a when cpus is NULL) that could
 * not be set up: not a CPU list, or a CPU of it that is not online (named,
 * with the online list from sysfs). */
void cli_cpus_error(const char *what, const char *cpus, int err);
/* "cannot run 'CMD': ..." for a workload whose exec failed with err: not
 * found (check the name and PATH), a directory, a file without execute
 * permission (chmod +x), else the errno text. */
void cli_exec_error(const char *cmd, int err);

/* Every subcommand: argv[0] is the command's name. */
typedef int (*cmd_fn)(int argc, char **argv);
struct cmd {
	const char *name;
	cmd_fn fn;
	const char *help;
};

/* Subcommands (cli/cmd_<name>.c). */
int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_buildid_cache(int argc, char **argv);
int cmd_buildid_list(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_inject(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_evlist(int argc, char **argv);

#endif
