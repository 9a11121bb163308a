/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to the library: the DWARF unit that holds an address
 * (dwarf_scopes.c), for srclines (symbols_srcline.c) and the inline
 * frames (lib/unwind/inline.c). */
#ifndef PEV_DWARF_SCOPES_H
#define PEV_DWARF_SCOPES_H

#include <stdint.h>

#include <elfutils/libdw.h>

/* The units of a file by address, for the units .debug_aranges leaves
 * out: clang writes no .debug_aranges (nor does rustc for some units),
 * and libdw 0.188's dwarf_addrdie reads nothing else, where binutils'
 * addr2line (perf's) falls back to each unit's DW_AT_low_pc/high_pc or
 * DW_AT_ranges.  Built on the first address dwarf_addrdie misses. */
struct pev__cu_ranges;
/* dwarf_addrdie, else the unit whose own ranges hold pc (*idx: the index
 * of dw, created on the first miss; NULL at first, freed with
 * pev__cu_ranges_free).  cu, or NULL when no unit holds pc (or out of
 * memory). */
Dwarf_Die *pev__dwarf_addrdie(Dwarf *dw, struct pev__cu_ranges **idx, uint64_t pc, Dwarf_Die *cu);
void pev__cu_ranges_free(struct pev__cu_ranges *idx);

#endif
