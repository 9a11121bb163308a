// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile model: cgroups for the cgroup and cgroup_id sort keys, as
 * perf 6.1 keeps them: the names of PERF_RECORD_CGROUP ids (the "cgroup"
 * key names the sample's cgroup), and each thread's cgroup namespace from
 * PERF_RECORD_NAMESPACES (the "cgroup_id" key is its dev/inode). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_cgroup.h"

#define CGROUP_NS_INDEX 6	/* the kernel's order: net uts ipc pid user mnt cgroup */

static int grow(void **a, uint32_t *cap, uint32_t n, size_t sz)
{
	if (n < *cap)
		return 0;
	uint32_t c = *cap ? *cap * 2 : 16;
	void *b = realloc(*a, c * sz);

	if (!b)
		return -ENOMEM;
	*a = b;
	*cap = c;
	return 0;
}

/* A CGROUP or NAMESPACES record. */
int pev__pf_cgroup_record(struct pev_profile *p, const struct pev_record *rec)
{
	if (rec->type == PERF_RECORD_CGROUP) {
		const char *path = rec->u.cgroup.path ? rec->u.cgroup.path : "";
		char *s;

		for (uint32_t i = 0; i < p->ncgroups; i++)
			if (p->cgroups[i].id == rec->u.cgroup.id)
				return 0;	/* perf keeps the first */
		if (grow((void **)&p->cgroups, &p->cgroup_cap, p->ncgroups, sizeof(*p->cgroups)))
			return -ENOMEM;
		s = strdup(path);
		if (!s)
			return -ENOMEM;
		p->cgroups[p->ncgroups].id = rec->u.cgroup.id;
		p->cgroups[p->ncgroups++].name = s;
		return 0;
	}
	const struct pev_record_namespaces *n = &rec->u.namespaces;
	uint32_t i;

	for (i = 0; i < p->nthread_ns; i++)
		if (p->thread_ns[i].tid == n->tid)
			break;
	if (i == p->nthread_ns) {
		if (grow((void **)&p->thread_ns, &p->thread_ns_cap, p->nthread_ns,
			 sizeof(*p->thread_ns)))
			return -ENOMEM;
		p->nthread_ns++;
	}
	p->thread_ns[i].tid = n->tid;
	p->thread_ns[i].dev = n->nr > CGROUP_NS_INDEX ? n->links[CGROUP_NS_INDEX].dev : 0;
	p->thread_ns[i].ino = n->nr > CGROUP_NS_INDEX ? n->links[CGROUP_NS_INDEX].ino : 0;
	return 0;
}

/* The cgroup namespace of thread tid (0/0 when no record named it). */
void pev__pf_cgroup_ns(const struct pev_profile *p, uint32_t tid, uint64_t *dev,
		       uint64_t *ino)
{
	*dev = *ino = 0;
	for (uint32_t i = p->nthread_ns; i-- > 0;)
		if (p->thread_ns[i].tid == tid) {
			*dev = p->thread_ns[i].dev;
			*ino = p->thread_ns[i].ino;
			return;
		}
}

void pev__pf_cgroup_free(struct pev_profile *p)
{
	for (uint32_t i = 0; i < p->ncgroups; i++)
		free(p->cgroups[i].name);
	free(p->cgroups);
	free(p->thread_ns);
}

PEV_EXPORT const char *pev_profile_cgroup_name(const struct pev_profile *p, uint64_t id)
{
	if (!p)
		return NULL;
	for (uint32_t i = 0; i < p->ncgroups; i++)
		if (p->cgroups[i].id == id)
			return p->cgroups[i].name;
	return NULL;
}
