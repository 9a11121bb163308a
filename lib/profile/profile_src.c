/* The profile model: source lines of frames, as perf 6.1's map__srcline()
 * gives them for the srcline sort key ("file.c:12"; "sym+OFF" or
 * "dso[ADDR]" when the line tables do not know the address; "??:0"
 * without a map). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "profile/profile_internal.h"

PEV_EXPORT const char *pev_profile_srcline(struct pev_profile *p,
					   const struct pev_profile_frame *f,
					   bool chain)
{
	char buf[4096];
	const char *file;
	unsigned line;

	(void)chain;
	if (!p || !f)
		return NULL;
	if (!f->dso)
		return pf_intern_str(p, "??:0", 4);
	if (!p->srclines) {
		p->srclines = pev_srclines_new();
		if (!p->srclines)
			return NULL;
	}
	uint64_t vaddr = f->addr;
	const char *src = pev_dso_symbol_source(f->dso);

	if (!f->level || f->level != 'k')
		vaddr = pev_dso_offset_to_vaddr(f->dso, f->addr);
	if (src && pev_srclines_lookup(p->srclines, src, vaddr, &file, &line) == 1) {
		const char *base = strrchr(file, '/');

		snprintf(buf, sizeof(buf), "%s:%u", base ? base + 1 : file, line);
	} else if (f->sym) {
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, f->sym->name,
			 vaddr - f->sym->start);
	} else {
		const char *n = pev_dso_name(f->dso);
		const char *base = strrchr(n, '/');

		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]",
			 base && n[0] != '[' ? base + 1 : n, vaddr);
	}
	return pf_intern_str(p, buf, strlen(buf));
}
