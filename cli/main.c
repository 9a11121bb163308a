/* perfev: the command table, global options and the shared runner. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/perfev.h>
#include "cli.h"

static int cmd_version(int argc, char **argv)
{
	(void)argc; (void)argv;
	printf("perfev version %s\n", pev_version());
	return EXIT_OK;
}

/* One line per command; keep it sorted the way `perfev --help` lists it. */
static const struct cmd commands[] = {
	{ "list", cmd_list, "list the events this machine offers" },
	{ "record", cmd_record, "sample a command or targets into perf.data" },
	{ "report", cmd_report, "show where the time goes in a perf.data file" },
	{ "script", cmd_script, "print the records of a perf.data file" },
	{ "stat", cmd_stat, "count events while a command runs, or on targets" },
	{ "version", cmd_version, "print perfev's version" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("perfev: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("perfev: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_cgroup_error(const char *what, const char *name, int err)
{
	char mnt[4096];

	if (err == ENODEV) {
		cli_error("%s '%s': no cgroup2 file system is mounted; mount one with "
			  "'mount -t cgroup2 none /sys/fs/cgroup'", what, name);
		return;
	}
	if (err == ENOENT || err == ENOTDIR) {
		if (pev_cgroup2_mount(mnt, sizeof(mnt)) < 0)
			snprintf(mnt, sizeof(mnt), "the cgroup2 mount");
		size_t l = strlen(mnt);
		bool under = name[0] == '/' && !strncmp(name, mnt, l) &&
			     (name[l] == '/' || name[l] == '\0');
		cli_error("%s '%s': no such cgroup: %s%s%s is not a directory; name a "
			  "directory under %s (see 'ls %s')", what, name,
			  under ? "" : mnt, under ? "" : "/", name + (!under && name[0] == '/'),
			  mnt, mnt);
		return;
	}
	cli_error("%s '%s': %s", what, name, strerror(err));
}

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev [--version] [--help] <command> [<args>]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'perfev <command> -h' describes a command's options.\n");
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
