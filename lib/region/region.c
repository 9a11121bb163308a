// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Regions: the events (parsed once), each thread's state, begin and end.
 *
 * The hot path (begin/end of a thread that already has its counters) takes
 * no lock: a thread-local pointer, a name-pointer cache lookup, one read
 * per group, and integer adds between two increments of the thread's
 * sequence counter (which the report's reader checks). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <perfev/event.h>
#include <perfev/sys.h>
#include "core/util.h"
#include "region/region_internal.h"

#define DEFAULT_SW "{task-clock,context-switches,page-faults}"
#define DEFAULT_HW "{cycles,instructions,branches,branch-misses}"

static __thread struct reg_thread *self __attribute__((tls_model("initial-exec")));

/* Software-context PMUs: never multiplexed, safe to group with each other. */
static bool swctx_pmu(const char *pmu)
{
	static const char *const sw[] = { "software", "tracepoint", "breakpoint",
					  "kprobe", "uprobe" };

	for (size_t i = 0; pmu && i < sizeof(sw) / sizeof(sw[0]); i++)
		if (!strcmp(pmu, sw[i]))
			return true;
	return false;
}

static int add_group(struct reg_global *g, bool implicit)
{
	struct reg_group *n = realloc(g->groups, (g->nr_groups + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	g->groups = n;
	memset(&n[g->nr_groups], 0, sizeof(*n));
	n[g->nr_groups].implicit = implicit;
	return g->nr_groups++;
}

static int group_add_ev(struct reg_group *gr, int ev)
{
	int *n = realloc(gr->ev, (gr->nr + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	gr->ev = n;
	gr->ev[gr->nr++] = ev;
	return 0;
}

/* Take the parsed events: explicit groups stay as written, software-context
 * events outside braces share one group, every other event stands alone. */
static int take_events(struct reg_global *g, struct pev_evlist *list)
{
	size_t n = pev_evlist_count(list);
	int *gof, swgroup = -1, err = 0;

	g->ev = calloc(n ? n : 1, sizeof(*g->ev));
	gof = calloc(n ? n : 1, sizeof(*gof));
	if (!g->ev || !gof) {
		free(gof);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n && !err; i++) {
		const struct pev_event *e = pev_evlist_event(list, i);
		struct reg_event *r = &g->ev[i];
		int gi;

		memcpy(&r->attr, &e->attr.attr, sizeof(r->attr));
		r->attr.size = sizeof(r->attr);
		r->name = strdup(e->name);
		r->unit = strdup(e->unit ? e->unit : "");
		r->scale = e->scale > 0 ? e->scale : 1.0;
		r->swctx = swctx_pmu(e->pmu);
		/* config1 of a uprobe or kprobe points to a string of the evlist,
		 * freed after parsing: keep a copy of our own. */
		if (e->pmu && (!strcmp(e->pmu, "uprobe") || !strcmp(e->pmu, "kprobe")) &&
		    r->attr.config1) {
			r->path = strdup((const char *)(uintptr_t)r->attr.config1);
			if (!r->path) {
				err = -ENOMEM;
				break;
			}
			r->attr.config1 = (uint64_t)(uintptr_t)r->path;
		}
		r->page = !r->swctx && pev_user_access_applies(&g->ua, &r->attr);
		g->nr_events++;
		if (!r->name || !r->unit) {
			err = -ENOMEM;
			break;
		}
		if (e->leader != e->index) {
			gi = gof[e->leader];
		} else if (e->group_size > 1) {
			gi = add_group(g, false);
		} else if (r->swctx) {
			if (swgroup < 0)
				swgroup = add_group(g, true);
			gi = swgroup;
		} else {
			gi = add_group(g, false);
		}
		if (gi < 0 || group_add_ev(&g->groups[gi], (int)i) < 0) {
			err = -ENOMEM;
			break;
		}
		gof[i] = gi;
		r->group = gi;
	}
	free(gof);
	return err;
}

/* Whether this machine opens a hardware event for this thread. */
static bool have_hw_pmu(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES, .disabled = 1,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int parse_spec(struct reg_global *g, const char *spec, const char *from)
{
	struct pev_evlist *list = pev_evlist_new();
	struct pev_parse_error perr = { 0 };
	int err;

	if (!list)
		return -ENOMEM;
	err = pev_evlist_parse(list, spec, NULL, &perr);
	if (err < 0) {
		char buf[1024];

		pev_parse_error_format(&perr, spec, buf, sizeof(buf));
		pev__reg_say_once("spec", "%s does not parse; regions count calls only:\n%s",
				  from, buf);
		pev_evlist_free(list);
		return -EINVAL;
	}
	err = take_events(g, list);
	pev_evlist_free(list);
	return err;
}

static void atfork_child(void)
{
	struct reg_global *g = &pev__reg;

	/* The parent's counters count the parent's threads: drop them; the
	 * child starts its own report (with the same events). */
	pthread_mutex_init(&g->lock, NULL);
	pthread_mutex_init(&pev__reg_say_lock, NULL);
	for (struct reg_thread *t = g->threads, *next; t; t = next) {
		next = t->next;
		if (!t->dead)
			pev__reg_thread_close(t);
		/* Kept (not freed: other threads' memory may be mid-use in
		 * the parent's image), out of the report. */
		t->next = g->forked;
		g->forked = t;
	}
	g->threads = NULL;
	self = NULL;
	pthread_setspecific(g->key, NULL);
}

static void thread_exit(void *p)
{
	struct reg_thread *t = p;

	pev__reg_comm(t->tid, t->comm, sizeof(t->comm));
	pthread_mutex_lock(&pev__reg.lock);
	pev__reg_thread_close(t);
	pthread_mutex_unlock(&pev__reg.lock);
	self = NULL;
}

static int setup_locked(struct reg_global *g, const char *events)
{
	const char *cal = getenv("PERFEV_CALIBRATE");
	const char *from = "pev_region_init's spec";
	int err = 0;

	g->calibrate = !(cal && !strcmp(cal, "0"));
	g->ua.size = sizeof(g->ua);
	pev_user_access_probe(&g->ua, pev_arch_host(), NULL);
	if (!events) {
		events = getenv("PERFEV_EVENTS");
		from = "PERFEV_EVENTS";
		if (events && !*events)
			events = NULL;
	}
	if (events) {
		err = parse_spec(g, events, from);
	} else {
		/* The hardware group only where a hardware counter opens. */
		err = parse_spec(g, have_hw_pmu() ? DEFAULT_SW "," DEFAULT_HW : DEFAULT_SW,
				 "the default events");
	}
	if (err && err != -EINVAL)
		pev__reg_say_once("setup", "cannot set up the events: %s", strerror(-err));
	if (err) {
		/* Count calls only. */
		for (int i = 0; i < g->nr_events; i++) {
			free(g->ev[i].name);
			free(g->ev[i].unit);
			free(g->ev[i].path);
		}
		for (int i = 0; i < g->nr_groups; i++)
			free(g->groups[i].ev);
		free(g->ev);
		free(g->groups);
		g->ev = NULL;
		g->groups = NULL;
		g->nr_events = g->nr_groups = 0;
	}
	pthread_key_create(&g->key, thread_exit);
	pthread_atfork(NULL, NULL, atfork_child);
	atexit(pev__reg_exit_report);
	atomic_store(&g->state, 1);
	return err;
}

PEV_EXPORT int pev_region_init(const char *events)
{
	struct reg_global *g = &pev__reg;
	int err;

	pthread_mutex_lock(&g->lock);
	if (g->started) {
		pthread_mutex_unlock(&g->lock);
		return -EBUSY;
	}
	if (atomic_load(&g->state)) {
		pthread_mutex_unlock(&g->lock);
		return -EBUSY;
	}
	err = setup_locked(g, events);
	pthread_mutex_unlock(&g->lock);
	return err;
}

static struct reg_thread *thread_new(void)
{
	struct reg_global *g = &pev__reg;
	struct reg_thread *t;

	if (!atomic_load_explicit(&g->state, memory_order_acquire)) {
		pthread_mutex_lock(&g->lock);
		if (!atomic_load(&g->state))
			setup_locked(g, NULL);
		pthread_mutex_unlock(&g->lock);
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = (pid_t)syscall(SYS_gettid);
	if (pev__reg_thread_open(t) < 0) {
		free(t);
		return NULL;
	}
	pthread_mutex_lock(&g->lock);
	g->started = true;
	t->next = g->threads;
	g->threads = t;
	pthread_mutex_unlock(&g->lock);
	pthread_setspecific(g->key, t);
	self = t;
	return t;
}

static size_t hash_ptr(const char *p, size_t cap)
{
	return (size_t)(((uintptr_t)p >> 3) * 0x9E3779B97F4A7C15ull) & (cap - 1);
}

static int cache_put(struct reg_thread *t, const char *key, struct reg_region *r)
{
	if ((t->nr_regions + 1) * 2 > (int)t->hcap || !t->hcap) {
		size_t ncap = t->hcap ? t->hcap * 2 : 64;
		const char **nk = calloc(ncap, sizeof(*nk));
		struct reg_region **nv = calloc(ncap, sizeof(*nv));

		if (!nk || !nv) {
			free(nk);
			free(nv);
			return -ENOMEM;
		}
		for (size_t i = 0; i < t->hcap; i++) {
			size_t h;

			if (!t->hkey[i])
				continue;
			for (h = hash_ptr(t->hkey[i], ncap); nk[h]; h = (h + 1) & (ncap - 1))
				;
			nk[h] = t->hkey[i];
			nv[h] = t->hval[i];
		}
		free(t->hkey);
		free(t->hval);
		t->hkey = nk;
		t->hval = nv;
		t->hcap = ncap;
	}
	size_t h = hash_ptr(key, t->hcap);
	while (t->hkey[h])
		h = (h + 1) & (t->hcap - 1);
	t->hkey[h] = key;
	t->hval[h] = r;
	return 0;
}

/* The region of this name in thread t; created when create. */
static struct reg_region *find_region(struct reg_thread *t, const char *name, bool create)
{
	struct reg_region *r = NULL;

	if (t->hcap) {
		for (size_t h = hash_ptr(name, t->hcap); t->hkey[h]; h = (h + 1) & (t->hcap - 1))
			if (t->hkey[h] == name)
				return t->hval[h];
	}
	/* A new pointer: the same name may already be there (another
	 * literal, a built string). */
	int i = 0;
	for (struct reg_chunk *c = t->chunks; c && !r; c = c->next)
		for (int k = 0; k < REG_CHUNK && i < t->nr_regions; k++, i++)
			if (!strcmp(c->r[k].name, name)) {
				r = &c->r[k];
				break;
			}
	if (!r && create) {
		int k = t->nr_regions % REG_CHUNK;
		struct reg_chunk *c = t->chunks;
		char *copy = strdup(name);

		if (!copy)
			return NULL;
		if (k == 0) {
			struct reg_chunk *n = calloc(1, sizeof(*n));
			if (!n) {
				free(copy);
				return NULL;
			}
			/* Chunks are kept newest first; the reader walks all. */
			n->next = t->chunks;
			atomic_thread_fence(memory_order_release);
			t->chunks = c = n;
		}
		r = &c->r[k];
		r->sum = calloc((size_t)pev__reg.nr_events * 3 + 1, sizeof(uint64_t));
		if (!r->sum) {
			free(copy);
			return NULL;
		}
		r->name = copy;
		atomic_thread_fence(memory_order_release);
		t->nr_regions++;
	}
	if (r)
		cache_put(t, name, r);	/* a miss next time is only slower */
	return r;
}

PEV_EXPORT void pev_region_begin(const char *name)
{
	struct reg_thread *t = self;
	struct reg_region *r;
	struct reg_open *o;

	if (!name)
		return;
	if (!t && !(t = thread_new()))
		return;
	r = find_region(t, name, true);
	if (!r)
		return;
	if (t->depth == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 8;
		struct reg_open *n = realloc(t->stack, ncap * sizeof(*n));

		if (!n)
			return;
		for (size_t i = t->cap; i < ncap; i++) {
			n[i].reg = NULL;
			n[i].snap = calloc((size_t)pev__reg.nr_events * 3 + 1, sizeof(uint64_t));
			if (!n[i].snap) {
				t->stack = n;
				t->cap = i;
				return;
			}
		}
		t->stack = n;
		t->cap = ncap;
	}
	o = &t->stack[t->depth++];
	o->reg = r;
	/* Last, so that our own work above is outside the region. */
	pev__reg_read(t, o->snap);
}

PEV_EXPORT void pev_region_end(const char *name)
{
	struct reg_thread *t = self;
	uint64_t *now;
	size_t i;
	int n;

	if (!name)
		return;
	/* First, so that our own work below is outside the region. */
	if (t)
		pev__reg_read(t, t->tmp);
	if (t) {
		for (i = t->depth; i-- > 0;) {
			const char *rn = t->stack[i].reg->name;
			if (rn == name || !strcmp(rn, name))
				break;
		}
		if (i != (size_t)-1 && t->depth) {
			struct reg_open o = t->stack[i];
			struct reg_region *r = o.reg;

			now = t->tmp;
			n = pev__reg.nr_events * 3;
			atomic_fetch_add_explicit(&t->seq, 1, memory_order_relaxed);
			atomic_thread_fence(memory_order_release);
			r->calls++;
			for (int k = 0; k < n; k++)
				r->sum[k] += now[k] - o.snap[k];
			atomic_thread_fence(memory_order_release);
			atomic_fetch_add_explicit(&t->seq, 1, memory_order_relaxed);
			/* Close the gap, keeping the snapshot buffers. */
			memmove(&t->stack[i], &t->stack[i + 1],
				(t->depth - i - 1) * sizeof(t->stack[0]));
			t->stack[--t->depth] = o;
			return;
		}
	}
	char key[300];
	snprintf(key, sizeof(key), "end:%s", name);
	pev__reg_say_once(key, "pev_region_end(\"%s\") without a matching "
			  "pev_region_begin in thread %d; ignored", name,
			  (int)syscall(SYS_gettid));
}
