/* Private to the JIT support (jitmap.c, jitdump*.c) and its hooks in the
 * symbol table and the DSO cache. */
#ifndef PEV_JIT_INTERNAL_H
#define PEV_JIT_INTERNAL_H

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

#endif
