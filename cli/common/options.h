/* SPDX-License-Identifier: GPL-2.0-only */
/* Declarative option tables: the parser and `-h` read the same table. */
#ifndef PEV_CLI_OPTIONS_H
#define PEV_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

struct opt;
typedef int (*opt_cb)(const struct opt *o, const char *arg, void *ctx);
/* Prints the values an option accepts, one a line (`--list-values NAME`,
 * for shell completion); it reads the table the option's parser uses. */
typedef void (*opt_values_fn)(FILE *out);

enum opt_type {
	OPT_END = 0,
	OPT_BOOL,	/* bool *; --no-NAME clears it */
	OPT_INT,	/* int * */
	OPT_LONG,	/* long * */
	OPT_STRING,	/* const char ** (points into argv) */
	OPT_CALLBACK,	/* cb(o, arg, ctx); repeatable (-e a -e b) */
	OPT_COUNT,	/* int *, incremented each time (-v -v) */
	OPT_GROUP,	/* a heading in -h output; help is the title */
};

#define OPT_NOARG  0x1	/* OPT_CALLBACK that takes no argument (arg is NULL) */
#define OPT_OPTARG 0x2	/* argument optional; only as --name=value or -Xvalue */
#define OPT_HIDDEN 0x4	/* not shown by -h */
#define OPT_OPTNEXT 0x8	/* argument optional: also the next word when it does not start
			 * with '-' (perf's `-g`, `-g caller`, `-g -n`) */

struct opt {
	enum opt_type type;
	char short_name;	/* 0 for none */
	const char *long_name;	/* NULL for none */
	void *value;
	const char *argh;	/* argument placeholder for -h, e.g. "events" */
	const char *help;
	opt_cb cb;
	unsigned flags;
	/* Last, so that initializers without it stay valid (the Makefile
	 * turns -Wmissing-field-initializers off for them); NULL: unknown. */
	opt_values_fn values;
};

enum {
	OPT_PARSE_STOP_AT_NON_OPTION = 0x1,	/* `stat [opts] cmd args`: stop at cmd */
};

/* Parse argv[1..]; returns the index of the first non-option argument,
 * OPT_HELP when -h/--help was given (usage already printed to stdout), or
 * OPT_ERROR after printing a message that names the bad option.
 *
 * Two words every command accepts, for shell completion (as perf's), exit
 * the process after printing to stdout:
 *   --list-opts          the table's options (not the hidden ones) on one
 *                        line: --NAME for each long name, -X for an option
 *                        with only a short one
 *   --list-values NAME   the values option NAME (long name or letter, with
 *                        or without its dashes) accepts, one a line;
 *                        nothing when the table does not know them */
#define OPT_HELP  (-2)
#define OPT_ERROR (-1)
int opt_parse(int argc, char **argv, const struct opt *opts, const char *const *usage,
	      unsigned flags, void *ctx);
void opt_usage(const struct opt *opts, const char *const *usage, bool to_stderr);

#endif
