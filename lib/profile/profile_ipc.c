// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Branch mode's IPC (perf 6.1's ipc_lbr key, "IPC   [IPC Coverage]"):
 * the cycles of the basic blocks a sample's branch stack ends, per
 * function, as perf's annotation counts them (hist__account_cycles,
 * symbol__account_cycles, annotation__compute_ipc), from the definition:
 *  - only samples whose first (newest) branch has a cycle count; their
 *    branches oldest first; a branch with cycles ends a block in the
 *    function holding its source, started by the previous branch's
 *    target when that lies in the same function before it (a branch
 *    filter other than "any" never gives a start);
 *  - per end offset the longest block is kept (an earlier start resets
 *    the count; a block without a start never replaces one with);
 *  - per function: its instructions (decoded from the DSO file over the
 *    symbol), then, from the last end offset down, each block's n
 *    instructions at cycles/num cycles each; instructions no earlier
 *    block covered count as covered; IPC = sum(n * num) / sum(cycles),
 *    coverage = covered / all instructions. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/insn.h>

#include "profile/profile_ipc.h"

struct pf_cyc {
	uint64_t start, cycles;
	uint32_t num;
	uint16_t reset;
	bool have_start;
};

struct pf_ipc_sym {
	const struct pev_symbol *sym;
	const struct pev_dso *dso;
	uint64_t fstart;	/* the symbol's start in the map (file offset) */
	uint32_t size;
	struct pf_cyc *ch;
	bool done;
	double ipc, cov;
};

static uint64_t ptr_hash(const void *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 33);
}

static uint64_t ipc_rehash(void *ctx, uint32_t i)
{
	const struct pev_profile *p = ctx;

	return ptr_hash(p->ipcs[i].sym);
}

static struct pf_ipc_sym *ipc_find(const struct pev_profile *p, const struct pev_symbol *sym)
{
	if (!p->ipc_hash.slot)
		return NULL;
	for (uint32_t j = (uint32_t)ptr_hash(sym) & p->ipc_hash.mask; p->ipc_hash.slot[j];
	     j = (j + 1) & p->ipc_hash.mask)
		if (p->ipcs[p->ipc_hash.slot[j] - 1].sym == sym)
			return &p->ipcs[p->ipc_hash.slot[j] - 1];
	return NULL;
}

static struct pf_ipc_sym *ipc_get(struct pev_profile *p, const struct pev_symbol *sym,
				  const struct pev_dso *dso, uint64_t fstart)
{
	struct pf_ipc_sym *s = ipc_find(p, sym);

	if (s)
		return s;
	if ((!p->ipc_hash.slot && pev__pf_htab_init(&p->ipc_hash, 64)) ||
	    pev__pf_htab_grow(&p->ipc_hash, ipc_rehash, p) ||
	    pev__pf_grow((void **)&p->ipcs, &p->ipc_cap, p->nipcs + 1, sizeof(*p->ipcs)))
		return NULL;
	uint64_t size = sym->end > sym->start ? sym->end - sym->start : 0;

	if (size > (1u << 24))		/* perf's cycles_hist is per byte */
		size = 1u << 24;
	s = &p->ipcs[p->nipcs];
	memset(s, 0, sizeof(*s));
	s->sym = sym;
	s->dso = dso;
	s->fstart = fstart;
	s->size = (uint32_t)size;
	s->ch = calloc(size ? size : 1, sizeof(*s->ch));
	if (!s->ch)
		return NULL;
	uint32_t j = (uint32_t)ptr_hash(sym) & p->ipc_hash.mask;

	while (p->ipc_hash.slot[j])
		j = (j + 1) & p->ipc_hash.mask;
	p->ipc_hash.slot[j] = ++p->nipcs;
	p->ipc_hash.n++;
	return s;
}

/* perf's __symbol__account_cycles: the longest block per end offset. */
static void account(struct pf_cyc *c, uint64_t start, unsigned cycles, bool have_start)
{
	if (!have_start && c->have_start)
		return;
	if (c->num) {
		if (have_start && (!c->have_start || c->start > start)) {
			c->have_start = false;
			c->cycles = 0;
			c->num = 0;
			if (c->reset < 0xffff)
				c->reset++;
		} else if (have_start && c->start < start) {
			return;
		}
	}
	c->have_start = have_start;
	c->start = start;
	c->cycles += cycles;
	c->num++;
}

int pev__pf_ipc_account(struct pev_profile *p, const struct pf_ipc_end *ends, size_t n,
			bool any_branch)
{
	const struct pf_ipc_end *prev = NULL;

	if (!n || !ends[0].cycles)
		return 0;
	for (size_t i = n; i-- > 0; prev = &ends[i]) {
		const struct pf_ipc_end *e = &ends[i];

		if (!e->cycles || !e->from_sym)
			continue;
		struct pf_ipc_sym *s = ipc_get(p, e->from_sym, e->from_dso, e->from_start);

		if (!s)
			return -ENOMEM;
		if (e->from_off >= s->size)
			continue;	/* perf: -ERANGE */
		uint64_t start = 0;
		bool have = false;

		if (any_branch && prev && prev->to_sym == e->from_sym) {
			if (prev->to_off >= s->size)
				continue;
			have = prev->to_off < e->from_off;
			start = have ? prev->to_off : 0;
		}
		account(&s->ch[e->from_off], start, e->cycles, have);
	}
	return 0;
}

/* The offsets (bit set) where the symbol's instructions start. */
static uint8_t *insn_starts(const struct pf_ipc_sym *s)
{
	uint8_t *code = malloc(s->size + 16), *bits = calloc(s->size / 8 + 1, 1);
	const char *name = s->dso ? pev_dso_name(s->dso) : NULL;
	int fd = name && name[0] != '[' ? open(name, O_RDONLY | O_CLOEXEC) : -1;
	unsigned char ident[EI_NIDENT];
	bool is64 = true;
	ssize_t got = -1;

	if (fd >= 0) {
		if (pread(fd, ident, sizeof(ident), 0) == (ssize_t)sizeof(ident))
			is64 = ident[EI_CLASS] != ELFCLASS32;
		if (code)
			got = pread(fd, code, s->size, (off_t)s->fstart);
		close(fd);
	}
	if (!code || !bits || got != (ssize_t)s->size) {
		free(code);
		free(bits);
		return NULL;
	}
	memset(code + s->size, 0, 16);
	for (uint32_t off = 0; off < s->size;) {
		int len = pev_x86_insn_length(code + off, s->size + 16 - off, is64);

		bits[off / 8] |= (uint8_t)(1u << (off % 8));
		off += len > 0 ? (uint32_t)len : 1;	/* objdump's "(bad)": one byte */
	}
	free(code);
	return bits;
}

static unsigned count_insn(const uint8_t *bits, uint64_t a, uint64_t b)
{
	unsigned n = 0;

	for (uint64_t o = a; o <= b; o++)
		n += bits[o / 8] >> (o % 8) & 1;
	return n;
}

/* perf's annotation__compute_ipc over one symbol. */
static void compute(struct pf_ipc_sym *s)
{
	uint8_t *bits = s->size ? insn_starts(s) : NULL;
	uint8_t *covered = bits ? calloc(s->size / 8 + 1, 1) : NULL;
	uint64_t hit_cycles = 0, hit_insn = 0, cover = 0;
	unsigned total;

	s->done = true;
	if (!covered) {
		free(bits);
		return;
	}
	total = count_insn(bits, 0, s->size - 1);
	for (uint32_t off = s->size; off-- > 0;) {
		const struct pf_cyc *c = &s->ch[off];

		if (!c->cycles || !c->have_start)
			continue;
		unsigned n = count_insn(bits, c->start, off), cov = 0;

		if (!n || !c->num || c->reset >= 0x7fff)
			continue;
		for (uint64_t o = c->start; o <= off; o++)
			if ((bits[o / 8] >> (o % 8) & 1) && !(covered[o / 8] >> (o % 8) & 1)) {
				covered[o / 8] |= (uint8_t)(1u << (o % 8));
				cov++;
			}
		if (cov) {
			hit_cycles += c->cycles;
			hit_insn += (uint64_t)n * c->num;
			cover += cov;
		}
	}
	s->ipc = hit_cycles ? (double)hit_insn / (double)hit_cycles : 0.0;
	s->cov = total ? (double)cover * 100.0 / (double)total : 0.0;
	free(bits);
	free(covered);
}

PEV_EXPORT int pev_profile_entry_ipc(struct pev_profile *p, const struct pev_profile_entry *e,
				     double *ipc, double *coverage)
{
	if (!p || !e || !ipc || !coverage)
		return -EINVAL;
	if (!e->frame || !e->frame->sym)
		return -ENOENT;
	struct pf_ipc_sym *s = ipc_find(p, e->frame->sym);

	*ipc = 0.0;
	*coverage = 0.0;
	if (!s)
		return 0;
	if (!s->done)
		compute(s);
	*ipc = s->ipc;
	*coverage = s->cov;
	return 0;
}

void pev__pf_ipc_free(struct pev_profile *p)
{
	for (uint32_t i = 0; i < p->nipcs; i++)
		free(p->ipcs[i].ch);
	free(p->ipcs);
	pev__pf_htab_release(&p->ipc_hash);
}
