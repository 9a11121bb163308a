/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: machine instructions (what perf script's insn, insnlen
 * fields need). */
#ifndef PERFEV_INSN_H
#define PERFEV_INSN_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The length of the x86 instruction at code (len bytes readable there;
 * 15 are enough for any), decoded in 64-bit mode (mode64) or 32-bit mode:
 * legacy and REX prefixes, VEX and EVEX, the one-byte, 0F, 0F38 and 0F3A
 * opcode maps, ModRM, SIB, displacement and immediate.  Returns the
 * length (1..15), -ENODATA when the bytes end first, -EINVAL for an
 * opcode that is invalid in that mode, or for NULL code.  Thread-safe. */
PEV_EXPORT int pev_x86_insn_length(const uint8_t *code, size_t len, bool mode64);

#ifdef __cplusplus
}
#endif
#endif
