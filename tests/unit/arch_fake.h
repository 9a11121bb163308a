/* SPDX-License-Identifier: GPL-2.0-only */
/* A fake root (proc/sys/kernel, sys/bus/event_source/devices) under
 * mkdtemp for the arch_* unit tests: pev_user_access_probe reads it as it
 * reads "/". */
#ifndef PEV_TEST_ARCH_FAKE_H
#define PEV_TEST_ARCH_FAKE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ARCH_DEV "sys/bus/event_source/devices/"
#define ARCH_UA  "proc/sys/kernel/perf_user_access"

static inline void arch_fake_mkdirs(const char *path)
{
	char tmp[1024];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(tmp, 0755);
			*p = '/';
		}
	mkdir(tmp, 0755);
}

/* Write text into root/rel, creating the folders. */
static inline void arch_fake_write(const char *root, const char *rel, const char *text)
{
	char path[1024], dir[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	arch_fake_mkdirs(dir);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static inline void arch_fake_unlink(const char *root, const char *rel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	unlink(path);
}

/* A new empty root in buf (size >= 32). */
static inline void arch_fake_root(char *buf, size_t size)
{
	snprintf(buf, size, "/tmp/pev-arch-XXXXXX");
	if (!mkdtemp(buf)) {
		perror("mkdtemp");
		exit(1);
	}
}

static inline void arch_fake_remove(const char *root)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
}

#endif
