/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to the symbolizer (symbols*.c, dso*.c). */
#ifndef PEV_SYMBOLS_INTERNAL_H
#define PEV_SYMBOLS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include <perfev/symbols.h>

struct pev_symtab;

#define PEV_ELF_MAX_LOADS 16

/* What the symbolizer needs from an ELF file's headers. */
struct pev_elf_info {
	bool is_elf;
	bool has_symtab;		/* a non-empty .symtab */
	bool has_dynsym;
	size_t nr_loads;
	struct { uint64_t offset, filesz, memsz, vaddr; } loads[PEV_ELF_MAX_LOADS];
	uint8_t build_id[20];
	int build_id_size;		/* 0: none */
	char debuglink[256];		/* .gnu_debuglink name, "" if none */
	uint64_t text_offset;		/* .text's sh_addr - sh_offset (perf's dso->text_offset) */
};

/* Reads the headers of an ELF file (or an image in memory when buf is
 * not NULL).  0 or -errno (-ENOEXEC: not ELF). */
int pev__elf_info_read(const char *path, const void *buf, size_t len,
		      struct pev_elf_info *out);
/* This process's vDSO image (its mapping); 0 or -ENOENT. */
int pev__vdso_image(const void **img, size_t *len);
/* The 32-bit vDSO from perfev-read-vdso32 (vdso32.c); -ENOENT without. */
int pev__vdso32_image(const void **img, size_t *len);
/* Function symbols of an ELF image in memory (the vDSO); NULL and errno. */
struct pev_symtab *pev__symtab_load_elf_mem(const void *buf, size_t len);
/* Function symbols of path plus the PLT entries of plt_path (the runtime
 * binary; NULL: none), finished, their names demangled when demangle.
 * NULL and errno. */
struct pev_symtab *pev__symtab_load_elf_plt(const char *path, const char *plt_path,
					    bool demangle);
int pev__symtab_add_plt(struct pev_symtab *st, const char *path);
/* Offset -> vaddr through PT_LOAD headers; identity when none match. */
uint64_t pev_elf_offset_to_vaddr(const struct pev_elf_info *info, uint64_t off);
struct pev_dso;
struct pev_dso_cache;
/* pev_symtab_finish; ends_first: fix sizes before dropping duplicates
 * (perf's order for kallsyms). */
int pev_symtab_finish_impl(struct pev_symtab *st, bool ends_first);
/* Whether d's cache demangles names (not --no-demangle); true for NULL. */
bool pev__dso_demangle(const struct pev_dso *d);
/* perf's dso->text_offset: .text's address minus its file offset in the
 * DSO's runtime image (0 when unknown): what perf 6.1's
 * map__rip_2objdump() adds to a user address (profile_src.c). */
uint64_t pev__dso_text_offset(struct pev_dso *d);
/* True for the kernel and its modules (identity map_ip). */
bool pev_dso_is_kernel(const struct pev_dso *d);
/* perf's symbol rbtree (symbols_tree.c): nodes by index. */
#define PEV_RB_NIL UINT32_MAX
struct pev_symbol;
struct pev_rbnode {
	uint32_t left, right, parent;
	uint8_t red;
};
/* Inserts node n keyed by syms[n].start (equal starts go right). */
void pev__rb_insert(struct pev_rbnode *t, uint32_t *root, uint32_t n,
		    const struct pev_symbol *syms);
void pev__rb_erase(struct pev_rbnode *t, uint32_t *root, uint32_t n);
uint32_t pev__rb_first(const struct pev_rbnode *t, uint32_t root);
uint32_t pev__rb_next(const struct pev_rbnode *t, uint32_t n);
/* Marks the end of the symbols perf reads from a symbol table: the ends
 * and duplicates of those are fixed up; symbols added later (the PLT
 * entries) go into the tree as they are, as perf adds them after. */
void pev__symtab_mark_loaded(struct pev_symtab *st);
/* A C++ name demangled without parameters (malloc'ed), or NULL when name
 * is not mangled or no demangler is available. */
char *pev_demangle(const char *name);
/* perf's build-id cache directory: $PERF_BUILDID_DIR, else $HOME/.debug.
 * 0, -ENOENT (neither set) or -ENAMETOOLONG. */
int pev__buildid_dir(char *buf, size_t size);
/* A kernel MMAP named "[name]" (not the kernel's own): perf 6.1 takes it
 * for a module of that name, its symbols from kallsyms (dso.c). */
struct pev_dso *pev__dso_cache_get_module(struct pev_dso_cache *c, const char *name);
/* Sets d's id unless it has one. */
void pev__dso_set_id(struct pev_dso *d, const struct pev_dso_id *id);
/* Reads a whole file into a malloc'ed buffer. 0 or -errno. */
int pev_read_whole_file(const char *path, char **out, size_t *outlen);
/* binutils addr2line's symbol search (symbols_a2l.c): the symbols of an
 * ELF file (never NULL unless out of memory; empty when unreadable), and
 * the file name addr2line reports for addr when its DWARF lookup fails:
 * 1 and *file (the STT_FILE name, NULL for none), or 0 when no function
 * symbol of addr's section starts at or below it. */
struct pev_a2l_syms;
struct pev_a2l_syms *pev__a2l_syms_load(const char *path);
void pev__a2l_syms_free(struct pev_a2l_syms *a);
int pev__a2l_syms_find(const struct pev_a2l_syms *a, uint64_t addr, const char **file);
/* The name and address of the symbol addr2line names the function at
 * addr by when DWARF gives no linkage name; 0 when none. */
int pev__a2l_syms_func(const struct pev_a2l_syms *a, uint64_t addr, const char **name,
		       uint64_t *start);

/* symbols_machine.c: whether a data map (PERF_RECORD_MISC_MMAP_DATA)
 * holds addr in process pid, when the machine keeps them aside (without
 * PEV_MACHINE_DATA_MAPS, for the unwinder's reads). */
struct pev_machine;
bool pev__machine_data_map_at(struct pev_machine *m, uint32_t pid, uint64_t addr);
/* symbols_machine.c: whether thread tid has a name from a COMM record
 * (itself, or a named parent's at its FORK), perf's comm_set; false for
 * a thread the machine does not know (perf names it ":TID"). */
bool pev__machine_comm_set(const struct pev_machine *m, uint32_t tid);

#endif
