/* SPDX-License-Identifier: GPL-2.0-only */
/* Declarative option tables: the parser and `-h` read the same table. */
#ifndef PEV_CLI_OPTIONS_H
#define PEV_CLI_OPTIONS_H

#include <stdbool.h>

struct opt;
typedef int (*opt_cb)(const struct opt *o, const char *arg, void *ctx);

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
};

enum {
	OPT_PARSE_STOP_AT_NON_OPTION = 0x1,	/* `stat [opts] cmd args`: stop at cmd */
};

/* Parse argv[1..]; returns the index of the first non-option argument,
 * OPT_HELP when -h/--help was given (usage already printed to stdout), or
 * OPT_ERROR after printing a message that names the bad option. */
#define OPT_HELP  (-2)
#define OPT_ERROR (-1)
int opt_parse(int argc, char **argv, const struct opt *opts, const char *const *usage,
	      unsigned flags, void *ctx);
void opt_usage(const struct opt *opts, const char *const *usage, bool to_stderr);

#endif
