/* The samples a profile keeps for the views (opts.keep_samples), and the
 * accessors for their frames and chains. */
#include <errno.h>
#include <stdlib.h>

#include "profile/profile_internal.h"

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
