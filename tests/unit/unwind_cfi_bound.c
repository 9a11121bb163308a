// SPDX-License-Identifier: GPL-2.0-only
/* A corrupt .eh_frame naming a huge register number costs the unwinder
 * no memory: libdw grows its register table to the largest register an
 * instruction names (here 16,000,000: some 400 MB), so such CFI is
 * refused before libdw runs it, as libunwind (perf) refuses it.
 *
 * The sample goes through the unwind fuzz harness's own driver
 * (tests/fuzz/unwind.c: a small ELF whose .eh_frame is the input's tail,
 * mapped at 0x400000), with the process's peak virtual size (VmPeak in
 * /proc/self/status: libdw's table is allocated, not all touched)
 * measured around it.
 * The CIE and FDE bytes are written out by hand from the DWARF 4 and
 * LSB .eh_frame layouts. */
#include "testutil.h"
#include "../fuzz/unwind.c"

static size_t put(uint8_t *p, const void *v, size_t n)
{
	memcpy(p, v, n);
	return n;
}

static long vm_peak_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPeak: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

int main(void)
{
	uint8_t in[512];
	uint64_t regs[NREGS] = { 0 };
	size_t n = 0;

	regs[7] = 0x7ffd00001000ull;	/* SP */
	regs[8] = 0x401010;		/* IP, in .text */
	in[n++] = 3;
	n += put(in + n, regs, sizeof(regs));
	in[n++] = 64;			/* a 64-byte stack dump */
	in[n++] = 0;
	memset(in + n, 0, 64);
	n += 64;
	/* CIE: id 0, version 1, "zR", code 1, data -8, RA 16, aug data 1:
	 * pcrel sdata4; CFA rsp+8; DW_CFA_offset_extended r16,000,000
	 * (uleb 80 c8 d0 07) at cfa-8; nops to a multiple of 4. */
	static const uint8_t cie[] = {
		0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b,
		0x0c, 7, 8, 0x05, 0x80, 0xc8, 0xd0, 0x07, 1, 0, 0
	};
	uint32_t cie_len = sizeof(cie);
	size_t eh = n;

	n += put(in + n, &cie_len, 4);
	n += put(in + n, cie, sizeof(cie));
	/* FDE over .text (0x1000..0x2000): pc_begin pcrel from its field
	 * at 0x2000 + (FDE offset) + 8. */
	uint32_t fde_off = (uint32_t)(n - eh), len = 16;
	int32_t pc = 0x1000 - (int32_t)(0x2000 + fde_off + 8);
	uint32_t cie_ptr = fde_off + 4, range = 0x1000;

	n += put(in + n, &len, 4);
	n += put(in + n, &cie_ptr, 4);
	n += put(in + n, &pc, 4);
	n += put(in + n, &range, 4);
	in[n++] = 0;			/* no augmentation data */
	in[n++] = 0;
	in[n++] = 0;
	in[n++] = 0;
	long before = vm_peak_kb();

	if (before < 0)
		T_SKIP("no VmPeak in /proc/self/status");
	CHECK_EQ_INT(LLVMFuzzerTestOneInput(in, n), 0);
	long grown = vm_peak_kb() - before;

	printf("peak virtual size grew by %ld kB\n", grown);
	CHECK_MSG(grown < 64 * 1024, "the unwinder took %ld kB for one corrupt CIE", grown);
	return t_done();
}
