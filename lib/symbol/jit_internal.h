/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to the JIT support (jitmap.c, jitdump*.c) and its hooks in the
 * symbol table and the DSO cache. */
#ifndef PEV_JIT_INTERNAL_H
#define PEV_JIT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pev_symbol;
struct pev_symtab;
struct pev__perfmap;

/* A parsed perf map (perf's symbols and tree); NULL and errno = ENOMEM. */
struct pev__perfmap *pev__perfmap_parse(const char *text, size_t len);
void pev__perfmap_free(struct pev__perfmap *pm);
/* perf's symbols__find over the map's tree. */
const struct pev_symbol *pev__perfmap_lookup(const struct pev__perfmap *pm,
					     uint64_t ip);
size_t pev__perfmap_count(const struct pev__perfmap *pm);
/* The i-th entry by address (equal addresses in file order). */
const struct pev_symbol *pev__perfmap_symbol(const struct pev__perfmap *pm,
					     size_t i);
/* Hands pm to an empty table (symbols.c): the table is finished and its
 * lookups, count and listing go to pm, which it frees. */
void pev__symtab_attach_perfmap(struct pev_symtab *st, struct pev__perfmap *pm);

/* A growing byte buffer; failed once an allocation failed. */
struct pev__jit_buf {
	uint8_t *data;
	size_t len, cap;
	bool failed;
};

struct pev_jitdump_header;
struct pev_jit_record;

/* The .debug_line, .debug_info and .debug_abbrev contents perf 6.1 writes
 * for the DEBUG_INFO record dbg (read with h) of the code at code_addr,
 * into out[0..2] (the caller frees their data).  0 or -ENOMEM. */
int pev__jit_debug_sections(const struct pev_jitdump_header *h, const struct pev_jit_record *dbg,
			    uint64_t code_addr, struct pev__jit_buf out[3]);

#endif
