// SPDX-License-Identifier: GPL-2.0-only
/* pev_x86_insn_length on encodings whose lengths are known (checked
 * against objdump): every prefix kind, ModRM/SIB/displacement forms,
 * immediate sizes, the 0F/0F38/0F3A maps, VEX, EVEX, 32-bit mode,
 * invalid opcodes and cut instructions. */
#include "../testutil.h"
#include <perfev/insn.h>

struct ex {
	const char *bytes;	/* hex pairs */
	bool mode64;
	int len;		/* expected: length, or -errno */
	size_t avail;		/* bytes given (0: all of `bytes`) */
};

static const struct ex cases[] = {
	{ "90", true, 1, 0 },
	{ "c3", true, 1, 0 },
	{ "4801c2", true, 3, 0 },				/* add %rax,%rdx */
	{ "4c39f0", true, 3, 0 },				/* cmp %r14,%rax */
	{ "488b0511223344", true, 7, 0 },			/* mov rip-rel */
	{ "48c7c001000000", true, 7, 0 },			/* mov $1,%rax */
	{ "66c7000100", true, 5, 0 },				/* movw $1,(%rax) */
	{ "48b80102030405060708", true, 10, 0 },		/* movabs */
	{ "b801000000", true, 5, 0 },
	{ "66b80100", true, 4, 0 },
	{ "e800000000", true, 5, 0 },
	{ "eb10", true, 2, 0 },
	{ "0f8400010000", true, 6, 0 },
	{ "7410", true, 2, 0 },
	{ "f30f1efa", true, 4, 0 },				/* endbr64 */
	{ "0f1f440000", true, 5, 0 },
	{ "660f1f840000000000", true, 9, 0 },
	{ "8b442408", true, 4, 0 },				/* disp8 + SIB */
	{ "8b042500000000", true, 7, 0 },			/* SIB, no base */
	{ "8b8c2400010000", true, 7, 0 },			/* SIB + disp32 */
	{ "f0480fb10a", true, 5, 0 },				/* lock cmpxchg */
	{ "64488b042528000000", true, 9, 0 },			/* %fs:0x28 */
	{ "c5fd6f0424", true, 5, 0 },				/* vmovdqa (VEX2) */
	{ "c4e37d39c101", true, 6, 0 },				/* vextracti128 */
	{ "c4e27d5805aabbccdd", true, 9, 0 },			/* VEX 0F38 rip */
	{ "c5f877", true, 3, 0 },				/* vzeroupper */
	{ "62f17d486f442401", true, 8, 0 },			/* EVEX disp8 */
	{ "62f37d48397c240101", true, 9, 0 },			/* EVEX 0F3A */
	{ "660f3a0fc108", true, 6, 0 },				/* palignr */
	{ "660f3800c1", true, 5, 0 },				/* pshufb */
	{ "0fbae003", true, 4, 0 },				/* bt $3,%eax */
	{ "f7c000010000", true, 6, 0 },				/* test $imm32 */
	{ "66f7c00001", true, 5, 0 },				/* test $imm16 */
	{ "f7d8", true, 2, 0 },					/* neg */
	{ "f6c101", true, 3, 0 },				/* test $1,%cl */
	{ "a11122334455667788", true, 9, 0 },			/* moffs64 */
	{ "67a111223344", true, 6, 0 },				/* moffs32 */
	{ "c8100000", true, 4, 0 },				/* enter */
	{ "c20800", true, 3, 0 },
	{ "0f05", true, 2, 0 },					/* syscall */
	{ "0fc8", true, 2, 0 },					/* bswap */
	{ "0f0f c1 b4", true, 4, 0 },				/* 3DNow! */
	{ "d9ee", true, 2, 0 },					/* fldz */
	/* 32-bit mode: inc, 16-bit immediates, LES/LDS, far jumps. */
	{ "40", false, 1, 0 },
	{ "66b80100", false, 4, 0 },
	{ "c506", false, 2, 0 },				/* lds (%esi),%eax */
	{ "c5f877", false, 3, 0 },				/* vzeroupper */
	{ "ea112233445566", false, 7, 0 },			/* ljmp */
	{ "678b4708", false, 4, 0 },				/* 16-bit disp8 */
	{ "678b0e3412", false, 5, 0 },				/* [disp16] */
	/* Invalid in 64-bit mode, or anywhere. */
	{ "06", true, -EINVAL, 0 },
	{ "d6", true, -EINVAL, 0 },
	{ "0f04", true, -EINVAL, 0 },
	{ "c4e07d00c0", true, -EINVAL, 0 },				/* VEX map 0 */
	/* Cut short. */
	{ "48", true, -ENODATA, 0 },
	{ "e80000", true, -ENODATA, 0 },
	{ "8b4424", true, -ENODATA, 0 },
	{ "", true, -ENODATA, 0 },
	{ "4801c2", true, -ENODATA, 2 },
	/* Prefixes past 15 bytes. */
	{ "6666666666666666666666666666666690", true, -ENODATA, 0 },
};

static size_t unhex(const char *s, uint8_t *out)
{
	size_t n = 0;

	while (*s) {
		if (*s == ' ') {
			s++;
			continue;
		}
		unsigned v;

		sscanf(s, "%2x", &v);
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t buf[32];
		size_t n = unhex(cases[i].bytes, buf);
		int got = pev_x86_insn_length(buf, cases[i].avail ? cases[i].avail : n,
					      cases[i].mode64);

		CHECK_MSG(got == cases[i].len, "%s (%s): length %d, expected %d",
			  cases[i].bytes, cases[i].mode64 ? "64" : "32", got, cases[i].len);
	}
	CHECK_EQ_INT(pev_x86_insn_length(NULL, 4, true), -EINVAL);
	return t_done();
}
