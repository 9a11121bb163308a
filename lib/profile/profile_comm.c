// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Threads seen before their COMM.  perf creates a thread on its first
 * record (a sample, an MMAP, a FORK from a parent without a name) with
 * the name ":TID" and its first COMM overrides that name in place
 * (thread__set_comm while comm_set is false): every entry made before
 * the COMM shows the later name, and merges with the entries made after
 * it when comm is a sort key.  Each such thread gets its own string here,
 * renamed by the COMM: what its entries show (pev_profile_entry.comm)
 * while they are keyed by the name at sample time (perf's entries_in
 * tree compares names as samples come); a FORK of the same tid starts a
 * new thread (perf removes the old one, whose entries keep ":TID").
 * Not modelled: perf's pid column shows the name of the entry's own
 * thread object, so the entries of a thread replaced by a FORK of its
 * tid keep its last name there; perfev shows the tid's latest name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_comm.h"
#include "symbol/symbols_internal.h"

/* As long as the machine's names (symbols_machine.c) */
#define DCOMM_LEN 64

static uint64_t tid_hash(uint32_t tid)
{
	return pf_mix(0, tid);
}

static uint64_t dcomm_rehash(void *ctx, uint32_t i)
{
	return tid_hash(((struct pev_profile *)ctx)->dcomms[i].tid);
}

/* The slot holding live tid's index + 1, or an empty one. */
static uint32_t *dcomm_slot(struct pev_profile *p, uint32_t tid)
{
	uint32_t i = (uint32_t)tid_hash(tid) & p->dhash.mask;

	for (; p->dhash.slot[i]; i = (i + 1) & p->dhash.mask)
		if (p->dcomms[p->dhash.slot[i] - 1].tid == tid)
			break;
	return &p->dhash.slot[i];
}

/* Drops tid's live string from the table (it stays, for its entries):
 * open addressing, so the run after it is put back. */
static void dcomm_detach(struct pev_profile *p, uint32_t tid)
{
	uint32_t *s = dcomm_slot(p, tid);

	if (!*s)
		return;
	p->dcomms[*s - 1].live = false;
	*s = 0;
	p->dhash.n--;
	for (uint32_t i = (uint32_t)(s - p->dhash.slot + 1) & p->dhash.mask;
	     p->dhash.slot[i]; i = (i + 1) & p->dhash.mask) {
		uint32_t v = p->dhash.slot[i];

		p->dhash.slot[i] = 0;
		*dcomm_slot(p, p->dcomms[v - 1].tid) = v;
	}
}

const char *pev__pf_sample_comm(struct pev_profile *p, uint32_t pid, uint32_t tid,
				const char **shown)
{
	const char *c = pev_machine_comm(p->m, pid, tid);

	c = pev__pf_intern_str(p, c, strlen(c));
	*shown = c;
	if (!c || pev__machine_comm_set(p->m, tid))
		return c;
	if (!p->dhash.slot && pev__pf_htab_init(&p->dhash, 64))
		return NULL;
	uint32_t *s = dcomm_slot(p, tid);

	if (*s) {
		*shown = p->dcomms[*s - 1].s;
		return c;
	}
	char *d = malloc(DCOMM_LEN);

	if (!d || pev__pf_grow((void **)&p->dcomms, &p->dcomm_cap, p->ndcomms + 1,
			       sizeof(*p->dcomms))) {
		free(d);
		return NULL;
	}
	snprintf(d, DCOMM_LEN, "%s", c);
	p->dcomms[p->ndcomms].tid = tid;
	p->dcomms[p->ndcomms].live = true;
	p->dcomms[p->ndcomms].s = d;
	*s = ++p->ndcomms;
	p->dhash.n++;
	if (pev__pf_htab_grow(&p->dhash, dcomm_rehash, p))
		return NULL;
	*shown = d;
	return c;
}

void pev__pf_comm_record(struct pev_profile *p, const struct pev_record *rec)
{
	if (!p->dhash.slot)
		return;
	if (rec->type == PERF_RECORD_FORK) {
		dcomm_detach(p, rec->u.fork.tid);
		return;
	}
	uint32_t *s = dcomm_slot(p, rec->u.comm.tid);

	if (rec->type != PERF_RECORD_COMM || !*s ||
	    pev__machine_comm_set(p->m, rec->u.comm.tid))
		return;
	snprintf(p->dcomms[*s - 1].s, DCOMM_LEN, "%s", rec->u.comm.comm);
	p->comm_renamed = true;
	dcomm_detach(p, rec->u.comm.tid);
}

void pev__pf_comm_free(struct pev_profile *p)
{
	for (uint32_t i = 0; i < p->ndcomms; i++)
		free(p->dcomms[i].s);
	free(p->dcomms);
	pev__pf_htab_release(&p->dhash);
}
