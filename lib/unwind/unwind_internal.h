/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: the call-chain resolver's state, shared by chain.c (sampled
 * callchains), chain_push.c and chain_add.c (its frames), unwind.c (DWARF
 * unwinding of user stacks) and inline.c (inline frames). */
#ifndef PEV_UNWIND_INTERNAL_H
#define PEV_UNWIND_INTERNAL_H

#include <perfev/callchain.h>

struct unwind_state;
struct inline_state;

struct pev_chain {
	struct pev_machine *m;
	struct pev_chain_opts opts;
	struct pev_frame *frames;
	size_t nr, cap;
	struct unwind_state *uw;	/* created on the first dwarf sample */
	struct inline_state *in;	/* created on the first inline lookup */
};

/* chain_push.c: a slot at the end of the frame array; NULL when it cannot
 * grow. */
struct pev_frame *pev__chain_push(struct pev_chain *c);
/* chain_add.c: the frames of ip (inline.c's first when unwound). */
int pev__chain_add_ip(struct pev_chain *c, uint32_t pid, uint64_t ip,
		 uint8_t cpumode, bool unwound);

/* inline.c: looks the inline frames of loc up into the cache, as
 * pev__chain_add_inlines() would, adding no frame; 0 or -ENOMEM. */
int pev__chain_inline_warm(struct pev_chain *c, const struct pev_addr_loc *loc);

/* unwind.c: appends the user frames unwound from smp's registers and stack dump.
 * 0 (also when unwinding stops early) or -ENOMEM. */
int pev__chain_unwind(struct pev_chain *c, const struct pev_sample *smp);
void pev__chain_unwind_release(struct pev_chain *c);

/* ---- regs.c: perf's user registers to DWARF's numbering. */
#define UNWIND_DWARF_REGS 33	/* x86-64: 17, aarch64: 32 (+ pc) */
struct pev_regs;
/* The DWARF registers of e_machine (EM_X86_64, EM_AARCH64) from a sample's
 * user registers: out[i] is DWARF register i, bit i of *set says whether
 * it was sampled, *pc the program counter.  Returns how many DWARF
 * registers out holds, or -EINVAL (another machine, or no IP). */
int pev__unwind_regs_to_dwarf(uint16_t e_machine, const struct pev_regs *r,
			 uint64_t *out, uint64_t *set, uint64_t *pc);
/* The sampled user IP and SP; 0 or -ENOENT. */
int pev__unwind_user_ip_sp(uint16_t e_machine, const struct pev_regs *r,
		      uint64_t *ip, uint64_t *sp);
/* EM_X86_64 or EM_AARCH64 as this library was built for. */
uint16_t pev__unwind_host_machine(void);

/* Appends the frames of the functions inlined at ip (innermost first,
 * then the function that holds them) as perf does, when DWARF knows of
 * any: 1 when it did (the caller adds no frame of its own), 0 when it did
 * not, -ENOMEM. */
int pev__chain_add_inlines(struct pev_chain *c, const struct pev_addr_loc *loc,
		      uint64_t ip, uint8_t cpumode, bool unwound);
void pev__chain_inline_release(struct pev_chain *c);

#endif
