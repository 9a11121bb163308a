// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* One address of a call chain as its frames (inline.c's first); used by
 * chain.c for the sampled part and unwind.c for the unwound one. */
#include <errno.h>

#include <perfev/callchain.h>

#include "unwind/unwind_internal.h"

/* Appends the frame of ip; an unwound one as the frames DWARF says are
 * inlined at ip when it knows of any (perf looks inline frames up for
 * unwound entries only, not for sampled ones).  0 or -ENOMEM. */
int pev__chain_add_ip(struct pev_chain *c, uint32_t pid, uint64_t ip,
		 uint8_t cpumode, bool unwound)
{
	struct pev_addr_loc loc;

	pev_machine_resolve(c->m, pid, ip, cpumode, &loc);
	if (unwound && !c->opts.no_inline) {
		int r = pev__chain_add_inlines(c, &loc, ip, cpumode, unwound);

		if (r != 0)
			return r < 0 ? r : 0;
	}
	struct pev_frame *f = pev__chain_push(c);

	if (!f)
		return -ENOMEM;
	f->ip = ip;
	f->cpumode = cpumode;
	f->loc = loc;
	f->unwound = unwound;
	return 0;
}
