/* The profile's sort keys that read more than the sample's own location:
 * parent (perf's -p regex over the call chain), trace (a tracepoint's
 * formatted output, from the caller's formatter). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_internal.h"

/* perf 6.1's default_parent_pattern */
#define DEFAULT_PARENT "^sys_|^do_page_fault"

int pev__pf_parent_init(struct pev_profile *p)
{
	const char *re = p->opts.parent_regex ? p->opts.parent_regex : DEFAULT_PARENT;

	if (!p->key_on[PEV_SORT_PARENT])
		return 0;
	if (regcomp(&p->parent_re, re, REG_EXTENDED | REG_NOSUB))
		return -EINVAL;
	p->parent_on = true;
	return 0;
}

/* perf's add_callchain_ip: the first entry, in the order the chain is
 * walked (leaf first for callee order, root first for caller order),
 * whose symbol matches; inlined entries share their function's symbol. */
int pev__pf_chain_parent(struct pev_profile *p, struct pf_chain *c)
{
	bool caller = p->opts.order == PEV_PROFILE_CALLER;

	c->parent = NULL;
	if (!p->parent_on)
		return 0;
	for (uint32_t j = 0; j < c->len; j++) {
		uint32_t id = p->chain_pool[c->off + (caller ? c->len - 1 - j : j)];
		const struct pev_profile_frame *f = pev__pf_frame_at(p, id);

		if (!f->sym || regexec(&p->parent_re, f->sym->name, 0, NULL, 0))
			continue;
		c->parent = pev__pf_intern_str(p, f->sym->name, strlen(f->sym->name));
		return c->parent ? 0 : -ENOMEM;
	}
	return 0;
}

int pev__pf_trace_key(struct pev_profile *p, uint32_t ev, const struct pev_sample *s,
		      struct pf_key *k)
{
	char buf[1024];
	int n;

	k->trace = NULL;
	if (!p->opts.trace_output)
		return 0;
	n = p->opts.trace_output(p->opts.trace_arg, ev, s, buf, sizeof(buf));
	if (n < 0)
		return 0;
	if ((size_t)n < sizeof(buf)) {
		k->trace = pev__pf_intern_str(p, buf, (size_t)n);
		return k->trace ? 0 : -ENOMEM;
	}
	/* longer than the stack buffer: once more with room */
	char *big = malloc((size_t)n + 1);

	if (!big)
		return -ENOMEM;
	n = p->opts.trace_output(p->opts.trace_arg, ev, s, big, (size_t)n + 1);
	k->trace = n < 0 ? NULL : pev__pf_intern_str(p, big, (size_t)n);
	free(big);
	return n < 0 || k->trace ? 0 : -ENOMEM;
}
