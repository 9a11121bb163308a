/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal: the kept samples and frame call sites (profile_samples.c). */
#ifndef PEV_PROFILE_SAMPLES_H
#define PEV_PROFILE_SAMPLES_H

#include "profile/profile_intern.h"

/* opts.keep_samples: appends *ks; 0 or -ENOMEM. */
int pev__pf_keep(struct pev_profile *p, const struct pev_profile_sample *ks);
/* Records the call site DWARF gives a chain frame (the first one seen);
 * -ENOMEM. */
int pev__pf_set_call_line(struct pev_profile *p, uint32_t id, const struct pev_frame *f);

#endif
