/* Inline frames from DWARF. */
#include <perfev/callchain.h>

#include "unwind/unwind_internal.h"

int chain_add_inlines(struct pev_chain *c, const struct pev_addr_loc *loc,
		      uint64_t ip, uint8_t cpumode, bool unwound)
{
	(void)c; (void)loc; (void)ip; (void)cpumode; (void)unwound;
	return 0;
}

void chain_inline_release(struct pev_chain *c)
{
	(void)c;
}
