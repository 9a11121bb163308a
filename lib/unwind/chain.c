// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* A sample's call chain as frames, leaf first (perfev/callchain.h).
 *
 * The sampled PERF_SAMPLE_CALLCHAIN is read as perf 6.1's
 * thread__resolve_callchain_sample() reads it in callee order:
 *  - the cpumode starts as user and follows the PERF_CONTEXT_KERNEL /
 *    _USER / _HV markers;
 *  - any other marker (guest contexts, a corrupt word such as
 *    0xffffffffffffffff) means the chain is corrupt: every frame taken from
 *    it is discarded, and the rest of it is not read;
 *  - max_stack counts addresses, not markers.
 * Then, when the sample carries a user register set and stack dump, the
 * user frames unwound from them (unwind.c) follow, up to max_stack of
 * their own, as perf appends them after the sampled (kernel) part. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include <perfev/callchain.h>

#include "unwind/unwind_internal.h"

PEV_EXPORT struct pev_chain *pev_chain_new(struct pev_machine *m,
					   const struct pev_chain_opts *opts)
{
	struct pev_chain *c;

	if (!m) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	c->m = m;
	if (opts) {
		size_t n = opts->size && opts->size < sizeof(c->opts) ?
			   opts->size : sizeof(c->opts);

		memcpy(&c->opts, opts, n);
	}
	c->opts.size = sizeof(c->opts);
	return c;
}

PEV_EXPORT void pev_chain_free(struct pev_chain *c)
{
	if (!c)
		return;
	pev__chain_unwind_release(c);
	free(c->frames);
	free(c);
}

/* The sampled callchain; 0 or -ENOMEM. */
static int add_sampled(struct pev_chain *c, const struct pev_sample *smp)
{
	const struct pev_callchain *cc = &smp->callchain;
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	unsigned max = c->opts.max_stack;
	unsigned taken = 0;

	for (uint64_t i = 0; i < cc->nr && (!max || taken < max); i++) {
		uint64_t ip = cc->ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_HV:
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
				break;
			case PERF_CONTEXT_KERNEL:
				cpumode = PERF_RECORD_MISC_KERNEL;
				break;
			case PERF_CONTEXT_USER:
				cpumode = PERF_RECORD_MISC_USER;
				break;
			default:
				/* perf: "invalid callchain context", the
				 * chain is corrupt: discard all of it. */
				c->nr = 0;
				return 0;
			}
			continue;
		}
		taken++;
		int r = pev__chain_add_ip(c, smp->pid, ip, cpumode, false);

		if (r < 0)
			return r;
	}
	return 0;
}

PEV_EXPORT long pev_chain_resolve(struct pev_chain *c,
				  const struct pev_sample *smp,
				  const struct pev_frame **frames)
{
	int r;

	if (!c || !smp || !frames)
		return -EINVAL;
	c->nr = 0;
	*frames = NULL;
	if (smp->fields & PERF_SAMPLE_CALLCHAIN) {
		r = add_sampled(c, smp);
		if (r < 0)
			return r;
	}
	if (!c->opts.no_unwind &&
	    (smp->fields & PERF_SAMPLE_REGS_USER) &&
	    (smp->fields & PERF_SAMPLE_STACK_USER) &&
	    smp->regs_user.nr && smp->stack_user.dyn_size) {
		r = pev__chain_unwind(c, smp);
		if (r < 0)
			return r;
	}
	if (!c->nr && c->opts.ip_if_empty) {
		struct pev_frame *f = pev__chain_push(c);

		if (!f)
			return -ENOMEM;
		/* The sample's cpumode is in the record header, not here:
		 * kernel-space addresses are the kernel's. */
		f->ip = smp->ip;
		f->cpumode = smp->ip >> 63 ? PERF_RECORD_MISC_KERNEL :
					     PERF_RECORD_MISC_USER;
		pev_machine_resolve(c->m, smp->pid, smp->ip, f->cpumode,
				    &f->loc);
	}
	*frames = c->frames;
	return (long)c->nr;
}
