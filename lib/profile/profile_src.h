/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: srclines, source files and size keys (profile_src.c). */
#ifndef PEV_PROFILE_SRC_H
#define PEV_PROFILE_SRC_H

#include "profile/profile_intern.h"

const char *pev__pf_chain_entry_srcline(struct pev_profile *p, const struct pev_profile_frame *f);
/* perf's srcfile of a srcline: the file before the ':', "" when unknown
 * (interned; NULL: no memory). */
const char *pev__pf_srcfile(struct pev_profile *p, const char *srcline);
/* The symbol_size and dso_size keys of frame f into k (when in use). */
void pev__pf_size_keys(const struct pev_profile *p, struct pf_key *k,
		       const struct pf_frame *f);
/* Records the size of the map frame id was found in (the first one). */
void pev__pf_set_map_size(struct pev_profile *p, uint32_t id,
			  const struct pev_addr_loc *loc);

#endif
