// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The machine: threads (tid -> pid, comm) and process maps (pid -> sorted
 * maps), built from a file's side-band records, and address resolution
 * with a small ip cache. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <perfev/symbols.h>
#include "symbol/symbols_internal.h"
#include "core/util.h"

struct map {
	uint64_t start, end, pgoff;
	struct pev_dso *dso;
	bool identity;			/* map_ip = ip (kernel, [heap], ...) */
	uint32_t flags, prot;		/* MMAP2's */
};

struct maps {
	struct map *v;
	size_t nr, cap;
	uint64_t uid;			/* changes on every modification */
};

struct proc {
	uint32_t pid;
	bool used;
	struct maps maps;
	/* Data maps, without PEV_MACHINE_DATA_MAPS: kept aside, without a
	 * DSO, for the unwinder (perf's reader gives 0 in a map, fails
	 * outside any). */
	struct maps data;
};

/* A name as /proc/PID/comm shows it: the kernel's proc_task_name fills
 * 64 bytes (a kworker's name carries its workqueue's), and perf keeps
 * COMM names whole. */
#define MACHINE_COMM_LEN 64

struct thread {
	uint32_t tid, pid;
	int32_t ppid;		/* the parent's tid from a FORK, -1 when none */
	bool used;
	bool comm_set;		/* named by a COMM (or a named parent), not ":TID" */
	char comm[MACHINE_COMM_LEN];
};

/* Open-addressing tables keyed by pid / tid. */
struct proc_tab { struct proc *v; size_t cap, nr; };
struct thread_tab { struct thread *v; size_t cap, nr; };

#define CACHE_BITS 14
struct cache_ent {
	uint64_t uid, ip;
	struct pev_addr_loc loc;
	int rc;
	uint8_t cpumode;
};

struct pev_machine {
	struct pev_dso_cache *dsos;
	struct proc_tab procs;
	struct thread_tab threads;
	struct maps kernel;
	uint64_t next_uid;
	char unknown_comm[MACHINE_COMM_LEN];
	struct cache_ent *cache;
	struct proc *last_proc;		/* the last looked-up process */
	unsigned flags;			/* PEV_MACHINE_* */
};

static inline size_t hash32(uint32_t k, size_t cap)
{
	return (size_t)((k * 2654435761u) & (cap - 1));
}

static struct proc *proc_find(struct pev_machine *m, uint32_t pid)
{
	struct proc_tab *t = &m->procs;

	if (m->last_proc && m->last_proc->pid == pid)
		return m->last_proc;
	if (!t->cap)
		return NULL;
	for (size_t i = hash32(pid, t->cap);; i = (i + 1) & (t->cap - 1)) {
		if (!t->v[i].used)
			return NULL;
		if (t->v[i].pid == pid)
			return m->last_proc = &t->v[i];
	}
}

static int proc_tab_grow(struct pev_machine *m)
{
	struct proc_tab *t = &m->procs, n = { 0 };

	n.cap = t->cap ? t->cap * 2 : 64;
	n.v = calloc(n.cap, sizeof(*n.v));
	if (!n.v)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->v[i].used)
			continue;
		size_t j = hash32(t->v[i].pid, n.cap);

		while (n.v[j].used)
			j = (j + 1) & (n.cap - 1);
		n.v[j] = t->v[i];
	}
	n.nr = t->nr;
	free(t->v);
	*t = n;
	m->last_proc = NULL;
	return 0;
}

static struct proc *proc_findnew(struct pev_machine *m, uint32_t pid)
{
	struct proc *p = proc_find(m, pid);

	if (p)
		return p;
	if ((m->procs.nr + 1) * 2 > m->procs.cap && proc_tab_grow(m) < 0)
		return NULL;
	size_t i = hash32(pid, m->procs.cap);

	while (m->procs.v[i].used)
		i = (i + 1) & (m->procs.cap - 1);
	p = &m->procs.v[i];
	p->used = true;
	p->pid = pid;
	memset(&p->maps, 0, sizeof(p->maps));
	memset(&p->data, 0, sizeof(p->data));
	p->maps.uid = ++m->next_uid;
	m->procs.nr++;
	return p;
}

static struct thread *thread_find(struct pev_machine *m, uint32_t tid)
{
	struct thread_tab *t = &m->threads;

	if (!t->cap)
		return NULL;
	for (size_t i = hash32(tid, t->cap);; i = (i + 1) & (t->cap - 1)) {
		if (!t->v[i].used)
			return NULL;
		if (t->v[i].tid == tid)
			return &t->v[i];
	}
}

static struct thread *thread_findnew(struct pev_machine *m, uint32_t pid, uint32_t tid)
{
	struct thread_tab *t = &m->threads;
	struct thread *th = thread_find(m, tid);

	if (th)
		return th;
	if ((t->nr + 1) * 2 > t->cap) {
		struct thread_tab n = { 0 };

		n.cap = t->cap ? t->cap * 2 : 64;
		n.v = calloc(n.cap, sizeof(*n.v));
		if (!n.v)
			return NULL;
		for (size_t i = 0; i < t->cap; i++) {
			if (!t->v[i].used)
				continue;
			size_t j = hash32(t->v[i].tid, n.cap);

			while (n.v[j].used)
				j = (j + 1) & (n.cap - 1);
			n.v[j] = t->v[i];
		}
		n.nr = t->nr;
		free(t->v);
		*t = n;
	}
	size_t i = hash32(tid, t->cap);

	while (t->v[i].used)
		i = (i + 1) & (t->cap - 1);
	th = &t->v[i];
	th->used = true;
	th->tid = tid;
	th->pid = pid;
	th->comm_set = false;
	th->ppid = -1;
	snprintf(th->comm, sizeof(th->comm), ":%d", (int)tid);
	t->nr++;
	return th;
}

PEV_EXPORT struct pev_machine *pev_machine_new(struct pev_dso_cache *cache)
{
	struct pev_machine *m;

	if (!cache) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m || !(m->cache = calloc((size_t)1 << CACHE_BITS, sizeof(*m->cache)))) {
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	m->dsos = cache;
	m->kernel.uid = ++m->next_uid;
	/* perf names the idle task "swapper" before any record says so. */
	struct thread *sw = thread_findnew(m, 0, 0);

	if (!sw) {
		pev_machine_free(m);
		errno = ENOMEM;
		return NULL;
	}
	strcpy(sw->comm, "swapper");
	sw->comm_set = true;
	return m;
}

PEV_EXPORT void pev_machine_free(struct pev_machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->procs.cap; i++)
		if (m->procs.v[i].used) {
			free(m->procs.v[i].maps.v);
			free(m->procs.v[i].data.v);
		}
	free(m->procs.v);
	free(m->threads.v);
	free(m->kernel.v);
	free(m->cache);
	free(m);
}

/* Inserts [start, end) into sorted maps, cutting what it overlaps (the
 * newest mapping wins, as in the kernel). */
static int maps_insert(struct pev_machine *m, struct maps *ms, const struct map *nm)
{
	/* Worst case: one old map split in two, plus the new one. */
	if (pev__grow_array(ms->v, &ms->cap, ms->nr + 2, 16) < 0)
		return -ENOMEM;
	size_t out = 0, n = ms->nr;
	struct map tail = { 0 };
	bool have_tail = false;

	for (size_t i = 0; i < n; i++) {
		struct map o = ms->v[i];

		if (o.end <= nm->start || o.start >= nm->end) {
			ms->v[out++] = o;
			continue;
		}
		if (o.start < nm->start) {	/* keep the part before */
			struct map a = o;

			a.end = nm->start;
			ms->v[out++] = a;
		}
		if (o.end > nm->end) {		/* and the part after */
			tail = o;
			if (!o.identity)
				tail.pgoff += nm->end - o.start;
			tail.start = nm->end;
			have_tail = true;
		}
	}
	ms->nr = out;
	/* Place the new map (and the cut tail) in order. */
	size_t pos = 0;

	while (pos < ms->nr && ms->v[pos].start < nm->start)
		pos++;
	size_t add = have_tail ? 2 : 1;

	memmove(&ms->v[pos + add], &ms->v[pos], (ms->nr - pos) * sizeof(*ms->v));
	ms->v[pos] = *nm;
	if (have_tail)
		ms->v[pos + 1] = tail;
	ms->nr += add;
	ms->uid = ++m->next_uid;
	return 0;
}

static const struct map *maps_find(const struct maps *ms, uint64_t ip)
{
	size_t lo = 0, hi = ms->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct map *p = &ms->v[mid];

		if (ip < p->start)
			hi = mid;
		else if (ip >= p->end)
			lo = mid + 1;
		else
			return p;
	}
	return NULL;
}

/* A copy of src's maps into *dst (empty when src has none). */
static int maps_copy(struct maps *dst, const struct maps *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!src->nr)
		return 0;
	dst->v = malloc(src->nr * sizeof(*dst->v));
	if (!dst->v)
		return -ENOMEM;
	memcpy(dst->v, src->v, src->nr * sizeof(*dst->v));
	dst->nr = dst->cap = src->nr;
	return 0;
}

static bool is_anon(const char *f)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14) || !strncmp(f, "[anon:", 6);
}

static bool is_no_dso(const char *f)
{
	return !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) ||
	       !strcmp(f, "[heap]");
}

/* perf 6.1 names the vDSO of a 32-bit process "[vdso32]" (x32:
 * "[vdsox32]"): the process's type is that of its lowest-mapped file
 * whose ELF class is known. */
static const char *vdso_name(const struct proc *p)
{
	for (size_t i = 0; i < p->maps.nr; i++) {
		const char *n = pev_dso_name(p->maps.v[i].dso);
		unsigned char h[20];

		if (!n || n[0] != '/')
			continue;
		FILE *f = fopen(n, "rb");
		size_t got = f ? fread(h, 1, sizeof(h), f) : 0;

		if (f)
			fclose(f);
		if (got != sizeof(h) || memcmp(h, "\177ELF", 4) || (h[4] != 1 && h[4] != 2))
			continue;
		if (h[4] == 2)
			return "[vdso]";
		return (h[18] | h[19] << 8) == 62 ? "[vdsox32]" : "[vdso32]";
	}
	return "[vdso]";
}

static int process_mmap(struct pev_machine *m, const struct pev_record *rec)
{
	const struct pev_record_mmap *mm = &rec->u.mmap;
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || mm->pid == (uint32_t)-1;
	struct map nm = { mm->addr, mm->addr + mm->len, mm->pgoff, NULL, false,
			  rec->type == PERF_RECORD_MMAP2 ? mm->flags : 0,
			  rec->type == PERF_RECORD_MMAP2 ? mm->prot : 0 };
	char anon_name[64];
	const char *name = mm->filename;
	struct maps *ms;

	bool data = rec->misc & PERF_RECORD_MISC_MMAP_DATA;

	if (data && !(m->flags & PEV_MACHINE_DATA_MAPS)) {
		struct proc *p = kernel || !mm->len || nm.end < nm.start ? NULL :
				 proc_findnew(m, mm->pid);

		return p ? maps_insert(m, &p->data, &nm) : 0;
	}
	if (!mm->len || nm.end < nm.start)
		return 0;
	if (rec->type == PERF_RECORD_MMAP2 && mm->has_build_id && mm->build_id_size &&
	    name[0] == '/') {
		int err = pev_dso_cache_set_build_id(m->dsos, name, mm->build_id,
						     mm->build_id_size);
		if (err < 0)
			return err;
	}
	if (kernel) {
		ms = &m->kernel;
		nm.identity = true;
		/* perf's kernel map runs to the next kernel map (modules) or
		 * the end of the address space, not just over _text..._etext. */
		if (!strncmp(name, "[kernel.kallsyms]", 17)) {
			name = "[kernel.kallsyms]";
			nm.end = UINT64_MAX;
		}
	} else {
		struct proc *p = proc_findnew(m, mm->pid);

		if (!p)
			return -ENOMEM;
		ms = &p->maps;
		/* perf's map__new: anonymous and DSO-less memory map ip to
		 * itself; when executable it is a JIT's, named by the
		 * process's perf map (an MMAP record has no prot: it is
		 * executable unless it carries the data flag). */
		bool anon = is_anon(name) || (rec->type == PERF_RECORD_MMAP2 &&
					     (mm->flags & MAP_HUGETLB));
		bool no_dso = is_no_dso(name);
		bool exec = !data && (rec->type != PERF_RECORD_MMAP2 || (mm->prot & PROT_EXEC));

		if ((anon || no_dso) && exec) {
			snprintf(anon_name, sizeof(anon_name), "/tmp/perf-%d.map", (int)mm->pid);
			name = anon_name;
		}
		nm.identity = anon || no_dso;
		if (!strcmp(name, "[vdso]"))
			name = vdso_name(p);
	}
	/* perf: a kernel map named "[...]" other than the kernel's is a
	 * module's, as perf record writes them where it finds no .ko. */
	if (kernel && name[0] == '[' && strncmp(name, "[kernel.kallsyms]", 17))
		nm.dso = pev__dso_cache_get_module(m->dsos, name);
	else
		nm.dso = pev_dso_cache_get(m->dsos, name);
	if (!nm.dso)
		return -ENOMEM;
	if (rec->type == PERF_RECORD_MMAP2 && !mm->has_build_id) {
		struct pev_dso_id id = { mm->maj, mm->min, mm->ino, mm->ino_generation };

		pev__dso_set_id(nm.dso, &id);
	}
	return maps_insert(m, ms, &nm);
}

static int process_comm(struct pev_machine *m, const struct pev_record *rec)
{
	const struct pev_record_comm *c = &rec->u.comm;
	struct thread *th = thread_findnew(m, c->pid, c->tid);

	if (!th)
		return -ENOMEM;
	th->pid = c->pid;
	th->comm_set = true;
	snprintf(th->comm, sizeof(th->comm), "%s", c->comm);
	/* An exec replaces the address space, but the maps stay until the
	 * new image's MMAPs cut them: the kernel writes COMM(exec) before
	 * the new mappings, and samples taken later inside execve() still
	 * unwind through the old image's user stack (perf resolves them the
	 * same way).  PEV_MACHINE_EXEC_RESETS_MAPS empties them instead. */
	if (c->exec && (m->flags & PEV_MACHINE_EXEC_RESETS_MAPS)) {
		struct proc *p = proc_find(m, c->pid);

		if (p && p->maps.nr) {
			p->maps.nr = 0;
			p->maps.uid = ++m->next_uid;
		}
		if (p)
			p->data.nr = 0;
	}
	return 0;
}

static int process_fork(struct pev_machine *m, const struct pev_record *rec)
{
	const struct pev_record_fork *f = &rec->u.fork;
	/* perf's machine__process_fork_event creates the parent when it is
	 * unknown (it shows in report --tasks) */
	struct thread *parent = thread_findnew(m, f->ppid, f->ptid);

	if (!parent)
		return -ENOMEM;
	char comm[MACHINE_COMM_LEN];
	/* perf's thread__fork: the child takes its parent's name only when
	 * a COMM set it; else it keeps its own ":TID" */
	bool named = parent && parent->comm_set;

	if (named)
		memcpy(comm, parent->comm, sizeof(comm));
	else
		snprintf(comm, sizeof(comm), ":%d", (int)f->tid);
	struct thread *th = thread_findnew(m, f->pid, f->tid);

	if (!th)
		return -ENOMEM;
	th->pid = f->pid;
	th->ppid = (int32_t)f->ptid;
	th->comm_set = named;
	memcpy(th->comm, comm, sizeof(comm));
	if (f->pid == f->ppid || f->pid == f->ptid)
		return 0;	/* a new thread: it shares its process's maps */
	/* perf record's synthesized FORKs carry FORK_EXEC: the process's own
	 * MMAPs follow, and perf clones nothing from the parent */
	if (rec->misc & PERF_RECORD_MISC_FORK_EXEC)
		return proc_findnew(m, f->pid) ? 0 : -ENOMEM;
	struct proc *pp = proc_find(m, f->ppid);
	struct maps copy = { 0 }, dcopy = { 0 };

	if ((pp && maps_copy(&copy, &pp->maps) < 0) ||
	    (pp && maps_copy(&dcopy, &pp->data) < 0)) {
		free(copy.v);
		return -ENOMEM;
	}
	struct proc *np = proc_findnew(m, f->pid);	/* may move pp */

	if (!np) {
		free(copy.v);
		free(dcopy.v);
		return -ENOMEM;
	}
	free(np->maps.v);
	free(np->data.v);
	np->maps = copy;
	np->maps.uid = ++m->next_uid;
	np->data = dcopy;
	return 0;
}

bool pev__machine_data_map_at(struct pev_machine *m, uint32_t pid, uint64_t addr)
{
	struct proc *p = proc_find(m, pid);

	return p && maps_find(&p->data, addr);
}

PEV_EXPORT int pev_machine_process(struct pev_machine *m,
				   const struct pev_record *rec)
{
	if (!m || !rec)
		return -EINVAL;
	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return process_mmap(m, rec);
	case PERF_RECORD_COMM:
		return process_comm(m, rec);
	case PERF_RECORD_FORK:
		return process_fork(m, rec);
	case PERF_RECORD_EXIT:
		return 0;
	default:
		return 0;
	}
}

PEV_EXPORT const char *pev_machine_comm(struct pev_machine *m, uint32_t pid,
					uint32_t tid)
{
	struct thread *th;

	(void)pid;
	if (!m)
		return "";
	th = thread_find(m, tid);
	if (th)
		return th->comm;
	snprintf(m->unknown_comm, sizeof(m->unknown_comm), ":%d", (int)tid);
	return m->unknown_comm;
}

PEV_EXPORT int pev_machine_threads(struct pev_machine *m, pev_machine_thread_fn fn,
				   void *arg)
{
	if (!m || !fn)
		return -EINVAL;
	for (size_t i = 0; i < m->threads.cap; i++) {
		const struct thread *th = &m->threads.v[i];

		if (!th->used)
			continue;
		struct pev_machine_thread t = { th->pid, th->tid, th->ppid, th->comm };
		int rc = fn(&t, arg);

		if (rc)
			return rc;
	}
	return 0;
}

PEV_EXPORT int pev_machine_maps(struct pev_machine *m, int64_t pid, pev_machine_map_fn fn,
				void *arg)
{
	const struct maps *ms;

	if (!m || !fn)
		return -EINVAL;
	if (pid == -1) {
		ms = &m->kernel;
	} else {
		const struct proc *p = proc_find(m, (uint32_t)pid);

		if (!p)
			return 0;
		ms = &p->maps;
	}
	for (size_t i = 0; i < ms->nr; i++) {
		const struct map *mp = &ms->v[i];
		struct pev_machine_map e = { mp->start, mp->end, mp->pgoff,
					     pev_dso_id(mp->dso).ino, mp->prot, mp->flags,
					     pev_dso_name(mp->dso) };
		int rc = fn(&e, arg);

		if (rc)
			return rc;
	}
	return 0;
}

bool pev__machine_comm_set(const struct pev_machine *m, uint32_t tid)
{
	const struct thread *th = m ? thread_find((struct pev_machine *)m, tid) : NULL;

	return th && th->comm_set;
}

/* Addresses at or above this are the kernel's (x86_64, arm64 and the
 * other 64-bit ports put the kernel in the top half). */
#define KERNEL_SPACE_START 0x8000000000000000ull

static int resolve_uncached(struct pev_machine *m, const struct maps *ms,
			    uint64_t ip, struct pev_addr_loc *out)
{
	const struct map *mp = ms ? maps_find(ms, ip) : NULL;

	memset(out, 0, sizeof(*out));
	out->kernel = ms == &m->kernel;
	out->map_ip = ip;
	if (!mp)
		return -ENOENT;
	out->dso = mp->dso;
	out->map_start = mp->start;
	out->map_end = mp->end;
	out->map_pgoff = mp->pgoff;
	out->map_flags = mp->flags;
	out->map_prot = mp->prot;
	if (!mp->identity)
		out->map_ip = ip - mp->start + mp->pgoff;
	const struct pev_symtab *st = pev_dso_symtab(mp->dso);

	if (st) {
		uint64_t addr = mp->identity ? ip :
				pev_dso_offset_to_vaddr(mp->dso, out->map_ip);
		const struct pev_symbol *s = pev_symtab_lookup(st, addr);

		if (s) {
			out->sym = s;
			out->sym_off = addr - s->start;
		}
	}
	return 0;
}

PEV_EXPORT int pev_machine_resolve(struct pev_machine *m, uint32_t pid,
				   uint64_t ip, uint8_t cpumode,
				   struct pev_addr_loc *out)
{
	const struct maps *ms;

	if (!m || !out)
		return -EINVAL;
	cpumode &= PERF_RECORD_MISC_CPUMODE_MASK;
	/* perf looks a user-mode address up in the process's maps only: a
	 * kernel-space value in a user call chain (a stale frame pointer) is
	 * [unknown], not the kernel's. */
	if (cpumode == PERF_RECORD_MISC_KERNEL ||
	    (ip >= KERNEL_SPACE_START && cpumode != PERF_RECORD_MISC_USER)) {
		ms = &m->kernel;
	} else {
		struct proc *p = proc_find(m, pid);

		ms = p ? &p->maps : NULL;
	}
	uint64_t uid = ms ? ms->uid : 0;
	size_t h = (size_t)(((ip >> 2) ^ (uid * 0x9e3779b97f4a7c15ull)) *
			    0x9e3779b97f4a7c15ull >> (64 - CACHE_BITS));
	struct cache_ent *e = &m->cache[h];

	if (e->uid == uid && e->ip == ip && uid) {
		*out = e->loc;
		return e->rc;
	}
	int rc = resolve_uncached(m, ms, ip, out);

	if (uid) {
		e->uid = uid;
		e->ip = ip;
		e->loc = *out;
		e->rc = rc;
	}
	return rc;
}

PEV_EXPORT void pev_machine_set_flags(struct pev_machine *m, unsigned flags)
{
	if (m)
		m->flags = flags;
}

PEV_EXPORT long pev_machine_nr_maps(struct pev_machine *m, int64_t pid)
{
	struct proc *p;

	if (!m)
		return -EINVAL;
	if (pid == -1)
		return (long)m->kernel.nr;
	p = proc_find(m, (uint32_t)pid);
	return p ? (long)p->maps.nr : -ENOENT;
}
