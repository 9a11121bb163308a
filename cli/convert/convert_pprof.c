// SPDX-License-Identifier: GPL-2.0-only
/* --to pprof: the profile as profile.proto (github.com/google/pprof,
 * proto/profile.proto), gzipped, as `go tool pprof` reads it.
 *
 * Built from the profile's samples with frames kept per address
 * (CONV_BY_ADDRESS): one Location per address (the inline frames DWARF
 * gives at it are its Lines, innermost first, as pprof expects), one
 * Mapping per process mapping of a DSO (range, file offset, build id),
 * one Function per (name, DSO).  Samples of equal stack and labels (pid,
 * tid, comm, cpu, event) are merged; their values are the sample count
 * and the period under the event's column (cpu/nanoseconds for
 * cpu-clock and task-clock).  Written with the encoder of pbenc.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "common/cli.h"
#include "convert/convert.h"
#include "convert/pbenc.h"

/* profile.proto field numbers */
enum {
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4, P_FUNCTION = 5,
	P_STRING_TABLE = 6, P_TIME_NANOS = 9, P_DURATION_NANOS = 10, P_PERIOD_TYPE = 11,
	P_PERIOD = 12, P_COMMENT = 13, P_DEFAULT_SAMPLE_TYPE = 14,
	VT_TYPE = 1, VT_UNIT = 2,
	S_LOCATION_ID = 1, S_VALUE = 2, S_LABEL = 3,
	L_KEY = 1, L_STR = 2, L_NUM = 3, L_NUM_UNIT = 4,
	M_ID = 1, M_START = 2, M_LIMIT = 3, M_OFFSET = 4, M_FILENAME = 5, M_BUILD_ID = 6,
	M_HAS_FUNCTIONS = 7, M_HAS_FILENAMES = 8, M_HAS_LINES = 9, M_HAS_INLINES = 10,
	LOC_ID = 1, LOC_MAPPING_ID = 2, LOC_ADDRESS = 3, LOC_LINE = 4,
	LN_FUNCTION_ID = 1, LN_LINE = 2,
	F_ID = 1, F_NAME = 2, F_SYSTEM_NAME = 3, F_FILENAME = 4,
};

/* One open-addressing table for every interning below: slots hold
 * index + 1 into the caller's array, compared by cmp(). */
struct htab {
	uint32_t *slot;
	size_t cap, n;
};

static int ht_init(struct htab *h)
{
	h->cap = 1024;
	h->n = 0;
	h->slot = calloc(h->cap, sizeof(*h->slot));
	return h->slot ? 0 : -1;
}

typedef bool (*ht_eq)(const void *arg, uint32_t idx, const void *key);
typedef uint64_t (*ht_hash_of)(const void *arg, uint32_t idx);

/* The slot of key (hash h): *found says whether it holds it. */
static size_t ht_find(const struct htab *t, uint64_t h, ht_eq eq, const void *arg,
		      const void *key, bool *found)
{
	size_t i = h & (t->cap - 1);

	for (; t->slot[i]; i = (i + 1) & (t->cap - 1))
		if (eq(arg, t->slot[i] - 1, key)) {
			*found = true;
			return i;
		}
	*found = false;
	return i;
}

/* Puts idx (already stored in the caller's array: a rehash reads it)
 * into slot i; grows the table past half full. */
static int ht_put(struct htab *t, size_t i, uint32_t idx, ht_hash_of hof, const void *arg)
{
	t->slot[i] = idx + 1;
	if (++t->n * 2 <= t->cap)
		return 0;
	uint32_t *ns = calloc(t->cap * 2, sizeof(*ns));

	if (!ns)
		return -1;
	for (size_t j = 0; j < t->cap; j++) {
		if (!t->slot[j])
			continue;
		size_t k = hof(arg, t->slot[j] - 1) & (t->cap * 2 - 1);

		while (ns[k])
			k = (k + 1) & (t->cap * 2 - 1);
		ns[k] = t->slot[j];
	}
	free(t->slot);
	t->slot = ns;
	t->cap *= 2;
	return 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

struct fn { int64_t name, file; const struct pev_dso *dso; };
struct mp { const struct pev_dso *dso; struct pev_profile_map m; bool files, lines, inl; uint64_t hits; };
struct loc {
	uint32_t first, n;	/* its frames: pool[off..off+n) */
	/* a sample's own location whose frames are all inlined (perf shows
	 * the address as inline frames only when DWARF's outermost name is
	 * not the symbol's: __GI___libc_malloc in malloc): the symbol is its
	 * last line, as perf report's self entry is the symbol */
	bool self_sym;
	size_t off;
	uint64_t hits;		/* samples whose leaf it is */
	uint64_t map;		/* its mapping id (0: none) */
};
struct agg {			/* an aggregated sample */
	const char *comm;
	int32_t pid, tid, cpu;
	uint32_t event, chain, self;
	uint64_t count, period;
};

struct pp {
	struct conv *c;
	char **strs;		/* the string table (copies) */
	size_t nstr, strcap;
	struct htab st, ft, mt, lt, at;
	struct fn *fns;
	struct mp *maps;
	struct loc *locs;
	struct agg *aggs;
	size_t nfn, nmap, nloc, nagg, fncap, mapcap, loccap, aggcap;
	uint32_t *pool;		/* the frames of the locations */
	size_t npool, poolcap;
	uint64_t *ids;		/* a sample's location ids */
	uint64_t *map_order;	/* mapping id -> the id written (1..) */
	size_t idcap;
	bool oom;
};

static bool grow(void **a, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 256;
	void *b = realloc(*a, c * size);

	if (!b)
		return false;
	*a = b;
	*cap = c;
	return true;
}

/* ------------------------------------------------------------ strings */

static bool st_eq(const void *arg, uint32_t i, const void *key)
{
	return !strcmp(((const struct pp *)arg)->strs[i], key);
}

static uint64_t st_hof(const void *arg, uint32_t i)
{
	return str_hash(((const struct pp *)arg)->strs[i]);
}

/* The string table index of s ("" is 0). */
static int64_t str_id(struct pp *pp, const char *s)
{
	bool found;
	size_t i = ht_find(&pp->st, str_hash(s), st_eq, pp, s, &found);

	if (found)
		return pp->st.slot[i] - 1;
	char *copy = strdup(s);

	if (!copy || !grow((void **)&pp->strs, &pp->strcap, pp->nstr, sizeof(char *))) {
		free(copy);
		pp->oom = true;
		return 0;
	}
	/* stored before ht_put, which may rehash it */
	pp->strs[pp->nstr] = copy;
	if (ht_put(&pp->st, i, (uint32_t)pp->nstr, st_hof, pp)) {
		free(copy);
		pp->oom = true;
		return 0;
	}
	return (int64_t)pp->nstr++;
}

/* ----------------------------------------------------------- functions */

static bool fn_eq(const void *arg, uint32_t i, const void *key)
{
	const struct fn *a = &((const struct pp *)arg)->fns[i], *b = key;

	return a->name == b->name && a->dso == b->dso;
}

static uint64_t fn_hash(const struct fn *f)
{
	return mix(mix(1, (uint64_t)f->name), (uintptr_t)f->dso);
}

static uint64_t fn_hof(const void *arg, uint32_t i)
{
	return fn_hash(&((const struct pp *)arg)->fns[i]);
}

/* The function id (1..) of name in dso; its file is the first one seen. */
static uint64_t fn_id(struct pp *pp, const char *name, const struct pev_dso *dso,
		      const char *file)
{
	struct fn k = { .name = str_id(pp, name), .dso = dso };
	bool found;
	size_t i = ht_find(&pp->ft, fn_hash(&k), fn_eq, pp, &k, &found);

	if (found)
		return pp->ft.slot[i];
	k.file = str_id(pp, file);
	if (!grow((void **)&pp->fns, &pp->fncap, pp->nfn, sizeof(k))) {
		pp->oom = true;
		return 0;
	}
	pp->fns[pp->nfn] = k;
	if (ht_put(&pp->ft, i, (uint32_t)pp->nfn, fn_hof, pp)) {
		pp->oom = true;
		return 0;
	}
	return ++pp->nfn;
}

/* ------------------------------------------------------------ mappings */

static bool mp_eq(const void *arg, uint32_t i, const void *key)
{
	const struct mp *a = &((const struct pp *)arg)->maps[i], *b = key;

	return a->dso == b->dso && a->m.start == b->m.start && a->m.pgoff == b->m.pgoff;
}

static uint64_t mp_hash(const struct mp *m)
{
	return mix(mix((uintptr_t)m->dso, m->m.start), m->m.pgoff);
}

static uint64_t mp_hof(const void *arg, uint32_t i)
{
	return mp_hash(&((const struct pp *)arg)->maps[i]);
}

/* The mapping id (1..) of frame id's map, 0 for a frame without one. */
static uint64_t mp_id(struct pp *pp, uint32_t id, const struct pev_profile_frame *f)
{
	struct mp k = { .dso = f->dso };
	bool found;

	if (!f->dso || pev_profile_frame_map(pp->c->prof, id, &k.m))
		return 0;
	size_t i = ht_find(&pp->mt, mp_hash(&k), mp_eq, pp, &k, &found);

	if (found)
		return pp->mt.slot[i];
	if (!grow((void **)&pp->maps, &pp->mapcap, pp->nmap, sizeof(k))) {
		pp->oom = true;
		return 0;
	}
	pp->maps[pp->nmap] = k;
	if (ht_put(&pp->mt, i, (uint32_t)pp->nmap, mp_hof, pp)) {
		pp->oom = true;
		return 0;
	}
	return ++pp->nmap;
}

/* ----------------------------------------------------------- locations */

static bool loc_eq(const void *arg, uint32_t i, const void *key)
{
	const struct loc *a = &((const struct pp *)arg)->locs[i], *b = key;

	return a->first == b->first && a->n == b->n && a->self_sym == b->self_sym;
}

static uint64_t loc_hash(const struct loc *l)
{
	return mix(mix(7, l->first), (uint64_t)l->n << 1 | l->self_sym);
}

static uint64_t loc_hof(const void *arg, uint32_t i)
{
	return loc_hash(&((const struct pp *)arg)->locs[i]);
}

/* frames ids[0..n) (an inline group: the inlined frames, innermost first,
 * then the function holding them, all at one address) as one location */
static uint64_t loc_id(struct pp *pp, const uint32_t *ids, uint32_t n, bool self_sym)
{
	struct loc k = { .first = ids[0], .n = n, .self_sym = self_sym };
	bool found;
	size_t i = ht_find(&pp->lt, loc_hash(&k), loc_eq, pp, &k, &found);

	if (found)
		return pp->lt.slot[i];
	while (pp->npool + n > pp->poolcap)
		if (!grow((void **)&pp->pool, &pp->poolcap, pp->poolcap, sizeof(*ids))) {
			pp->oom = true;
			return 0;
		}
	if (!grow((void **)&pp->locs, &pp->loccap, pp->nloc, sizeof(k))) {
		pp->oom = true;
		return 0;
	}
	k.off = pp->npool;
	pp->locs[pp->nloc] = k;
	if (ht_put(&pp->lt, i, (uint32_t)pp->nloc, loc_hof, pp)) {
		pp->oom = true;
		return 0;
	}
	if (n)
		memcpy(pp->pool + pp->npool, ids, n * sizeof(*ids));
	pp->npool += n;
	return ++pp->nloc;
}

/* The length of the inline group starting at ids[0]: the inline frames
 * and the one holding them (the first frame without an inline name). */
static uint32_t group_len(const struct pev_profile *prof, const uint32_t *ids, size_t n)
{
	uint32_t k = 0;

	while (k < n) {
		const struct pev_profile_frame *f = pev_profile_frame(prof, ids[k++]);

		if (!f || !f->inline_name)
			break;
		/* the group ends where the address changes */
		if (k < n) {
			const struct pev_profile_frame *g = pev_profile_frame(prof, ids[k]);

			if (!g || g->ip != f->ip || g->dso != f->dso)
				break;
		}
	}
	return k ? k : 1;
}

/* ------------------------------------------------------------- samples */

static bool agg_eq(const void *arg, uint32_t i, const void *key)
{
	const struct agg *a = &((const struct pp *)arg)->aggs[i], *b = key;

	return a->comm == b->comm && a->pid == b->pid && a->tid == b->tid &&
	       a->cpu == b->cpu && a->event == b->event && a->chain == b->chain &&
	       a->self == b->self;
}

static uint64_t agg_hash(const struct agg *a)
{
	uint64_t h = mix((uintptr_t)a->comm, (uint32_t)a->pid);

	h = mix(mix(h, (uint32_t)a->tid), (uint32_t)a->cpu);
	return mix(mix(mix(h, a->event), a->chain), a->self);
}

static uint64_t agg_hof(const void *arg, uint32_t i)
{
	return agg_hash(&((const struct pp *)arg)->aggs[i]);
}

static void add_sample(struct pp *pp, const struct pev_profile_sample *s)
{
	struct agg k = { .comm = s->comm, .pid = s->pid, .tid = s->tid, .cpu = s->cpu,
			 .event = s->event, .chain = s->chain,
			 .self = s->chain == UINT32_MAX ? s->self : 0 };
	bool found;
	size_t i = ht_find(&pp->at, agg_hash(&k), agg_eq, pp, &k, &found);

	if (!found) {
		if (!grow((void **)&pp->aggs, &pp->aggcap, pp->nagg, sizeof(k))) {
			pp->oom = true;
			return;
		}
		pp->aggs[pp->nagg] = k;
		if (ht_put(&pp->at, i, (uint32_t)pp->nagg, agg_hof, pp)) {
			pp->oom = true;
			return;
		}
		i = pp->nagg++;
	} else {
		i = pp->at.slot[i] - 1;
	}
	pp->aggs[i].count++;
	pp->aggs[i].period += s->period;
}

/* ------------------------------------------------------------- writing */

/* "file.c:12" into its file (base name) and line; "" and 0 for "??:0"
 * and perf's "sym+OFF" / "dso[ADDR]" forms. */
static void split_srcline(const char *sl, char *file, size_t size, int64_t *line)
{
	const char *c = sl ? strrchr(sl, ':') : NULL;

	file[0] = 0;
	*line = 0;
	if (!c || c == sl || !c[1] || strspn(c + 1, "0123456789") != strlen(c + 1) ||
	    !strncmp(sl, "??", 2))
		return;
	snprintf(file, size, "%.*s", (int)(c - sl), sl);
	*line = strtoll(c + 1, NULL, 10);
}

static const char *base_name(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

/* The source position of frame k of a location's group: the innermost
 * frame's is its address's line, every other one's the call inlined in
 * it (a frame kept without its inline frames has its address's too). */
static void frame_line(struct pp *pp, const struct loc *l, uint32_t k,
		       const struct pev_profile_frame *f, char *file, size_t size,
		       int64_t *line)
{
	const char *cf;
	unsigned cl;

	if (k > 0 && pev_profile_frame_call_line(pp->c->prof, pp->pool[l->off + k], &cf, &cl)) {
		snprintf(file, size, "%s", base_name(cf));
		*line = cl;
		return;
	}
	split_srcline(pev_profile_srcline(pp->c->prof, f, false), file, size, line);
}

static void write_location(struct pp *pp, struct pb *out, struct pb *m, struct pb *ln,
			   uint64_t id)
{
	const struct loc *l = &pp->locs[id - 1];
	const struct pev_profile_frame *f0 = pev_profile_frame(pp->c->prof, l->first);
	uint64_t map = l->map;
	char nb[512], file[1024];

	pb_reset(m);
	pb_uint(m, LOC_ID, id);
	pb_uint(m, LOC_MAPPING_ID, map ? pp->map_order[map - 1] : 0);
	pb_uint(m, LOC_ADDRESS, f0->ip);
	for (uint32_t k = 0; k < l->n; k++) {
		const struct pev_profile_frame *f = pev_profile_frame(pp->c->prof,
								      pp->pool[l->off + k]);
		int64_t line;

		frame_line(pp, l, k, f, file, sizeof(file), &line);
		pb_reset(ln);
		pb_uint(ln, LN_FUNCTION_ID, fn_id(pp, conv_func_name(f, nb, sizeof(nb)), f->dso, file));
		pb_int(ln, LN_LINE, line);
		pb_msg(m, LOC_LINE, ln);
		if (map) {
			pp->maps[map - 1].files |= file[0] != 0;
			pp->maps[map - 1].lines |= line != 0;
			pp->maps[map - 1].inl |= l->n > 1 || l->self_sym;
		}
	}
	if (l->self_sym) {
		const struct pev_profile_frame *f = pev_profile_frame(pp->c->prof,
								      pp->pool[l->off + l->n - 1]);

		pb_reset(ln);
		pb_uint(ln, LN_FUNCTION_ID, fn_id(pp, f->sym->name, f->dso, ""));
		pb_msg(m, LOC_LINE, ln);
	}
	pb_msg(out, P_LOCATION, m);
}

static void value_type(struct pp *pp, struct pb *out, uint32_t field, struct pb *m,
		       const char *type, const char *unit)
{
	pb_reset(m);
	pb_int(m, VT_TYPE, str_id(pp, type));
	pb_int(m, VT_UNIT, str_id(pp, unit));
	pb_msg(out, field, m);
}

static bool is_clock(const char *ev)
{
	return !strcmp(ev, "cpu-clock") || !strcmp(ev, "task-clock");
}

/* The value columns: samples/count, then one per event shown: cpu for
 * the first clock event, the event's own name for the others, in
 * nanoseconds for clocks and offcpu-time. */
static size_t sample_types(struct pp *pp, struct pb *out, struct pb *m, uint32_t *col)
{
	struct conv *c = pp->c;
	size_t ncol = 1;
	bool cpu_used = false;

	value_type(pp, out, P_SAMPLE_TYPE, m, "samples", "count");
	for (size_t e = 0; e < c->nevents; e++) {
		if (!c->ev_on[e])
			continue;
		const char *name = conv_event_name(c, (uint32_t)e);
		bool ns = is_clock(name) || !strcmp(name, "offcpu-time");
		const char *type = is_clock(name) && !cpu_used ? "cpu" : name;

		cpu_used |= !strcmp(type, "cpu");
		col[e] = (uint32_t)ncol++;
		value_type(pp, out, P_SAMPLE_TYPE, m, type, ns ? "nanoseconds" : "count");
		if (ncol == 2) {
			const struct perf_event_attr *a = pev_decoder_attr(pev_data_decoder(c->data), e);
			int64_t period = 0;

			value_type(pp, out, P_PERIOD_TYPE, m, type, ns ? "nanoseconds" : "count");
			if (a && !a->freq)
				period = (int64_t)a->sample_period;
			else if (a && a->sample_freq && ns)
				period = (int64_t)(1000000000ull / a->sample_freq);
			pb_int(out, P_PERIOD, period);
			pb_int(out, P_DEFAULT_SAMPLE_TYPE, str_id(pp, type));
		}
	}
	return ncol;
}

static void label_num(struct pp *pp, struct pb *m, struct pb *out, const char *key, int64_t v)
{
	pb_reset(m);
	pb_int(m, L_KEY, str_id(pp, key));
	pb_key(m, L_NUM, PB_VARINT);	/* 0 is a value here: written */
	pb_varint(m, (uint64_t)v);
	/* pprof drops a numeric label whose num and num_unit are both 0 (CPU
	 * 0, pid 0): every numeric label has the unit "id" */
	pb_int(m, L_NUM_UNIT, str_id(pp, "id"));
	pb_msg(out, S_LABEL, m);
}

static void write_sample(struct pp *pp, struct pb *out, struct pb *sm, struct pb *m,
			 const struct agg *a, const uint32_t *col, size_t ncol)
{
	struct conv *c = pp->c;
	struct pev_profile_sample s = { .chain = a->chain, .self = a->self };
	const uint32_t *ids;
	size_t n = conv_stack(c, &s, &ids), nl = 0;
	uint64_t vals[64] = { 0 };

	if (!grow((void **)&pp->ids, &pp->idcap, n, sizeof(*pp->ids))) {
		pp->oom = true;
		return;
	}
	for (size_t k = 0; k < n;) {
		uint32_t g = group_len(c->prof, ids + k, n - k);
		const struct pev_profile_frame *last = pev_profile_frame(c->prof, ids[k + g - 1]);

		pp->ids[nl++] = loc_id(pp, ids + k, g, !k && last && last->inline_name && last->sym);
		k += g;
	}
	if (nl)
		pp->locs[pp->ids[0] - 1].hits += a->count;
	pb_reset(sm);
	pb_packed(sm, S_LOCATION_ID, pp->ids, nl);
	vals[0] = a->count;
	vals[col[a->event]] = a->period;
	pb_packed(sm, S_VALUE, vals, ncol);
	label_num(pp, m, sm, "pid", a->pid);
	label_num(pp, m, sm, "tid", a->tid);
	if (a->cpu >= 0)
		label_num(pp, m, sm, "cpu", a->cpu);
	pb_reset(m);
	pb_int(m, L_KEY, str_id(pp, "comm"));
	pb_int(m, L_STR, str_id(pp, a->comm ? a->comm : "[unknown]"));
	pb_msg(sm, S_LABEL, m);
	pb_msg(out, P_SAMPLE, sm);
}

/* The mappings of the locations, the main one first: pprof takes the
 * first mapping for the profiled program (its "File:"), so the file
 * (not a bracketed [kernel.kallsyms], [vdso]) with the most samples
 * ending in it. */
static void order_mappings(struct pp *pp)
{
	size_t main = SIZE_MAX;

	for (size_t i = 0; i < pp->nloc && !pp->oom; i++) {
		struct loc *l = &pp->locs[i];

		l->map = mp_id(pp, l->first, pev_profile_frame(pp->c->prof, l->first));
		if (l->map)
			pp->maps[l->map - 1].hits += l->hits;
	}
	pp->map_order = calloc(pp->nmap ? pp->nmap : 1, sizeof(*pp->map_order));
	if (!pp->map_order) {
		pp->oom = true;
		return;
	}
	for (size_t i = 0; i < pp->nmap; i++) {
		pp->map_order[i] = i + 1;
		if (pev_dso_name(pp->maps[i].dso)[0] != '[' &&
		    (main == SIZE_MAX || pp->maps[i].hits > pp->maps[main].hits))
			main = i;
	}
	if (main != SIZE_MAX) {	/* swap it with the first */
		pp->map_order[main] = 1;
		pp->map_order[0] = main + 1;
	}
}

static void write_mapping(struct pp *pp, struct pb *out, struct pb *m, size_t i)
{
	const struct mp *mp = &pp->maps[i];
	const struct pev_data_features *feat = pev_data_features(pp->c->data);
	const char *name = pev_dso_name(mp->dso);
	char hex[41] = "";

	for (size_t b = 0; feat && b < feat->nr_build_ids; b++) {
		const struct pev_data_build_id *id = &feat->build_ids[b];

		if (id->filename && !strcmp(id->filename, name)) {
			for (size_t k = 0; k < id->size && k < 20; k++)
				snprintf(hex + 2 * k, 3, "%02x", id->id[k]);
			break;
		}
	}
	pb_reset(m);
	pb_uint(m, M_ID, pp->map_order[i]);
	pb_uint(m, M_START, mp->m.start);
	pb_uint(m, M_LIMIT, mp->m.end);
	pb_uint(m, M_OFFSET, mp->m.pgoff);
	pb_int(m, M_FILENAME, str_id(pp, name));
	pb_int(m, M_BUILD_ID, str_id(pp, hex));
	/* every location has its functions: pprof must not symbolize */
	pb_bool(m, M_HAS_FUNCTIONS, true);
	pb_bool(m, M_HAS_FILENAMES, mp->files);
	pb_bool(m, M_HAS_LINES, mp->lines);
	pb_bool(m, M_HAS_INLINES, mp->inl);
	pb_msg(out, P_MAPPING, m);
}

/* time_nanos: the first sample's wall-clock time, from the file's
 * CLOCK_DATA (perf record -k), else its modification time less the
 * samples' span; duration: the shown samples' span */
static void write_times(struct pp *pp, struct pb *out, uint64_t tmin, uint64_t tmax)
{
	const struct pev_data_features *f = pev_data_features(pp->c->data);
	struct stat st;
	int64_t t0 = 0;

	if (tmax <= tmin)
		return;
	if (f && f->clock_data.version && f->clock_data.tod_ns)
		t0 = (int64_t)(f->clock_data.tod_ns + (tmin - f->clock_data.clockid_ns));
	else if (strcmp(pp->c->input, "-") && !stat(pp->c->input, &st)) {
		uint64_t last = f && f->last_sample_time > tmin ? f->last_sample_time : tmax;

		t0 = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec -
		     (int64_t)(last - tmin);
	}
	pb_int(out, P_TIME_NANOS, t0);
	pb_int(out, P_DURATION_NANOS, (int64_t)(tmax - tmin));
}

static int gzip_out(struct conv *c, const struct pb *body)
{
	z_stream z;
	unsigned char buf[1 << 16];
	int zr;

	memset(&z, 0, sizeof(z));
	/* 16 + 15: a gzip wrapper, as pprof's reader wants */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + 15, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = body->b;
	z.avail_in = (uInt)body->len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = deflate(&z, Z_FINISH);
		if (zr == Z_STREAM_ERROR)
			break;
		fwrite(buf, 1, sizeof(buf) - z.avail_out, c->out);
	} while (zr != Z_STREAM_END && !ferror(c->out));
	deflateEnd(&z);
	return zr == Z_STREAM_END || ferror(c->out) ? 0 : -EIO;
}

static void pp_free(struct pp *pp)
{
	for (size_t i = 0; i < pp->nstr; i++)
		free(pp->strs[i]);
	free(pp->strs);
	free(pp->st.slot);
	free(pp->ft.slot);
	free(pp->mt.slot);
	free(pp->lt.slot);
	free(pp->at.slot);
	free(pp->fns);
	free(pp->maps);
	free(pp->locs);
	free(pp->aggs);
	free(pp->pool);
	free(pp->ids);
	free(pp->map_order);
}

int conv_write_pprof(struct conv *c)
{
	struct pp pp = { .c = c };
	struct pb out = { 0 }, m = { 0 }, sm = { 0 }, ln = { 0 };
	size_t ns, ncol, shown = 0;
	const struct pev_profile_sample *smp = pev_profile_samples(c->prof, &ns);
	uint32_t *col = calloc(c->nevents ? c->nevents : 1, sizeof(*col));
	uint64_t tmin = UINT64_MAX, tmax = 0;
	int ret = EXIT_ERROR;

	if (!col || ht_init(&pp.st) || ht_init(&pp.ft) || ht_init(&pp.mt) || ht_init(&pp.lt) ||
	    ht_init(&pp.at) || str_id(&pp, "") != 0 || pp.oom)
		goto oom;
	ncol = sample_types(&pp, &out, &m, col);
	if (ncol > 64) {
		cli_error("'%s' has %zu events; pprof output takes at most 63: pick some with --event",
			  c->input, ncol - 1);
		goto out;
	}
	for (size_t i = 0; i < ns && !pp.oom; i++) {
		if (!conv_sample_on(c, &smp[i]))
			continue;
		add_sample(&pp, &smp[i]);
		shown++;
		if (smp[i].time && smp[i].time < tmin)
			tmin = smp[i].time;
		if (smp[i].time > tmax)
			tmax = smp[i].time;
	}
	for (size_t i = 0; i < pp.nagg && !pp.oom; i++)
		write_sample(&pp, &out, &sm, &m, &pp.aggs[i], col, ncol);
	order_mappings(&pp);
	for (size_t i = 0; i < pp.nloc && !pp.oom; i++)
		write_location(&pp, &out, &m, &ln, i + 1);
	/* in id order: the main one first */
	for (size_t o = 0; o < pp.nmap && !pp.oom; o++)
		write_mapping(&pp, &out, &m, pp.map_order[o] - 1);
	for (size_t i = 0; i < pp.nfn && !pp.oom; i++) {
		pb_reset(&m);
		pb_uint(&m, F_ID, i + 1);
		pb_int(&m, F_NAME, pp.fns[i].name);
		pb_int(&m, F_SYSTEM_NAME, pp.fns[i].name);
		pb_int(&m, F_FILENAME, pp.fns[i].file);
		pb_msg(&out, P_FUNCTION, &m);
	}
	if (shown)
		write_times(&pp, &out, tmin, tmax);
	pb_int(&out, P_COMMENT, str_id(&pp, "perfev convert --to pprof"));
	for (size_t i = 0; i < pp.nstr; i++)
		pb_str(&out, P_STRING_TABLE, pp.strs[i]);
	if (pp.oom || out.oom || m.oom || sm.oom || ln.oom)
		goto oom;
	if (gzip_out(c, &out))
		goto oom;
	if (!c->quiet)
		conv_summary(c, "wrote %zu samples (%zu stacks, %zu locations, %zu functions) to %s",
			shown, pp.nagg, pp.nloc, pp.nfn, c->out_name);
	ret = EXIT_OK;
	goto out;
oom:
	cli_error("out of memory");
out:
	pp_free(&pp);
	pb_free(&out);
	pb_free(&m);
	pb_free(&sm);
	pb_free(&ln);
	free(col);
	return ret;
}
