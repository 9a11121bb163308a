// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Debug files and executables by build id from debuginfod servers, through
 * libdebuginfod (elfutils), loaded with dlopen() only when DEBUGINFOD_URLS
 * names a server: perfev needs neither the library nor a network
 * otherwise.  The library does the HTTP, the cache (DEBUGINFOD_CACHE_PATH,
 * else $XDG_CACHE_HOME/debuginfod_client or ~/.cache/debuginfod_client),
 * its timeouts (DEBUGINFOD_TIMEOUT) and its negative cache; we ask once per
 * DSO, after every local place perf looks in has failed. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/debuginfod.h"

typedef struct debuginfod_client debuginfod_client;

struct pev__debuginfod {
	void *lib;
	debuginfod_client *client;
	debuginfod_client *(*begin)(void);
	int (*find_debuginfo)(debuginfod_client *, const unsigned char *, int, char **);
	int (*find_executable)(debuginfod_client *, const unsigned char *, int, char **);
	void (*end)(debuginfod_client *);
};

struct pev__debuginfod *pev__debuginfod_new(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	struct pev__debuginfod *d;

	if (!urls || !*urls)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!d->lib)
		goto fail;
	*(void **)&d->begin = dlsym(d->lib, "debuginfod_begin");
	*(void **)&d->find_debuginfo = dlsym(d->lib, "debuginfod_find_debuginfo");
	*(void **)&d->find_executable = dlsym(d->lib, "debuginfod_find_executable");
	*(void **)&d->end = dlsym(d->lib, "debuginfod_end");
	if (!d->begin || !d->find_debuginfo || !d->find_executable || !d->end)
		goto fail;
	d->client = d->begin();
	if (!d->client)
		goto fail;
	return d;
fail:
	if (d->lib)
		dlclose(d->lib);
	free(d);
	return NULL;
}

void pev__debuginfod_free(struct pev__debuginfod *d)
{
	if (!d)
		return;
	d->end(d->client);
	/* libdebuginfod keeps curl's global state: unloading it is not
	 * safe, and the process is about to end anyway. */
	free(d);
}

int pev__debuginfod_find(struct pev__debuginfod *d, const uint8_t *id, int size,
			 bool executable, char *path, size_t path_size)
{
	char *got = NULL;
	int fd;

	if (!d || size <= 0)
		return -ENOENT;
	fd = (executable ? d->find_executable : d->find_debuginfo)
		(d->client, id, size, &got);
	if (fd < 0)
		return fd;
	close(fd);
	if (!got)
		return -ENOENT;
	snprintf(path, path_size, "%s", got);
	free(got);
	return 0;
}
