// SPDX-License-Identifier: GPL-2.0-only
/* perfev: the one error and warning printer every command uses; it calls
 * no command (cli.h says how messages read). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
