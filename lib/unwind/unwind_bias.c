// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The load bias of a mapped file: what to add to the file's own
 * addresses (its PT_LOAD p_vaddr) to get those of the process.
 *
 * map start - pgoff is that bias only where each segment's p_vaddr
 * equals its p_offset (GNU ld's layout).  LLD (rustc's default linker,
 * `clang -fuse-ld=lld`) packs the segments in the file one after the
 * other but starts each on a new page in memory: its text lies at file
 * offset 0x13110 and address 0x14110, mapped from page 0x13000 at load
 * base + 0x14000; start - pgoff is then the base + 0x1000, and every CFI
 * lookup at pc - bias landed a page off, in another function's rules.
 * The bias is the map's start less the address its first byte has in the
 * file, by the segment the map is a mapping of (the loader maps each from
 * p_offset rounded down to a page, to p_vaddr rounded down):
 *   bias = start - (p_vaddr - p_offset + pgoff).
 * Segments share a file page under LLD, so more than one can start in the
 * map's first page (a small program's four all start in page 0); the
 * map's prot picks the one mapped there: an executable map (an MMAP
 * record has no prot: it is one unless marked data) the PF_X segment, a
 * writable one a PF_W segment; then a segment starting in the map's first
 * page before one that only runs through it (a map split by mprotect),
 * then the one starting nearest the map's offset. */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gelf.h>

#include "unwind/unwind_state.h"

/* The largest page a segment may be mapped with (arm64's 64 KiB). */
#define MAX_PAGE 0x10000ull

bool pev__unwind_map_bias(Elf *elf, const struct pev_addr_loc *loc, uint64_t *bias)
{
	size_t n;
	int best_score = -1;
	uint64_t best_dist = 0;
	bool exec = !loc->map_prot || (loc->map_prot & PROT_EXEC);
	bool write = (loc->map_prot & PROT_WRITE) != 0;

	if (!elf || elf_getphdrnum(elf, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		uint64_t pgoff = loc->map_pgoff;
		bool starts = pgoff <= ph.p_offset && ph.p_offset - pgoff < MAX_PAGE;
		bool inside = pgoff > ph.p_offset && pgoff - ph.p_offset < ph.p_filesz;

		if (!starts && !inside)
			continue;
		int score = (!!(ph.p_flags & PF_X) == exec) * 4 +
			    (!!(ph.p_flags & PF_W) == write) * 2 + starts;
		uint64_t dist = starts ? ph.p_offset - pgoff : pgoff - ph.p_offset;

		if (score > best_score || (score == best_score && dist < best_dist)) {
			best_score = score;
			best_dist = dist;
			*bias = loc->map_start - (ph.p_vaddr - ph.p_offset + pgoff);
		}
	}
	return best_score >= 0;
}

bool pev__unwind_file_bias(const char *path, const struct pev_addr_loc *loc, uint64_t *bias)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	bool ok = pev__unwind_map_bias(elf, loc, bias);

	elf_end(elf);
	close(fd);
	return ok;
}
