// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The DSO cache: one object per path, symbols loaded on first use from
 * the best file perf would pick (a debug file with a full .symtab, else
 * the binary's own .symtab/.dynsym). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/data.h>
#include <perfev/jit.h>
#include <perfev/symbols.h>
#include "symbol/symbols_internal.h"
#include "symbol/debuginfod.h"

#define DSO_BUCKETS 256

struct build_id_entry {
	struct build_id_entry *next;
	uint8_t id[20];
	int size;
	char path[];
};

struct pev_dso {
	struct pev_dso *next;		/* hash chain */
	struct pev_dso_cache *cache;
	char *name;
	bool kernel, vdso, module;
	bool loaded;			/* symbol load attempted */
	bool info_loaded;
	bool source_symtab;	/* the symbol source has a .symtab */
	struct pev_symtab *symtab;
	bool owns_symtab;
	char *source;
	struct pev_elf_info info;	/* of the runtime file */
	uint8_t bid[20];
	int bid_size;
	struct pev_dso_id id;
};

struct pev_dso_cache {
	struct pev_dso *buckets[DSO_BUCKETS];
	struct build_id_entry *build_ids;
	char *buildid_dir;		/* NULL: off */
	char *kallsyms;
	char *symfs;			/* --symfs: a root for the files */
	char *vmlinux;			/* --vmlinux: the kernel's ELF image */
	bool no_debug_files;
	bool no_demangle;		/* --no-demangle */
	struct pev_dso *kernel;
	struct pev__debuginfod *debuginfod;	/* NULL: none asked */
	bool debuginfod_tried;
};

bool pev__dso_demangle(const struct pev_dso *d)
{
	return !d || !d->cache || !d->cache->no_demangle;
}

static unsigned hash_str(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

PEV_EXPORT struct pev_dso_cache *
pev_dso_cache_new(const struct pev_dso_cache_opts *opts)
{
	struct pev_dso_cache *c = calloc(1, sizeof(*c));
	const char *dir = NULL;
	char buf[4096];

	if (!c)
		goto nomem;
	if (opts && opts->size >= offsetof(struct pev_dso_cache_opts, kallsyms) +
	    sizeof(opts->kallsyms)) {
		dir = opts->buildid_dir;
		if (opts->kallsyms && !(c->kallsyms = strdup(opts->kallsyms)))
			goto nomem;
	}
	if (opts && opts->size >= offsetof(struct pev_dso_cache_opts, no_debug_files) +
	    sizeof(opts->no_debug_files))
		c->no_debug_files = opts->no_debug_files;
	if (opts && opts->size >= offsetof(struct pev_dso_cache_opts, symfs) +
	    sizeof(opts->symfs) && opts->symfs && *opts->symfs &&
	    !(c->symfs = strdup(opts->symfs)))
		goto nomem;
	if (opts && opts->size >= offsetof(struct pev_dso_cache_opts, vmlinux) +
	    sizeof(opts->vmlinux) && opts->vmlinux &&
	    !(c->vmlinux = strdup(opts->vmlinux)))
		goto nomem;
	if (opts && opts->size >= offsetof(struct pev_dso_cache_opts, no_demangle) +
	    sizeof(opts->no_demangle))
		c->no_demangle = opts->no_demangle;
	/* perf's --symfs DIR also moves the build-id cache to DIR/.debug
	 * (symbol__config_symfs): a file missing under DIR is not found in
	 * the local cache either */
	if (!dir && c->symfs) {
		snprintf(buf, sizeof(buf), "%s/.debug", c->symfs);
		dir = buf;
	}
	if (!dir && pev__buildid_dir(buf, sizeof(buf)) == 0)
		dir = buf;
	if (dir && *dir && !(c->buildid_dir = strdup(dir)))
		goto nomem;
	return c;
nomem:
	if (c) {
		free(c->kallsyms);
		free(c->symfs);
		free(c->vmlinux);
		free(c);
	}
	errno = ENOMEM;
	return NULL;
}

static void dso_free(struct pev_dso *d)
{
	if (d->owns_symtab)
		pev_symtab_free(d->symtab);
	free(d->name);
	free(d->source);
	free(d);
}

PEV_EXPORT void pev_dso_cache_free(struct pev_dso_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < DSO_BUCKETS; i++) {
		for (struct pev_dso *d = c->buckets[i], *n; d; d = n) {
			n = d->next;
			dso_free(d);
		}
	}
	for (struct build_id_entry *b = c->build_ids, *n; b; b = n) {
		n = b->next;
		free(b);
	}
	pev__debuginfod_free(c->debuginfod);
	free(c->buildid_dir);
	free(c->kallsyms);
	free(c->symfs);
	free(c->vmlinux);
	free(c);
}

static struct build_id_entry *find_build_id(struct pev_dso_cache *c, const char *path)
{
	for (struct build_id_entry *b = c->build_ids; b; b = b->next)
		if (!strcmp(b->path, path))
			return b;
	return NULL;
}

PEV_EXPORT int pev_dso_cache_set_build_id(struct pev_dso_cache *c,
					  const char *path, const uint8_t *id,
					  size_t size)
{
	struct build_id_entry *b;

	if (!c || !path || !id || size > 20)
		return -EINVAL;
	b = find_build_id(c, path);
	if (!b) {
		b = calloc(1, sizeof(*b) + strlen(path) + 1);
		if (!b)
			return -ENOMEM;
		strcpy(b->path, path);
		b->next = c->build_ids;
		c->build_ids = b;
	}
	memcpy(b->id, id, size);
	b->size = (int)size;
	return 0;
}

/* "/lib/modules/6.1.0/kernel/fs/foo-bar.ko.xz" -> "[foo_bar]". */
static char *module_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *out;
	size_t n;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	out = malloc(n + 3);
	if (!out)
		return NULL;
	out[0] = '[';
	for (size_t i = 0; i < n; i++)
		out[i + 1] = base[i] == '-' ? '_' : base[i];
	out[n + 1] = ']';
	out[n + 2] = 0;
	return out;
}

static bool is_module_path(const char *path)
{
	size_t n = strlen(path);

	return path[0] == '/' && (strstr(path, ".ko") &&
	       (n > 3 && (!strcmp(path + n - 3, ".ko") || strstr(path, ".ko."))));
}

PEV_EXPORT struct pev_dso *pev_dso_cache_get(struct pev_dso_cache *c,
					     const char *path)
{
	unsigned h;
	struct pev_dso *d;

	if (!c || !path) {
		errno = EINVAL;
		return NULL;
	}
	h = hash_str(path) % DSO_BUCKETS;
	for (d = c->buckets[h]; d; d = d->next)
		if (!strcmp(d->name, path) || (d->module && d->source &&
		    !strcmp(d->source, path)))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		goto nomem;
	d->cache = c;
	d->kernel = !strcmp(path, "[kernel.kallsyms]") ||
		    !strncmp(path, "[kernel.kallsyms]", 17);
	d->vdso = !strcmp(path, "[vdso]") || !strcmp(path, "[vdso32]") ||
		  !strcmp(path, "[vdsox32]");
	d->module = !d->kernel && is_module_path(path);
	if (d->kernel)
		d->name = strdup("[kernel.kallsyms]");
	else if (d->module)
		d->name = module_name(path);
	else
		d->name = strdup(path);
	if (!d->name)
		goto nomem;
	if (d->module && !(d->source = strdup(path)))
		goto nomem;
	struct build_id_entry *b = find_build_id(c, d->kernel ? "[kernel.kallsyms]" : path);

	if (b) {
		memcpy(d->bid, b->id, 20);
		d->bid_size = b->size;
	}
	d->next = c->buckets[h];
	c->buckets[h] = d;
	if (d->kernel && !c->kernel)
		c->kernel = d;
	return d;
nomem:
	if (d) {
		free(d->name);
		free(d);
	}
	errno = ENOMEM;
	return NULL;
}

PEV_EXPORT const char *pev_dso_name(const struct pev_dso *dso)
{
	return dso ? dso->name : "[unknown]";
}

PEV_EXPORT const char *pev_dso_symbol_source(const struct pev_dso *dso)
{
	return dso && dso->symtab ? dso->source : NULL;
}

PEV_EXPORT const char *pev_dso_srcline_path(struct pev_dso *dso)
{
	const char *p;

	if (!dso)
		return NULL;
	pev_dso_symtab(dso);
	/* perf: the file its symbols came from when that has a .symtab
	 * (symsrc_filename), else the DSO's own name */
	p = dso->source && dso->source_symtab ? dso->source : dso->name;
	if (p[0] == '[' || !strncmp(p, "/tmp/perf-", 10))
		return NULL;
	return p;
}

static void hex(char *out, const uint8_t *id, int n)
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < n; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * n] = 0;
}

/* Whether info's program headers place the file's bytes: a debug file
 * (objcopy --only-keep-debug, a distribution's .debug, perf's cached
 * `debug`) keeps the segments' addresses but no bytes (p_filesz 0, p_offset
 * 0 in every PT_LOAD), so its headers cannot map a file offset to an
 * address: every offset of libc's text landed in its first segment,
 * 0x26000 further on, and named another function. */
static bool runtime_image(const struct pev_elf_info *info)
{
	for (size_t i = 0; i < info->nr_loads; i++)
		if (info->loads[i].filesz)
			return true;
	return false;
}

/* Tries one candidate file: with a full .symtab (or, when `any`, any
 * symbol table) and the DSO's build id when one is known. */
static bool try_file(struct pev_dso *d, const char *path, bool any,
		     const char *runtime)
{
	struct pev_elf_info info;

	if (access(path, R_OK) != 0 || pev__elf_info_read(path, NULL, 0, &info) < 0)
		return false;
	if (d->bid_size && info.build_id_size &&
	    (info.build_id_size != d->bid_size ||
	     memcmp(info.build_id, d->bid, (size_t)d->bid_size)))
		return false;
	if (!info.has_symtab && !(any && info.has_dynsym))
		return false;
	/* perf takes the PLT from the runtime binary, or from the symbol
	 * file itself when the binary is not there. */
	struct pev_symtab *st = pev__symtab_load_elf_plt(path, runtime ? runtime : path,
							 !d->cache->no_demangle);

	if (!st)
		return false;
	d->symtab = st;
	d->owns_symtab = true;
	d->source = strdup(path);
	d->source_symtab = info.has_symtab;
	if ((!d->info_loaded || !d->info.nr_loads) && runtime_image(&info)) {
		d->info = info;
		d->info_loaded = true;
	}
	return true;
}

/* perf's build-id cache: ~/.debug/.build-id/xx/<rest> is a link to the
 * directory ~/.debug/<path>/<build id>/ holding the binary's copy `elf`
 * (and `debug`, a debug file, when one was added); perf before 4.x
 * linked the file itself there.  Both are read. */
static bool try_cache(struct pev_dso *d, const char *bidhex, bool any,
		      const char *rt)
{
	struct pev_dso_cache *c = d->cache;
	char p[4096], f[4200];
	struct stat sb;

	if (!c->buildid_dir || !bidhex[0])
		return false;
	snprintf(p, sizeof(p), "%s/.build-id/%.2s/%s", c->buildid_dir, bidhex, bidhex + 2);
	if (stat(p, &sb) != 0)
		return false;
	if (!S_ISDIR(sb.st_mode))
		return try_file(d, p, any, rt);
	snprintf(f, sizeof(f), "%s/elf", p);
	/* the binary's copy is the runtime image when the binary itself is
	 * not there (perf's runtime_ss): its program headers and PLT serve
	 * the cached debug file's symbols */
	if (!rt && access(f, R_OK) == 0) {
		struct pev_elf_info info;

		if (pev__elf_info_read(f, NULL, 0, &info) == 0 && runtime_image(&info) &&
		    (!d->bid_size || !info.build_id_size ||
		     (info.build_id_size == d->bid_size &&
		      !memcmp(info.build_id, d->bid, (size_t)d->bid_size)))) {
			if (!d->info_loaded || !d->info.nr_loads) {
				d->info = info;
				d->info_loaded = true;
			}
			if (try_file(d, f, any, f))
				return true;
			snprintf(p + strlen(p), sizeof(p) - strlen(p), "/debug");
			return try_file(d, p, any, f);
		}
	}
	if (try_file(d, f, any, rt))
		return true;
	snprintf(f, sizeof(f), "%s/debug", p);
	return try_file(d, f, any, rt);
}

/* The debuginfo (or the executable) of d's build id from a debuginfod
 * server, into p; false when none is configured or has it. */
static bool debuginfod_file(struct pev_dso *d, bool executable, char *p, size_t n)
{
	struct pev_dso_cache *c = d->cache;

	if (c->no_debug_files || !d->bid_size)
		return false;
	if (!c->debuginfod_tried) {
		c->debuginfod_tried = true;
		c->debuginfod = pev__debuginfod_new();
	}
	return pev__debuginfod_find(c->debuginfod, d->bid, d->bid_size, executable,
				    p, n) == 0;
}

/* p under --symfs (perf's __symbol__join_symfs): the file itself and the
 * debug files are looked up there; the build-id cache is DIR/.debug. */
static const char *fs(const struct pev_dso_cache *c, const char *p, char *buf, size_t n)
{
	if (!c->symfs)
		return p;
	snprintf(buf, n, "%s%s", c->symfs, p);
	return buf;
}

static void load_user(struct pev_dso *d)
{
	struct pev_dso_cache *c = d->cache;
	char p[4096], bidhex[41] = "", fsb[4096 + 256], own[4096 + 256];
	const char *path = d->name, *ownp = fs(c, path, own, sizeof(own));
	bool own_ok = false;

	if (pev__elf_info_read(ownp, NULL, 0, &d->info) == 0) {
		d->info_loaded = true;
		if (!d->bid_size && d->info.build_id_size) {
			memcpy(d->bid, d->info.build_id, 20);
			d->bid_size = d->info.build_id_size;
		}
		own_ok = !d->bid_size || !d->info.build_id_size ||
			 (d->info.build_id_size == d->bid_size &&
			  !memcmp(d->info.build_id, d->bid, (size_t)d->bid_size));
		if (!own_ok)
			d->info_loaded = false;
	}
	if (d->bid_size)
		hex(bidhex, d->bid, d->bid_size);
	/* The PLT comes from the runtime binary, whatever file has the
	 * symbols. */
	const char *rt = own_ok ? ownp : NULL;
	/* perf's order: debuglink, build-id cache, /usr/lib/debug by path,
	 * /usr/lib/debug/.build-id, the file itself. */
	if (!c->no_debug_files && own_ok && d->info.debuglink[0]) {
		const char *slash = strrchr(path, '/');
		int dl = slash ? (int)(slash - path) : 0;

		snprintf(p, sizeof(p), "%.*s/%s", dl, path, d->info.debuglink);
		if (strcmp(p, path) && try_file(d, fs(c, p, fsb, sizeof(fsb)), false, rt))
			return;
		snprintf(p, sizeof(p), "%.*s/.debug/%s", dl, path, d->info.debuglink);
		if (try_file(d, fs(c, p, fsb, sizeof(fsb)), false, rt))
			return;
		snprintf(p, sizeof(p), "/usr/lib/debug%.*s/%s", dl, path, d->info.debuglink);
		if (try_file(d, fs(c, p, fsb, sizeof(fsb)), false, rt))
			return;
	}
	if (try_cache(d, bidhex, false, rt))
		return;
	if (!c->no_debug_files) {
		snprintf(p, sizeof(p), "/usr/lib/debug%s.debug", path);
		if (try_file(d, fs(c, p, fsb, sizeof(fsb)), false, rt))
			return;
		snprintf(p, sizeof(p), "/usr/lib/debug%s", path);
		if (try_file(d, fs(c, p, fsb, sizeof(fsb)), false, rt))
			return;
		if (bidhex[0]) {
			snprintf(p, sizeof(p), "/usr/lib/debug/.build-id/%.2s/%s.debug",
				 bidhex, bidhex + 2);
			if (try_file(d, fs(c, p, fsb, sizeof(fsb)), false, rt))
				return;
		}
	}
	/* Last of the debug files: a debuginfod server (DEBUGINFOD_URLS). */
	if (debuginfod_file(d, false, p, sizeof(p)) && try_file(d, p, false, rt))
		return;
	if (own_ok && try_file(d, ownp, true, ownp))
		return;
	/* The recorded file is gone or was replaced: perf's build-id cache
	 * keeps a copy of it. */
	if (try_cache(d, bidhex, true, rt))
		return;
	if (!own_ok && debuginfod_file(d, true, p, sizeof(p)))
		try_file(d, p, true, NULL);
}

/* The vDSO: perf's cached copy for the recorded build id, else this
 * process's own (the same kernel, as a rule). */
static void load_vdso(struct pev_dso *d)
{
	struct pev_dso_cache *c = d->cache;
	char p[4096], bidhex[41];

	if (c->buildid_dir && d->bid_size) {
		hex(bidhex, d->bid, d->bid_size);
		snprintf(p, sizeof(p), "%s/%s/%s/vdso", c->buildid_dir, d->name, bidhex);
		if (try_file(d, p, true, NULL))
			return;
		/* perf 6.1 caches [vdso32] and [vdsox32] under [vdso] */
		snprintf(p, sizeof(p), "%s/[vdso]/%s/vdso", c->buildid_dir, bidhex);
		if (strcmp(d->name, "[vdso]") && try_file(d, p, true, NULL))
			return;
	}
	const void *img;
	size_t len;
	struct pev_elf_info info;

	/* perf reads a 32-bit process's vDSO from its perf-read-vdso32 */
	if (!strcmp(d->name, "[vdso32]") ? pev__vdso32_image(&img, &len) < 0 :
	    strcmp(d->name, "[vdso]") || pev__vdso_image(&img, &len) < 0)
		return;
	if (pev__elf_info_read(NULL, img, len, &info) == 0 &&
	    (!d->bid_size || !info.build_id_size ||
	     !memcmp(info.build_id, d->bid, (size_t)d->bid_size))) {
		d->symtab = pev__symtab_load_elf_mem(img, len);
		d->owns_symtab = d->symtab != NULL;
		d->info = info;
		d->info_loaded = true;
		d->source = strdup(d->name);
	}
}

static void load_kernel(struct pev_dso *d)
{
	struct pev_dso_cache *c = d->cache;
	char p[4096], bidhex[41];
	uint8_t run[20];
	int n;

	if (c->kallsyms) {
		d->symtab = pev_kallsyms_load(c->kallsyms);
		if (d->symtab)
			d->source = strdup(c->kallsyms);
		d->owns_symtab = d->symtab != NULL;
		return;
	}
	/* a vmlinux given is the only source, as in perf: a file that is not
	 * an ELF image with symbols leaves the kernel unresolved */
	if (c->vmlinux) {
		struct pev_elf_info info;

		if (pev__elf_info_read(c->vmlinux, NULL, 0, &info) == 0 && info.has_symtab)
			d->symtab = pev__symtab_load_elf_plt(c->vmlinux, c->vmlinux,
							     !c->no_demangle);
		if (d->symtab) {
			d->source = strdup(c->vmlinux);
			d->source_symtab = true;
		}
		d->owns_symtab = d->symtab != NULL;
		return;
	}
	if (c->symfs)	/* perf takes no local kernel symbols under --symfs */
		return;
	n = pev_kernel_build_id(run, sizeof(run));
	if (!d->bid_size || n <= 0 ||
	    (n == d->bid_size && !memcmp(run, d->bid, (size_t)n))) {
		d->symtab = pev_kallsyms_load("/proc/kallsyms");
		if (d->symtab && pev_symtab_count(d->symtab)) {
			d->source = strdup("/proc/kallsyms");
			d->owns_symtab = true;
			return;
		}
		pev_symtab_free(d->symtab);
		d->symtab = NULL;
	}
	if (c->buildid_dir && d->bid_size) {
		hex(bidhex, d->bid, d->bid_size);
		snprintf(p, sizeof(p), "%s/[kernel.kallsyms]/%s/kallsyms",
			 c->buildid_dir, bidhex);
		d->symtab = pev_kallsyms_load(p);
		if (d->symtab)
			d->source = strdup(p);
		d->owns_symtab = d->symtab != NULL;
	}
}

struct pev_dso *pev__dso_cache_get_module(struct pev_dso_cache *c, const char *name)
{
	struct pev_dso *d = pev_dso_cache_get(c, name);

	if (d && !d->kernel && !d->loaded)
		d->module = true;
	return d;
}

PEV_EXPORT const struct pev_symtab *pev_dso_symtab(struct pev_dso *d)
{
	if (!d)
		return NULL;
	if (d->loaded)
		return d->symtab;
	d->loaded = true;
	if (d->kernel) {
		load_kernel(d);
	} else if (d->module) {
		/* Module symbols come from kallsyms (absolute addresses). */
		struct pev_dso *k = d->cache->kernel;

		if (!k)
			k = pev_dso_cache_get(d->cache, "[kernel.kallsyms]");
		if (k)
			d->symtab = (struct pev_symtab *)pev_dso_symtab(k);
	} else if (d->vdso) {
		load_vdso(d);
	} else if (pev_perfmap_is_name(d->name)) {
		/* A JIT's symbols, read at every run as perf does (jitmap.c). */
		d->symtab = pev_perfmap_load(d->name);
		d->owns_symtab = d->symtab != NULL;
		if (d->symtab)
			d->source = strdup(d->name);
	} else if (d->name[0] == '/') {
		load_user(d);
	}
	return d->symtab;
}

/* An offset in no segment's file bytes but in the last file page of one
 * (the code after .fini up to the page's end, which the loader maps):
 * perf looks symbols up by file offset there and finds the segment's last
 * one (_fini, a page past its page); the offset belongs to that segment.
 * 1 and *vaddr, or 0. */
static int page_tail(const struct pev_elf_info *info, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < info->nr_loads; i++)
		if (off >= info->loads[i].offset &&
		    off - info->loads[i].offset < info->loads[i].filesz)
			return 0;
	for (size_t i = 0; i < info->nr_loads; i++) {
		uint64_t o = info->loads[i].offset;

		if (off >= o && off < ((o + info->loads[i].filesz + 4095) & ~4095ull)) {
			*vaddr = off - o + info->loads[i].vaddr;
			return 1;
		}
	}
	return 0;
}

PEV_EXPORT struct pev_dso_id pev_dso_id(const struct pev_dso *d)
{
	struct pev_dso_id none = { 0, 0, 0, 0 };

	return d ? d->id : none;
}

/* perf's dsos__findnew_id: the id of the first mapping that has one */
void pev__dso_set_id(struct pev_dso *d, const struct pev_dso_id *id)
{
	if (!d->id.maj && !d->id.min && !d->id.ino && !d->id.ino_generation)
		d->id = *id;
}

PEV_EXPORT uint64_t pev_dso_offset_to_vaddr(struct pev_dso *d, uint64_t off)
{
	uint64_t vaddr;

	if (!d || d->kernel || d->module)
		return off;
	if (!d->loaded)
		pev_dso_symtab(d);
	if (!d->info_loaded)
		return off;
	if (page_tail(&d->info, off, &vaddr))
		return vaddr;
	return pev_elf_offset_to_vaddr(&d->info, off);
}

uint64_t pev__dso_text_offset(struct pev_dso *d)
{
	if (!d || d->kernel || d->module)
		return 0;
	if (!d->loaded)
		pev_dso_symtab(d);
	return d->info_loaded ? d->info.text_offset : 0;
}

bool pev_dso_is_kernel(const struct pev_dso *d)
{
	return d && (d->kernel || d->module);
}
