// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The frame array of a call chain: the bottom of lib/unwind, used by
 * chain.c, chain_add.c, unwind.c and inline.c. */
#include <stdlib.h>
#include <string.h>

#include "unwind/unwind_internal.h"

/* A slot at the end of the frame array; NULL when it cannot grow. */
struct pev_frame *pev__chain_push(struct pev_chain *c)
{
	if (c->nr == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct pev_frame *f = realloc(c->frames, cap * sizeof(*f));

		if (!f)
			return NULL;
		c->frames = f;
		c->cap = cap;
	}
	struct pev_frame *f = &c->frames[c->nr++];

	memset(f, 0, sizeof(*f));
	return f;
}
