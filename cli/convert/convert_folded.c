// SPDX-License-Identifier: GPL-2.0-only
/* --to folded: Brendan Gregg's folded stacks, one line per distinct stack:
 * "comm;outermost;...;leaf COUNT", sorted as stackcollapse-perf.pl sorts
 * them (byte order), so that flamegraph.pl, inferno and Pyroscope's folded
 * ingest read it.  Names follow stackcollapse-perf.pl's rules on perf
 * script's output: offsets dropped, ';' made ':', quotes removed, a
 * trailing argument list cut (folded_name_keep: only a real one), "[dso]" for
 * code without a symbol. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "convert/convert.h"
#include "convert/folded_name.h"

struct fk {			/* an aggregated (label, stack) */
	const char *comm;
	int32_t pid, tid;
	uint32_t chain, self;
	uint64_t value;
};

struct fline {
	char *text;
	uint64_t value;
};

static uint64_t fk_hash(const struct fk *k)
{
	uint64_t h = (uint64_t)(uintptr_t)k->comm * 0x9e3779b97f4a7c15ull;

	h ^= ((uint64_t)(uint32_t)k->pid << 32 | (uint32_t)k->tid) * 0xc2b2ae3d27d4eb4full;
	h ^= ((uint64_t)k->chain << 32 | k->self) * 0x165667b19e3779f9ull;
	return h ^ h >> 31;
}

static bool fk_eq(const struct fk *a, const struct fk *b)
{
	return a->comm == b->comm && a->pid == b->pid && a->tid == b->tid &&
	       a->chain == b->chain && a->self == b->self;
}

/* stackcollapse-perf.pl's tidying of one name (a function's, or with args
 * false the command's: no argument list), appended to b */
static int put_name(char **b, size_t *len, size_t *cap, const char *name, bool args, bool ktag)
{
	size_t keep = args ? folded_name_keep(name, strlen(name)) : strlen(name);

	if (*len + keep + 8 > *cap) {
		size_t c = (*cap ? *cap : 256);

		while (*len + keep + 8 > c)
			c *= 2;
		char *nb = realloc(*b, c);

		if (!nb)
			return -1;
		*b = nb;
		*cap = c;
	}
	for (size_t i = 0; i < keep; i++) {
		char ch = name[i];

		if (ch == '"' || ch == '\'')
			continue;
		(*b)[(*len)++] = ch == ';' ? ':' : ch;
	}
	if (ktag) {
		memcpy(*b + *len, "_[k]", 4);
		*len += 4;
	}
	(*b)[*len] = 0;
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct fline *)a)->text, ((const struct fline *)b)->text);
}

static char *make_line(struct conv *c, const struct fk *k)
{
	char *b = NULL, lab[64], nb[512];
	size_t len = 0, cap = 0;
	const uint32_t *ids;
	struct pev_profile_sample s = { .chain = k->chain, .self = k->self };
	/* a sample of a file with chains whose chain came out empty (perf
	 * drops a chain with an invalid context marker whole): no frames, as
	 * perf script shows it to stackcollapse-perf.pl */
	size_t n = k->chain == UINT32_MAX && c->has_callchain ? 0 : conv_stack(c, &s, &ids);
	char comm[256];

	/* stackcollapse-perf.pl: spaces in the process name become '_' */
	snprintf(comm, sizeof(comm), "%s", k->comm ? k->comm : "[unknown]");
	for (char *p = comm; *p; p++)
		if (*p == ' ')
			*p = '_';
	if (c->with_tid)
		snprintf(lab, sizeof(lab), "-%" PRId32 "/%" PRId32, k->pid, k->tid);
	else if (c->with_pid)
		snprintf(lab, sizeof(lab), "-%" PRId32, k->pid);
	else
		lab[0] = 0;
	if (put_name(&b, &len, &cap, comm, false, false) ||
	    put_name(&b, &len, &cap, lab, false, false))
		goto fail;
	for (size_t i = n; i-- > 0;) {
		const struct pev_profile_frame *f = pev_profile_frame(c->prof, ids[i]);

		if (!f)
			continue;
		b[len++] = ';';
		b[len] = 0;
		if (put_name(&b, &len, &cap, conv_func_name(f, nb, sizeof(nb)), true,
			     c->kernel_tag && f->level == 'k'))
			goto fail;
	}
	return b;
fail:
	free(b);
	return NULL;
}

int conv_write_folded(struct conv *c)
{
	size_t ns, nk = 0, cap = 1024, nl = 0;
	const struct pev_profile_sample *smp = pev_profile_samples(c->prof, &ns);
	struct fk *tab = calloc(cap, sizeof(*tab));
	struct fline *lines = NULL;
	uint64_t total = 0;
	int ret = EXIT_ERROR;

	if (!tab)
		goto oom;
	for (size_t i = 0; i < ns; i++) {
		const struct pev_profile_sample *s = &smp[i];

		if (!conv_sample_on(c, s))
			continue;
		struct fk k = { .comm = s->comm, .chain = s->chain,
				.self = s->chain == UINT32_MAX ? s->self : 0,
				.pid = c->with_pid || c->with_tid ? s->pid : 0,
				.tid = c->with_tid ? s->tid : 0 };
		size_t j = fk_hash(&k) & (cap - 1);

		while (tab[j].value && !fk_eq(&tab[j], &k))
			j = (j + 1) & (cap - 1);
		uint64_t v = conv_value_of(c, s);

		if (!v)
			continue;
		total += v;
		if (tab[j].value) {
			tab[j].value += v;
			continue;
		}
		k.value = v;
		tab[j] = k;
		if (++nk * 2 > cap) {	/* grow and rehash */
			struct fk *nt = calloc(cap * 2, sizeof(*nt));

			if (!nt)
				goto oom;
			for (size_t m = 0; m < cap; m++) {
				if (!tab[m].value)
					continue;
				size_t q = fk_hash(&tab[m]) & (cap * 2 - 1);

				while (nt[q].value)
					q = (q + 1) & (cap * 2 - 1);
				nt[q] = tab[m];
			}
			free(tab);
			tab = nt;
			cap *= 2;
		}
	}
	lines = calloc(nk ? nk : 1, sizeof(*lines));
	if (!lines)
		goto oom;
	for (size_t j = 0; j < cap; j++) {
		if (!tab[j].value)
			continue;
		lines[nl].text = make_line(c, &tab[j]);
		if (!lines[nl].text)
			goto oom;
		lines[nl++].value = tab[j].value;
	}
	qsort(lines, nl, sizeof(*lines), cmp_line);
	size_t shown = 0;

	for (size_t j = 0; j < nl; shown++) {
		uint64_t v = lines[j].value;
		size_t e = j + 1;

		/* different frames of one name make one line */
		for (; e < nl && !strcmp(lines[e].text, lines[j].text); e++)
			v += lines[e].value;
		fprintf(c->out, "%s %" PRIu64 "\n", lines[j].text, v);
		j = e;
	}
	if (!c->quiet)
		conv_summary(c, "wrote %zu stacks (%" PRIu64 " %s) to %s", shown, total,
			c->value == CONV_VALUE_PERIOD ? "period" : "samples", c->out_name);
	ret = EXIT_OK;
	goto out;
oom:
	cli_error("out of memory");
out:
	for (size_t j = 0; j < nl; j++)
		free(lines[j].text);
	free(lines);
	free(tab);
	return ret;
}
