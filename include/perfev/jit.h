/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: code generated at run time (JIT compilers).
 *
 * Two ways a JIT tells a profiler where its code is, both read as perf
 * 6.1 reads them:
 *   - /tmp/perf-PID.map text files ("START SIZE NAME" lines, hexadecimal
 *     numbers; node --perf-basic-prof, the JVM's perf-map-agent), which
 *     name the anonymous executable mappings of process PID;
 *   - jit-PID.dump binary files (the jitdump format of perf's
 *     tools/perf/util/jitdump.h: a header, then JIT_CODE_LOAD, MOVE,
 *     DEBUG_INFO, CLOSE and UNWINDING_INFO records; node --perf-prof, the
 *     JVM's jvmti agent), which `perfev inject --jit` turns into one ELF
 *     file per function plus MMAP2 records for them.
 *
 * Every parser is bounds-checked: a file cut short or lying about its
 * sizes ends the parse, never reads past the buffer. */
#ifndef PERFEV_JIT_H
#define PERFEV_JIT_H

#include <perfev/common.h>
#include <perfev/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------- perf map files */

/* Parses the text of a perf map file into a new finished symbol table,
 * exactly as perf 6.1 does: each line loses its last character (the
 * newline; a last line without one loses a real character), START and
 * SIZE are read as strtoull(..., 16) reads them, a line too short for a
 * name after them is skipped, every symbol is global STT_FUNC of
 * [START, START+SIZE) (a size-0 symbol holds only START).  Lookups
 * (pev_symtab_lookup) follow perf's: of overlapping entries, the one its
 * red-black tree search meets first, which depends on the file order.
 * pev_symtab_symbol lists the entries by address.  NULL and errno =
 * ENOMEM. */
PEV_EXPORT struct pev_symtab *pev_perfmap_parse(const char *text, size_t len);
/* Reads and parses a perf map file; NULL and errno (ENOENT, EACCES,
 * ENOMEM). */
PEV_EXPORT struct pev_symtab *pev_perfmap_load(const char *path);
/* True for a name perf 6.1 treats as a perf map ("/tmp/perf-..."). */
PEV_EXPORT bool pev_perfmap_is_name(const char *dso_name);

/* ------------------------------------------------------- jitdump files */

#define PEV_JITDUMP_MAGIC	0x4A695444u	/* "JiTD" in the writer's order */
#define PEV_JITDUMP_FLAG_ARCH_TIMESTAMP	1ull	/* timestamps are TSC values */

struct pev_jitdump_header {
	uint32_t magic, version, total_size, elf_mach, pid;
	uint64_t timestamp, flags;
	bool swapped;			/* written in the other byte order */
};

enum pev_jit_record_type {
	PEV_JIT_CODE_LOAD = 0, PEV_JIT_CODE_MOVE = 1, PEV_JIT_CODE_DEBUG_INFO = 2,
	PEV_JIT_CODE_CLOSE = 3, PEV_JIT_CODE_UNWINDING_INFO = 4,
};

/* One record; pointers are views into the caller's buffer. */
struct pev_jit_record {
	uint32_t id;			/* enum pev_jit_record_type, or other */
	uint32_t total_size;
	uint64_t timestamp;
	union {
		struct {
			uint32_t pid, tid;
			uint64_t vma, code_addr, code_size, code_index;
			const char *name;	/* NUL-terminated in the record */
			const uint8_t *code;	/* code_size bytes */
		} load;
		struct {
			uint32_t pid, tid;
			uint64_t vma, old_code_addr, new_code_addr, code_size, code_index;
		} move;
		struct {
			uint64_t code_addr, nr_entry;
			const uint8_t *entries;	/* see pev_jitdump_debug_entry */
			size_t entries_len;
		} debug_info;
		struct {
			uint64_t unwinding_size, eh_frame_hdr_size, mapped_size;
			const uint8_t *data;	/* unwinding_size bytes */
		} unwinding;
	} u;
};

/* One line-table entry of a DEBUG_INFO record. */
struct pev_jit_debug_entry {
	uint64_t addr;
	int32_t lineno, discrim;
	const char *name;	/* NULL: the previous entry's ("\xff\0") */
};

/* Reads the file header at the start of buf.  0; -EBADMSG (too short, or
 * total_size smaller than the header or past len); -EPROTO (not a
 * jitdump: bad magic); -ENOTSUP (a version above 1, or flags perf 6.1
 * does not know). */
PEV_EXPORT int pev_jitdump_header_read(const void *buf, size_t len,
				       struct pev_jitdump_header *h);
/* The record at *pos (start with *pos = h->total_size); on success *pos
 * moves past it.  1 and *r; 0 at the end, also when the last record is
 * cut short (perf stops there too); -EBADMSG when a record lies about its
 * sizes (total_size below its fixed part, a name without its NUL, code or
 * unwinding data past the record). */
PEV_EXPORT int pev_jitdump_next(const void *buf, size_t len,
				const struct pev_jitdump_header *h, size_t *pos,
				struct pev_jit_record *r);
/* The next debug entry of a DEBUG_INFO record: *off starts at 0.  1 and
 * *e; 0 after the last (nr_entry read, or the record's end); -EBADMSG
 * when an entry is cut short or its name has no NUL. */
PEV_EXPORT int pev_jitdump_debug_entry(const struct pev_jitdump_header *h,
				       const struct pev_jit_record *r, size_t *off,
				       uint64_t *index, struct pev_jit_debug_entry *e);

/* The offset and address of the code in the ELF files below (perf's
 * GEN_ELF_TEXT_OFFSET: the ELF header and one program header, rounded to
 * 16). */
#define PEV_JIT_ELF_TEXT_OFFSET 0x80

/* Writes an ELF shared object holding one function, as perf 6.1's inject
 * --jit does for each JIT_CODE_LOAD, section for section (the same bytes
 * as perf's file but the build id): the code in .text at
 * PEV_JIT_ELF_TEXT_OFFSET (one PT_LOAD, file offset = address), a
 * .symtab with `name` over it (STT_FUNC, size code_size), and a GNU
 * build-id note (a hash of the name, address and code where perf takes
 * random bytes), copied to build_id (20 bytes) when not NULL.  e_machine
 * is elf_mach (the jitdump header's).  0 or -errno (the file is removed
 * on failure). */
PEV_EXPORT int pev_jit_write_elf(const char *path, uint16_t elf_mach,
				 const char *name, uint64_t code_addr,
				 const void *code, uint64_t code_size,
				 uint8_t *build_id);

/* The records that came before a CODE_LOAD and go into its file. */
struct pev_jit_elf_extra {
	/* A DEBUG_INFO record (read with hdr) with at least one entry, or
	 * NULL: written as the .debug_line, .debug_info and .debug_abbrev
	 * perf writes, so srclines of the code resolve. */
	const struct pev_jitdump_header *hdr;
	const struct pev_jit_record *debug;
	/* An UNWINDING_INFO record's data (.eh_frame, then its last
	 * eh_frame_hdr_size bytes the .eh_frame_hdr), or NULL: written as
	 * .eh_frame at the code's end rounded up to 8, .eh_frame_hdr after
	 * it, the addresses the JIT laid them out for. */
	const uint8_t *unwinding;
	uint64_t unwinding_size, eh_frame_hdr_size;
};

/* pev_jit_write_elf with the debug and unwinding sections of extra (NULL:
 * none). */
PEV_EXPORT int pev_jit_write_elf_extra(const char *path, uint16_t elf_mach,
				       const char *name, uint64_t code_addr,
				       const void *code, uint64_t code_size,
				       const struct pev_jit_elf_extra *extra,
				       uint8_t *build_id);

#ifdef __cplusplus
}
#endif
#endif
