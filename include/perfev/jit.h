/* libperfev: code generated at run time (JIT compilers).
 *
 * Two ways a JIT tells a profiler where its code is, both read as perf
 * 6.1 reads them:
 *   - /tmp/perf-PID.map text files ("START SIZE NAME" lines, hexadecimal
 *     numbers; node --perf-basic-prof, the JVM's perf-map-agent), which
 *     name the anonymous executable mappings of process PID;
 *   - jit-PID.dump binary files (the jitdump format of perf's
 *     tools/perf/util/jitdump.h: a header, then JIT_CODE_LOAD, MOVE,
 *     DEBUG_INFO, CLOSE and UNWINDING_INFO records; node --perf-prof, the
 *     JVM's jvmti agent), which `perfev inject --jit` turns into one ELF
 *     file per function plus MMAP2 records for them.
 *
 * Every parser is bounds-checked: a file cut short or lying about its
 * sizes ends the parse, never reads past the buffer. */
#ifndef PERFEV_JIT_H
#define PERFEV_JIT_H

#include <perfev/common.h>
#include <perfev/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------- perf map files */

/* Parses the text of a perf map file into a new finished symbol table,
 * exactly as perf 6.1 does: each line loses its last character (the
 * newline; a last line without one loses a real character), START and
 * SIZE are read as strtoull(..., 16) reads them, a line too short for a
 * name after them is skipped, every symbol is global STT_FUNC of
 * [START, START+SIZE) (a size-0 symbol holds only START).  Lookups
 * (pev_symtab_lookup) follow perf's: of overlapping entries, the one its
 * red-black tree search meets first, which depends on the file order.
 * pev_symtab_symbol lists the entries by address.  NULL and errno =
 * ENOMEM. */
PEV_EXPORT struct pev_symtab *pev_perfmap_parse(const char *text, size_t len);
/* Reads and parses a perf map file; NULL and errno (ENOENT, EACCES,
 * ENOMEM). */
PEV_EXPORT struct pev_symtab *pev_perfmap_load(const char *path);
/* True for a name perf 6.1 treats as a perf map ("/tmp/perf-..."). */
PEV_EXPORT bool pev_perfmap_is_name(const char *dso_name);

#ifdef __cplusplus
}
#endif
#endif
