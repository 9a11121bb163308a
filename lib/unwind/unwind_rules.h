/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: the CFI rules unwind_fast.c caches per (module, pc), and
 * their release (unwind_rules.c), which unwind_mods.c needs too when it
 * drops the modules the rules point at. */
#ifndef PEV_UNWIND_RULES_H
#define PEV_UNWIND_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include <elfutils/libdwfl.h>

#define NREGS 17	/* x86-64's DWARF registers libdwfl unwinds */

/* A register's rule: R_EXPR saved at the address an expression gives,
 * R_VALX an expression's value. */
enum { R_NONE, R_UNDEF, R_SAME, R_LOC, R_VAL, R_REG, R_EXPR, R_VALX };

struct cfi_rule {
	const Dwfl_Module *mod;		/* key, with pc; NULL: free slot */
	uint64_t pc;
	bool found;			/* an FDE covers pc */
	bool simple;
	bool signal;			/* a signal frame's CIE ('S') */
	uint8_t go;			/* unwind_go.c's GO_* */
	uint8_t cfa_reg;
	int64_t cfa_off;
	uint16_t cfa_x, cfa_n;		/* cfa_n: the CFA is ops[cfa_x..] */
	uint8_t kind[NREGS];
	int64_t arg[NREGS];		/* offset, register, or first op */
	uint16_t nops[NREGS];		/* R_EXPR, R_VALX: how many ops */
	Dwarf_Op *ops;			/* the expressions (owned) */
};

#endif
