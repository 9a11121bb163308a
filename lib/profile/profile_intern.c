// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The profile model's interning: open-addressing tables over indices,
 * strings (comms, srclines), frames (a DSO, symbol, inline name and
 * address, with the frame chains match on) and the canonical DSO and
 * symbol entries are keyed by (perf compares DSOs by name and symbols by
 * address). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_intern.h"

int pev__pf_htab_init(struct pf_htab *h, uint32_t cap)
{
	h->slot = calloc(cap, sizeof(*h->slot));
	if (!h->slot)
		return -ENOMEM;
	h->mask = cap - 1;
	h->n = 0;
	return 0;
}

void pev__pf_htab_release(struct pf_htab *h)
{
	free(h->slot);
	h->slot = NULL;
}

int pev__pf_htab_grow(struct pf_htab *h, uint64_t (*rehash)(void *ctx, uint32_t i),
		 void *ctx)
{
	if ((uint64_t)(h->n + 1) * 4 < (uint64_t)(h->mask + 1) * 3)
		return 0;
	uint32_t cap = (h->mask + 1) * 2;
	uint32_t *s = calloc(cap, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (uint32_t i = 0; i <= h->mask; i++) {
		if (!h->slot[i])
			continue;
		uint32_t j = (uint32_t)rehash(ctx, h->slot[i] - 1) & (cap - 1);

		while (s[j])
			j = (j + 1) & (cap - 1);
		s[j] = h->slot[i];
	}
	free(h->slot);
	h->slot = s;
	h->mask = cap - 1;
	return 0;
}

/* A hash of words in four independent lanes (a serial mix per word
 * waits on a multiply each time): call chains, entry keys. */
uint64_t pev__pf_hash_words(const uint64_t *ips, uint64_t nr)
{
	uint64_t a = 0x243f6a8885a308d3ULL, b = 0x13198a2e03707344ULL,
		 c = 0xa4093822299f31d0ULL, d = 0x082efa98ec4e6c89ULL;
	uint64_t i = 0;

	for (; i + 4 <= nr; i += 4) {
		a = (a ^ ips[i]) * 0x9e3779b97f4a7c15ULL;
		b = (b ^ ips[i + 1]) * 0xc2b2ae3d27d4eb4fULL;
		c = (c ^ ips[i + 2]) * 0x165667b19e3779f9ULL;
		d = (d ^ ips[i + 3]) * 0xff51afd7ed558ccdULL;
		a ^= a >> 29;
		b ^= b >> 31;
		c ^= c >> 27;
		d ^= d >> 33;
	}
	for (; i < nr; i++)
		a = pf_mix(a, ips[i]);
	return pf_mix(pf_mix(a, b), pf_mix(c, d));
}

int pev__pf_grow(void **arr, uint32_t *cap, uint32_t need, size_t elsz)
{
	if (need <= *cap)
		return 0;
	uint32_t c = *cap ? *cap * 2 : 256;

	while (c < need)
		c *= 2;
	void *n = realloc(*arr, (size_t)c * elsz);

	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = c;
	return 0;
}

/* ---------------------------------------------------------------- strings */

static uint64_t str_rehash(void *ctx, uint32_t i)
{
	return ((struct pev_profile *)ctx)->str_hash[i];
}

static uint64_t hash_bytes(const void *b, size_t n)
{
	const unsigned char *s = b;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

const char *pev__pf_intern_str(struct pev_profile *p, const char *s, size_t len)
{
	uint64_t h = hash_bytes(s, len);
	uint32_t i = (uint32_t)h & p->shash.mask;

	for (; p->shash.slot[i]; i = (i + 1) & p->shash.mask) {
		uint32_t k = p->shash.slot[i] - 1;

		if (p->str_hash[k] == h && !strncmp(p->strs[k], s, len) &&
		    !p->strs[k][len])
			return p->strs[k];
	}
	uint32_t cap = p->str_cap;

	if (pev__pf_grow((void **)&p->strs, &p->str_cap, p->nstrs + 1, sizeof(char *)) ||
	    pev__pf_grow((void **)&p->str_hash, &cap, p->nstrs + 1, sizeof(uint64_t)))
		return NULL;
	if (cap != p->str_cap) {	/* keep both arrays the same size */
		void *n = realloc(p->str_hash, (size_t)p->str_cap * sizeof(uint64_t));

		if (!n)
			return NULL;
		p->str_hash = n;
	}
	char *c = strndup(s, len);

	if (!c)
		return NULL;
	p->strs[p->nstrs] = c;
	p->str_hash[p->nstrs] = h;
	p->shash.slot[i] = ++p->nstrs;
	p->shash.n++;
	if (pev__pf_htab_grow(&p->shash, str_rehash, p))
		return NULL;
	return c;
}

/* ----------------------------------------------------------------- frames */

struct pev_profile_frame *pev__pf_frame_at(const struct pev_profile *p, uint32_t i)
{
	return &p->fblocks[i / PF_FRAME_BLOCK][i % PF_FRAME_BLOCK].f;
}

static struct pf_frame *pfr(const struct pev_profile *p, uint32_t i)
{
	return &p->fblocks[i / PF_FRAME_BLOCK][i % PF_FRAME_BLOCK];
}

static uint64_t frame_rehash(void *ctx, uint32_t i)
{
	return pfr(ctx, i)->hash;
}

uint32_t pev__pf_dso_order(struct pev_profile *p, struct pev_dso *dso)
{
	if (!dso)
		return 0;
	for (uint32_t i = 0; i < p->ndsos; i++)
		if (p->dsos[i] == dso)
			return i + 1;
	if (pev__pf_grow((void **)&p->dsos, &p->dso_cap, p->ndsos + 1, sizeof(*p->dsos)))
		return UINT32_MAX;
	p->dsos[p->ndsos++] = dso;
	return p->ndsos;
}

static int canon(struct pev_profile *p, struct pev_dso *dso,
		 const struct pev_symbol *sym, struct pev_dso **cd,
		 const struct pev_symbol **cs);

/* The frame for (dso, sym, inline name, key ip, level); keyip is 0 when
 * the frame does not keep its address.  Returns its index or -ENOMEM. */
int64_t pev__pf_frame_get(struct pev_profile *p, struct pev_dso *dso,
			 const struct pev_symbol *sym, const char *inl,
			 uint64_t keyip, uint64_t ip, uint64_t addr, char level)
{
	/* an unresolved frame is also its address: a sample's own location
	 * is keyed by its map address and a chain entry by its address, so
	 * the two can share a key and still print different addresses */
	uint64_t h = pf_mix(pf_mix(pf_mix(pf_mix(pf_mix((uintptr_t)dso, (uintptr_t)sym),
					  (uintptr_t)inl), keyip), (uint8_t)level),
			    sym ? 0 : ip);
	uint32_t i = (uint32_t)h & p->fhash.mask;

	for (; p->fhash.slot[i]; i = (i + 1) & p->fhash.mask) {
		uint32_t k = p->fhash.slot[i] - 1;
		struct pf_frame *f = pfr(p, k);

		if (f->hash == h && f->f.dso == dso && f->f.sym == sym &&
		    f->raw_inl == inl && f->f.level == level &&
		    f->keyip == keyip && (sym || f->f.ip == ip) && !f->br_tag)
			return k;
	}
	uint32_t n = p->nframes;

	if (n / PF_FRAME_BLOCK >= p->nfblocks) {
		struct pf_frame **b = realloc(p->fblocks,
					      (p->nfblocks + 1) * sizeof(*b));

		if (!b)
			return -ENOMEM;
		p->fblocks = b;
		b[p->nfblocks] = calloc(PF_FRAME_BLOCK, sizeof(struct pf_frame));
		if (!b[p->nfblocks])
			return -ENOMEM;
		p->nfblocks++;
	}
	struct pf_frame *f = pfr(p, n);
	uint32_t ord = pev__pf_dso_order(p, dso);

	if (ord == UINT32_MAX)
		return -ENOMEM;
	f->f.dso = dso;
	f->f.sym = sym;
	/* perf compares inlined frames by name: one pointer per name */
	f->raw_inl = inl;
	f->f.inline_name = inl ? pev__pf_intern_str(p, inl, strlen(inl)) : NULL;
	if (inl && !f->f.inline_name)
		return -ENOMEM;
	f->f.ip = ip;
	f->f.addr = addr;
	f->f.level = level;
	f->f.dso_order = ord;
	f->hash = h;
	f->keyip = keyip;
	f->match = n;
	if (canon(p, dso, sym, &f->cdso, &f->csym))
		return -ENOMEM;
	p->fhash.slot[i] = n + 1;
	p->fhash.n++;
	p->nframes++;
	if (pev__pf_htab_grow(&p->fhash, frame_rehash, p))
		return -ENOMEM;
	/* Chains match by function: the match frame drops the address. */
	if (sym && p->opts.match == PEV_PROFILE_FUNCTION && keyip) {
		int64_t m = pev__pf_frame_get(p, dso, sym, inl, 0, ip, addr, level);

		if (m < 0)
			return m;
		pfr(p, n)->match = (uint32_t)m;
	}
	return n;
}

/* A copy of frame base tagged with tag (a branch end of --branch-history):
 * its own index, matching in call trees as base does. */
int64_t pev__pf_frame_tagged(struct pev_profile *p, uint32_t base, uint64_t tag)
{
	uint64_t h = pf_mix(pf_mix(pfr(p, base)->hash, tag), 0x6272616e6368ULL);
	uint32_t i = (uint32_t)h & p->fhash.mask;

	for (; p->fhash.slot[i]; i = (i + 1) & p->fhash.mask) {
		struct pf_frame *f = pfr(p, p->fhash.slot[i] - 1);

		if (f->hash == h && f->br_tag == tag && f->match == pfr(p, base)->match &&
		    f->f.ip == pfr(p, base)->f.ip && f->f.dso == pfr(p, base)->f.dso)
			return p->fhash.slot[i] - 1;
	}
	uint32_t n = p->nframes;

	if (n / PF_FRAME_BLOCK >= p->nfblocks) {
		struct pf_frame **b = realloc(p->fblocks, (p->nfblocks + 1) * sizeof(*b));

		if (!b)
			return -ENOMEM;
		p->fblocks = b;
		b[p->nfblocks] = calloc(PF_FRAME_BLOCK, sizeof(struct pf_frame));
		if (!b[p->nfblocks])
			return -ENOMEM;
		p->nfblocks++;
	}
	struct pf_frame *f = pfr(p, n);

	*f = *pfr(p, base);
	f->hash = h;
	f->br_tag = tag;
	p->fhash.slot[i] = n + 1;
	p->fhash.n++;
	p->nframes++;
	if (pev__pf_htab_grow(&p->fhash, frame_rehash, p))
		return -ENOMEM;
	return n;
}

static uint64_t csym_rehash(void *ctx, uint32_t i)
{
	return ((struct pev_profile *)ctx)->csyms[i].hash;
}

/* The first DSO seen with dso's short name, and the first symbol seen in
 * it with sym's address range. */
static int canon(struct pev_profile *p, struct pev_dso *dso,
		 const struct pev_symbol *sym, struct pev_dso **cd,
		 const struct pev_symbol **cs)
{
	*cd = dso;
	*cs = sym;
	if (!dso)
		return 0;
	const char *n = pev_profile_dso_short(dso);

	n = pev__pf_intern_str(p, n, strlen(n));
	if (!n)
		return -ENOMEM;
	uint32_t i;

	for (i = 0; i < p->ncdsos && p->cdsos[i].name != n; i++)
		;
	if (i == p->ncdsos) {
		if (p->ncdsos % 32 == 0) {
			void *x = realloc(p->cdsos, (p->ncdsos + 32) * sizeof(*p->cdsos));

			if (!x)
				return -ENOMEM;
			p->cdsos = x;
		}
		p->cdsos[p->ncdsos].name = n;
		p->cdsos[p->ncdsos++].dso = dso;
	}
	*cd = p->cdsos[i].dso;
	if (!sym)
		return 0;
	uint64_t h = pf_mix(pf_mix((uintptr_t)*cd, sym->start), sym->end);
	uint32_t j = (uint32_t)h & p->cshash.mask;

	for (; p->cshash.slot[j]; j = (j + 1) & p->cshash.mask) {
		uint32_t k = p->cshash.slot[j] - 1;

		if (p->csyms[k].dso == *cd && p->csyms[k].start == sym->start &&
		    p->csyms[k].end == sym->end) {
			*cs = p->csyms[k].sym;
			return 0;
		}
	}
	if (pev__pf_grow((void **)&p->csyms, &p->csym_cap, p->ncsyms + 1, sizeof(*p->csyms)))
		return -ENOMEM;
	p->csyms[p->ncsyms].dso = *cd;
	p->csyms[p->ncsyms].start = sym->start;
	p->csyms[p->ncsyms].end = sym->end;
	p->csyms[p->ncsyms].hash = h;
	p->csyms[p->ncsyms].sym = sym;
	p->cshash.slot[j] = ++p->ncsyms;
	p->cshash.n++;
	return pev__pf_htab_grow(&p->cshash, csym_rehash, p);
}

char pev__pf_level_of(uint8_t cpumode, bool kernel)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_HYPERVISOR: return 'H';
	case PERF_RECORD_MISC_GUEST_KERNEL: return 'g';
	case PERF_RECORD_MISC_GUEST_USER: return 'u';
	default: return kernel ? 'k' : '.';
	}
}
