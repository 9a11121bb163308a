// SPDX-License-Identifier: GPL-2.0-only
/* perfev: the one error and warning printer every command uses; it calls
 * no command (cli.h says how messages read). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/perfev.h>
#include "common/cli.h"

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

void cli_cpus_error(const char *what, const char *cpus, int err)
{
	static int want[PEV_MAX_CPUS], online[PEV_MAX_CPUS];
	int nw = cpus ? pev_cpulist_parse(cpus, want, PEV_MAX_CPUS) : -EINVAL;
	int no = pev_cpus_online(online, PEV_MAX_CPUS);
	char text[256] = "";
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");

	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = 0;
		fclose(f);
		text[strcspn(text, "\n")] = 0;
	}
	if (err == EINVAL) {
		cli_error("%s '%s': not a CPU list (e.g. 0-3,5)", what, cpus ? cpus : "all");
		return;
	}
	if (err == ENODEV && nw > 0 && no > 0) {
		for (int i = 0; i < nw; i++) {
			bool on = false;

			for (int k = 0; k < no && !on; k++)
				on = online[k] == want[i];
			if (!on) {
				cli_error("%s '%s': CPU %d is not online (online CPUs: %s, in "
					  "/sys/devices/system/cpu/online)", what, cpus, want[i],
					  text[0] ? text : "none");
				return;
			}
		}
	}
	cli_error("%s '%s': %s", what, cpus ? cpus : "all",
		  err == ENODEV ? "a CPU is not online; see /sys/devices/system/cpu/online" :
		  strerror(err));
}

/* The file execvp would have tried for cmd: cmd itself when it holds a
 * '/', else the first PATH entry where it exists. */
static bool exec_path(const char *cmd, char *buf, size_t size, struct stat *st)
{
	if (strchr(cmd, '/')) {
		snprintf(buf, size, "%s", cmd);
		return stat(buf, st) == 0;
	}
	const char *path = getenv("PATH");

	if (!path)
		path = "/usr/local/bin:/bin:/usr/bin";
	while (*path) {
		size_t l = strcspn(path, ":");

		snprintf(buf, size, "%.*s%s%s", (int)l, path, l ? "/" : "", cmd);
		if (stat(buf, st) == 0)
			return true;
		path += l + (path[l] == ':');
	}
	return false;
}

void cli_exec_error(const char *cmd, int err)
{
	char path[PATH_MAX];
	struct stat st;
	bool found = exec_path(cmd, path, sizeof(path), &st);

	if (err == ENOENT && !found) {
		cli_error("cannot run '%s': %s; check the command's name and PATH", cmd,
			  strerror(err));
		return;
	}
	if (err == EACCES && found && S_ISDIR(st.st_mode)) {
		cli_error("cannot run '%s': %s%s%sa directory, not a command", cmd,
			  strcmp(cmd, path) ? "'" : "", strcmp(cmd, path) ? path : "",
			  strcmp(cmd, path) ? "' is " : "");
		return;
	}
	if (err == EACCES && found && S_ISREG(st.st_mode) && access(path, X_OK)) {
		cli_error("cannot run '%s': %s%s%snot executable (the file has no execute permission)",
			  cmd, strcmp(cmd, path) ? "'" : "", strcmp(cmd, path) ? path : "",
			  strcmp(cmd, path) ? "' is " : "");
		return;
	}
	cli_error("cannot run '%s': %s", cmd, strerror(err));
}
