// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Symbol tables: sorted address ranges, perf's duplicate and end rules,
 * and /proc/kallsyms parsing. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/symbols.h>
#include "symbol/symbols_internal.h"
#include "symbol/jit_internal.h"
#include "core/util.h"

/* Names live in large blocks so that a table of 200k kernel symbols does
 * not cost 200k mallocs; blocks never move, so names stay put. */
#define ARENA_BLOCK (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	char data[];
};

struct pev_symtab {
	struct pev_symbol *syms;
	size_t nr, cap;
	bool finished;
	size_t marks[4], nr_marks;	/* ends of perf's loading passes */
	struct pev_rbnode *tree;	/* when finished: by index in syms */
	uint32_t root;
	struct arena_block *arena;
	struct pev__perfmap *perfmap;	/* a perf map: perf's lookups (jitmap.c) */
};

static const char *arena_strdup(struct pev_symtab *st, const char *s)
{
	size_t len = strlen(s) + 1;
	struct arena_block *b = st->arena;

	if (!b || b->cap - b->used < len) {
		size_t cap = len > ARENA_BLOCK ? len : ARENA_BLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->next = st->arena;
		b->used = 0;
		b->cap = cap;
		st->arena = b;
	}
	char *p = b->data + b->used;

	memcpy(p, s, len);
	b->used += len;
	return p;
}

PEV_EXPORT struct pev_symtab *pev_symtab_new(void)
{
	struct pev_symtab *st = calloc(1, sizeof(*st));

	if (!st)
		errno = ENOMEM;
	return st;
}

PEV_EXPORT void pev_symtab_free(struct pev_symtab *st)
{
	if (!st)
		return;
	pev__perfmap_free(st->perfmap);
	for (struct arena_block *b = st->arena, *n; b; b = n) {
		n = b->next;
		free(b);
	}
	free(st->syms);
	free(st->tree);
	free(st);
}

PEV_EXPORT int pev_symtab_add(struct pev_symtab *st, uint64_t start,
			      uint64_t size, const char *name,
			      const char *module, uint8_t binding, uint8_t type)
{
	if (!st || !name || st->finished)
		return -EINVAL;
	if (pev__grow_array(st->syms, &st->cap, st->nr + 1, 256) < 0)
		return -ENOMEM;
	struct pev_symbol *s = &st->syms[st->nr];

	s->start = start;
	s->end = start + size;
	if (s->end < start)
		s->end = UINT64_MAX;
	s->name = arena_strdup(st, name);
	if (!s->name)
		return -ENOMEM;
	s->module = NULL;
	if (module) {
		/* Module names repeat for every symbol of the module: share
		 * the previous copy when it is the same. */
		if (st->nr && st->syms[st->nr - 1].module &&
		    !strcmp(st->syms[st->nr - 1].module, module))
			s->module = st->syms[st->nr - 1].module;
		else if (!(s->module = arena_strdup(st, module)))
			return -ENOMEM;
	}
	s->binding = binding;
	s->type = type;
	st->nr++;
	return 0;
}

static int leading_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol (util/symbol.c): true when a is kept over b
 * (on a full tie, a: the one first in address order). */
static bool better_symbol(const struct pev_symbol *a, const struct pev_symbol *b)
{
	bool az = a->end == a->start, bz = b->end == b->start;

	if (az != bz)
		return !az;
	bool aw = a->binding == STB_WEAK, bw = b->binding == STB_WEAK;

	if (aw != bw)
		return !aw;
	bool ag = a->binding == STB_GLOBAL, bg = b->binding == STB_GLOBAL;

	if (ag != bg)
		return ag;
	int au = leading_underscores(a->name), bu = leading_underscores(b->name);

	if (au != bu)
		return au < bu;
	return strlen(a->name) >= strlen(b->name);
}

static bool module_differs(const struct pev_symbol *a, const struct pev_symbol *b)
{
	return !a->module != !b->module;
}

/* perf's symbols__fixup_end: in address order, a size-0 symbol ends
 * where the next one starts (the kernel's last symbol before the modules
 * a page further); the last one, if size 0, ends a page after its page. */
static void fixup_end(struct pev_symtab *st, const struct pev_rbnode *t,
		      uint32_t root)
{
	uint32_t i = pev__rb_first(t, root), n;
	struct pev_symbol *s = st->syms;

	if (i == PEV_RB_NIL)
		return;
	for (; (n = pev__rb_next(t, i)) != PEV_RB_NIL; i = n) {
		struct pev_symbol *p = &s[i], *c = &s[n];

		if (p->end != p->start)
			continue;
		if (module_differs(p, c)) {
			p->end = (p->end + 4096 + 4095) & ~(uint64_t)4095;
			if (p->end <= p->start)		/* wrapped at the top */
				p->end = UINT64_MAX;
		} else {
			p->end = c->start;
		}
	}
	if (s[i].end == s[i].start) {
		s[i].end = (s[i].start + 4095) / 4096 * 4096 + 4096;
		if (s[i].end <= s[i].start)
			s[i].end = UINT64_MAX;
	}
}

/* perf's symbols__fixup_duplicate: of neighbours with one start, the
 * worse is erased from the tree (which reshapes it, as in perf). */
static void fixup_duplicate(struct pev_symtab *st, struct pev_rbnode *t,
			    uint32_t *root)
{
	uint32_t cur = pev__rb_first(t, *root);

	while (cur != PEV_RB_NIL) {
		uint32_t next = pev__rb_next(t, cur);

		if (next == PEV_RB_NIL)
			break;
		if (st->syms[cur].start != st->syms[next].start) {
			cur = next;
			continue;
		}
		if (better_symbol(&st->syms[cur], &st->syms[next])) {
			pev__rb_erase(t, root, next);
		} else {
			pev__rb_erase(t, root, cur);
			cur = next;
		}
	}
}

void pev__symtab_mark_loaded(struct pev_symtab *st)
{
	if (st && !st->finished && st->nr_marks < sizeof(st->marks) / sizeof(st->marks[0]))
		st->marks[st->nr_marks++] = st->nr;
}

/* The symbols in the order of perf's tree walk: stably by start. */
static int by_start(const void *a, const void *b, void *arg)
{
	const struct pev_symbol *s = arg;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;

	if (s[i].start != s[j].start)
		return s[i].start < s[j].start ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* A balanced tree over sorted[lo, hi): its root. */
static uint32_t build_balanced(struct pev_rbnode *t, uint32_t lo, uint32_t hi)
{
	if (lo >= hi)
		return PEV_RB_NIL;
	uint32_t mid = lo + (hi - lo) / 2;

	t[mid].left = build_balanced(t, lo, mid);
	t[mid].right = build_balanced(t, mid + 1, hi);
	t[mid].parent = PEV_RB_NIL;
	t[mid].red = 0;
	return mid;
}

/* pev_symtab_finish_impl for a table of one loading pass (kallsyms, an
 * ELF file without PLT entries), without perf's tree: the tree's in-order
 * sequence is the symbols stably sorted by start, and the ends and
 * duplicates fixed on that sequence are what perf's tree gets.  Only the
 * shape of perf's tree is not reproduced, and it matters only where the
 * survivors overlap: when none do, one symbol at most holds an address
 * and every search tree over them finds it, so a balanced one is built.
 * 1: done; 0: they overlap (st unchanged; perf's tree is needed);
 * -ENOMEM. */
static int finish_one_pass(struct pev_symtab *st)
{
	size_t n = st->nr;
	uint32_t *ord = malloc(n * sizeof(*ord));
	uint64_t *end = malloc(n * sizeof(*end));
	const struct pev_symbol *s = st->syms;
	bool sorted = true;
	int ret = -ENOMEM;

	if (!ord || !end)
		goto out;
	for (size_t i = 0; i < n; i++) {
		ord[i] = (uint32_t)i;
		if (i && s[i].start < s[i - 1].start)
			sorted = false;
	}
	if (!sorted)
		qsort_r(ord, n, sizeof(*ord), by_start, (void *)s);
	/* fixup_end() on the sequence */
	for (size_t k = 0; k < n; k++) {
		const struct pev_symbol *p = &s[ord[k]];

		end[k] = p->end;
		if (p->end != p->start)
			continue;
		if (k + 1 == n) {
			end[k] = (p->start + 4095) / 4096 * 4096 + 4096;
			if (end[k] <= p->start)
				end[k] = UINT64_MAX;
		} else if (module_differs(p, &s[ord[k + 1]])) {
			end[k] = (p->end + 4096 + 4095) & ~(uint64_t)4095;
			if (end[k] <= p->start)
				end[k] = UINT64_MAX;
		} else {
			end[k] = s[ord[k + 1]].start;
		}
	}
	/* fixup_duplicate(): the survivors (positions) go to the front of
	 * ord's copy in end order; cur is the one compared with the next */
	size_t m = 0, cur = 0;
	uint32_t *keep = malloc(n * sizeof(*keep));

	if (!keep)
		goto out;
	for (size_t k = 1; k <= n; k++) {
		if (k < n && s[ord[k]].start == s[ord[cur]].start) {
			struct pev_symbol a = s[ord[cur]], b = s[ord[k]];

			a.end = end[cur];
			b.end = end[k];
			if (!better_symbol(&a, &b))
				cur = k;
			continue;
		}
		keep[m++] = (uint32_t)cur;
		cur = k;
	}
	ret = 0;
	for (size_t k = 1; k < m; k++)
		if (end[keep[k - 1]] > s[ord[keep[k]]].start)
			goto out_keep;
	struct pev_symbol *out = malloc((m ? m : 1) * sizeof(*out));
	struct pev_rbnode *tree = malloc((m ? m : 1) * sizeof(*tree));

	if (!out || !tree) {
		free(out);
		free(tree);
		ret = -ENOMEM;
		goto out_keep;
	}
	for (size_t k = 0; k < m; k++) {
		out[k] = s[ord[keep[k]]];
		out[k].end = end[keep[k]];
	}
	st->root = build_balanced(tree, 0, (uint32_t)m);
	st->tree = tree;
	free(st->syms);
	st->syms = out;
	st->nr = st->cap = m;
	st->finished = true;
	ret = 1;
out_keep:
	free(keep);
out:
	free(ord);
	free(end);
	return ret;
}

/* Builds perf's tree: each loading pass's symbols in the order they were
 * added, then the ends and duplicates of the whole tree fixed; then the
 * symbols added after the last pass (PLT) as they are; then lays
 * the survivors out in address order with the tree's links renumbered. */
int pev_symtab_finish_impl(struct pev_symtab *st, bool ends_first)
{
	struct pev_rbnode *t;
	uint32_t root = PEV_RB_NIL, *pos;
	size_t from = 0;

	(void)ends_first;	/* perf fixes ends first for ELF and kallsyms */
	if (!st)
		return -EINVAL;
	if (st->finished)
		return 0;
	if (st->nr >= PEV_RB_NIL)
		return -ENOMEM;
	if (!st->nr_marks)
		pev__symtab_mark_loaded(st);
	bool one_pass = st->nr && st->marks[st->nr_marks - 1] == st->nr;

	for (size_t m = 0; m < st->nr_marks; m++)
		one_pass = one_pass && (!st->marks[m] || st->marks[m] == st->nr);
	if (one_pass) {
		int r = finish_one_pass(st);

		if (r)
			return r < 0 ? r : 0;
	}
	t = malloc((st->nr ? st->nr : 1) * sizeof(*t));
	pos = malloc((st->nr ? st->nr : 1) * sizeof(*pos));
	if (!t || !pos) {
		free(t);
		free(pos);
		return -ENOMEM;
	}
	for (size_t m = 0; m < st->nr_marks; m++) {
		if (st->marks[m] == from)
			continue;	/* perf fixes nothing after an empty pass */
		for (size_t i = from; i < st->marks[m]; i++)
			pev__rb_insert(t, &root, (uint32_t)i, st->syms);
		fixup_end(st, t, root);
		fixup_duplicate(st, t, &root);
		from = st->marks[m];
	}
	for (size_t i = from; i < st->nr; i++)
		pev__rb_insert(t, &root, (uint32_t)i, st->syms);

	struct pev_symbol *sorted = malloc((st->nr ? st->nr : 1) * sizeof(*sorted));
	size_t out = 0;

	if (!sorted) {
		free(t);
		free(pos);
		return -ENOMEM;
	}
	for (uint32_t i = pev__rb_first(t, root); i != PEV_RB_NIL; i = pev__rb_next(t, i)) {
		pos[i] = (uint32_t)out;
		sorted[out++] = st->syms[i];
	}
	st->tree = malloc((out ? out : 1) * sizeof(*st->tree));
	if (!st->tree) {
		free(t);
		free(pos);
		free(sorted);
		return -ENOMEM;
	}
	for (uint32_t i = pev__rb_first(t, root); i != PEV_RB_NIL; i = pev__rb_next(t, i)) {
		struct pev_rbnode *d = &st->tree[pos[i]];

		d->left = t[i].left == PEV_RB_NIL ? PEV_RB_NIL : pos[t[i].left];
		d->right = t[i].right == PEV_RB_NIL ? PEV_RB_NIL : pos[t[i].right];
		d->parent = PEV_RB_NIL;
		d->red = t[i].red;
	}
	st->root = root == PEV_RB_NIL ? PEV_RB_NIL : pos[root];
	free(st->syms);
	st->syms = sorted;
	st->nr = st->cap = out;
	free(t);
	free(pos);
	st->finished = true;
	return 0;
}

PEV_EXPORT int pev_symtab_finish(struct pev_symtab *st)
{
	return pev_symtab_finish_impl(st, false);
}

/* perf's symbols__find: down the tree, the first symbol that holds addr
 * (a size-0 symbol holds its own address). */
PEV_EXPORT const struct pev_symbol *
pev_symtab_lookup(const struct pev_symtab *st, uint64_t addr)
{
	if (st && st->perfmap)
		return pev__perfmap_lookup(st->perfmap, addr);
	if (!st || !st->finished)
		return NULL;
	for (uint32_t n = st->root; n != PEV_RB_NIL;) {
		const struct pev_symbol *s = &st->syms[n];

		if (addr < s->start)
			n = st->tree[n].left;
		else if (addr > s->end || (addr == s->end && addr != s->start))
			n = st->tree[n].right;
		else
			return s;
	}
	return NULL;
}

PEV_EXPORT size_t pev_symtab_count(const struct pev_symtab *st)
{
	if (st && st->perfmap)
		return pev__perfmap_count(st->perfmap);
	return st ? st->nr : 0;
}

void pev__symtab_attach_perfmap(struct pev_symtab *st, struct pev__perfmap *pm)
{
	st->perfmap = pm;
	st->finished = true;
}

PEV_EXPORT const struct pev_symbol *
pev_symtab_symbol(const struct pev_symtab *st, size_t i)
{
	if (st && st->perfmap)
		return pev__perfmap_symbol(st->perfmap, i);
	return st && i < st->nr ? &st->syms[i] : NULL;
}

/* ---------------------------------------------------------------- kallsyms */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* One line: "<hex addr> <type> <name>[\t[<module>]]". */
static int kallsyms_line(struct pev_symtab *st, const char *p, const char *end)
{
	uint64_t addr = 0;
	int digits = 0, v;
	char name[512], module[128];

	while (p < end && (v = hexval(*p)) >= 0) {
		if (digits++ >= 16)
			return 0;
		addr = addr << 4 | (uint64_t)v;
		p++;
	}
	if (!digits || p >= end || *p != ' ')
		return 0;
	p++;
	if (p >= end)
		return 0;
	char type = *p++;

	if (p >= end || *p != ' ')
		return 0;
	p++;
	const char *n = p;

	while (p < end && *p != '\t' && *p != ' ')
		p++;
	size_t nlen = (size_t)(p - n);

	if (!nlen || nlen >= sizeof(name))
		return 0;
	memcpy(name, n, nlen);
	name[nlen] = 0;
	bool has_module = false;

	while (p < end && (*p == '\t' || *p == ' '))
		p++;
	if (p < end && *p == '[') {
		const char *m = ++p;

		while (p < end && *p != ']')
			p++;
		size_t mlen = (size_t)(p - m);

		if (p < end && mlen && mlen < sizeof(module)) {
			memcpy(module, m, mlen);
			module[mlen] = 0;
			has_module = true;
		}
	}
	char up = (char)(type & ~0x20);

	if (up != 'T' && up != 'W' && up != 'D' && up != 'B')
		return 0;
	if (!addr)
		return 0;
	uint8_t binding = up == 'W' ? STB_WEAK :
			  (type == up ? STB_GLOBAL : STB_LOCAL);
	uint8_t stype = (up == 'T' || up == 'W') ? STT_FUNC : STT_OBJECT;

	return pev_symtab_add(st, addr, 0, name, has_module ? module : NULL,
			      binding, stype);
}

PEV_EXPORT struct pev_symtab *pev_kallsyms_parse(const char *text, size_t len)
{
	struct pev_symtab *st = pev_symtab_new();
	const char *p = text, *end = text + len;

	if (!st)
		return NULL;
	while (text && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if (kallsyms_line(st, p, le) < 0) {
			pev_symtab_free(st);
			errno = ENOMEM;
			return NULL;
		}
		p = le + 1;
	}
	if (pev_symtab_finish_impl(st, true) < 0) {
		pev_symtab_free(st);
		errno = ENOMEM;
		return NULL;
	}
	return st;
}

PEV_EXPORT struct pev_symtab *pev_kallsyms_load(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	int err = pev_read_whole_file(path ? path : "/proc/kallsyms", &buf, &len);

	if (err < 0) {
		errno = -err;
		return NULL;
	}
	struct pev_symtab *st = pev_kallsyms_parse(buf, len);
	int saved = errno;

	free(buf);
	errno = saved;
	return st;
}

int pev_read_whole_file(const char *path, char **out, size_t *outlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 1 << 20, len = 0;
	char *buf;

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (len == cap) {
			char *n = realloc(buf, cap * 2);

			if (!n) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = n;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + len, cap - len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = -errno;

			free(buf);
			close(fd);
			return e;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	*out = buf;
	*outlen = len;
	return 0;
}
