// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Branch mode (perf report -b, the default on files with branch stacks):
 * every entry of a sample's PERF_SAMPLE_BRANCH_STACK is one sample of
 * period 1 ("the percentage of total branches captured", perf 6.1's
 * iter_add_next_branch_entry), keyed by the sample's keys and by its
 * ends and flags.  The ends are resolved as perf's ip__resolve_ams does:
 * in the thread's user maps, then the kernel's; where nothing is mapped
 * the level is 'H' and the address stays as it is.  The comparisons of
 * branch keys are profile_branch_cmp.c's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_branch.h"
#include "profile/profile_branch_cmp.h"
#include "profile/profile_entry.h"
#include "profile/profile_ipc.h"
#include "profile/profile_order.h"
#include "profile/profile_src.h"

/* One end: its interned frame (keyed by its address), and the start of
 * its symbol where perf has it: in the map's address space (perf moves an
 * ET_EXEC's symbols to file offsets), which orders symbols. */
static int64_t branch_end(struct pev_profile *p, uint32_t pid, uint64_t addr,
			  uint64_t *pstart)
{
	struct pev_addr_loc loc;

	if (pev_machine_resolve(p->m, pid, addr, PERF_RECORD_MISC_USER, &loc) || !loc.dso)
		pev_machine_resolve(p->m, pid, addr, PERF_RECORD_MISC_KERNEL, &loc);
	*pstart = loc.sym ? loc.map_ip - loc.sym_off : 0;
	if (!loc.dso)
		return pev__pf_frame_get(p, NULL, NULL, NULL, addr, addr, addr, 'H');
	int64_t id = pev__pf_frame_get(p, loc.dso, loc.sym, NULL, addr, addr, loc.map_ip,
				       loc.kernel ? 'k' : '.');

	if (id >= 0)
		pev__pf_set_map_size(p, (uint32_t)id, &loc);
	return id;
}

/* perf's hists__findnew_entry in its entries_in tree: down from the root
 * by hist_entry__cmp(old, new) over the keys, merging into the first
 * entry that compares equal, else a new entry where the walk ended.  With
 * perf's != comparisons equal entries need not meet, and stay apart. */
int pev__pf_live_find(struct pev_profile *p, const struct pf_key *k, char level,
		      const struct pev_profile_frame *fr, uint32_t *idx)
{
	uint32_t ev = k->event;

	if (!p->live) {
		p->live = calloc(p->nevents, sizeof(*p->live));
		p->live_ent = calloc(p->nevents, sizeof(*p->live_ent));
		if (!p->live || !p->live_ent)
			return -ENOMEM;
	}
	struct pf_rbt *t = &p->live[ev];
	struct pf_entry nw;
	uint32_t x = t->root, y = 0, cap = t->cap;
	bool left = false;
	int z, err;

	memset(&nw, 0, sizeof(nw));
	nw.key = *k;
	nw.e.nr_samples = 1;
	while (x) {
		const struct pf_entry *old = &p->ents[p->live_ent[ev][x]];
		int c = 0;

		for (unsigned i = 0; i < p->nkeys && !c; i++)
			c = pev__pf_key_collapse(&nw, old, p->opts.keys[i]);
		if (!c && old->key.filtered == k->filtered) {
			*idx = p->live_ent[ev][x];
			return 0;
		}
		y = x;
		left = c < 0;
		x = left ? t->l[x] : t->r[x];
	}
	err = pev__pf_entry_new(p, k, level, fr, idx);
	if (err)
		return err;
	z = pev__pf_rbt_add(t, y, left);
	if (z < 0)
		return z;
	if (t->cap != cap) {
		uint32_t *e = realloc(p->live_ent[ev], t->cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		p->live_ent[ev] = e;
	}
	p->live_ent[ev][z] = *idx;
	return 0;
}

void pev__pf_live_free(struct pev_profile *p)
{
	for (size_t i = 0; p->live && i < p->nevents; i++) {
		pev__pf_rbt_release(&p->live[i]);
		free(p->live_ent[i]);
	}
	free(p->live);
	free(p->live_ent);
}

static const struct pf_frame *pff(const struct pev_profile *p, int64_t id)
{
	return (const struct pf_frame *)pev__pf_frame_at(p, (uint32_t)id);
}

static int add_branch(struct pev_profile *p, const struct pev_sample *s, uint8_t cpumode,
		      const struct pf_key *sk, char level, bool filtered, uint64_t i,
		      struct pf_ipc_end *ie);

int pev__pf_add_branches(struct pev_profile *p, const struct pev_sample *s,
			 uint8_t cpumode, const struct pf_key *sk, char level, bool filtered)
{
	const struct pev_branch_stack *bs = &s->branch_stack;
	struct pf_ipc_end ends_buf[32], *ends = ends_buf;
	bool ipc = p->opts.branch_ipc && bs->nr && BF_CYCLES(bs->entries[0].flags);
	int err = 0;

	if (ipc && bs->nr > 32 && !(ends = calloc(bs->nr, sizeof(*ends))))
		return -ENOMEM;
	for (uint64_t i = 0; i < bs->nr && !err; i++)
		err = add_branch(p, s, cpumode, sk, level, filtered, i, ipc ? &ends[i] : NULL);
	if (!err && ipc) {
		const struct perf_event_attr *a = pev_decoder_attr(p->dec, sk->event);

		err = pev__pf_ipc_account(p, ends, bs->nr, !a ||
					  (a->branch_sample_type & PERF_SAMPLE_BRANCH_ANY));
	}
	if (ends != ends_buf)
		free(ends);
	return err;
}

/* Branch i of sample s: its entry; its ends for the IPC when ie is set. */
static int add_branch(struct pev_profile *p, const struct pev_sample *s, uint8_t cpumode,
		      const struct pf_key *sk, char level, bool filtered, uint64_t i,
		      struct pf_ipc_end *ie)
{
	const struct pev_branch_stack *bs = &s->branch_stack;
	const bool *on = p->key_on;

	{
		const struct pev_branch_entry *be = &bs->entries[i];
		uint64_t fs, ts;
		int64_t fi = branch_end(p, s->pid, be->from, &fs);
		int64_t ti = fi < 0 ? fi : branch_end(p, s->pid, be->to, &ts);
		struct pf_key k = *sk;
		uint32_t ei;
		int err;

		if (ti < 0)
			return (int)ti;
		const struct pf_frame *ff = pff(p, fi), *tf = pff(p, ti);

		if (ie)
			*ie = (struct pf_ipc_end){ ff->f.sym, tf->f.sym, ff->f.dso, fs,
						   ff->f.addr - fs, tf->f.addr - ts,
						   (unsigned)BF_CYCLES(be->flags) };

		/* perf's branch iterator makes the target the entry's
		 * location: the dso, sym and size keys read it */
		k.dso = on[PEV_SORT_DSO] || (on[PEV_SORT_SYM] && tf->csym) ? tf->cdso : NULL;
		if (on[PEV_SORT_SYM]) {
			k.sym = tf->csym;
			k.kip = tf->csym ? 0 : be->to;
		}
		pev__pf_size_keys(p, &k, tf);
		if (on[PEV_SORT_DSO_FROM] || on[PEV_SORT_ADDR_FROM])
			k.dso_from = ff->cdso;
		if (on[PEV_SORT_DSO_TO] || on[PEV_SORT_ADDR_TO])
			k.dso_to = tf->cdso;
		if (on[PEV_SORT_SYM_FROM]) {
			k.sym_from = ff->csym;
			k.pstart_from = ff->csym ? fs : 0;
			if (!ff->csym)
				k.addr_from = be->from;
		}
		if (on[PEV_SORT_SYM_TO]) {
			k.sym_to = tf->csym;
			k.pstart_to = tf->csym ? ts : 0;
			if (!tf->csym)
				k.addr_to = be->to;
		}
		if (on[PEV_SORT_ADDR_FROM])
			k.addr_from = be->from;
		if (on[PEV_SORT_ADDR_TO])
			k.addr_to = be->to;
		if (on[PEV_SORT_MISPREDICT])
			k.bflags |= be->flags & (BF_MISPRED | BF_PREDICTED);
		if (on[PEV_SORT_IN_TX])
			k.bflags |= be->flags & BF_IN_TX;
		if (on[PEV_SORT_ABORT])
			k.bflags |= be->flags & BF_ABORT;
		if (on[PEV_SORT_CYCLES])
			k.bflags |= be->flags & (0xffffULL << 4);
		if (on[PEV_SORT_SRCLINE_FROM] &&
		    !(k.srcline_from = pev_profile_srcline(p, &ff->f, false)))
			return -ENOMEM;
		if (on[PEV_SORT_SRCLINE_TO] &&
		    !(k.srcline_to = pev_profile_srcline(p, &tf->f, false)))
			return -ENOMEM;
		err = p->live_on ? pev__pf_live_find(p, &k, level, &tf->f, &ei) :
				   pev__pf_entry_find(p, &k, level, &tf->f, &ei);
		if (err)
			return err;
		struct pf_entry *pe = &p->ents[ei];
		struct pev_profile_entry *e = &pe->e;

		p->seq++;
		if (!e->nr_samples) {
			e->pid = (int32_t)s->pid;
			e->tid = (int32_t)s->tid;
			/* hidden when the branch that made it failed a filter;
			 * the totals are the entries' (pev_profile_finish) */
			e->filtered = filtered;
			pe->seq = p->seq;
			e->from = &ff->f;
			e->to = &tf->f;
			e->from_off = ff->f.sym ? ff->f.addr - fs : 0;
			e->to_off = tf->f.sym ? tf->f.addr - ts : 0;
			e->branch_flags = be->flags;
			e->srcline_from = k.srcline_from;
			e->srcline_to = k.srcline_to;
		}
		e->period++;
		e->nr_samples++;
		switch (cpumode) {
		case PERF_RECORD_MISC_KERNEL: e->period_sys++; break;
		case PERF_RECORD_MISC_USER: e->period_us++; break;
		case PERF_RECORD_MISC_GUEST_KERNEL: e->period_guest_sys++; break;
		case PERF_RECORD_MISC_GUEST_USER: e->period_guest_us++; break;
		default: break;
		}
	}
	return 0;
}
