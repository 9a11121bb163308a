/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: the DWARF unwinder's state (unwind.c: libdwfl's unwinder;
 * unwind_fast.c: the same walk from cached CFI rules). */
#ifndef PEV_UNWIND_STATE_H
#define PEV_UNWIND_STATE_H

#include <elfutils/libdwfl.h>

#include "unwind/unwind_internal.h"

/* The cap on unwound frames when max_stack is 0 (no limit). */
#define UNWIND_MAX_FRAMES 1024

struct space {			/* one process's address space */
	uint32_t pid;
	Dwfl *dwfl;
	bool attached;
	/* The map last found reported, within the current sample. */
	uint64_t last_lo, last_hi;
};

struct dso_fd {
	struct pev_dso *dso;
	int fd;			/* -1: cannot be opened */
};

struct unwind_state {
	struct space *spaces;
	size_t nr_spaces, cap_spaces;
	char vdso_path[64];	/* this process's vDSO, written out; "" none */
	int vdso_state;		/* 0 not tried, 1 written, -1 failed */
	struct dso_fd *fds;
	size_t nr_fds, cap_fds;
	/* The sample being unwound (for the callbacks). */
	struct pev_chain *c;
	const struct pev_sample *smp;
	struct space *sp;
	uint16_t e_machine;
	uint64_t stack_start;
	bool read_failed;	/* a memory read failed in this sample */
	/* The fast path's CFI rules (fast.c's cache), by module and pc. */
	struct cfi_rule *rules;
	size_t rules_size, rules_used;
	/* The fast path's modules (unwind_mods.c), by DSO and base, and
	 * the map of the last one found in this sample. */
	struct fast_mod *mods;
	size_t mods_size, mods_used;
	uint64_t mod_lo, mod_hi, mod_delta;
	Dwfl_Module *mod_last;
	/* The frames found: pc, and whether it is printed as it is (the
	 * first frame, and the one a signal frame returns to, as perf's
	 * libunwind gives them) rather than as a return address - 1. */
	uint64_t *pcs;
	bool *act;
	size_t n, max;
	/* Samples unwound by the walk of unwind_fast.c, and by libdwfl's. */
	uint64_t nr_fast, nr_libdw;
};

struct cfi_rule;
struct fast_mod;

/* unwind_bias.c: the load bias of loc's map in the file elf (or the
 * file at path): what to add to the file's p_vaddr addresses, found by the
 * PT_LOAD the map maps (not map start - pgoff: LLD's segments have
 * p_vaddr != p_offset); false when no segment holds the map's offset. */
bool pev__unwind_map_bias(Elf *elf, const struct pev_addr_loc *loc, uint64_t *bias);
bool pev__unwind_file_bias(const char *path, const struct pev_addr_loc *loc, uint64_t *bias);

/* unwind_go.c: what the Go function holding addr (an address of mod)
 * is to a walk, by the binary's .gopclntab: GO_LAST the last frame of its
 * stack (TOPFRAME: goexit, mstart, rt0_go; SPWRITE: a stack switch; the
 * sigreturn trampoline), as Go's traceback stops; GO_INJECTED a call a
 * signal handler injected (asyncPreempt, sigpanic): the next pc is the
 * interrupted one, not a return address; GO_FRAME anything else (also
 * no Go function, no table). */
enum { GO_FRAME, GO_LAST, GO_INJECTED };
int pev__unwind_go_frame(Dwfl_Module *mod, uint64_t addr);

/* unwind_mem.c: the file holding this process's vDSO (written once);
 * NULL when none. */
const char *pev__unwind_vdso_file(struct unwind_state *u, struct pev_dso *dso);

/* unwind.c: makes sure the DSO mapped at ip is a module of the process's Dwfl:
 * 0, -1 when no file backs ip, -2 when a module sits at another base
 * (the process's maps changed). */
int pev__unwind_report_module(struct unwind_state *u, uint64_t ip);
/* unwind_mem.c: a word of the sample's memory as perf's reader gives it: 1 from the
 * stack dump or the mapped file; 0 (and *v 0) where a map holds addr but
 * gives nothing (perf's reader: 0, read as a success by libunwind); -1
 * where no map does (a failure, which ends libunwind's step). */
int pev__unwind_read_word(struct unwind_state *u, uint64_t addr, uint64_t *v);
/* unwind.c: libdwfl's memory_read callback: the stack dump, else the DSO file; a
 * failure sets u->read_failed. */
bool pev__unwind_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg);
/* True when the CFI of pc says its caller is unknown (_start, clone). */
bool pev__unwind_ra_undefined(struct space *s, uint64_t pc);

/* True when the CFI of pc is a signal frame's ('S' augmentation). */
bool pev__unwind_cfi_signal(struct space *s, uint64_t pc);

/* unwind_fast.c: the walk of the sample in u from ip into u->pcs and
 * u->act, as perf's libunwind steps (x86-64): 0, -2 (the maps
 * changed), -ENOMEM, or FAST_FALLBACK when a frame's CFI is more than
 * libunwind applies on x86-64 (a return address column other than 16). */
#define FAST_FALLBACK 1
int pev__fast_unwind(struct unwind_state *u, uint64_t ip);
/* unwind_rules.c: forgets the cached rules (and frees their expressions). */
void pev__rules_clear(struct unwind_state *u);

/* unwind_mods.c: the module (its own Dwfl) of the file perf's maps
 * place at pc in the sample's process, and what to take from pc for an
 * address in it: 0 and *mod, NULL when no file backs pc; -ENOMEM. */
int pev__unwind_fast_module(struct unwind_state *u, uint64_t pc, Dwfl_Module **mod,
			    uint64_t *delta);
void pev__unwind_mods_release(struct unwind_state *u);
/* unwind_mem.c: how many files each of the unwinder's caches may hold
 * open. */
size_t pev__unwind_fd_budget(void);

/* unwind_cfi_check.c: false when a CFI section (.eh_frame when eh, else
 * .debug_frame) names a register libdw would grow its tables to without
 * bound; true otherwise.  elf_cfi_ok looks the section up by name. */
bool pev__unwind_cfi_section_ok(Elf *elf, Elf_Data *d, bool eh);
bool pev__unwind_elf_cfi_ok(Elf *elf, const char *section);
bool pev__unwind_file_cfi_ok(const char *path);
/* unwind_mods.c: mod's .debug_frame CFI (from its debug file), NULL when
 * it has none or it fails the check above. */
Dwarf_CFI *pev__unwind_debug_cfi(Dwfl_Module *mod, Dwarf_Addr *bias);

/* unwind_expr.c: the frame a CFI expression reads (x86-64 DWARF
 * registers 0-15 by set, %rsp as cfa, %rip as pc). */
struct expr_frame {
	struct unwind_state *u;
	const uint64_t *regs;
	uint64_t set, cfa, pc;
};
/* Evaluates ops on a stack that holds push, as libunwind does: 0 and
 * *out the value on top of the stack, or *regno >= 0 when the
 * expression names a register (DW_OP_regN); -1 when libunwind's
 * evaluation fails. */
int pev__unwind_expr_eval(const Dwarf_Op *ops, size_t n, uint64_t push,
			  const struct expr_frame *f, uint64_t *out, int *regno);

#endif
