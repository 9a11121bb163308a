// SPDX-License-Identifier: GPL-2.0-only
/* perfev: the command table, global options and the shared runner (the
 * error printer all commands share is in errors.c). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/perfev.h>
#include "common/cli.h"
#include "common/options.h"

static int cmd_version(int argc, char **argv)
{
	/* No options; the table answers --list-opts like every command's.
	 * Other words are ignored, -h prints the version as it always has. */
	static const struct opt opts[] = { { OPT_END } };

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--list-opts") || !strncmp(argv[i], "--list-values", 13))
			return opt_parse(argc, argv, opts, NULL, 0, NULL) == OPT_ERROR ? EXIT_USAGE : EXIT_OK;
	printf("perfev version %s\n", pev_version());
	return EXIT_OK;
}

/* One line per command; keep it sorted the way `perfev --help` lists it. */
static const struct cmd commands[] = {
	{ "archive", cmd_archive, "pack the build-id cache files a recording needs" },
	{ "buildid-cache", cmd_buildid_cache, "add, remove and list files in perf's build-id cache" },
	{ "buildid-list", cmd_buildid_list, "list the build ids a perf.data file names" },
	{ "convert", cmd_convert, "write a perf.data file for other tools: folded stacks, flame graphs, pprof, ..." },
	{ "diff", cmd_diff, "compare the profiles of perf.data files (perf diff)" },
	{ "evlist", cmd_evlist, "list the events a perf.data file holds, with their attrs (perf evlist)" },
	{ "flamegraph", cmd_flamegraph, "write an interactive flame graph (convert --to html)" },
	{ "inject", cmd_inject, "rewrite a perf.data file (--jit: JIT code as ELF files; -b: build ids)" },
	{ "list", cmd_list, "list the events this machine offers" },
	{ "record", cmd_record, "sample a command or targets into perf.data" },
	{ "report", cmd_report, "show where the time goes in a perf.data file" },
	{ "script", cmd_script, "print the records of a perf.data file" },
	{ "stat", cmd_stat, "count events while a command runs, or on targets" },
	{ "version", cmd_version, "print perfev's version" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	/* the list of commands comes last: scripts read it to the end */
	fprintf(f, "usage: perfev [--version] [--help] <command> [<args>]\n\n"
		"'perfev <command> -h' describes a command's options, 'man perfev-<command>' the command.\n"
		"\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "   %-14s %s\n", commands[i].name, commands[i].help);
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev[32], cur[32];

	if (la >= 31 || lb >= 31)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(cur));
	}
	return prev[lb];
}

/* Data goes to stdout: a command that "succeeded" but could not write its
 * output (full disk, closed pipe) must not exit 0. */
static int finish_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			cli_error("cannot write output: %s", strerror(errno));
		return rc ? rc : EXIT_ERROR;
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return finish_stdout(EXIT_OK);
	}
	/* The command names on one line, for shell completion (perf's). */
	if (!strcmp(name, "--list-cmds")) {
		for (size_t i = 0; i < NCOMMANDS; i++)
			printf("%s%s", i ? " " : "", commands[i].name);
		putchar('\n');
		return finish_stdout(EXIT_OK);
	}
	if (!strcmp(name, "--version"))
		return finish_stdout(cmd_version(argc - 1, argv + 1));
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return finish_stdout(commands[i].fn(argc - 1, argv + 1));

	const char *best = NULL;
	size_t bestd = 3;
	for (size_t i = 0; i < NCOMMANDS; i++) {
		size_t d = edit_distance(name, commands[i].name);
		if (d < bestd) {
			bestd = d;
			best = commands[i].name;
		}
	}
	if (best)
		cli_error("'%s' is not a perfev command; did you mean '%s'?", name, best);
	else
		cli_error("'%s' is not a perfev command; see 'perfev --help'", name);
	return EXIT_USAGE;
}
