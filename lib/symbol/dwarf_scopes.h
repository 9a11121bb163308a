/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to the library: the DWARF scopes that hold an address
 * (dwarf_scopes.c), for the inline frames (lib/unwind/inline.c). */
#ifndef PEV_DWARF_SCOPES_H
#define PEV_DWARF_SCOPES_H

#include <stdint.h>

#include <elfutils/libdw.h>

/* The DIEs of the unit cu whose code holds pc, innermost first, the
 * namespaces and modules they sit in included, cu last: what
 * dwarf_getscopes and then dwarf_getscopes_die give, except that
 * functions defined inside a DW_TAG_namespace are found (libdw 0.188's
 * dwarf_getscopes does not look into a DIE without an address range, so
 * finds no function of a Rust unit, whose functions all sit in their
 * module's namespace; binutils' addr2line, which perf runs, does).
 * *scopes is malloc'ed.  The number of DIEs (0: none holds pc, *scopes
 * NULL), or -ENOMEM. */
int pev__dwarf_scopes(Dwarf_Die *cu, uint64_t pc, Dwarf_Die **scopes);

#endif
