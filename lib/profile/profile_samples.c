// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The samples a profile keeps for the views (opts.keep_samples), and the
 * accessors for their frames and chains. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_samples.h"

int pev__pf_keep(struct pev_profile *p, const struct pev_profile_sample *ks)
{
	if (p->nkept == p->kept_cap) {
		size_t cap = p->kept_cap ? p->kept_cap * 2 : 4096;
		struct pev_profile_sample *n;

		if (cap > SIZE_MAX / sizeof(*n))
			return -ENOMEM;
		n = realloc(p->kept, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		p->kept = n;
		p->kept_cap = cap;
	}
	p->kept[p->nkept++] = *ks;
	return 0;
}

PEV_EXPORT const struct pev_profile_sample *
pev_profile_samples(const struct pev_profile *p, size_t *n)
{
	*n = p && p->kept ? p->nkept : 0;
	return *n ? p->kept : NULL;
}

PEV_EXPORT size_t pev_profile_chain(const struct pev_profile *p, uint32_t c,
				    const uint32_t **ids)
{
	*ids = NULL;
	if (!p || c >= p->nchains)
		return 0;
	*ids = p->chain_pool + p->chains[c].off;
	return p->chains[c].len;
}

PEV_EXPORT const struct pev_profile_frame *
pev_profile_frame(const struct pev_profile *p, uint32_t id)
{
	return p && id < p->nframes ? pev__pf_frame_at(p, id) : NULL;
}

PEV_EXPORT size_t pev_profile_nr_frames(const struct pev_profile *p)
{
	return p ? p->nframes : 0;
}

int pev__pf_set_call_line(struct pev_profile *p, uint32_t id, const struct pev_frame *f)
{
	struct pf_frame *pf = (struct pf_frame *)pev__pf_frame_at(p, id);

	if (pf->call_file)
		return 0;
	pf->call_file = pev__pf_intern_str(p, f->call_file, strlen(f->call_file));
	pf->call_line = f->call_line;
	return pf->call_file ? 0 : -ENOMEM;
}

PEV_EXPORT int pev_profile_frame_map(const struct pev_profile *p, uint32_t id,
				     struct pev_profile_map *out)
{
	const struct pf_frame *f;

	memset(out, 0, sizeof(*out));
	if (!p || id >= p->nframes)
		return -EINVAL;
	f = (const struct pf_frame *)pev__pf_frame_at(p, id);
	if (!f->has_map)
		return -ENOENT;
	out->start = f->map_start;
	out->end = f->map_end;
	out->pgoff = f->map_pgoff;
	return 0;
}

PEV_EXPORT int pev_profile_frame_call_line(const struct pev_profile *p, uint32_t id,
					   const char **file, unsigned *line)
{
	const struct pf_frame *f;

	*file = NULL;
	*line = 0;
	if (!p || id >= p->nframes)
		return 0;
	f = (const struct pf_frame *)pev__pf_frame_at(p, id);
	if (!f->call_file)
		return 0;
	*file = f->call_file;
	*line = f->call_line;
	return 1;
}
