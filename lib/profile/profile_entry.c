// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile's entries: found or created by key (a hash table over
 * p->ents), for profile.c's samples, profile_branch.c's branches and the
 * children entries of pev_profile_finish (profile_finish.c). */
#include <errno.h>
#include <string.h>

#include "profile/profile_entry.h"

/* ---------------------------------------------------------------- entries */

static uint64_t ent_rehash(void *ctx, uint32_t i)
{
	return ((struct pev_profile *)ctx)->ents[i].hash;
}

static uint64_t key_hash(const struct pf_key *k)
{
	return pev__pf_hash_words((const uint64_t *)k, sizeof(*k) / 8);
}

static int entry_get(struct pev_profile *p, const struct pf_key *k, char level,
		     const struct pev_profile_frame *fr, uint32_t *idx, bool search)
{
	/* most samples land in the entry the last one did */
	if (search && p->last_ent < p->nents && !memcmp(&p->ents[p->last_ent].key, k, sizeof(*k))) {
		*idx = p->last_ent;
		return 0;
	}
	uint64_t h = key_hash(k);
	uint32_t i = (uint32_t)h & p->ehash.mask;

	for (; p->ehash.slot[i]; i = (i + 1) & p->ehash.mask) {
		uint32_t e = p->ehash.slot[i] - 1;

		if (search && p->ents[e].hash == h && !memcmp(&p->ents[e].key, k, sizeof(*k))) {
			*idx = p->last_ent = e;
			return 0;
		}
	}
	if (pev__pf_grow((void **)&p->ents, &p->ent_cap, p->nents + 1, sizeof(*p->ents)))
		return -ENOMEM;
	struct pf_entry *e = &p->ents[p->nents];

	memset(e, 0, sizeof(*e));
	e->key = *k;
	e->hash = h;
	e->level = level;
	e->e.level = level;
	/* a sample's comm: what it shows, renamed by a later COMM */
	e->e.comm = k->comm && p->comm_shown ? p->comm_shown : k->comm;
	e->e.tid = k->tid;
	e->e.frame = fr;
	e->e.ip = k->kip;
	e->e.parent = k->parent;
	e->e.trace = k->trace;
	e->e.phys_addr = k->phys_addr;
	e->e.iaddr = k->iaddr;
	e->e.data_page_size = k->dps;
	e->e.cpumode = (uint8_t)k->cpumode;
	e->e.srcline = k->srcline;
	e->e.srcfile = k->srcfile;
	e->e.cpu = k->cpu;
	e->e.socket = k->socket;
	e->e.time = k->time;
	e->e.weight = k->weight;
	e->e.cgroup = k->cgroup;
	e->e.cgroup_dev = k->cgroup_dev;
	e->e.ins_lat = k->ins_lat;
	e->e.cgroup_ino = k->cgroup_ino;
	e->e.code_page_size = k->cps;
	e->e.sym_size = k->sym_size;
	e->e.dso_size = k->dso_size;
	e->e.event = k->event;
	e->e.filtered = k->filtered;
	*idx = p->last_ent = p->nents;
	p->ehash.slot[i] = ++p->nents;
	p->ehash.n++;
	return pev__pf_htab_grow(&p->ehash, ent_rehash, p);
}

int pev__pf_entry_find(struct pev_profile *p, const struct pf_key *k, char level,
		  const struct pev_profile_frame *fr, uint32_t *idx)
{
	return entry_get(p, k, level, fr, idx, true);
}

int pev__pf_entry_new(struct pev_profile *p, const struct pf_key *k, char level,
		      const struct pev_profile_frame *fr, uint32_t *idx)
{
	return entry_get(p, k, level, fr, idx, false);
}
