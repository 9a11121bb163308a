// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Regions: the shared state and what every region file uses (messages
 * said once, thread names). */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "region/region_internal.h"

struct reg_global pev__reg = { .lock = PTHREAD_MUTEX_INITIALIZER };
/* The said-once list has its own lock: callers may hold pev__reg.lock. */
pthread_mutex_t pev__reg_say_lock = PTHREAD_MUTEX_INITIALIZER;

void pev__reg_say_once(const char *key, const char *fmt, ...)
{
	struct reg_global *g = &pev__reg;
	va_list ap;
	char **n;

	pthread_mutex_lock(&pev__reg_say_lock);
	for (size_t i = 0; i < g->nr_said; i++) {
		if (!strcmp(g->said[i], key)) {
			pthread_mutex_unlock(&pev__reg_say_lock);
			return;
		}
	}
	n = realloc(g->said, (g->nr_said + 1) * sizeof(*n));
	if (n) {
		g->said = n;
		g->said[g->nr_said] = strdup(key);
		if (g->said[g->nr_said])
			g->nr_said++;
	}
	va_start(ap, fmt);
	fputs("perfev region: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	pthread_mutex_unlock(&pev__reg_say_lock);
}

void pev__reg_comm(pid_t tid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	buf[0] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

