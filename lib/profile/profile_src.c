// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile model: source lines of frames, as perf 6.1's map__srcline()
 * gives them for the srcline sort key ("file.c:12", or what addr2line
 * answers from the symbols; "sym+OFF" or "dso[ADDR]" when addr2line does
 * not place the address; "??:0" without a map). */
#include <errno.h>
#include <stdlib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "profile/profile_src.h"
#include "symbol/symbols_internal.h"

/* addr is what perf hands to map__rip_2objdump(): a map-relative address
 * for a sample's own location, but the sampled address itself for chain
 * entries in children mode, where perf 6.1 looks up (and prints offsets
 * from) the unconverted address; raw says which. */
static const char *srcline_at(struct pev_profile *p, const struct pev_profile_frame *f,
			      bool show_sym, bool raw)
{
	char buf[4096];
	const char *file;
	unsigned line;

	if (!p || !f)
		return NULL;
	if (!f->dso)
		return pev__pf_intern_str(p, "??:0", 4);
	if (!p->srclines) {
		p->srclines = pev_srclines_new();
		if (!p->srclines)
			return NULL;
	}
	uint64_t vaddr = raw ? f->ip : f->addr;
	const char *src = pev_dso_srcline_path((struct pev_dso *)f->dso);

	if (!raw && f->level != 'k')
		vaddr = pev_dso_offset_to_vaddr(f->dso, f->addr);
	/* perf's map__rip_2objdump() of a user DSO adds its text_offset,
	 * which is not 0 where .text's address is not its file offset:
	 * non-PIE executables, LLD's layouts */
	if (raw && f->level != 'k')
		vaddr += pev__dso_text_offset((struct pev_dso *)f->dso);
	/* addr2line's answer ("??:0" from "??:?", ":0" from an empty file
	 * symbol), else perf's own fallback */
	if (src && pev_srclines_addr2line(p->srclines, src, vaddr, &file, &line) == 1) {
		const char *base = p->opts.full_srcpath ? NULL : strrchr(file, '/');

		snprintf(buf, sizeof(buf), "%s:%u", base ? base + 1 : file, line);
	} else if (f->sym) {
		/* call-graph entries leave the name out (perf's show_sym) */
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, show_sym ? f->sym->name : "",
			 vaddr - f->sym->start);
	} else {
		const char *n = pev_dso_name(f->dso);
		const char *base = strrchr(n, '/');

		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]",
			 base && n[0] != '[' ? base + 1 : n, vaddr);
	}
	return pev__pf_intern_str(p, buf, strlen(buf));
}

PEV_EXPORT const char *pev_profile_srcline(struct pev_profile *p,
					   const struct pev_profile_frame *f,
					   bool chain)
{
	return srcline_at(p, f, !chain, false);
}

/* The srcline sort key of a chain entry in children mode, cached. */
const char *pev__pf_chain_entry_srcline(struct pev_profile *p, const struct pev_profile_frame *f)
{
	struct pf_frame *pf = (struct pf_frame *)f;

	/* perf's chain entries carry a srcline when chains match by
	 * address (callchain_srcline, show_sym off: "+OFF" without lines),
	 * and the entry takes it; otherwise the entry looks one up at the
	 * unconverted address */
	if (!pf->srcl_raw)
		pf->srcl_raw = p->opts.match == PEV_PROFILE_ADDRESS ?
			       srcline_at(p, f, false, false) : srcline_at(p, f, true, true);
	return pf->srcl_raw;
}

/* perf 6.1's get_srcfile(): the srcline up to its first ':', "" for
 * "??:0" and for the "sym+OFF" / "dso[ADDR]" forms. */
const char *pev__pf_srcfile(struct pev_profile *p, const char *srcline)
{
	const char *c = strchr(srcline, ':');

	if (!strcmp(srcline, "??:0") || !c || c == srcline)
		return pev__pf_intern_str(p, "", 0);
	return pev__pf_intern_str(p, srcline, (size_t)(c - srcline));
}

void pev__pf_size_keys(const struct pev_profile *p, struct pf_key *k,
		       const struct pf_frame *f)
{
	if (p->key_on[PEV_SORT_SYM_SIZE])
		k->sym_size = f->f.sym ? f->f.sym->end - f->f.sym->start : 0;
	if (p->key_on[PEV_SORT_DSO_SIZE])
		k->dso_size = f->f.dso ? f->map_size : 0;
}

void pev__pf_set_map_size(struct pev_profile *p, uint32_t id,
			  const struct pev_addr_loc *loc)
{
	struct pf_frame *f = (struct pf_frame *)pev__pf_frame_at(p, id);

	if (!f->has_map && loc->dso) {
		f->has_map = true;
		f->map_start = loc->map_start;
		f->map_end = loc->map_end;
		f->map_pgoff = loc->map_pgoff;
	}
	/* only the dso_size key reads it (the kernel's end below walks
	 * every kallsyms symbol) */
	if (!p->key_on[PEV_SORT_DSO_SIZE])
		return;

	if (f->map_size || !loc->dso)
		return;
	f->map_size = loc->map_end - loc->map_start;
	/* perf ends the kernel's map with its last symbol (kallsyms: the
	 * last one before the modules, a page past its page) */
	if (!strcmp(pev_dso_name(loc->dso), "[kernel.kallsyms]")) {
		const struct pev_symtab *st = pev_dso_symtab(loc->dso);
		uint64_t end = 0;

		for (size_t i = 0, n = st ? pev_symtab_count(st) : 0; i < n; i++) {
			const struct pev_symbol *s = pev_symtab_symbol(st, i);

			if (!s->module && s->end > end)
				end = s->end;
		}
		if (end > loc->map_start)
			f->map_size = end - loc->map_start;
	}
}
