// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* DWARF expressions of CFI rules (DW_CFA_def_cfa_expression,
 * DW_CFA_expression, DW_CFA_val_expression), evaluated as libunwind 1.6
 * (perf 6.1's unwinder on Debian) evaluates them, for unwind_fast.c:
 *  - a register operand (DW_OP_bregN) reads the frame being stepped
 *    out of: %rsp is its CFA, %rip its pc, any other register its value
 *    in that frame; a register the frame does not know fails;
 *  - memory (DW_OP_deref, DW_OP_deref_size) is read a byte at a time
 *    from the aligned words that hold it, through perf's reader (the
 *    stack dump, else the mapped file, else 0);
 *  - a division or modulo by 0 gives 0; the stack holds 64 values;
 *  - any operation libunwind does not evaluate (DW_OP_piece, calls,
 *    TLS, DW_OP_fbreg, ...) fails, and so does a branch to no
 *    operation; a failure ends the walk, as libunwind's unw_step fails.
 * libdw hands the expression over decoded (Dwarf_Op, each with its byte
 * offset); the caller gives the value libunwind pushes first (the new
 * CFA for a register's rule, 0 for the CFA's).  libunwind does not know
 * DW_OP_call_frame_cfa: it fails here too. */
#include <dwarf.h>
#include <stdbool.h>
#include <stdint.h>

#include "unwind/unwind_state.h"

#define STACK_MAX 64
#define STEPS_MAX 4096	/* libunwind has no bound; a loop ends here */

/* n bytes at addr, little-endian, as libunwind reads them: a byte at a
 * time from the aligned word holding it; false where no map holds one
 * (perf's reader fails). */
static bool mem_le(struct unwind_state *u, uint64_t addr, unsigned n, uint64_t *v)
{
	*v = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = addr + i, aligned = a & ~7ull, w;

		if (pev__unwind_read_word(u, aligned, &w) < 0)
			return false;
		*v |= (uint64_t)(uint8_t)(w >> (8 * (a - aligned))) << (8 * i);
	}
	return true;
}

/* The value of DWARF register r in frame f; false when unknown.
 * libunwind maps a number past %rip to its register 0, %rax. */
static bool reg_value(const struct expr_frame *f, uint64_t r, uint64_t *v)
{
	if (r > 16)
		r = 0;
	if (r == 7) {
		*v = f->cfa;
		return true;
	}
	if (r == 16) {
		*v = f->pc;
		return true;
	}
	if (!(f->set >> r & 1))
		return false;
	*v = f->regs[r];
	return true;
}

/* Index of the operation at byte offset off; n (the end) past the last
 * one; -1 when no operation starts there. */
static long op_at(const Dwarf_Op *ops, size_t n, uint64_t off)
{
	for (size_t i = 0; i < n; i++)
		if (ops[i].offset == off)
			return (long)i;
	return n && off > ops[n - 1].offset && off < (1ull << 32) ? (long)n : -1;
}

int pev__unwind_expr_eval(const Dwarf_Op *ops, size_t n, uint64_t push,
			  const struct expr_frame *f, uint64_t *out, int *regno)
{
	uint64_t st[STACK_MAX], a, b, c;
	size_t tos = 0, steps = 0;

#define PUSH(x) do { uint64_t v_ = (x); if (tos >= STACK_MAX) return -1; st[tos++] = v_; } while (0)
#define POP(x) do { if (!tos) return -1; (x) = st[--tos]; } while (0)
	*regno = -1;
	PUSH(push);
	for (size_t i = 0; i < n; i++) {
		const Dwarf_Op *op = &ops[i];
		uint8_t at = op->atom;

		if (++steps > STEPS_MAX)
			return -1;
		if (at >= DW_OP_lit0 && at <= DW_OP_lit31) {
			PUSH((uint64_t)(at - DW_OP_lit0));
			continue;
		}
		if (at >= DW_OP_breg0 && at <= DW_OP_breg31) {
			if (!reg_value(f, at - DW_OP_breg0, &a))
				return -1;
			PUSH(a + op->number);
			continue;
		}
		if (at >= DW_OP_reg0 && at <= DW_OP_reg31) {
			*regno = at - DW_OP_reg0 > 16 ? 0 : at - DW_OP_reg0;
			return 0;
		}
		switch (at) {
		case DW_OP_bregx:
			if (!reg_value(f, op->number, &a))
				return -1;
			PUSH(a + op->number2);
			break;
		case DW_OP_regx:
			*regno = op->number > 16 ? 0 : (int)op->number;
			return 0;
		case DW_OP_addr: case DW_OP_const1u: case DW_OP_const2u:
		case DW_OP_const4u: case DW_OP_const8u: case DW_OP_constu:
		case DW_OP_const8s: case DW_OP_consts:
			PUSH(op->number);
			break;
		case DW_OP_const1s:
			PUSH((uint64_t)(int64_t)(int8_t)op->number);
			break;
		case DW_OP_const2s:
			PUSH((uint64_t)(int64_t)(int16_t)op->number);
			break;
		case DW_OP_const4s:
			PUSH((uint64_t)(int64_t)(int32_t)op->number);
			break;
		case DW_OP_deref:
			POP(a);
			if (!mem_le(f->u, a, 8, &b))
				return -1;
			PUSH(b);
			break;
		case DW_OP_deref_size:
			POP(a);
			if (op->number < 1 || op->number > 8)
				return -1;
			/* a 2-byte read for 1-2, a 4-byte read masked for 3-4,
			 * an 8-byte read for 5-8 (libunwind keeps its high
			 * bytes for 5-7) */
			c = op->number <= 2 ? op->number : op->number <= 4 ? 4 : 8;
			if (!mem_le(f->u, a, (unsigned)c, &b))
				return -1;
			if (op->number == 3)
				b &= 0xffffff;
			else if (op->number > 4 && op->number < 8)
				b &= ~0ull << (8 * op->number);
			PUSH(b);
			break;
		case DW_OP_dup:
			if (!tos)
				return -1;
			PUSH(st[tos - 1]);
			break;
		case DW_OP_drop:
			POP(a);
			break;
		case DW_OP_pick:
			if (op->number >= tos)
				return -1;
			PUSH(st[tos - 1 - op->number]);
			break;
		case DW_OP_over:
			if (tos < 2)
				return -1;
			PUSH(st[tos - 2]);
			break;
		case DW_OP_swap:
			POP(a);
			POP(b);
			PUSH(a);
			PUSH(b);
			break;
		case DW_OP_rot:
			POP(a);
			POP(b);
			POP(c);
			PUSH(a);
			PUSH(c);
			PUSH(b);
			break;
		case DW_OP_abs:
			POP(a);
			PUSH((int64_t)a < 0 ? -a : a);
			break;
		case DW_OP_neg:
			POP(a);
			PUSH(-a);
			break;
		case DW_OP_not:
			POP(a);
			PUSH(~a);
			break;
		case DW_OP_plus_uconst:
			POP(a);
			PUSH(a + op->number);
			break;
		case DW_OP_and: case DW_OP_or: case DW_OP_xor: case DW_OP_plus:
		case DW_OP_minus: case DW_OP_mul: case DW_OP_div: case DW_OP_mod:
		case DW_OP_shl: case DW_OP_shr: case DW_OP_shra:
		case DW_OP_le: case DW_OP_ge: case DW_OP_eq: case DW_OP_lt:
		case DW_OP_gt: case DW_OP_ne:
			POP(a);		/* the top */
			POP(b);
			switch (at) {
			case DW_OP_and: c = b & a; break;
			case DW_OP_or: c = b | a; break;
			case DW_OP_xor: c = b ^ a; break;
			case DW_OP_plus: c = b + a; break;
			case DW_OP_minus: c = b - a; break;
			case DW_OP_mul: c = b * a; break;
			case DW_OP_div:		/* by 0: 0, as libunwind */
				c = !a ? 0 : (int64_t)a == -1 ? -b :
				    (uint64_t)((int64_t)b / (int64_t)a);
				break;
			case DW_OP_mod: c = a ? b % a : 0; break;
			/* x86-64 shifts count modulo 64 */
			case DW_OP_shl: c = b << (a & 63); break;
			case DW_OP_shr: c = b >> (a & 63); break;
			case DW_OP_shra: c = (uint64_t)((int64_t)b >> (a & 63)); break;
			case DW_OP_le: c = (int64_t)b <= (int64_t)a; break;
			case DW_OP_ge: c = (int64_t)b >= (int64_t)a; break;
			case DW_OP_eq: c = b == a; break;
			case DW_OP_lt: c = (int64_t)b < (int64_t)a; break;
			case DW_OP_gt: c = (int64_t)b > (int64_t)a; break;
			default: c = b != a; break;
			}
			PUSH(c);
			break;
		case DW_OP_bra:
			POP(a);
			if (!a)
				break;
			/* fall through */
		case DW_OP_skip: {
			long k = op_at(ops, n, op->offset + 3 + (uint64_t)(int64_t)(int16_t)op->number);

			if (k < 0)
				return -1;
			i = (size_t)k - 1;	/* the loop's i++ lands on k */
			break;
		}
		case DW_OP_nop:
			break;
		case DW_OP_stack_value:	/* the caller has taken it off */
		default:
			return -1;
		}
	}
	if (!tos)
		return -1;
	*out = st[tos - 1];
	return 0;
#undef PUSH
#undef POP
}
