// SPDX-License-Identifier: GPL-2.0-only
/* The unwinder's initial frame from a sample's user registers: perf's
 * perf_regs numbering (packed by the attr's mask) to DWARF register
 * numbers, on synthetic samples decoded by the library.
 *  - arm64: perf X0..X30 = 0..30, SP = 31, PC = 32 (the kernel's
 *    arch/arm64/include/uapi/asm/perf_regs.h); DWARF x0..x30 = 0..30,
 *    sp = 31 (DWARF for the Arm 64-bit architecture), the pc apart;
 *  - x86-64: perf AX BX CX DX SI DI BP SP IP FLAGS ... R8..R15 = 0..9,
 *    16..23; DWARF rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip = 0..16
 *    (System V AMD64 psABI, figure 3.36).
 * The expected tables are written out by hand from those documents. */
#include <elf.h>

#include "record_build.h"
#include "unwind/regs.c"

static struct rb b;
static struct pev_record rec;

/* A sample with only REGS_USER: value of perf register r is 0x1000 + r. */
static const struct pev_regs *sample_regs(struct pev_decoder *d, uint64_t mask)
{
	struct perf_event_attr a = { .size = sizeof(a),
				     .sample_type = PERF_SAMPLE_REGS_USER,
				     .sample_regs_user = mask };

	CHECK(pev_decoder_add_attr(d, &a, NULL, 0) == 0);
	rb_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_64);
	for (unsigned r = 0; r < 64; r++)
		if (mask >> r & 1)
			rb_u64(&b, 0x1000 + r);
	size_t n = rb_end(&b);

	CHECK_OK(pev_record_decode(d, rb_p(&b), n, &rec));
	return &rec.u.sample.regs_user;
}

static void t_arm64(void)
{
	struct pev_decoder *d = pev_decoder_new();
	const struct pev_regs *r = sample_regs(d, (1ull << 33) - 1);
	uint64_t out[UNWIND_DWARF_REGS], set, pc, ip, sp;

	CHECK_EQ_INT(pev__unwind_regs_to_dwarf(EM_AARCH64, r, out, &set, &pc), 32);
	CHECK_EQ_U64(set, 0xffffffffull);
	for (int i = 0; i <= 30; i++)
		CHECK_EQ_U64(out[i], 0x1000 + (uint64_t)i);	/* x0..x30 */
	CHECK_EQ_U64(out[31], 0x1000 + 31);			/* sp */
	CHECK_EQ_U64(pc, 0x1000 + 32);
	CHECK_OK(pev__unwind_user_ip_sp(EM_AARCH64, r, &ip, &sp));
	CHECK_EQ_U64(ip, 0x1000 + 32);
	CHECK_EQ_U64(sp, 0x1000 + 31);
	pev_decoder_free(d);

	/* Only x29 (fp), x30 (lr), sp and pc sampled. */
	d = pev_decoder_new();
	r = sample_regs(d, (1ull << 29) | (1ull << 30) | (1ull << 31) | (1ull << 32));
	CHECK_EQ_INT(pev__unwind_regs_to_dwarf(EM_AARCH64, r, out, &set, &pc), 32);
	CHECK_EQ_U64(set, (1ull << 29) | (1ull << 30) | (1ull << 31));
	CHECK_EQ_U64(out[29], 0x1000 + 29);
	CHECK_EQ_U64(out[30], 0x1000 + 30);
	CHECK_EQ_U64(pc, 0x1000 + 32);
	pev_decoder_free(d);

	/* No pc: nothing to start from. */
	d = pev_decoder_new();
	r = sample_regs(d, (1ull << 31) - 1);
	CHECK_EQ_INT(pev__unwind_regs_to_dwarf(EM_AARCH64, r, out, &set, &pc), -EINVAL);
	CHECK_EQ_INT(pev__unwind_user_ip_sp(EM_AARCH64, r, &ip, &sp), -ENOENT);
	pev_decoder_free(d);
}

static void t_x86_64(void)
{
	/* DWARF number -> perf number, from the two documents. */
	static const unsigned want[17] = {
		0 /* rax */, 3 /* rdx */, 2 /* rcx */, 1 /* rbx */,
		4 /* rsi */, 5 /* rdi */, 6 /* rbp */, 7 /* rsp */,
		16, 17, 18, 19, 20, 21, 22, 23 /* r8..r15 */, 8 /* rip */,
	};
	struct pev_decoder *d = pev_decoder_new();
	/* perf record --call-graph dwarf's mask: no DS ES FS GS. */
	const struct pev_regs *r = sample_regs(d, 0xff0fff);
	uint64_t out[UNWIND_DWARF_REGS], set, pc, ip, sp;

	CHECK_EQ_INT(pev__unwind_regs_to_dwarf(EM_X86_64, r, out, &set, &pc), 17);
	CHECK_EQ_U64(set, (1ull << 17) - 1);
	for (int i = 0; i < 17; i++)
		CHECK_EQ_U64(out[i], 0x1000 + (uint64_t)want[i]);
	CHECK_EQ_U64(pc, 0x1000 + 8);
	CHECK_OK(pev__unwind_user_ip_sp(EM_X86_64, r, &ip, &sp));
	CHECK_EQ_U64(ip, 0x1008);
	CHECK_EQ_U64(sp, 0x1007);
	pev_decoder_free(d);
}

int main(void)
{
	uint64_t out[UNWIND_DWARF_REGS], set, pc;
	struct pev_regs none = { 0 };

	/* The machine this build unwinds for by default (a live record). */
#if defined(__aarch64__)
	CHECK_EQ_INT(pev__unwind_host_machine(), EM_AARCH64);
#elif defined(__x86_64__)
	CHECK_EQ_INT(pev__unwind_host_machine(), EM_X86_64);
#endif
	t_arm64();
	t_x86_64();
	CHECK_EQ_INT(pev__unwind_regs_to_dwarf(EM_RISCV, &none, out, &set, &pc), -EINVAL);
	return t_done();
}
