// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The fast walk's modules: the file perf's maps place at a pc, as a
 * libdwfl module of its own, one per map (DSO, start, offset) for the
 * whole file, at the map's load bias (unwind_bias.c).
 *
 * One Dwfl per process cannot hold what perf's maps hold: `perf inject
 * --jit` maps each JIT'ed function as a jitted-PID-N.so of its own, over
 * the binary that holds it (node's embedded builtins lie in node's
 * .text) and over the code a previous function had at that address;
 * libdwfl refuses a module whose range overlaps another's ("address
 * range overlaps an existing module"), and the walk then saw the old
 * module, or none, for every later sample in that range.  Here every
 * module has its own Dwfl, found from the map perf's maps give for the
 * pc, so a new map at an old address is simply another module.
 *
 * Each module holds its file open: past a budget (a quarter of the open
 * file limit) all are dropped, with the CFI rules cached for them, and
 * built again as samples need them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <gelf.h>

#include <linux/perf_event.h>

#include "unwind/unwind_state.h"

struct fast_mod {
	const struct pev_dso *dso;	/* key, with start, pgoff; NULL: free slot */
	uint64_t start, pgoff;
	Dwfl *dwfl;
	Dwfl_Module *mod;		/* NULL: no ELF file to read there */
	uint64_t delta;			/* pc - delta: the module's address */
};

static const Dwfl_Callbacks mod_cbs = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	/* no debuginfo_path: libdwfl's default search path */
};

void pev__unwind_mods_release(struct unwind_state *u)
{
	for (size_t i = 0; i < u->mods_size; i++)
		if (u->mods[i].dwfl)
			dwfl_end(u->mods[i].dwfl);
	free(u->mods);
	u->mods = NULL;
	u->mods_size = u->mods_used = 0;
	u->mod_lo = u->mod_hi = 0;
	u->mod_last = NULL;
}

static size_t mod_hash(const struct pev_dso *dso, uint64_t start, uint64_t pgoff,
		       size_t size)
{
	uint64_t h = ((uint64_t)(uintptr_t)dso * 0x9e3779b97f4a7c15ull) ^ start ^
		     (pgoff * 0xff51afd7ed558ccdull);

	return (size_t)((h * 0x9e3779b97f4a7c15ull) >> 24) & (size - 1);
}

static int mods_grow(struct unwind_state *u)
{
	size_t size = u->mods_size ? u->mods_size * 2 : 256;
	struct fast_mod *t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < u->mods_size; i++) {
		if (!u->mods[i].dso)
			continue;
		size_t h = mod_hash(u->mods[i].dso, u->mods[i].start, u->mods[i].pgoff, size);

		while (t[h].dso)
			h = (h + 1) & (size - 1);
		t[h] = u->mods[i];
	}
	free(u->mods);
	u->mods = t;
	u->mods_size = size;
	return 0;
}

/* A Dwfl holding only the file of loc's DSO at the map's load bias; the
 * module, or NULL (*dwfl set when there is one to end), and in *delta
 * what to take from a pc in the map to get an address of the module: 0
 * for a shared object or PIE (reported at that bias); for an executable,
 * which libdwfl places at its own addresses, the bias itself (0, but for
 * a map elsewhere: node maps its embedded builtins a second time). */
static Dwfl_Module *mod_report(struct unwind_state *u, const struct pev_addr_loc *loc,
			       Dwfl **dwfl, uint64_t *delta)
{
	const char *name = pev_dso_name(loc->dso), *path = name;
	uint64_t bias;

	*dwfl = NULL;
	*delta = 0;
	if (name && !strcmp(name, "[vdso]"))
		path = pev__unwind_vdso_file(u, loc->dso);
	if (!path || path[0] != '/')
		return NULL;
	/* a jitted-PID-N.so's one segment starts at its file offset, not
	 * at address 0: the same rule gives it start - pgoff */
	if (!pev__unwind_file_bias(path, loc, &bias))
		bias = loc->map_start - loc->map_pgoff;
	*dwfl = dwfl_begin(&mod_cbs);
	if (!*dwfl)
		return NULL;
	dwfl_report_begin(*dwfl);
	Dwfl_Module *mod = dwfl_report_elf(*dwfl, name, path, -1, bias, true);

	dwfl_report_end(*dwfl, NULL, NULL);
	GElf_Addr mbias;

	/* CFI libdw cannot be trusted with: as if no file were there */
	if (mod && !pev__unwind_elf_cfi_ok(dwfl_module_getelf(mod, &mbias), ".eh_frame"))
		return NULL;
	if (mod)
		*delta = bias - mbias;
	return mod;
}

Dwarf_CFI *pev__unwind_debug_cfi(Dwfl_Module *mod, Dwarf_Addr *bias)
{
	void **ud;
	Dwarf_Addr b;

	/* the check's answer, kept in the module's user data */
	if (!dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL))
		return NULL;
	if (!*ud) {
		Dwarf *dw = dwfl_module_getdwarf(mod, &b);

		*ud = (void *)(uintptr_t)(!dw || pev__unwind_elf_cfi_ok(dwarf_getelf(dw), ".debug_frame")
					  ? 1 : 2);
	}
	return *ud == (void *)1 ? dwfl_module_dwarf_cfi(mod, bias) : NULL;
}

int pev__unwind_fast_module(struct unwind_state *u, uint64_t pc, Dwfl_Module **out,
			    uint64_t *delta)
{
	struct pev_addr_loc loc;

	*out = NULL;
	*delta = 0;
	if (pc >= u->mod_lo && pc < u->mod_hi) {
		*out = u->mod_last;
		*delta = u->mod_delta;
		return 0;
	}
	if (pev_machine_resolve(u->c->m, u->sp->pid, pc, PERF_RECORD_MISC_USER, &loc) < 0 ||
	    !loc.dso || loc.kernel)
		return 0;
	if (u->mods_used * 2 >= u->mods_size) {
		if (u->mods_used >= pev__unwind_fd_budget()) {
			/* the rules point into the modules */
			pev__unwind_mods_release(u);
			pev__rules_clear(u);
		}
		if (mods_grow(u) < 0)
			return -ENOMEM;
	}
	size_t h = mod_hash(loc.dso, loc.map_start, loc.map_pgoff, u->mods_size);
	struct fast_mod *m;

	for (;; h = (h + 1) & (u->mods_size - 1)) {
		m = &u->mods[h];
		if (!m->dso || (m->dso == loc.dso && m->start == loc.map_start &&
				m->pgoff == loc.map_pgoff))
			break;
	}
	if (!m->dso) {
		m->dso = loc.dso;
		m->start = loc.map_start;
		m->pgoff = loc.map_pgoff;
		m->mod = mod_report(u, &loc, &m->dwfl, &m->delta);
		u->mods_used++;
	}
	/* pcs in the map but outside the module's file: none */
	if (m->mod && dwfl_addrmodule(m->dwfl, pc - m->delta) != m->mod)
		return 0;
	u->mod_lo = loc.map_start;
	u->mod_hi = loc.map_end;
	u->mod_last = m->mod;
	u->mod_delta = m->delta;
	*out = m->mod;
	*delta = m->delta;
	return 0;
}
