/* The x86-64 walk of unwind.c from cached CFI rules, step by step as
 * perf 6.1 gets it from libunwind (Debian builds perf with libunwind).
 *
 * libdwfl's unwinder looks up the FDE and runs its CFI program again at
 * every frame of every sample; most of a profile's frames are at a few
 * thousand pcs.  This walk asks libdw once per (module, pc) for the
 * rules (dwarf_cfi_addrframe: .eh_frame first, then .debug_frame), keeps
 * them in a table, and applies them as libunwind's dwarf_step does:
 *  - the CFA is a register + offset; %rsp is the CFA of the frame (the
 *    sampled %rsp first);
 *  - each register is undefined, the same value, saved at CFA + n, the
 *    value CFA + n, or another register; a memory word perf cannot read
 *    (past the stack dump, in no mapped file) reads as 0, as perf's
 *    access_mem gives it;
 *  - an undefined return address or %rbp, or a step that changes
 *    neither pc nor CFA, ends the walk; a return address of 0 is a frame
 *    (perf prints it as 0 - 1), and the next step ends in no map;
 *  - the pc of a caller frame is looked up at pc - 1;
 *  - a pc in no mapped file ends the walk (perf's find_proc_info finds
 *    no map); a pc in a DSO without an FDE for it gets libunwind's
 *    guesses: a PLT stub's shape, else %rbp as a frame pointer when it
 *    lies within 16 KiB above the CFA (return address at %rbp + 8, CFA
 *    16 bytes up, every other register unknown).
 * A frame whose rule is anything else (a CFA expression, a signal frame)
 * hands the whole sample back to libdwfl (FAST_FALLBACK). */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdw.h>

#include "unwind/unwind_state.h"

#define NREGS 17	/* x86-64's DWARF registers libdwfl unwinds */
#define RA 16
#define RBP 6
#define RSP 7

enum { R_NONE, R_UNDEF, R_SAME, R_LOC, R_VAL, R_REG };

struct cfi_rule {
	const Dwfl_Module *mod;		/* key, with pc; NULL: free slot */
	uint64_t pc;
	bool found;			/* an FDE covers pc */
	bool simple;
	uint8_t cfa_reg;
	int64_t cfa_off;
	uint8_t kind[NREGS];
	int64_t arg[NREGS];		/* offset, or register number */
};

void pev__rules_clear(struct unwind_state *u)
{
	if (u->rules)
		memset(u->rules, 0, u->rules_size * sizeof(*u->rules));
	u->rules_used = 0;
}

static size_t rule_hash(const Dwfl_Module *mod, uint64_t pc, size_t size)
{
	uint64_t h = (pc ^ ((uint64_t)(uintptr_t)mod * 0x9e3779b97f4a7c15ull)) *
		     0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 24) & (size - 1);
}

static int rules_grow(struct unwind_state *u)
{
	size_t size = u->rules_size ? u->rules_size * 2 : 4096;
	struct cfi_rule *t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < u->rules_size; i++) {
		if (!u->rules[i].mod)
			continue;
		size_t h = rule_hash(u->rules[i].mod, u->rules[i].pc, size);

		while (t[h].mod)
			h = (h + 1) & (size - 1);
		t[h] = u->rules[i];
	}
	free(u->rules);
	u->rules = t;
	u->rules_size = size;
	return 0;
}

/* The rules of frame fr into r (r->simple false when they are more than
 * this walk applies). */
static void rule_fill(struct cfi_rule *r, Dwarf_Frame *fr)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	bool signal = false;
	int ra = dwarf_frame_info(fr, NULL, NULL, &signal);

	if (ra != RA || signal || dwarf_frame_cfa(fr, &ops, &nops) != 0 ||
	    nops != 1 || ops[0].atom != DW_OP_bregx || ops[0].number >= NREGS)
		return;
	r->cfa_reg = (uint8_t)ops[0].number;
	r->cfa_off = (int64_t)ops[0].number2;
	for (int i = 0; i < NREGS; i++) {
		if (dwarf_frame_register(fr, i, mem, &ops, &nops) != 0) {
			r->kind[i] = R_NONE;
			continue;
		}
		if (nops == 0) {
			r->kind[i] = ops == mem ? R_UNDEF : ops == NULL ? R_SAME : R_NONE;
			continue;
		}
		if (ops[0].atom == DW_OP_regx && nops == 1) {
			if (ops[0].number >= NREGS)
				return;
			r->kind[i] = R_REG;
			r->arg[i] = (int64_t)ops[0].number;
			continue;
		}
		if (ops[0].atom != DW_OP_call_frame_cfa)
			return;
		size_t k = 1;

		r->arg[i] = 0;
		if (k < nops && ops[k].atom == DW_OP_plus_uconst)
			r->arg[i] = (int64_t)ops[k++].number;
		r->kind[i] = R_LOC;
		if (k < nops && ops[k].atom == DW_OP_stack_value) {
			r->kind[i] = R_VAL;
			k++;
		}
		if (k != nops)
			return;
	}
	r->simple = true;
}

/* The cached rules for pc in mod; NULL when out of memory. */
static const struct cfi_rule *rule_get(struct unwind_state *u, Dwfl_Module *mod,
				       uint64_t pc)
{
	if (u->rules_used * 2 >= u->rules_size && rules_grow(u) < 0)
		return NULL;
	size_t h = rule_hash(mod, pc, u->rules_size);
	struct cfi_rule *r;

	for (;; h = (h + 1) & (u->rules_size - 1)) {
		r = &u->rules[h];
		if (!r->mod)
			break;
		if (r->mod == mod && r->pc == pc)
			return r;
	}
	memset(r, 0, sizeof(*r));
	r->mod = mod;
	r->pc = pc;
	u->rules_used++;

	Dwarf_Addr bias;
	Dwarf_Frame *fr = NULL;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);

	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &fr) != 0) {
		fr = NULL;
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &fr) != 0)
			fr = NULL;
	}
	if (fr) {
		r->found = true;
		rule_fill(r, fr);
		free(fr);
	}
	return r;
}

/* A word of memory as perf's libunwind reader gives it: the stack dump,
 * else the file mapped there, else 0 (its access_mem never fails). */
static uint64_t word(struct unwind_state *u, uint64_t addr)
{
	Dwarf_Word w;

	return pev__unwind_memory_read(u->sp->dwfl, addr, &w, u) ? w : 0;
}

/* libunwind's test for a PLT stub at ip (jmp *x(%rip); push $n; jmp). */
static bool plt_entry(struct unwind_state *u, uint64_t ip)
{
	uint64_t w0 = word(u, ip), w1 = word(u, ip + 8);

	return (w0 & 0xffff) == 0x25ff && (w0 >> 48 & 0xff) == 0x68 &&
	       (w1 >> 24 & 0xff) == 0xe9;
}

/* x86-64 rt_sigreturn (mov $15,%rax; syscall) at ip: a signal frame. */
static bool sigreturn_at(struct unwind_state *u, uint64_t ip)
{
	return word(u, ip) == 0x0f0000000fc0c748ull && (word(u, ip + 8) & 0xff) == 0x05;
}

int pev__fast_unwind(struct unwind_state *u, uint64_t ip)
{
	uint64_t regs[UNWIND_DWARF_REGS], nregs_v[NREGS], set, pc, cfa;
	struct space *s = u->sp;
	bool prev_instr = false;	/* look the CFI up at pc - 1 */

	if (pev__unwind_regs_to_dwarf(EM_X86_64, &u->smp->regs_user, regs, &set, &pc) != NREGS ||
	    !(set >> RSP & 1))
		return FAST_FALLBACK;
	pc = ip;
	cfa = regs[RSP];		/* libunwind's rsp is its CFA */
	u->n = 0;
	for (;;) {
		u->pcs[u->n] = pc;
		u->act[u->n] = u->n == 0;
		u->n++;
		if (u->n >= u->max)
			return 0;
		int r = pev__unwind_report_module(u, pc);

		if (r == -2)
			return r;
		uint64_t look = prev_instr ? pc - 1 : pc, prev_pc = pc, prev_cfa = cfa;
		Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, look);
		const struct cfi_rule *rule = mod ? rule_get(u, mod, look) : NULL;

		if (!mod)
			return 0;	/* perf: no map, no DSO: the end */
		if (!rule)
			return -ENOMEM;
		if (!rule->found) {
			/* No FDE in the DSO: libunwind's guesses. */
			if (sigreturn_at(u, pc))
				return FAST_FALLBACK;
			if (plt_entry(u, pc)) {
				/* A call into the stub: the return address
				 * is at the CFA, nothing else saved. */
				pc = word(u, cfa);
				cfa += 8;
			} else {
				uint64_t rbp = regs[RBP];

				if (!(set >> RBP & 1) || !rbp || rbp < cfa ||
				    rbp - cfa > 0x4000)
					return 0;
				/* rbp taken as a frame pointer */
				regs[RBP] = word(u, rbp);
				pc = word(u, rbp + 8);
				cfa += 16;
				set = 1ull << RBP;
				prev_instr = true;
			}
			regs[RSP] = cfa;
			set |= 1ull << RSP;
			continue;
		}
		if (!rule->simple)
			return FAST_FALLBACK;

		bool pc_undef = false;
		uint64_t nset = 0;

		if (!(set >> rule->cfa_reg & 1))
			return 0;	/* libunwind: no such register, stop */
		cfa = (rule->cfa_reg == RSP ? cfa : regs[rule->cfa_reg]) +
		      (uint64_t)rule->cfa_off;
		for (int i = 0; i < NREGS; i++) {
			int64_t a = rule->arg[i];

			switch (rule->kind[i]) {
			case R_UNDEF:
				if (i == RA)
					pc_undef = true;
				break;
			case R_NONE:	/* libunwind: the same value */
			case R_SAME:
				if (set >> i & 1) {
					nregs_v[i] = regs[i];
					nset |= 1ull << i;
				}
				break;
			case R_LOC:
				nregs_v[i] = word(u, cfa + (uint64_t)a);
				nset |= 1ull << i;
				break;
			case R_VAL:
				nregs_v[i] = cfa + (uint64_t)a;
				nset |= 1ull << i;
				break;
			case R_REG:
				if (set >> a & 1) {
					nregs_v[i] = regs[a];
					nset |= 1ull << i;
				}
				break;
			default:
				break;
			}
		}
		/* The end: an undefined return address, or (x86-64 ABI) an
		 * undefined %rbp. */
		if (pc_undef || !(nset >> RBP & 1) || !(nset >> RA & 1))
			return 0;
		memcpy(regs, nregs_v, sizeof(nregs_v));
		set = nset;
		regs[RSP] = cfa;
		set |= 1ull << RSP;
		pc = regs[RA];
		prev_instr = true;
		if (pc == prev_pc && cfa == prev_cfa)
			return 0;	/* libunwind: a frame that goes nowhere */
	}
}
