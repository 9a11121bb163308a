// SPDX-License-Identifier: GPL-2.0-only
/* --to html: the prefix tree of the shown samples (see convert_html.h).
 * Strings, functions and nodes are interned in open-addressing tables of
 * ids; memory grows with the distinct stacks, not with the samples. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "convert/convert_html.h"

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return mix(h);
}

static uint64_t func_hash(const struct fg_func *f)
{
	return mix((uint64_t)f->name << 32 ^ (uint64_t)f->dso << 3 ^ f->kind);
}

static uint64_t node_hash(uint32_t parent, uint32_t func)
{
	return mix((uint64_t)parent << 32 | func);
}

static uint64_t id_hash(const struct fg_tree *t, const struct fg_tab *tab, uint32_t id)
{
	if (tab == &t->strtab)
		return str_hash(t->str[id]);
	if (tab == &t->functab)
		return func_hash(&t->funcs[id]);
	return node_hash(t->nodes[id].parent, t->nodes[id].func);
}

/* Room for one more id in tab: doubles and rehashes at half full. */
static int tab_grow(const struct fg_tree *t, struct fg_tab *tab)
{
	if ((tab->n + 1) * 2 <= tab->cap)
		return 0;
	size_t cap = tab->cap ? tab->cap * 2 : 1024;
	uint32_t *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < tab->cap; i++) {
		if (!tab->slot[i])
			continue;
		size_t j = id_hash(t, tab, tab->slot[i] - 1) & (cap - 1);

		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = tab->slot[i];
	}
	free(tab->slot);
	tab->slot = slot;
	tab->cap = cap;
	return 0;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 256;

	while (c < need)
		c *= 2;
	void *np = realloc(*p, c * elem);

	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = c;
	return 0;
}

/* The id of string s; -1 without memory. */
static int64_t intern_str(struct fg_tree *t, const char *s)
{
	if (tab_grow(t, &t->strtab))
		return -1;
	size_t m = t->strtab.cap - 1, j = str_hash(s) & m;

	for (; t->strtab.slot[j]; j = (j + 1) & m)
		if (!strcmp(t->str[t->strtab.slot[j] - 1], s))
			return t->strtab.slot[j] - 1;
	if (grow((void **)&t->str, &t->capstr, t->nstr + 1, sizeof(*t->str)))
		return -1;
	t->str[t->nstr] = strdup(s);
	if (!t->str[t->nstr])
		return -1;
	t->strtab.slot[j] = (uint32_t)++t->nstr;
	t->strtab.n++;
	return (int64_t)t->nstr - 1;
}

static int64_t intern_func(struct fg_tree *t, const struct fg_func *f)
{
	if (tab_grow(t, &t->functab))
		return -1;
	size_t m = t->functab.cap - 1, j = func_hash(f) & m;

	for (; t->functab.slot[j]; j = (j + 1) & m) {
		const struct fg_func *g = &t->funcs[t->functab.slot[j] - 1];

		if (g->name == f->name && g->dso == f->dso && g->kind == f->kind)
			return t->functab.slot[j] - 1;
	}
	if (grow((void **)&t->funcs, &t->capfuncs, t->nfuncs + 1, sizeof(*t->funcs)))
		return -1;
	t->funcs[t->nfuncs] = *f;
	t->functab.slot[j] = (uint32_t)++t->nfuncs;
	t->functab.n++;
	return (int64_t)t->nfuncs - 1;
}

/* The child of parent for func, made when missing; -1 without memory. */
static int64_t child(struct fg_tree *t, uint32_t parent, uint32_t func)
{
	if (tab_grow(t, &t->nodetab))
		return -1;
	size_t m = t->nodetab.cap - 1, j = node_hash(parent, func) & m;

	for (; t->nodetab.slot[j]; j = (j + 1) & m) {
		const struct fg_node *n = &t->nodes[t->nodetab.slot[j] - 1];

		if (n->parent == parent && n->func == func)
			return t->nodetab.slot[j] - 1;
	}
	size_t id = t->nnodes, cap = t->capnodes;

	if (grow((void **)&t->nodes, &t->capnodes, id + 1, sizeof(*t->nodes)))
		return -1;
	if (t->capnodes != cap) {
		uint64_t *s = realloc(t->self, t->capnodes * t->nseries * sizeof(*s));

		if (!s)
			return -1;
		t->self = s;
	}
	memset(&t->self[id * t->nseries], 0, t->nseries * sizeof(*t->self));
	t->nodes[id] = (struct fg_node){ .func = func, .parent = parent,
					 .sibling = t->nodes[parent].child };
	t->nodes[parent].child = (uint32_t)id;
	t->nnodes++;
	t->nodetab.slot[j] = (uint32_t)id + 1;
	t->nodetab.n++;
	return (int64_t)id;
}

int fg_tree_init(struct fg_tree *t, unsigned nseries)
{
	memset(t, 0, sizeof(*t));
	t->nseries = nseries;
	t->nodes = calloc(1, sizeof(*t->nodes));
	t->self = calloc(nseries, sizeof(*t->self));
	if (!t->nodes || !t->self)
		return -ENOMEM;
	t->capnodes = t->nnodes = 1;	/* the root */
	return 0;
}

void fg_tree_release(struct fg_tree *t)
{
	for (size_t i = 0; i < t->nstr; i++)
		free(t->str[i]);
	free(t->str);
	free(t->strtab.slot);
	free(t->funcs);
	free(t->functab.slot);
	free(t->nodes);
	free(t->self);
	free(t->nodetab.slot);
	free(t->frame_func);
	memset(t, 0, sizeof(*t));
}

static bool is_jit_dso(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	/* perf's JIT maps (/tmp/perf-PID.map) and perf inject --jit's ELF files */
	return (!strncmp(b, "perf-", 5) && n > 4 && !strcmp(b + n - 4, ".map")) ||
	       !strncmp(b, "jitted-", 7);
}

static int64_t frame_func(struct fg_tree *t, struct conv *c, uint32_t id)
{
	if (id < t->nframe_func && t->frame_func[id])
		return t->frame_func[id] - 1;
	const struct pev_profile_frame *f = pev_profile_frame(c->prof, id);
	char buf[512];
	struct fg_func fn = { 0 };
	int64_t name, dso = -1, r;

	if (!f)
		return -1;
	name = intern_str(t, conv_func_name(f, buf, sizeof(buf)));
	if (f->dso)
		dso = intern_str(t, pev_profile_dso_short(f->dso));
	if (name < 0 || (f->dso && dso < 0))
		return -1;
	fn.name = (uint32_t)name;
	fn.dso = (uint32_t)(dso + 1);
	fn.kind = f->inline_name ? FG_INLINE : f->level == 'k' || f->level == 'g' ? FG_KERNEL :
		  f->dso && is_jit_dso(pev_dso_name(f->dso)) ? FG_JIT : FG_USER;
	r = intern_func(t, &fn);
	if (r >= 0 && id < t->nframe_func)
		t->frame_func[id] = (uint32_t)r + 1;
	return r;
}

static int64_t thread_func(struct fg_tree *t, const struct pev_profile_sample *s)
{
	char lab[64];
	int64_t name = intern_str(t, s->comm ? s->comm : "[unknown]"), ids;
	struct fg_func fn = { .kind = FG_THREAD };

	snprintf(lab, sizeof(lab), "%d/%d", (int)s->pid, (int)s->tid);
	ids = intern_str(t, lab);
	if (name < 0 || ids < 0)
		return -1;
	fn.name = (uint32_t)name;
	fn.dso = (uint32_t)ids + 1;
	return intern_func(t, &fn);
}

/* The series an event's samples go to, past the file's first: 0, 1 for
 * offcpu-time, -1 to leave out.  With an offcpu-time event shown, the
 * on-CPU time is that of the clock events; the others (the
 * sched:sched_switch samples off-CPU time is made of) are left out unless
 * --event names them. */
static int event_series(const struct conv *c, uint32_t event, bool offcpu)
{
	const char *e = conv_event_name(c, event);

	if (!offcpu)
		return 0;
	if (!strcmp(e, "offcpu-time"))
		return 1;
	return c->event || !strcmp(e, "cpu-clock") || !strcmp(e, "task-clock") ? 0 : -1;
}

/* The leaf node of (thread function, stack) pairs already walked: chains
 * are interned, so a stack is walked once however many samples it has. */
struct leaf_memo {
	struct leaf_slot { uint64_t key, stack; uint32_t node; } *slot;
	size_t cap, n;
};

static struct leaf_slot *memo_slot(struct leaf_memo *m, uint64_t key, uint64_t stack)
{
	size_t i = (size_t)mix(key * 0x9e3779b97f4a7c15ull ^ stack) & (m->cap - 1);

	while (m->slot[i].key && (m->slot[i].key != key || m->slot[i].stack != stack))
		i = (i + 1) & (m->cap - 1);
	return &m->slot[i];
}

static int memo_put(struct leaf_memo *m, uint64_t key, uint64_t stack, uint32_t node)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct leaf_memo g = { .cap = m->cap ? m->cap * 2 : 4096 };

		g.slot = calloc(g.cap, sizeof(*g.slot));
		if (!g.slot)
			return -ENOMEM;
		for (size_t i = 0; i < m->cap; i++)
			if (m->slot[i].key)
				*memo_slot(&g, m->slot[i].key, m->slot[i].stack) = m->slot[i];
		g.n = m->n;
		free(m->slot);
		*m = g;
	}
	*memo_slot(m, key, stack) = (struct leaf_slot){ key, stack, node };
	m->n++;
	return 0;
}

int fg_tree_add(struct fg_tree *t, struct conv *c, unsigned series, bool offcpu)
{
	size_t ns;
	const struct pev_profile_sample *smp = pev_profile_samples(c->prof, &ns);
	uint32_t last_pid = 0, last_tid = 0;
	const char *last_comm = NULL;
	int64_t tf = -1;
	struct leaf_memo memo = { 0 };
	int err = 0;

	free(t->frame_func);
	t->nframe_func = pev_profile_nr_frames(c->prof);
	t->frame_func = calloc(t->nframe_func ? t->nframe_func : 1, sizeof(*t->frame_func));
	if (!t->frame_func)
		return -ENOMEM;
	for (size_t i = 0; i < ns; i++) {
		const struct pev_profile_sample *s = &smp[i];
		uint64_t v;

		if (!conv_sample_on(c, s) || !(v = conv_value_of(c, s)))
			continue;
		int es = event_series(c, s->event, offcpu);

		if (es < 0)
			continue;
		unsigned sr = series + (unsigned)es;
		const uint32_t *ids;
		/* as folded: a chain perf drops whole has no frames */
		size_t n = s->chain == UINT32_MAX && c->has_callchain ? 0 : conv_stack(c, s, &ids);

		if (tf < 0 || s->comm != last_comm || (uint32_t)s->pid != last_pid ||
		    (uint32_t)s->tid != last_tid) {
			tf = thread_func(t, s);
			last_comm = s->comm;
			last_pid = (uint32_t)s->pid;
			last_tid = (uint32_t)s->tid;
		}
		if (tf < 0) {
			err = -ENOMEM;
			break;
		}
		/* the memo's key: the thread function (+1, so never 0) and
		 * the stack (the chain, or the self frame above 2^32, or
		 * none above 2^33) */
		uint64_t key = (uint64_t)tf + 1;
		uint64_t stack = !n ? 1ull << 33 : s->chain != UINT32_MAX ? s->chain :
				 1ull << 32 | s->self;
		struct leaf_slot *ls = memo.cap ? memo_slot(&memo, key, stack) : NULL;
		int64_t node;

		if (ls && ls->key) {
			node = ls->node;
		} else {
			node = child(t, 0, (uint32_t)tf);
			for (size_t k = n; node >= 0 && k-- > 0;) {
				int64_t f = frame_func(t, c, ids[k]);

				node = f < 0 ? -1 : child(t, (uint32_t)node, (uint32_t)f);
			}
			if (node < 0 || memo_put(&memo, key, stack, (uint32_t)node)) {
				err = -ENOMEM;
				break;
			}
		}
		t->self[(size_t)node * t->nseries + sr] += v;
		t->totals[sr] += v;
	}
	free(memo.slot);
	return err;
}

static int cmp_child(const void *a, const void *b, void *arg)
{
	const struct fg_tree *t = arg;
	const struct fg_func *fa = &t->funcs[t->nodes[*(const uint32_t *)a].func];
	const struct fg_func *fb = &t->funcs[t->nodes[*(const uint32_t *)b].func];
	int r = strcmp(t->str[fa->name], t->str[fb->name]);

	if (!r && fa->dso != fb->dso)
		r = !fa->dso ? -1 : !fb->dso ? 1 : strcmp(t->str[fa->dso - 1], t->str[fb->dso - 1]);
	return r ? r : fa->kind - fb->kind;
}

int fg_tree_sort(struct fg_tree *t)
{
	uint32_t *buf = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < t->nnodes; i++) {
		size_t n = 0;

		for (uint32_t k = t->nodes[i].child; k; k = t->nodes[k].sibling) {
			if (grow((void **)&buf, &cap, n + 1, sizeof(*buf))) {
				free(buf);
				return -ENOMEM;
			}
			buf[n++] = k;
		}
		if (n < 2)
			continue;
		qsort_r(buf, n, sizeof(*buf), cmp_child, t);
		t->nodes[i].child = buf[0];
		for (size_t k = 0; k < n; k++)
			t->nodes[buf[k]].sibling = k + 1 < n ? buf[k + 1] : 0;
	}
	free(buf);
	return 0;
}
