/* The x86-64 walk of unwind.c from cached CFI rules.
 *
 * libdwfl's unwinder looks up the FDE and runs its CFI program again at
 * every frame of every sample; most of a profile's frames are at a few
 * thousand pcs.  This walk asks libdw once per (module, pc) for the
 * rules (dwarf_cfi_addrframe: .eh_frame first, then .debug_frame, as
 * libdwfl's __libdwfl_frame_unwind), keeps them in a table, and applies
 * them as libdwfl's handle_cfi does:
 *  - the CFA is a register + offset (DW_OP_bregx), read from the frame;
 *  - each of the 17 DWARF registers is undefined, the same value, saved
 *    at CFA + n (read through pev__unwind_memory_read, so failed reads count
 *    as in libdwfl's walk), the value CFA + n, or another register;
 *    a register whose rule fails stays unset;
 *  - the caller's pc is the return address column: undefined or 0 ends
 *    the walk; unset ends it as an error;
 *  - the pc of a caller frame is looked up at pc - 1.
 * A frame whose rule is anything else (a CFA expression, a signal frame,
 * no CFI, no module: libdwfl then has its own fallbacks) hands the whole
 * sample back to libdwfl (FAST_FALLBACK). */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdw.h>

#include "unwind/unwind_state.h"

#define NREGS 17	/* x86-64's DWARF registers libdwfl unwinds */
#define RA 16

enum { R_NONE, R_UNDEF, R_SAME, R_LOC, R_VAL, R_REG };

struct cfi_rule {
	const Dwfl_Module *mod;		/* key, with pc; NULL: free slot */
	uint64_t pc;
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
		rule_fill(r, fr);
		free(fr);
	}
	return r;
}

int pev__fast_unwind(struct unwind_state *u, uint64_t ip)
{
	uint64_t regs[UNWIND_DWARF_REGS], nregs_v[NREGS], set, pc;
	struct space *s = u->sp;

	if (pev__unwind_regs_to_dwarf(EM_X86_64, &u->smp->regs_user, regs, &set, &pc) != NREGS)
		return FAST_FALLBACK;
	pc = ip;
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
		uint64_t look = u->n == 1 ? pc : pc - 1;
		Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, look);

		if (!mod)
			return FAST_FALLBACK;
		const struct cfi_rule *rule = rule_get(u, mod, look);

		if (!rule)
			return -ENOMEM;
		if (!rule->simple)
			return FAST_FALLBACK;

		bool cfa_ok = set >> rule->cfa_reg & 1, pc_undef = false;
		uint64_t cfa = regs[rule->cfa_reg] + (uint64_t)rule->cfa_off, nset = 0;

		for (int i = 0; i < NREGS; i++) {
			Dwarf_Word w;
			int64_t a = rule->arg[i];

			switch (rule->kind[i]) {
			case R_UNDEF:
				if (i == RA)
					pc_undef = true;
				break;
			case R_SAME:
				if (set >> i & 1) {
					nregs_v[i] = regs[i];
					nset |= 1ull << i;
				}
				break;
			case R_LOC:
				if (cfa_ok && pev__unwind_memory_read(s->dwfl, cfa + (uint64_t)a, &w, u)) {
					nregs_v[i] = w;
					nset |= 1ull << i;
				}
				break;
			case R_VAL:
				if (cfa_ok) {
					nregs_v[i] = cfa + (uint64_t)a;
					nset |= 1ull << i;
				}
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
		if (pc_undef || !(nset >> RA & 1) || nregs_v[RA] == 0)
			return 0;
		memcpy(regs, nregs_v, sizeof(nregs_v));
		set = nset;
		pc = regs[RA];
	}
}
