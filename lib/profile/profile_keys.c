// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile's sort keys that read more than the sample's own location:
 * parent (perf's -p regex over the call chain), trace (a tracepoint's
 * formatted output, from the caller's formatter) and the memory keys
 * (data_src fields, data address, physical address, data page size). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "profile/profile_keys.h"

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

int pev__pf_ignore_init(struct pev_profile *p)
{
	if (!p->opts.ignore_callees)
		return 0;
	if (regcomp(&p->ignore_re, p->opts.ignore_callees, REG_EXTENDED | REG_NOSUB))
		return -EINVAL;
	p->ignore_on = true;
	return 0;
}

/* perf's add_callchain_ip: a symbol matching ignore_callees_regex resets
 * the cursor and becomes the sample's location (root_al); the last one
 * met wins: nearest the root in callee order, the leaf in caller order. */
long pev__pf_ignore_at(const struct pev_profile *p, const uint32_t *ids, uint32_t n)
{
	bool caller = p->opts.order == PEV_PROFILE_CALLER;

	for (uint32_t k = 0; k < n; k++) {
		uint32_t j = caller ? k : n - 1 - k;
		const struct pev_profile_frame *f = pev__pf_frame_at(p, ids[j]);

		if (f->sym && !regexec(&p->ignore_re, f->sym->name, 0, NULL, 0))
			return j;
	}
	return -1;
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

/* perf's PERF_MEM_DATA_SRC_NONE: what a sample without DATA_SRC holds */
#define DATA_SRC_NONE (1ull | 1ull << 5 | 1ull << 19 | 1ull << 24 | 1ull << 26 | 0xfull << 33)

int pev__pf_mem_keys(struct pev_profile *p, const struct pev_sample *s, uint8_t cpumode,
		     struct pf_key *k, struct pf_mem *m)
{
	uint64_t ds = (s->fields & PERF_SAMPLE_DATA_SRC) ? s->data_src : DATA_SRC_NONE;
	uint64_t addr = (s->fields & PERF_SAMPLE_ADDR) ? s->addr : 0;
	/* perf's cmps read one field each: mem_lvl, mem_snoop, mem_lock,
	 * mem_dtlb, mem_blk */
	static const struct { enum pev_sort_key key; uint64_t mask; } fields[] = {
		{ PEV_SORT_MEM, 0x3fffull << 5 }, { PEV_SORT_SNOOP, 0x1full << 19 },
		{ PEV_SORT_LOCKED, 0x3ull << 24 }, { PEV_SORT_TLB, 0x7full << 26 },
		{ PEV_SORT_BLOCKED, 0x7ull << 40 },
	};

	memset(m, 0, sizeof(*m));
	m->data_src = ds;
	m->daddr = addr;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (p->key_on[fields[i].key])
			k->data_src |= ds & fields[i].mask;
	if (p->key_on[PEV_SORT_SYM_DADDR])
		k->daddr = addr;
	if (p->key_on[PEV_SORT_SYM_IADDR])
		k->iaddr = s->ip;
	if (p->key_on[PEV_SORT_PHYS_DADDR])
		k->phys_addr = s->phys_addr;
	if (p->key_on[PEV_SORT_DATA_PAGE_SIZE])
		k->dps = s->data_page_size;
	if (!p->key_on[PEV_SORT_SYM_DADDR] && !p->key_on[PEV_SORT_DSO_DADDR] &&
	    !p->key_on[PEV_SORT_DCACHELINE])
		return 0;
	/* perf's ip__resolve_data: the address in the sample's cpumode */
	struct pev_addr_loc loc;

	memset(&loc, 0, sizeof(loc));
	if (pev_machine_resolve(p->m, s->pid, addr, cpumode, &loc))
		memset(&loc, 0, sizeof(loc));
	if (loc.dso) {
		/* one frame per address: an object's offset is shown */
		int64_t id = pev__pf_frame_get(p, loc.dso, loc.sym, NULL, loc.map_ip, addr,
					       loc.map_ip, pev__pf_level_of(cpumode, loc.kernel));

		if (id < 0)
			return (int)id;
		m->dframe = pev__pf_frame_at(p, (uint32_t)id);
		m->sym_off = loc.sym_off;
		struct pev_dso_id did = pev_dso_id(loc.dso);

		m->shared = cpumode != PERF_RECORD_MISC_KERNEL && !(loc.map_prot & PROT_EXEC) &&
			    (loc.map_flags & MAP_SHARED) &&
			    (did.maj || did.min || did.ino || did.ino_generation);
		if (p->key_on[PEV_SORT_DSO_DADDR])
			k->ddso = ((const struct pf_frame *)m->dframe)->cdso;
	}
	if (p->key_on[PEV_SORT_DCACHELINE]) {
		/* perf's cl_address of al_addr (map-relative when mapped) */
		k->cpumode = cpumode;
		k->dcl = (loc.dso ? loc.map_ip : addr) & ~63ull;
		/* perf tells maps apart by their DSO's device and inode,
		 * and private anonymous memory (all-zero id) by process */
		if (m->dframe) {
			struct pev_dso_id id = pev_dso_id(loc.dso);

			k->dcl_dso = ((const struct pf_frame *)m->dframe)->cdso;
			k->dcl_id = id;
			k->dcl_pid = s->pid;
			k->dcl_anon = cpumode != PERF_RECORD_MISC_KERNEL &&
				      !(loc.map_flags & MAP_SHARED) && !id.maj && !id.min &&
				      !id.ino && !id.ino_generation;
		}
	}
	return 0;
}
