// SPDX-License-Identifier: GPL-2.0-only
/* What the viewer writers share (see convert_tables.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "convert/convert_tables.h"

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ h >> 33;
}

static size_t slot_of(const struct conv_map *m, uint64_t k)
{
	size_t i = mix(k) & (m->cap - 1);

	while (m->keys[i] && m->keys[i] != k)
		i = (i + 1) & (m->cap - 1);
	return i;
}

uint32_t conv_map_get(const struct conv_map *m, uint64_t key)
{
	if (!m->cap)
		return CONV_NONE;
	size_t i = slot_of(m, key + 1);

	return m->keys[i] ? m->vals[i] : CONV_NONE;
}

static int grow(struct conv_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	uint32_t *vals = malloc(cap * sizeof(*vals));
	struct conv_map n = { keys, vals, cap, m->n };

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i]) {
			size_t j = slot_of(&n, m->keys[i]);

			keys[j] = m->keys[i];
			vals[j] = m->vals[i];
		}
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

uint32_t conv_map_add(struct conv_map *m, uint64_t key, uint32_t val)
{
	if ((m->n + 1) * 2 > m->cap && grow(m))
		return CONV_NONE;
	size_t i = slot_of(m, key + 1);

	if (m->keys[i])
		return m->vals[i];
	m->keys[i] = key + 1;
	m->vals[i] = val;
	m->n++;
	return val;
}

void conv_map_release(struct conv_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h >> 1;	/* never UINT64_MAX */
}

uint32_t conv_strings_add(struct conv_strings *t, const char *s)
{
	uint64_t h = str_hash(s);
	uint32_t i = conv_map_get(&t->by_hash, h);

	for (; i != CONV_NONE; i = t->next[i])
		if (!strcmp(t->s[i], s))
			return i;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char **ns = realloc(t->s, cap * sizeof(*ns));

		if (!ns)
			return CONV_NONE;
		t->s = ns;
		uint32_t *nn = realloc(t->next, cap * sizeof(*nn));

		if (!nn)
			return CONV_NONE;
		t->next = nn;
		t->cap = cap;
	}
	char *copy = strdup(s);
	uint32_t idx = (uint32_t)t->n;

	if (!copy)
		return CONV_NONE;
	uint32_t head = conv_map_add(&t->by_hash, h, idx);

	if (head == CONV_NONE) {
		free(copy);
		return CONV_NONE;
	}
	if (head != idx) {	/* a string of the same hash: chain after it */
		t->next[idx] = t->next[head];
		t->next[head] = idx;
	} else
		t->next[idx] = CONV_NONE;
	t->s[t->n++] = copy;
	return idx;
}

void conv_strings_release(struct conv_strings *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
	free(t->next);
	conv_map_release(&t->by_hash);
	memset(t, 0, sizeof(*t));
}

uint32_t conv_tree_add(struct conv_tree *t, uint32_t parent, uint32_t key)
{
	uint64_t k = (uint64_t)(parent + 1u) << 32 | key;	/* CONV_NONE + 1 == 0 */
	uint32_t i = conv_map_get(&t->map, k);

	if (i != CONV_NONE)
		return i;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		uint32_t *p = realloc(t->parent, cap * sizeof(*p));

		if (!p)
			return CONV_NONE;
		t->parent = p;
		p = realloc(t->key, cap * sizeof(*p));
		if (!p)
			return CONV_NONE;
		t->key = p;
		t->cap = cap;
	}
	i = (uint32_t)t->n;
	if (conv_map_add(&t->map, k, i) == CONV_NONE)
		return CONV_NONE;
	t->parent[i] = parent;
	t->key[i] = key;
	t->n++;
	return i;
}

void conv_tree_release(struct conv_tree *t)
{
	conv_map_release(&t->map);
	free(t->parent);
	free(t->key);
	memset(t, 0, sizeof(*t));
}

static int by_pid_tid(const void *a, const void *b)
{
	const struct conv_thread *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* In O(samples): the distinct threads found with a hash map, sorted (they
 * are few), then each thread's samples in their order in the file. */
struct conv_thread *conv_threads(const struct conv *c, size_t *n)
{
	size_t ns = 0, nshown = 0, nt = 0, cap = 0;
	const struct pev_profile_sample *s = pev_profile_samples(c->prof, &ns);
	uint32_t *idx = malloc((ns ? ns : 1) * sizeof(*idx));
	uint32_t *which = malloc((ns ? ns : 1) * sizeof(*which));
	struct conv_thread *t = NULL;
	struct conv_map ids = { 0 };
	size_t *slot = NULL;

	*n = 0;
	if (!idx || !which)
		goto oom;
	for (size_t i = 0; i < ns; i++) {
		if (!conv_sample_on(c, &s[i]))
			continue;
		uint64_t key = (uint64_t)(uint32_t)s[i].pid << 32 | (uint32_t)s[i].tid;
		uint32_t k = conv_map_add(&ids, key, (uint32_t)nt);

		if (k == CONV_NONE)
			goto oom;
		if (k == nt) {	/* a new thread */
			if (nt == cap) {
				size_t nc = cap ? cap * 2 : 16;
				struct conv_thread *g = realloc(t, nc * sizeof(*t));

				if (!g)
					goto oom;
				t = g;
				cap = nc;
			}
			t[nt] = (struct conv_thread){ .pid = s[i].pid, .tid = s[i].tid,
						      .first_time = s[i].time };
			nt++;
		}
		which[i] = k;
		t[k].n++;
		nshown++;
	}
	conv_map_release(&ids);
	if (!nshown) {
		free(idx);
		free(which);
		free(t);
		errno = 0;
		return NULL;
	}
	/* the order: by pid, then tid; n is kept, as a thread's count */
	for (size_t k = 0; k < nt; k++)
		t[k].last_time = k;	/* its number, until placed */
	qsort(t, nt, sizeof(*t), by_pid_tid);
	slot = malloc(nt * sizeof(*slot));
	if (!slot)
		goto oom;
	size_t *rank = calloc(nt, sizeof(*rank)), off = 0;

	if (!rank)
		goto oom;
	for (size_t k = 0; k < nt; k++) {
		rank[t[k].last_time] = k;
		slot[k] = off;
		t[k].idx = idx + off;
		off += t[k].n;
		t[k].n = 0;
		t[k].last_time = 0;
	}
	for (size_t i = 0; i < ns; i++) {
		if (!conv_sample_on(c, &s[i]))
			continue;
		struct conv_thread *cur = &t[rank[which[i]]];
		const struct pev_profile_sample *x = &s[i];

		idx[slot[rank[which[i]]] + cur->n++] = (uint32_t)i;
		cur->comm = x->comm;
		if (x->time < cur->first_time)
			cur->first_time = x->time;
		if (x->time > cur->last_time)
			cur->last_time = x->time;
	}
	free(rank);
	free(slot);
	free(which);
	/* a process's threads are together (sorted by pid) */
	for (size_t i = 0, j; i < nt; i = j) {
		const char *main_comm = NULL;

		for (j = i; j < nt && t[j].pid == t[i].pid; j++)
			if (t[j].tid == t[j].pid)
				main_comm = t[j].comm;
		for (size_t k = i; k < j; k++)
			t[k].process = main_comm ? main_comm : t[k].comm;
	}
	*n = nt;
	return t;
oom:
	conv_map_release(&ids);
	free(slot);
	free(which);
	free(idx);
	free(t);
	errno = ENOMEM;
	return NULL;
}

void conv_threads_free(struct conv_thread *t, size_t n)
{
	if (t && n)
		free((void *)t[0].idx);
	free(t);
}

void conv_time_span(const struct conv_thread *t, size_t n, uint64_t *first, uint64_t *last)
{
	*first = n ? t[0].first_time : 0;
	*last = 0;
	for (size_t i = 0; i < n; i++) {
		if (t[i].first_time < *first)
			*first = t[i].first_time;
		if (t[i].last_time > *last)
			*last = t[i].last_time;
	}
}

size_t conv_frames(const struct conv *c, const struct pev_profile_sample *s,
		   const uint32_t **ids)
{
	if (s->chain == UINT32_MAX && c->has_callchain) {
		*ids = NULL;
		return 0;
	}
	return conv_stack(c, s, ids);
}

/* A stream that deflates what is written into a gzip member on out. */
struct gz_cookie {
	z_stream z;
	FILE *out;
	int err;		/* the first failure's errno, 0: none */
};

static int gz_pump(struct gz_cookie *g, int flush)
{
	unsigned char buf[1 << 15];
	int ret;

	do {
		g->z.next_out = buf;
		g->z.avail_out = sizeof(buf);
		ret = deflate(&g->z, flush);
		if (ret == Z_STREAM_ERROR) {
			g->err = EIO;
			return -1;
		}
		size_t have = sizeof(buf) - g->z.avail_out;

		if (have && fwrite(buf, 1, have, g->out) != have) {
			g->err = errno ? errno : EIO;	/* ENOSPC, EPIPE... */
			return -1;
		}
	} while (g->z.avail_out == 0);
	return 0;
}

static ssize_t gz_write(void *cookie, const char *data, size_t len)
{
	struct gz_cookie *g = cookie;
	size_t done = 0;

	while (done < len) {
		size_t chunk = len - done > (1u << 30) ? (1u << 30) : len - done;

		g->z.next_in = (unsigned char *)data + done;
		g->z.avail_in = (uInt)chunk;
		if (g->err || gz_pump(g, Z_NO_FLUSH)) {
			errno = g->err;
			return -1;
		}
		done += chunk;
	}
	return (ssize_t)len;
}

static int gz_close(void *cookie)
{
	struct gz_cookie *g = cookie;
	int err;

	g->z.next_in = NULL;
	g->z.avail_in = 0;
	if (!g->err)
		gz_pump(g, Z_FINISH);
	err = g->err;
	deflateEnd(&g->z);
	free(g);
	if (err)
		errno = err;
	return err ? -1 : 0;
}

FILE *conv_gzip_open(FILE *out)
{
	struct gz_cookie *g = calloc(1, sizeof(*g));
	cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	FILE *f;

	if (!g)
		return NULL;
	g->out = out;
	/* level 1: the JSON is repetitive, higher levels spend their time in
	 * longest_match for a few percent; 15 + 16: a gzip header and trailer
	 * around the deflate stream */
	if (deflateInit2(&g->z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		errno = ENOMEM;
		return NULL;
	}
	f = fopencookie(g, "w", io);
	if (!f) {
		deflateEnd(&g->z);
		free(g);
	}
	return f;
}

uint32_t conv_frame_name(struct conv_strings *t, const struct pev_profile_frame *f)
{
	char buf[512];

	return conv_strings_add(t, f ? conv_func_name(f, buf, sizeof(buf)) : "[unknown]");
}

static const struct perf_event_attr *first_attr(const struct conv *c)
{
	const struct pev_decoder *dec = pev_data_decoder(c->data);

	for (size_t i = 0; i < c->nevents && i < pev_decoder_nr_attrs(dec); i++)
		if (c->ev_on[i])
			return pev_decoder_attr(dec, i);
	return NULL;
}

static bool is_clock(const struct conv *c, uint32_t ev)
{
	const char *name = conv_event_name(c, ev);

	return !strcmp(name, "cpu-clock") || !strcmp(name, "task-clock") ||
	       !strcmp(name, "offcpu-time");
}

bool conv_value_is_ns(const struct conv *c)
{
	if (c->value != CONV_VALUE_PERIOD)
		return false;
	for (uint32_t i = 0; i < c->nevents; i++)
		if (c->ev_on[i] && !is_clock(c, i))
			return false;
	return true;
}

double conv_interval_ms(const struct conv *c)
{
	const struct perf_event_attr *a = first_attr(c);

	if (!a || !a->sample_period)
		return 1;
	if (a->freq)
		return 1000.0 / (double)a->sample_freq;
	for (uint32_t i = 0; i < c->nevents; i++)
		if (c->ev_on[i])
			return is_clock(c, i) ? (double)a->sample_period / 1e6 : 1;
	return 1;
}
