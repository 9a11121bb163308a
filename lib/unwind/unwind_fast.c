// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The x86-64 walk of unwind.c from cached CFI rules, step by step as
 * perf 6.1 gets it from libunwind (Debian builds perf with libunwind).
 *
 * libdwfl's unwinder looks up the FDE and runs its CFI program again at
 * every frame of every sample; most of a profile's frames are at a few
 * thousand pcs.  This walk asks libdw once per (module, pc) for the
 * rules (dwarf_cfi_addrframe: .eh_frame first, then .debug_frame), keeps
 * them in a table, and applies them as libunwind's dwarf_step does:
 *  - the CFA is a register + offset, or a DWARF expression's value
 *    (unwind_expr.c: glibc's PLT stubs, its signal trampoline
 *    __restore_rt); %rsp is the CFA of the frame (the sampled %rsp
 *    first);
 *  - each register is undefined (the return address and %rbp only:
 *    libdw calls a register the CFI never mentions undefined, libunwind
 *    keeps its value), the same value, saved at CFA + n, the
 *    value CFA + n, another register, saved where an expression says or
 *    an expression's value; a memory word in a map that gives nothing
 *    (the [stack] past the dump) reads as 0, as perf's access_mem gives
 *    it; a word no map holds fails, and libunwind's step fails where it
 *    needs it (a return address, a CFA register, an expression's
 *    operand); an expression libunwind cannot evaluate ends the walk;
 *  - after a signal frame (an 'S' CIE: __restore_rt, whose rules read
 *    the interrupted registers from the ucontext on the stack) the next
 *    pc is looked up and printed as it is, not as a return address - 1;
 *  - an undefined return address or %rbp, or a step that changes
 *    neither pc nor CFA, ends the walk; a return address of 0 is a frame
 *    (perf prints it as 0 - 1), and the next step ends in no map;
 *  - the pc of a caller frame is looked up at pc - 1;
 *  - a pc in no mapped file ends the walk (perf's find_proc_info finds
 *    no map); so does a Go function that starts or switches stacks,
 *    and a call Go's runtime injects is taken as a signal frame
 *    (unwind_go.c: perf's libunwind reads no Go CFI at all);
 *  - a pc in a DSO without an FDE for it gets libunwind 1.6's
 *    guesses: a PLT stub's shape, else %rbp as a frame pointer when it
 *    lies within 16 KiB above the CFA (return address at %rbp + 8, CFA
 *    16 bytes up, every other register unknown); a signal trampoline
 *    without CFI gets the same guesses (1.6 recognizes one only by its
 *    CIE).
 * A frame whose return address is not column 16 hands the whole sample
 * back to libdwfl (FAST_FALLBACK). */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdw.h>

#include "unwind/unwind_rules.h"
#include "unwind/unwind_state.h"

#define RA 16
#define RBP 6
#define RSP 7

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

/* Appends ops[0..n) to r's expressions; the index of the first, -1
 * when out of memory or too many. */
static long ops_add(struct cfi_rule *r, size_t *used, const Dwarf_Op *ops, size_t n)
{
	size_t first = *used;

	if (first + n > UINT16_MAX)
		return -1;
	Dwarf_Op *t = realloc(r->ops, (first + n) * sizeof(*t));

	if (!t)
		return -1;
	memcpy(t + first, ops, n * sizeof(*t));
	r->ops = t;
	*used = first + n;
	return (long)first;
}

/* The rule of register i from libdw's ops (a DW_OP_call_frame_cfa
 * first, a DW_OP_stack_value last for a value): false when it is more
 * than this walk applies. */
static bool reg_rule(struct cfi_rule *r, size_t *used, int i, Dwarf_Op *ops, size_t nops)
{
	if (ops[0].atom == DW_OP_regx && nops == 1) {
		if (ops[0].number >= NREGS)
			return false;
		r->kind[i] = R_REG;
		r->arg[i] = (int64_t)ops[0].number;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	bool val = ops[nops - 1].atom == DW_OP_stack_value;
	size_t n = nops - 1 - val;	/* the expression after the CFA */

	if (n == 0 || (n == 1 && ops[1].atom == DW_OP_plus_uconst)) {
		r->kind[i] = val ? R_VAL : R_LOC;
		r->arg[i] = n ? (int64_t)ops[1].number : 0;
		return true;
	}
	long x = ops_add(r, used, ops + 1, n);

	if (x < 0)
		return false;
	r->kind[i] = val ? R_VALX : R_EXPR;
	r->arg[i] = x;
	r->nops[i] = (uint16_t)n;
	return true;
}

/* The rules of frame fr into r (r->simple false when they are more than
 * this walk applies). */
static void rule_fill(struct cfi_rule *r, Dwarf_Frame *fr)
{
	Dwarf_Op mem[3], *ops;
	size_t nops, used = 0;
	int ra = dwarf_frame_info(fr, NULL, NULL, &r->signal);

	if (ra != RA || dwarf_frame_cfa(fr, &ops, &nops) != 0 || nops == 0)
		return;
	if (nops == 1 && ops[0].atom == DW_OP_bregx) {
		/* libunwind reads a register past %rip as its register 0 */
		r->cfa_reg = ops[0].number < NREGS ? (uint8_t)ops[0].number : 0;
		r->cfa_off = (int64_t)ops[0].number2;
	} else {
		long x = ops_add(r, &used, ops, nops);

		if (x < 0)
			return;
		r->cfa_x = (uint16_t)x;
		r->cfa_n = (uint16_t)nops;
	}
	for (int i = 0; i < NREGS; i++) {
		if (dwarf_frame_register(fr, i, mem, &ops, &nops) != 0) {
			r->kind[i] = R_NONE;
			continue;
		}
		if (nops == 0) {
			/* Undefined: libdw also says so of a register the CFI
			 * never mentions where its x86-64 ABI rules do not
			 * make it the same value (%rbx, the call-clobbered
			 * ones); libunwind keeps every unmentioned register's
			 * value.  Only the return address and %rbp (which
			 * libdw's ABI rules keep) are taken as undefined:
			 * they end the walk.  Seen: %rbx at the top of
			 * _dl_fixup, under _dl_runtime_resolve's CFA of %rbx. */
			if (ops == mem)
				r->kind[i] = i == RA || i == RBP ? R_UNDEF : R_SAME;
			else
				r->kind[i] = ops == NULL ? R_SAME : R_NONE;
			continue;
		}
		if (!reg_rule(r, &used, i, ops, nops))
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
	r->go = (uint8_t)pev__unwind_go_frame(mod, pc);

	Dwarf_Addr bias;
	Dwarf_Frame *fr = NULL;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);

	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &fr) != 0) {
		fr = NULL;
		cfi = pev__unwind_debug_cfi(mod, &bias);
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
 * else the file mapped there, else 0; *ok false where no map holds addr
 * (a read libunwind sees fail). */
static uint64_t word(struct unwind_state *u, uint64_t addr, bool *ok)
{
	uint64_t w;

	*ok = pev__unwind_read_word(u, addr, &w) >= 0;
	return w;
}

/* libunwind's test for a PLT stub at ip (jmp *x(%rip); push $n; jmp). */
static bool plt_entry(struct unwind_state *u, uint64_t ip)
{
	bool ok0, ok1;
	uint64_t w0 = word(u, ip, &ok0), w1 = word(u, ip + 8, &ok1);

	return ok0 && ok1 && (w0 & 0xffff) == 0x25ff && (w0 >> 48 & 0xff) == 0x68 &&
	       (w1 >> 24 & 0xff) == 0xe9;
}

/* The walk's registers: DWARF 0-16 (bit i of set: known; of bad: saved
 * where no map is, so that libunwind fails to read it when it needs
 * it), the pc and the CFA (libunwind's %rsp), and the sampled
 * registers, which a rule naming a register by DW_OP_regN reads
 * (libunwind's register locations are the sample's). */
struct walk {
	uint64_t regs[UNWIND_DWARF_REGS], set, bad, pc, cfa;
	uint64_t regs0[UNWIND_DWARF_REGS], set0;
};

/* Evaluates expression x of rule r (push: the value libunwind pushes
 * first); false when libunwind's evaluation fails. */
static bool eval(struct unwind_state *u, const struct walk *w, const struct cfi_rule *r,
		 size_t x, size_t n, uint64_t push, uint64_t *out, int *regno)
{
	struct expr_frame f = { .u = u, .regs = w->regs, .set = w->set & ~w->bad,
				.cfa = w->cfa, .pc = w->pc };

	return pev__unwind_expr_eval(r->ops + x, n, push, &f, out, regno) == 0;
}

/* One step out of the frame at w->pc by its rule, as libunwind's
 * apply_reg_state: 1, or 0 where the walk ends. */
static int step_rule(struct unwind_state *u, struct walk *w, const struct cfi_rule *rule)
{
	uint64_t nregs_v[NREGS], nset = 0, nbad = 0, cfa, v;
	bool pc_undef = false, ok;
	int regno;

	if (rule->cfa_n) {
		if (!eval(u, w, rule, rule->cfa_x, rule->cfa_n, 0, &cfa, &regno) || regno >= 0)
			return 0;	/* libunwind: a CFA in a register is bad */
	} else if (rule->cfa_reg == RSP) {
		cfa = w->cfa + (uint64_t)rule->cfa_off;
	} else {
		if (!(w->set >> rule->cfa_reg & 1) || (w->bad >> rule->cfa_reg & 1))
			return 0;	/* libunwind: no such register, stop */
		cfa = w->regs[rule->cfa_reg] + (uint64_t)rule->cfa_off;
	}
	for (int i = 0; i < NREGS; i++) {
		int64_t a = rule->arg[i];
		uint64_t from = 0;	/* the register whose value i takes */

		switch (rule->kind[i]) {
		case R_UNDEF:
			if (i == RA)
				pc_undef = true;
			continue;
		case R_NONE:	/* libunwind: the same value */
		case R_SAME:
			from = (uint64_t)i;
			break;
		case R_REG:
			from = (uint64_t)a;
			break;
		case R_LOC:
			nregs_v[i] = word(u, cfa + (uint64_t)a, &ok);
			nset |= 1ull << i;
			nbad |= (uint64_t)!ok << i;
			continue;
		case R_VAL:
			nregs_v[i] = cfa + (uint64_t)a;
			nset |= 1ull << i;
			continue;
		case R_EXPR:
		case R_VALX:
			if (!eval(u, w, rule, (size_t)a, rule->nops[i], cfa, &v, &regno))
				return 0;
			ok = true;
			if (regno >= 0 && rule->kind[i] == R_EXPR) {
				/* the register as sampled */
				if (!(w->set0 >> regno & 1))
					continue;
				v = w->regs0[regno];
			} else if (regno >= 0) {
				v = (uint64_t)regno;
			} else if (rule->kind[i] == R_EXPR) {
				v = word(u, v, &ok);
			}
			nregs_v[i] = v;
			nset |= 1ull << i;
			nbad |= (uint64_t)!ok << i;
			continue;
		default:
			continue;
		}
		if (w->set >> from & 1) {
			nregs_v[i] = w->regs[from];
			nset |= 1ull << i;
			nbad |= (w->bad >> from & 1) << i;
		}
	}
	/* The end: an undefined return address, or (x86-64 ABI) an
	 * undefined %rbp; a return address libunwind cannot read. */
	if (pc_undef || !(nset >> RBP & 1) || !(nset >> RA & 1) || (nbad >> RA & 1))
		return 0;
	uint64_t prev_pc = w->pc, prev_cfa = w->cfa;

	memcpy(w->regs, nregs_v, sizeof(nregs_v));
	w->set = nset | 1ull << RSP;
	w->bad = nbad & ~(1ull << RSP);
	w->cfa = cfa;
	w->regs[RSP] = cfa;
	w->pc = w->regs[RA];
	/* libunwind: a frame that goes nowhere */
	return w->pc == prev_pc && w->cfa == prev_cfa ? 0 : 1;
}

int pev__fast_unwind(struct unwind_state *u, uint64_t ip)
{
	struct walk w;
	bool prev_instr = false;	/* look the CFI up at pc - 1 */
	bool as_is = true;		/* print pc as it is (not - 1) */

	if (pev__unwind_regs_to_dwarf(EM_X86_64, &u->smp->regs_user, w.regs, &w.set,
				      &w.pc) != NREGS || !(w.set >> RSP & 1))
		return FAST_FALLBACK;
	memcpy(w.regs0, w.regs, sizeof(w.regs));
	w.set0 = w.set;
	w.bad = 0;
	w.pc = ip;
	w.cfa = w.regs[RSP];		/* libunwind's rsp is its CFA */
	u->n = 0;
	u->mod_lo = u->mod_hi = 0;	/* the maps may have changed */
	for (;;) {
		u->pcs[u->n] = w.pc;
		u->act[u->n] = as_is;
		u->n++;
		if (u->n >= u->max)
			return 0;
		uint64_t look = prev_instr ? w.pc - 1 : w.pc, delta;
		Dwfl_Module *mod;

		if (pev__unwind_fast_module(u, look, &mod, &delta) < 0)
			return -ENOMEM;
		if (!mod)
			return 0;	/* perf: no map, no DSO: the end */
		const struct cfi_rule *rule = rule_get(u, mod, look - delta);

		if (!rule)
			return -ENOMEM;
		if (rule->go == GO_LAST)
			return 0;	/* Go: the top of its stack */
		as_is = false;
		if (!rule->found) {
			/* No FDE in the DSO: libunwind's guesses. */
			bool ok = true, ok2 = true;

			if (plt_entry(u, w.pc)) {
				/* A call into the stub: the return address
				 * is at the CFA, nothing else saved. */
				w.pc = word(u, w.cfa, &ok);
				w.cfa += 8;
			} else {
				uint64_t rbp = w.regs[RBP];

				if (!(w.set >> RBP & 1) || (w.bad >> RBP & 1) || !rbp ||
				    rbp < w.cfa || rbp - w.cfa > 0x4000)
					return 0;
				/* rbp taken as a frame pointer */
				w.regs[RBP] = word(u, rbp, &ok);
				w.pc = word(u, rbp + 8, &ok2);
				w.cfa += 16;
				w.set = 1ull << RBP;
				w.bad = 0;
				prev_instr = true;
			}
			if (!ok || !ok2)
				return 0;	/* libunwind: a failed read */
			w.regs[RSP] = w.cfa;
			w.set |= 1ull << RSP;
			continue;
		}
		if (!rule->simple)
			return FAST_FALLBACK;
		if (!step_rule(u, &w, rule))
			return 0;
		/* libunwind: the pc a signal frame returns to is where the
		 * interrupted code goes on, not a return address. */
		prev_instr = !rule->signal && rule->go != GO_INJECTED;
		as_is = !prev_instr;
	}
}
