// SPDX-License-Identifier: GPL-2.0-only
/* perfev record: after the recording, as perf does in its post-processing
 * pass, the data is read back to find the DSOs that samples hit (their
 * build ids go into HEADER_BUILD_ID); and the summary on stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include <perfev/symbols.h>
#include "record/record.h"

struct map {
	uint32_t pid;
	uint64_t start, end;
	size_t dso;
};

struct hits {
	struct map *maps;
	size_t nmaps, capmaps;
	char **dsos;
	bool *hit;
	size_t ndsos;
	uint32_t (*parent)[2];	/* FORK: {child, parent} */
	size_t nparent, capparent;
	bool kernel_hit;
	int err;
	size_t last;		/* map of the last hit: most ips fall there */
};

static size_t dso_index(struct hits *h, const char *name)
{
	for (size_t i = 0; i < h->ndsos; i++)
		if (!strcmp(h->dsos[i], name))
			return i;
	char **d = realloc(h->dsos, (h->ndsos + 1) * sizeof(*d));
	bool *b = d ? realloc(h->hit, (h->ndsos + 1) * sizeof(*b)) : NULL;

	if (d)
		h->dsos = d;
	if (b)
		h->hit = b;
	if (!d || !b || !(h->dsos[h->ndsos] = strdup(name))) {
		h->err = -ENOMEM;
		return SIZE_MAX;
	}
	h->hit[h->ndsos] = false;
	return h->ndsos++;
}

/* perf 6.1's name for the vDSO of process pid: "[vdso32]" ("[vdsox32]")
 * when the lowest-mapped file of the process whose ELF class is known
 * is 32-bit (x32), as perf tells a thread's type. */
static const char *vdso_name(const struct hits *h, uint32_t pid)
{
	const struct map *best = NULL;
	unsigned char e[20];

	for (size_t i = 0; i < h->nmaps; i++) {
		const struct map *m = &h->maps[i];

		if (m->pid != pid || h->dsos[m->dso][0] != '/' || (best && best->start < m->start))
			continue;
		FILE *f = fopen(h->dsos[m->dso], "rb");
		size_t got = f ? fread(e, 1, sizeof(e), f) : 0;

		if (f)
			fclose(f);
		if (got == sizeof(e) && !memcmp(e, "\177ELF", 4) && (e[4] == 1 || e[4] == 2))
			best = m;
	}
	if (!best)
		return "[vdso]";
	FILE *f = fopen(h->dsos[best->dso], "rb");
	size_t got = f ? fread(e, 1, sizeof(e), f) : 0;

	if (f)
		fclose(f);
	if (got != sizeof(e) || e[4] == 2)
		return "[vdso]";
	return (e[18] | e[19] << 8) == 62 ? "[vdsox32]" : "[vdso32]";
}

static void add_map(struct hits *h, const struct pev_record_mmap *m)
{
	/* Files and the vDSO: anonymous memory, [stack] and friends have
	 * no id. */
	if (!m->filename || (m->filename[0] != '/' && strcmp(m->filename, "[vdso]")))
		return;
	size_t d = dso_index(h, strcmp(m->filename, "[vdso]") ? m->filename :
				vdso_name(h, m->pid));

	if (d == SIZE_MAX)
		return;
	if (h->nmaps == h->capmaps) {
		size_t cap = h->capmaps ? 2 * h->capmaps : 64;
		struct map *p = realloc(h->maps, cap * sizeof(*p));

		if (!p) {
			h->err = -ENOMEM;
			return;
		}
		h->maps = p;
		h->capmaps = cap;
	}
	h->last = SIZE_MAX;	/* a newer map may hide the cached one */
	h->maps[h->nmaps++] = (struct map){ m->pid, m->addr, m->addr + m->len, d };
}

static void add_parent(struct hits *h, uint32_t child, uint32_t parent)
{
	if (child == parent)
		return;
	if (h->nparent == h->capparent) {
		size_t cap = h->capparent ? 2 * h->capparent : 64;
		void *p = realloc(h->parent, cap * sizeof(*h->parent));

		if (!p) {
			h->err = -ENOMEM;
			return;
		}
		h->parent = p;
		h->capparent = cap;
	}
	h->parent[h->nparent][0] = child;
	h->parent[h->nparent++][1] = parent;
}

/* The newest map of pid (or of an ancestor it forked from) holding ip. */
static void mark(struct hits *h, uint32_t pid, uint64_t ip)
{
	if (h->last < h->nmaps && h->maps[h->last].pid == pid &&
	    ip >= h->maps[h->last].start && ip < h->maps[h->last].end)
		return;		/* its DSO is marked already */
	for (int depth = 0; depth < 16; depth++) {
		for (size_t i = h->nmaps; i-- > 0; ) {
			const struct map *m = &h->maps[i];

			if (m->pid == pid && ip >= m->start && ip < m->end) {
				h->hit[m->dso] = true;
				h->last = i;
				return;
			}
		}
		size_t k = h->nparent;

		while (k-- > 0 && h->parent[k][0] != pid)
			;
		if (k == SIZE_MAX)
			return;
		pid = h->parent[k][1];
	}
}

static void sample_hits(struct hits *h, const struct pev_record *rec)
{
	const struct pev_sample *s = &rec->u.sample;
	unsigned mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (mode == PERF_RECORD_MISC_KERNEL)
		h->kernel_hit = true;
	else if (mode == PERF_RECORD_MISC_USER)
		mark(h, s->pid, s->ip);
	/* Callchains hit DSOs too (perf marks them since 5.x). */
	uint64_t ctx = 0;

	for (uint64_t i = 0; i < s->callchain.nr; i++) {
		uint64_t ip = s->callchain.ips[i];

		if (pev_callchain_is_context(ip))
			ctx = ip;
		else if (ctx == PERF_CONTEXT_USER)
			mark(h, s->pid, ip);
		else if (ctx == PERF_CONTEXT_KERNEL)
			h->kernel_hit = true;
	}
}

static void hits_free(struct hits *h)
{
	for (size_t i = 0; i < h->ndsos; i++)
		free(h->dsos[i]);
	free(h->dsos);
	free(h->hit);
	free(h->maps);
	free(h->parent);
}

/* Reads the data written so far back (the header still says data.size 0,
 * so the reader takes everything up to the end of the file), and adds a
 * BUILD_ID entry for the kernel and each file-backed DSO with hits. */
int rec_collect_build_ids(struct rec *r)
{
	struct pev_data_open_opts oo = { .size = sizeof(oo) };
	char err[256];
	struct hits h = { .last = SIZE_MAX };
	struct pev_data *d = pev_data_open_fd(r->fd, &oo, err, sizeof(err));
	struct pev_data_event ev;
	int n;

	if (!d)
		return -errno;
	while ((n = pev_data_next(d, &ev)) > 0 && !h.err) {
		const struct pev_record *rec = &ev.rec;

		if (ev.decode_error)
			continue;
		switch (rec->type) {
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2:
			if (rec->misc & PERF_RECORD_MISC_MMAP_DATA)
				break;
			add_map(&h, &rec->u.mmap);
			break;
		case PERF_RECORD_FORK:
			add_parent(&h, rec->u.fork.pid, rec->u.fork.ppid);
			break;
		case PERF_RECORD_SAMPLE:
			sample_hits(&h, rec);
			break;
		}
	}
	pev_data_close(d);
	struct pev_data_features *f = pev_data_writer_features(r->w);
	uint8_t id[20];
	int sz;

	/* As perf record, the DSOs with samples also go to perf's build-id
	 * cache (unless -N), so that perf and perfev still resolve them
	 * once the files are rebuilt or gone; a failure there is not the
	 * recording's (perf ignores it too). */
	bool cache = !r->o.no_buildid_cache;

	if (h.kernel_hit && (sz = pev_kernel_build_id(id, sizeof(id))) > 0) {
		pev_data_features_add_build_id(f, -1, PERF_RECORD_MISC_KERNEL, id,
					       (size_t)sz, "[kernel.kallsyms]");
		if (cache)
			pev_buildid_cache_add(NULL, "[kernel.kallsyms]", id, (size_t)sz);
	}
	/* In the order the maps came, as perf's list of DSOs; the vDSO
	 * whether hit or not (perf 6.1 always writes and caches it), with
	 * the id of the recorder's own (the kernel maps one vDSO in all),
	 * and a 32-bit process's "[vdso32]" with the 32-bit one's. */
	for (size_t i = 0; i < h.ndsos && !h.err; i++) {
		bool vdso = !strcmp(h.dsos[i], "[vdso]"), vdso32 = !strcmp(h.dsos[i], "[vdso32]");

		if (!h.hit[i] && !vdso && !vdso32)
			continue;
		sz = vdso ? pev_vdso_build_id(id, sizeof(id)) :
		     vdso32 ? pev_vdso32_build_id(id, sizeof(id)) :
		     h.dsos[i][0] == '/' ? pev_elf_build_id(h.dsos[i], id, sizeof(id)) : -ENOENT;
		if (sz <= 0)
			continue;
		h.err = pev_data_features_add_build_id(f, -1, PERF_RECORD_MISC_USER,
						       id, (size_t)sz, h.dsos[i]);
		if (cache && !h.err)
			pev_buildid_cache_add(NULL, h.dsos[i], id, (size_t)sz);
	}
	hits_free(&h);
	return n < 0 ? n : h.err;
}

void rec_summary(const struct rec *r)
{
	const char *name = r->pipe ? "(pipe)" : r->path;
	/* After a cut the writer reports the size that stayed. */
	double mb = (double)(r->pipe ? r->bytes : pev_data_writer_data_size(r->w)) /
		    1024.0 / 1024.0;

	if (r->o.quiet)
		return;
	fprintf(stderr, "[ perfev record: Woken up %llu times to write data ]\n",
		(unsigned long long)r->wakeups);
	if (r->lost)
		fprintf(stderr, "[ perfev record: Lost %llu samples (%llu LOST records) ]\n",
			(unsigned long long)r->lost, (unsigned long long)r->lost_records);
	if (r->o.zlevel && r->w)
		fprintf(stderr, "[ perfev record: Captured and wrote %.3f MB %s, compressed "
			"(original %.3f MB, ratio is %.3f) (%llu samples) ]\n", mb, name,
			(double)pev_data_writer_raw_size(r->w) / 1024.0 / 1024.0,
			pev_data_writer_data_size(r->w) ?
			(double)pev_data_writer_raw_size(r->w) /
			(double)pev_data_writer_data_size(r->w) : 0.0,
			(unsigned long long)r->samples);
	else
		fprintf(stderr, "[ perfev record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
			mb, name, (unsigned long long)r->samples);
}
