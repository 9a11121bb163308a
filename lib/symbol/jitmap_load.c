// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The public perf-map calls: a parsed map (jitmap.c) handed to a symbol
 * table (symbols.c).  Apart from jitmap.c so that calls run one way:
 * symbols.c looks up through jitmap.c, and this file uses both. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/jit.h>
#include "symbol/symbols_internal.h"
#include "symbol/jit_internal.h"

PEV_EXPORT struct pev_symtab *pev_perfmap_parse(const char *text, size_t len)
{
	struct pev__perfmap *pm;
	struct pev_symtab *st;

	if (!text && len) {
		errno = EINVAL;
		return NULL;
	}
	pm = pev__perfmap_parse(text ? text : "", len);
	if (!pm)
		return NULL;
	st = pev_symtab_new();
	if (!st) {
		pev__perfmap_free(pm);
		errno = ENOMEM;
		return NULL;
	}
	pev__symtab_attach_perfmap(st, pm);
	return st;
}

PEV_EXPORT struct pev_symtab *pev_perfmap_load(const char *path)
{
	char *buf;
	size_t len;
	int err = pev_read_whole_file(path, &buf, &len);

	if (err < 0) {
		errno = -err;
		return NULL;
	}
	struct pev_symtab *st = pev_perfmap_parse(buf, len);

	free(buf);
	return st;
}

PEV_EXPORT bool pev_perfmap_is_name(const char *name)
{
	return name && !strncmp(name, "/tmp/perf-", 10);
}
