// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf's user register sets (PERF_SAMPLE_REGS_USER, in the kernel's
 * perf_regs numbering, packed by the attr's mask) to DWARF register
 * numbers, for the unwinder's initial frame.
 *
 * x86-64 (System V psABI): 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi,
 * 6 rbp, 7 rsp, 8-15 r8-r15, 16 the return address column (rip).
 * AArch64 (DWARF for the Arm 64-bit architecture): 0-30 x0-x30, 31 sp;
 * the pc has no DWARF number and is passed on its own. */
#include <elf.h>
#include <errno.h>

#include <perfev/record.h>

#include "unwind/unwind_internal.h"

/* Kernel perf_regs numbers (arch/x86/include/uapi/asm/perf_regs.h,
 * arch/arm64/include/uapi/asm/perf_regs.h). */
enum {
	X86_AX = 0, X86_BX = 1, X86_CX = 2, X86_DX = 3, X86_SI = 4,
	X86_DI = 5, X86_BP = 6, X86_SP = 7, X86_IP = 8, X86_R8 = 16,
};
enum { ARM64_X0 = 0, ARM64_SP = 31, ARM64_PC = 32 };

/* DWARF number -> perf number, x86-64. */
static const unsigned char x86_64_map[17] = {
	X86_AX, X86_DX, X86_CX, X86_BX, X86_SI, X86_DI, X86_BP, X86_SP,
	X86_R8 + 0, X86_R8 + 1, X86_R8 + 2, X86_R8 + 3,
	X86_R8 + 4, X86_R8 + 5, X86_R8 + 6, X86_R8 + 7,
	X86_IP,
};

uint16_t pev__unwind_host_machine(void)
{
#if defined(__aarch64__)
	return EM_AARCH64;
#else
	return EM_X86_64;
#endif
}

int pev__unwind_user_ip_sp(uint16_t e_machine, const struct pev_regs *r,
		      uint64_t *ip, uint64_t *sp)
{
	unsigned rip, rsp;

	switch (e_machine) {
	case EM_X86_64: rip = X86_IP; rsp = X86_SP; break;
	case EM_AARCH64: rip = ARM64_PC; rsp = ARM64_SP; break;
	default: return -EINVAL;
	}
	if (pev_regs_get(r, rip, ip) < 0 || pev_regs_get(r, rsp, sp) < 0)
		return -ENOENT;
	return 0;
}

int pev__unwind_regs_to_dwarf(uint16_t e_machine, const struct pev_regs *r,
			 uint64_t *out, uint64_t *set, uint64_t *pc)
{
	int n;

	*set = 0;
	switch (e_machine) {
	case EM_X86_64:
		n = 17;
		for (int i = 0; i < n; i++)
			if (!pev_regs_get(r, x86_64_map[i], &out[i]))
				*set |= 1ull << i;
		if (pev_regs_get(r, X86_IP, pc) < 0)
			return -EINVAL;
		return n;
	case EM_AARCH64:
		n = 32;
		for (int i = 0; i < n; i++)
			if (!pev_regs_get(r, ARM64_X0 + (unsigned)i, &out[i]))
				*set |= 1ull << i;
		if (pev_regs_get(r, ARM64_PC, pc) < 0)
			return -EINVAL;
		return n;
	default:
		return -EINVAL;
	}
}
