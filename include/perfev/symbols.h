/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: addresses to symbols.
 *
 * Three layers:
 *   - a symbol table (struct pev_symtab): sorted [start, end) ranges with
 *     names, filled from an ELF file's .symtab/.dynsym (libelf), from
 *     /proc/kallsyms text, or by hand; looked up in the red-black tree
 *     perf 6.1 would build from the same symbols;
 *   - a DSO cache (struct pev_dso_cache): one struct pev_dso per path (and
 *     build id), whose symbols are loaded on first use, preferring a debug
 *     file (/usr/lib/debug/.build-id, .gnu_debuglink, perf's ~/.debug
 *     build-id cache) that has a full .symtab, as perf does;
 *   - a machine (struct pev_machine): the threads and memory maps of the
 *     processes recorded in a perf.data file, built from its MMAP, MMAP2,
 *     COMM, FORK and EXIT records, and the kernel's maps; it resolves
 *     (pid, ip, cpumode) to map, DSO, symbol and offset.
 *
 * Symbols follow perf's rules: functions (STT_FUNC, STT_GNU_IFUNC), data
 * objects and labels of text/data sections from ELF (.symtab, then
 * .dynsym, then name@plt stubs); T/t/W/w/D/d/B/b from kallsyms; of several
 * symbols at one address the one perf picks is kept (non-zero size, then
 * non-weak, then global, then fewer leading underscores, then the longer
 * name); a symbol of size 0 ends where the next one starts.
 *
 * None of these objects is thread-safe; pev_symtab_lookup on a finished
 * table may be called from many threads at once. */
#ifndef PERFEV_SYMBOLS_H
#define PERFEV_SYMBOLS_H

#include <perfev/common.h>
#include <perfev/record.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------- symbol table */

struct pev_symbol {
	uint64_t start, end;	/* [start, end) */
	const char *name;	/* owned by the table */
	const char *module;	/* kallsyms "[module]" name, else NULL */
	uint8_t binding;	/* STB_LOCAL / STB_GLOBAL / STB_WEAK */
	uint8_t type;		/* STT_FUNC, STT_OBJECT, ... */
};

struct pev_symtab;

/* A new empty table; NULL and errno = ENOMEM. */
PEV_EXPORT struct pev_symtab *pev_symtab_new(void);
/* Frees the table and its names; accepts NULL. */
PEV_EXPORT void pev_symtab_free(struct pev_symtab *st);
/* Adds a symbol (name and module are copied; module may be NULL).  Only
 * before pev_symtab_finish.  0, -EINVAL (NULL name, or after finish),
 * -ENOMEM. */
PEV_EXPORT int pev_symtab_add(struct pev_symtab *st, uint64_t start,
			      uint64_t size, const char *name,
			      const char *module, uint8_t binding,
			      uint8_t type);
/* Builds perf's tree from the symbols in the order they were added: gives
 * size-0 symbols the next symbol's start as end (the last one: the next
 * page boundary after it plus a page), then drops duplicates at one
 * address (keeping perf's choice), as perf does.  Once finished, a table
 * is read-only and its symbols are in address order.  0 or -ENOMEM. */
PEV_EXPORT int pev_symtab_finish(struct pev_symtab *st);
/* The symbol containing addr, or NULL (also before finish).  When
 * symbols overlap, the one perf 6.1 finds: the first met walking its tree
 * down from the root (so the order of pev_symtab_add calls matters). */
PEV_EXPORT const struct pev_symbol *
pev_symtab_lookup(const struct pev_symtab *st, uint64_t addr);
PEV_EXPORT size_t pev_symtab_count(const struct pev_symtab *st);
/* The i-th symbol by address, or NULL past the end. */
PEV_EXPORT const struct pev_symbol *
pev_symtab_symbol(const struct pev_symtab *st, size_t i);

/* Parses /proc/kallsyms text ("addr type name [module]" lines) into a new
 * finished table.  Lines that do not parse are skipped; symbols of other
 * types than text, weak, data and bss are left out; so are symbols at
 * address 0 (what an unprivileged reader sees).  NULL and errno: ENOMEM. */
PEV_EXPORT struct pev_symtab *pev_kallsyms_parse(const char *text, size_t len);
/* Reads a kallsyms file (NULL = /proc/kallsyms) and parses it; NULL and
 * errno on failure (ENOENT, EACCES, ENOMEM). */
PEV_EXPORT struct pev_symtab *pev_kallsyms_load(const char *path);

/* The function symbols of an ELF file (.symtab, else .dynsym), at their
 * ELF virtual addresses, in a new finished table.  NULL and errno:
 * ENOENT/EACCES (open), ENOEXEC (not ELF), ENODATA (no symbol table),
 * ENOMEM. */
PEV_EXPORT struct pev_symtab *pev_symtab_load_elf(const char *path);

/* ------------------------------------------------------------------- DSO */

struct pev_dso;
struct pev_dso_cache;

struct pev_dso_cache_opts {
	size_t size;		/* sizeof(struct pev_dso_cache_opts) */
	/* Where perf's build-id cache is (when NULL: SYMFS/.debug with a
	 * symfs, as perf's --symfs, else $PERF_BUILDID_DIR, else
	 * $HOME/.debug; "" turns it off). */
	const char *buildid_dir;
	/* Kernel symbols: a kallsyms file to use (NULL: the cached one for
	 * the file's kernel build id in the build-id cache, else
	 * /proc/kallsyms when the running kernel is the recorded one or its
	 * build id is unknown). */
	const char *kallsyms;
	/* Do not look for debug files (/usr/lib/debug, .gnu_debuglink). */
	bool no_debug_files;
	/* A directory the DSO files and their debug files are looked up
	 * under (perf's --symfs), and the build-id cache is SYMFS/.debug
	 * unless buildid_dir says otherwise.  NULL: / */
	const char *symfs;
	/* The kernel's symbols from this ELF image only (perf's --vmlinux;
	 * --kallsyms wins); its link addresses are used as they are. */
	const char *vmlinux;
	/* Names of functions (symbols, their PLT entries, inline frames)
	 * as the files spell them, not demangled (perf's --no-demangle). */
	bool no_demangle;
};

/* A new cache; opts may be NULL.  NULL and errno. */
PEV_EXPORT struct pev_dso_cache *
pev_dso_cache_new(const struct pev_dso_cache_opts *opts);
/* Frees the cache and every DSO in it; accepts NULL. */
PEV_EXPORT void pev_dso_cache_free(struct pev_dso_cache *c);
/* Records a build id known for a path (from the file's BUILD_ID feature
 * or a MMAP2 record): DSOs of that path then look for debug files by it
 * and are checked against it.  0, -EINVAL (size > 20), -ENOMEM. */
/* perf's DSO id: the device and inode of the file, from the first MMAP2
 * that mapped it; all zero for anonymous memory, MMAP records and MMAP2
 * records that carry a build id instead. */
struct pev_dso_id {
	uint32_t maj, min;
	uint64_t ino, ino_generation;
};
PEV_EXPORT struct pev_dso_id pev_dso_id(const struct pev_dso *d);

PEV_EXPORT int pev_dso_cache_set_build_id(struct pev_dso_cache *c,
					  const char *path, const uint8_t *id,
					  size_t size);
/* The DSO for a path (created on first use; symbols not loaded yet).
 * "[kernel.kallsyms]" is the kernel; "[vdso]" the vDSO (read from this
 * process when no cached copy matches).  NULL and errno = ENOMEM. */
PEV_EXPORT struct pev_dso *pev_dso_cache_get(struct pev_dso_cache *c,
					     const char *path);

/* The DSO's name as perf prints it: the path, "[kernel.kallsyms]",
 * "[vdso]", a module's "[name]". */
PEV_EXPORT const char *pev_dso_name(const struct pev_dso *dso);
/* Its symbol table, loaded on first call (NULL when it has none; the
 * failure is remembered and not retried). */
PEV_EXPORT const struct pev_symtab *pev_dso_symtab(struct pev_dso *dso);
/* Converts a map-relative address (ip - map start + pgoff, i.e. a file
 * offset) to the DSO's ELF virtual address, through its PT_LOAD headers;
 * the identity when the DSO is not ELF or the kernel. */
PEV_EXPORT uint64_t pev_dso_offset_to_vaddr(struct pev_dso *dso,
					    uint64_t offset);
/* Where the symbols came from (a path), or NULL when none were loaded. */
PEV_EXPORT const char *pev_dso_symbol_source(const struct pev_dso *dso);
/* The file perf 6.1 hands to addr2line for the DSO's srclines: the
 * symbol source when it has a .symtab, else the DSO's own path; NULL
 * where perf asks addr2line nothing (bracketed names: the kernel, its
 * modules, the vDSO; /tmp/perf-PID.map). Loads the symbols. */
PEV_EXPORT const char *pev_dso_srcline_path(struct pev_dso *dso);

/* Adds a file to perf's build-id cache in perf 6.1's layout: a copy (hard
 * link when it can) as <dir>/<path>/<build id>/elf, or /proc/kallsyms as
 * <dir>/[kernel.kallsyms]/<build id>/kallsyms for path
 * "[kernel.kallsyms]", or this process's vDSO as <dir>/[vdso]/<build id>/vdso
 * for path "[vdso]" (-ESRCH when id is not the running vDSO's; "[vdso32]":
 * the 32-bit vDSO, in the same [vdso] folder as perf), and the link <dir>/.build-id/xx/<rest> to that
 * directory; what is already there is kept.  dir NULL: $PERF_BUILDID_DIR,
 * else $HOME/.debug.  0, -EINVAL (not an absolute path, bad id), -ENOENT
 * (no HOME), or the -errno of the mkdir, copy or symlink that failed. */
PEV_EXPORT int pev_buildid_cache_add(const char *dir, const char *path,
				     const uint8_t *id, size_t size);
/* The cache directory in use: dir when not NULL, else $PERF_BUILDID_DIR,
 * else $HOME/.debug.  0, -ENOENT (no HOME), -ENAMETOOLONG. */
PEV_EXPORT int pev_buildid_cache_dir(const char *dir, char *buf, size_t size);
/* Removes one build id (hex, as the cache names it) from the cache as
 * perf 6.1's buildid-cache -r does: the link .build-id/xx/<rest> and the
 * directory it points to with what it holds (elf, debug, probes); the
 * folders above stay.  0, -ENOENT (not cached, or its link dangles),
 * -EINVAL (not hex), -errno. */
PEV_EXPORT int pev_buildid_cache_remove(const char *dir, const char *sbuild_id);
/* Called per cached build id: its hex and the name it was cached under
 * ("/usr/bin/ls", "[kernel.kallsyms]", "[vdso]"; NULL when the link cannot
 * be read).  A non-zero return stops the walk and is returned. */
typedef int (*pev_buildid_cache_fn)(const char *sbuild_id, const char *name,
				    void *arg);
/* Every build id of the cache (the .build-id/xx/<rest> links), sorted by
 * id as perf 6.1 lists them; with valid_only only those whose file still
 * has that build id (or the running kernel's), as perf buildid-cache -l
 * shows them.  0 (also when the cache does not exist), fn's value,
 * -ENOMEM, -errno. */
PEV_EXPORT int pev_buildid_cache_list(const char *dir, bool valid_only,
				      pev_buildid_cache_fn fn, void *arg);
/* The entries cached for one path (<dir>/<realpath of path>/<entry>,
 * every name not starting with a dot), sorted, name NULL: what perf 6.1's
 * buildid-cache -p removes.  0, fn's value, -ENOENT (nothing cached for
 * it), -ENOMEM, -errno. */
PEV_EXPORT int pev_buildid_cache_path_ids(const char *dir, const char *path,
					  pev_buildid_cache_fn fn, void *arg);
/* The build id of the vDSO the running kernel maps in every process (read
 * from this process's own); its size, or -ENOENT. */
PEV_EXPORT int pev_vdso_build_id(uint8_t *id, size_t max);
/* The build id of the 32-bit vDSO (from perfev-read-vdso32, see
 * "[vdso32]"); its size, or -ENOENT when the helper is missing. */
PEV_EXPORT int pev_vdso32_build_id(uint8_t *id, size_t max);

/* --------------------------------------------------------------- machine */

struct pev_machine;

/* A new machine whose DSOs come from cache (borrowed: it must outlive
 * the machine).  NULL and errno. */
PEV_EXPORT struct pev_machine *pev_machine_new(struct pev_dso_cache *cache);
PEV_EXPORT void pev_machine_free(struct pev_machine *m);

/* Machine flags. */
#define PEV_MACHINE_EXEC_RESETS_MAPS	1u	/* COMM(exec) empties the maps */
/* Data mappings (MMAP records with PERF_RECORD_MISC_MMAP_DATA, from
 * perf record -d) become maps too, as in perf, so data addresses resolve
 * (report --mem-mode); by default they are left out. */
#define PEV_MACHINE_DATA_MAPS		2u
/* Sets PEV_MACHINE_* flags (default 0). */
PEV_EXPORT void pev_machine_set_flags(struct pev_machine *m, unsigned flags);

/* Feeds one record.  MMAP/MMAP2 add a map to the process (pid -1: the
 * kernel), cutting what it overlaps; FORK creates the thread (a new
 * process copies the parent's maps; a new thread shares them); COMM sets
 * a thread's name; with the exec flag the old maps stay until the new
 * image's MMAPs replace them, as perf does (samples taken inside execve()
 * after the COMM still resolve through the old image), unless
 * PEV_MACHINE_EXEC_RESETS_MAPS is set; EXIT changes nothing (the thread
 * stays for samples that come later).  Other records are ignored.  0 or
 * -ENOMEM. */
PEV_EXPORT int pev_machine_process(struct pev_machine *m,
				   const struct pev_record *rec);

/* A thread's name: its last COMM, or what it inherited, or ":<tid>" for a
 * thread never seen (as perf prints it).  Valid until the next call that
 * changes the machine. */
PEV_EXPORT const char *pev_machine_comm(struct pev_machine *m, uint32_t pid,
					uint32_t tid);

/* Where an address resolved to. */
struct pev_addr_loc {
	struct pev_dso *dso;		/* NULL: no map holds the address */
	uint64_t map_start, map_end, map_pgoff;
	uint64_t map_ip;		/* what perf prints for a callchain
					 * entry: ip - map start + pgoff, or
					 * ip for the kernel and unmapped */
	const struct pev_symbol *sym;	/* NULL: no symbol */
	uint64_t sym_off;		/* address - sym->start */
	bool kernel;			/* looked up in the kernel's maps */
	uint32_t map_flags;		/* the MMAP2's flags (MAP_SHARED...), 0 for MMAP */
	uint32_t map_prot;		/* the MMAP2's prot, 0 for MMAP */
};

/* Resolves ip for process pid.  cpumode is the PERF_RECORD_MISC_CPUMODE
 * of the sample, or the callchain context turned into one
 * (PERF_RECORD_MISC_KERNEL / _USER ...); kernel-space addresses are looked
 * up in the kernel maps unless the mode is _USER (as perf: a kernel-space
 * value in a user call chain resolves to nothing).  Fills *out and returns 0, or
 * -ENOENT when no map holds ip (out->dso NULL, out->map_ip = ip).  Results
 * are cached per (process, ip). */
PEV_EXPORT int pev_machine_resolve(struct pev_machine *m, uint32_t pid,
				   uint64_t ip, uint8_t cpumode,
				   struct pev_addr_loc *out);

/* Number of maps of a process (pid -1 = the kernel); -ENOENT when the
 * process is unknown. */
PEV_EXPORT long pev_machine_nr_maps(struct pev_machine *m, int64_t pid);

/* A thread as the machine knows it: ppid is the parent's tid from its
 * FORK, -1 when no FORK made it. */
struct pev_machine_thread {
	uint32_t pid, tid;
	int32_t ppid;
	const char *comm;
};
typedef int (*pev_machine_thread_fn)(const struct pev_machine_thread *t, void *arg);

/* Calls fn for every thread (in no given order) until it returns non-zero,
 * which is returned; 0 when all were seen, -EINVAL. */
PEV_EXPORT int pev_machine_threads(struct pev_machine *m, pev_machine_thread_fn fn,
				   void *arg);

/* A map: [start, end), the file offset, the DSO's inode (0 when no MMAP2
 * gave it), the MMAP2's prot and flags (0 for MMAP) and the DSO's name. */
struct pev_machine_map {
	uint64_t start, end, pgoff, ino;
	uint32_t prot, flags;
	const char *name;
};
typedef int (*pev_machine_map_fn)(const struct pev_machine_map *mp, void *arg);

/* Calls fn for each map of process pid (-1: the kernel), by address,
 * until it returns non-zero, which is returned; 0 (also for an unknown
 * process), -EINVAL. */
PEV_EXPORT int pev_machine_maps(struct pev_machine *m, int64_t pid, pev_machine_map_fn fn,
				void *arg);

/* ---------------------------------------------------------- source lines */

/* Addresses to source file and line through an ELF file's DWARF line
 * tables (libdw), and source lines to their text.  Every answer is
 * cached.  Not thread-safe. */
struct pev_srclines;

/* A new, empty resolver; NULL and errno = ENOMEM. */
PEV_EXPORT struct pev_srclines *pev_srclines_new(void);
/* Frees the resolver, its open files and every string it gave; accepts
 * NULL. */
PEV_EXPORT void pev_srclines_free(struct pev_srclines *s);
/* The source file and line of vaddr, an ELF virtual address of the file
 * at path (the DSO's symbol source, e.g. its debug file): the innermost
 * line-table row, as addr2line's first answer.  1 and *file (the name as
 * the line table gives it, interned: equal names are the same pointer,
 * valid until the resolver is freed) and *line; 0 when the file has no
 * line for vaddr (or no DWARF, or cannot be read); -EINVAL or -ENOMEM. */
PEV_EXPORT int pev_srclines_lookup(struct pev_srclines *s, const char *path,
				   uint64_t vaddr, const char **file,
				   unsigned *line);
/* perf 6.1's view of vaddr (it asks binutils' addr2line): as
 * pev_srclines_lookup, and where the line tables do not place vaddr,
 * addr2line's answer from the symbol table: 1 with *line 0 and *file the
 * name of the file symbol before the nearest function symbol at or below
 * vaddr in its section ("" for an empty name, "??" when there is none);
 * 0 when no such symbol exists either (addr2line's "??:0", a failure for
 * perf); -EINVAL or -ENOMEM. */
PEV_EXPORT int pev_srclines_addr2line(struct pev_srclines *s, const char *path,
				      uint64_t vaddr, const char **file,
				      unsigned *line);
/* The text of line `line` (1-based) of source file `file`, without its
 * newline, and its length in *len; NULL when the file cannot be read or
 * is shorter.  Valid until the resolver is freed. */
PEV_EXPORT const char *pev_srclines_text(struct pev_srclines *s,
					 const char *file, unsigned line,
					 size_t *len);

#ifdef __cplusplus
}
#endif
#endif
