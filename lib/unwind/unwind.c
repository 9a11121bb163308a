/* DWARF unwinding of user stacks (PERF_SAMPLE_REGS_USER + STACK_USER). */
#include <perfev/callchain.h>

#include "unwind/unwind_internal.h"

int chain_unwind(struct pev_chain *c, const struct pev_sample *smp)
{
	(void)c;
	(void)smp;
	return 0;
}

void chain_unwind_release(struct pev_chain *c)
{
	chain_inline_release(c);
}
