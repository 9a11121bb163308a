// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Where a Go program's stacks end, from the binary's own function table
 * (.gopclntab).
 *
 * Go's CFI (.debug_frame, written by its linker from the SP deltas)
 * does not say where a stack ends on x86-64: runtime.goexit, the
 * bottom of every goroutine, has a return address slot like any other
 * function, and what lies there (past the goroutine's stack) was read as
 * one more frame: a closing ffffffffffffffff (a 0), a 1 (argc, under
 * runtime.rt0_go) or a word of the heap.  Functions that switch stacks
 * (runtime.systemstack, mcall, morestack, the vDSO calls of nanotime1)
 * have CFI for the stack they started on only, and the walk went on
 * with what lies at the top of the other one.
 *
 * Go's own traceback (the one its profiler takes) stops at a function
 * whose funcFlag has TOPFRAME (the first function of a stack: goexit,
 * mstart, rt0_go, ...) or SPWRITE (one that writes SP other than by
 * adjusting it: a stack switch), after printing it; the unwinder does
 * the same.  So do the entry points before rt0_go (_rt0_amd64_linux at
 * the ELF entry, _rt0_amd64: the kernel jumps there, with argc where a
 * return address would be).  runtime.sigreturn (sigreturn__sigaction from Go 1.20), the
 * trampoline a signal handler returns through, ends it too: its CFI is
 * a plain function's, and the ucontext on the signal stack (uc_flags: a
 * 6) was read as its return address.  A call the runtime injects
 * (asyncPreempt, sigpanic, debugCall*: a signal handler pushed the
 * interrupted pc as their return address) is followed by that pc as it
 * is, as Go's traceback takes it (not a return address - 1, which fell
 * before the function the signal interrupted at its first instruction).  The flag byte lies in the function's _func record, found
 * through the table's functab by the pc:
 *  - Go 1.18, 1.19 (magic 0xfffffff0) and 1.20 on (0xfffffff1): the
 *    header's textStart, then a functab of (entryoff, funcoff) uint32
 *    pairs at pclnOffset, entry offsets from textStart; the flag at 37 in
 *    _func (41 from 1.20: startLine comes before it);
 *  - Go 1.16, 1.17 (0xfffffffa): pairs of pointer-sized (entry pc,
 *    funcoff), the flag at 41 (an entry pc of 8 bytes first); 1.16 has
 *    no flags (the byte is padding, 0), nor has any earlier table. */
#include <string.h>

#include <gelf.h>

#include "unwind/unwind_state.h"

#define FLAG_TOPFRAME 1
#define FLAG_SPWRITE 2

struct gotab {
	const uint8_t *p;
	size_t size;
	bool le;
	unsigned ptr;		/* 4 or 8 */
};

static uint64_t rd(const struct gotab *t, size_t off, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned sh = t->le ? 8 * i : 8 * (n - 1 - i);

		v |= (uint64_t)t->p[off + i] << sh;
	}
	return v;
}

/* The table's section (.gopclntab; .data.rel.ro.gopclntab in a PIE) and
 * .text's address. */
static bool find_table(Elf *elf, struct gotab *t, uint64_t *text)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	bool found = false;

	*text = 0;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".text"))
			*text = sh.sh_addr;
		if (found || sh.sh_type != SHT_PROGBITS ||
		    (strcmp(name, ".gopclntab") && strcmp(name, ".data.rel.ro.gopclntab")))
			continue;
		Elf_Data *d = elf_rawdata(scn, NULL);

		if (!d || !d->d_buf || d->d_size < 72)	/* the header */
			continue;
		t->p = d->d_buf;
		t->size = d->d_size;
		found = true;
	}
	return found;
}

/* The function holding addr (an address of the file): its funcFlag
 * byte and name (NULL when the table has none); false when the table has
 * no function there. */
static bool go_func(Elf *elf, uint64_t addr, unsigned *flag, const char **name)
{
	GElf_Ehdr eh;
	struct gotab t = { 0 };
	uint64_t text, nfunc, pcln, names, lo, f;
	size_t flag_at, name_at;

	*flag = 0;
	*name = NULL;
	if (!elf || !gelf_getehdr(elf, &eh) || !find_table(elf, &t, &text))
		return false;
	t.le = eh.e_ident[EI_DATA] == ELFDATA2LSB;
	t.ptr = t.p[7];
	if (t.p[4] != 0 || t.p[5] != 0 || (t.ptr != 4 && t.ptr != 8))
		return false;
	uint32_t magic = (uint32_t)rd(&t, 0, 4);
	unsigned ptr = t.ptr;

	nfunc = rd(&t, 8, ptr);
	if (magic == 0xfffffff0 || magic == 0xfffffff1) {
		uint64_t start = rd(&t, 8 + 2 * ptr, ptr);

		names = rd(&t, 8 + 3 * ptr, ptr);
		pcln = rd(&t, 8 + 7 * ptr, ptr);
		flag_at = magic == 0xfffffff0 ? 37 : 41;
		name_at = 4;
		if (!start)
			start = text;	/* not relocated in the file */
		if (pcln > t.size || (t.size - pcln) / 8 <= nfunc || !nfunc ||
		    addr < start || addr - start > UINT32_MAX)
			return false;
		uint32_t off = (uint32_t)(addr - start);

		if (off < rd(&t, pcln, 4) || off >= rd(&t, pcln + nfunc * 8, 4))
			return false;
		uint64_t hi = nfunc;	/* entry[lo] <= off < entry[hi] */

		lo = 0;
		while (hi - lo > 1) {
			uint64_t mid = lo + (hi - lo) / 2;

			if (rd(&t, pcln + mid * 8, 4) <= off)
				lo = mid;
			else
				hi = mid;
		}
		f = pcln + rd(&t, pcln + lo * 8 + 4, 4);
	} else if (magic == 0xfffffffa) {
		names = rd(&t, 8 + 2 * ptr, ptr);
		pcln = rd(&t, 8 + 6 * ptr, ptr);
		flag_at = ptr + 33;
		name_at = ptr;
		if (pcln > t.size || (t.size - pcln) / (2 * ptr) <= nfunc || !nfunc ||
		    addr < rd(&t, pcln, ptr) || addr >= rd(&t, pcln + nfunc * 2 * ptr, ptr))
			return false;
		uint64_t hi = nfunc;

		lo = 0;
		while (hi - lo > 1) {
			uint64_t mid = lo + (hi - lo) / 2;

			if (rd(&t, pcln + mid * 2 * ptr, ptr) <= addr)
				lo = mid;
			else
				hi = mid;
		}
		f = pcln + rd(&t, pcln + lo * 2 * ptr + ptr, ptr);
	} else {
		return false;
	}
	if (f >= t.size || t.size - f <= flag_at)
		return false;
	*flag = t.p[f + flag_at];
	uint64_t n = names + (uint32_t)rd(&t, f + name_at, 4);

	if (names < t.size && n < t.size && memchr(t.p + n, 0, t.size - n))
		*name = (const char *)t.p + n;
	return true;
}

/* pev__unwind_go_frame's answer for addr, an address of the file elf. */
static int go_kind(Elf *elf, uint64_t addr)
{
	unsigned flag;
	const char *name;

	if (!elf || !go_func(elf, addr, &flag, &name))
		return GO_FRAME;
	if ((flag & (FLAG_TOPFRAME | FLAG_SPWRITE)) ||
	    (name && (!strncmp(name, "runtime.sigreturn", 17) || !strncmp(name, "_rt0_", 5))))
		return GO_LAST;
	if (name && (!strcmp(name, "runtime.asyncPreempt") || !strcmp(name, "runtime.sigpanic") ||
		     !strncmp(name, "runtime.debugCall", 17)))
		return GO_INJECTED;
	return GO_FRAME;
}

int pev__unwind_go_frame(Dwfl_Module *mod, uint64_t addr)
{
	GElf_Addr bias;
	Elf *elf = mod ? dwfl_module_getelf(mod, &bias) : NULL;

	return elf ? go_kind(elf, addr - bias) : GO_FRAME;
}
