/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private: debuginfod lookups for the DSO cache (debuginfod.c). */
#ifndef PEV_DEBUGINFOD_H
#define PEV_DEBUGINFOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pev__debuginfod;

/* A client when DEBUGINFOD_URLS is set and libdebuginfod.so.1 loads;
 * NULL otherwise (no server to ask). */
struct pev__debuginfod *pev__debuginfod_new(void);
void pev__debuginfod_free(struct pev__debuginfod *d);
/* Asks the servers for the debuginfo (or, with executable, the binary)
 * of build id id[size]; 0 and the cached file's path, or -errno (-ENOENT
 * when d is NULL or no server has it). */
int pev__debuginfod_find(struct pev__debuginfod *d, const uint8_t *id, int size,
			 bool executable, char *path, size_t path_size);

#endif
