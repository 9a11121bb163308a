/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: perf.data files (the format of Linux perf, "PERFILE2").
 *
 * A writer streams records (raw bytes from rings, synthesized records,
 * FINISHED_ROUND) into a file or a pipe and adds the metadata perf
 * expects (attrs with their ids, the HEADER_* feature sections).  A reader
 * opens files written by perfev or by perf (file or pipe mode, either byte
 * order, zstd-compressed records), exposes the header, attrs and parsed
 * features, and hands out records in file order or in time order.
 *
 * Neither object is thread-safe: one thread at a time per object. */
#ifndef PERFEV_DATA_H
#define PERFEV_DATA_H

#include <perfev/common.h>
#include <perfev/record.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Feature ids: the bits of the header's feature bitmap (HEADER_*). */
enum pev_feat {
	PEV_FEAT_TRACING_DATA = 1, PEV_FEAT_BUILD_ID = 2, PEV_FEAT_HOSTNAME = 3,
	PEV_FEAT_OSRELEASE = 4, PEV_FEAT_VERSION = 5, PEV_FEAT_ARCH = 6,
	PEV_FEAT_NRCPUS = 7, PEV_FEAT_CPUDESC = 8, PEV_FEAT_CPUID = 9,
	PEV_FEAT_TOTAL_MEM = 10, PEV_FEAT_CMDLINE = 11, PEV_FEAT_EVENT_DESC = 12,
	PEV_FEAT_CPU_TOPOLOGY = 13, PEV_FEAT_NUMA_TOPOLOGY = 14,
	PEV_FEAT_BRANCH_STACK = 15, PEV_FEAT_PMU_MAPPINGS = 16,
	PEV_FEAT_GROUP_DESC = 17, PEV_FEAT_AUXTRACE = 18, PEV_FEAT_STAT = 19,
	PEV_FEAT_CACHE = 20, PEV_FEAT_SAMPLE_TIME = 21, PEV_FEAT_MEM_TOPOLOGY = 22,
	PEV_FEAT_CLOCKID = 23, PEV_FEAT_DIR_FORMAT = 24,
	PEV_FEAT_BPF_PROG_INFO = 25, PEV_FEAT_BPF_BTF = 26,
	PEV_FEAT_COMPRESSED = 27, PEV_FEAT_CPU_PMU_CAPS = 28,
	PEV_FEAT_CLOCK_DATA = 29, PEV_FEAT_HYBRID_TOPOLOGY = 30,
	PEV_FEAT_PMU_CAPS = 31, PEV_FEAT_CPU_DOMAIN_INFO = 32,
	PEV_FEAT_BITS = 256,
};

/* "HOSTNAME", "BUILD_ID", ...; NULL for ids this library has no name for. */
PEV_EXPORT const char *pev_feat_name(unsigned feat);

/* One HEADER_BUILD_ID entry (also a PERF_RECORD_HEADER_BUILD_ID). */
struct pev_data_build_id {
	int32_t pid;		/* -1 (HOST_KERNEL_ID) for the host */
	uint16_t misc;		/* PERF_RECORD_MISC_KERNEL / _USER ... */
	uint8_t size;		/* bytes of id that are valid, <= 20 */
	uint8_t id[20];
	char *filename;		/* "[kernel.kallsyms]", a path */
};

/* One EVENT_DESC entry. */
struct pev_data_event_desc {
	struct pev_attr attr;	/* zero-padded copy, native byte order */
	uint32_t attr_size;	/* bytes of attr in the file */
	char *name;
	uint32_t nr_ids;
	uint64_t *ids;
};

struct pev_data_pmu_mapping { uint32_t type; char *name; };
struct pev_data_group_desc { char *name; uint32_t leader_idx, nr_members; };
struct pev_data_cpu_topo_cpu { uint32_t core_id, socket_id, die_id; };
struct pev_data_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;	/* kB */
	char *cpus;			/* "0-3" */
};

/* One CACHE entry: a cache as sysfs describes it
 * (/sys/devices/system/cpu/cpuN/cache/indexM). */
struct pev_data_cache {
	uint32_t level, line_size, sets, ways;
	char *type;		/* "Data", "Instruction", "Unified" */
	char *size;		/* "48K" */
	char *map;		/* shared_cpu_list: "0-3" */
};
/* One MEM_TOPOLOGY node: which memory blocks (of block_size bytes,
 * /sys/devices/system/node/nodeN/memoryI) belong to it. */
struct pev_data_mem_node {
	uint64_t node;
	uint64_t size;		/* bits in bitmap: highest block index + 1 */
	uint64_t *bitmap;	/* (size + 63) / 64 words; bit i: block i */
};
struct pev_data_pmu_cap { char *name, *value; };	/* caps/<name> */
struct pev_data_pmu_caps {				/* PMU_CAPS entry */
	char *pmu_name;
	uint32_t nr_caps;
	struct pev_data_pmu_cap *caps;
};
struct pev_data_hybrid_node { char *pmu_name, *cpus; };
/* One AUXTRACE index entry: an AUXTRACE record's place in the file. */
struct pev_data_auxtrace_entry { uint64_t file_offset, size; };

/* The features a file carries, as plain data.  Every pointer is owned by
 * the struct and freed by pev_data_features_release().  A feature is
 * present when its bit is set in `present` (pev_data_features_has). */
struct pev_data_features {
	uint64_t present[PEV_FEAT_BITS / 64];
	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_avail, nr_cpus_online;		/* NRCPUS */
	uint64_t total_mem;				/* TOTAL_MEM, kB */
	uint32_t nr_cmdline;				/* CMDLINE */
	char **cmdline;
	uint32_t nr_event_desc;				/* EVENT_DESC */
	struct pev_data_event_desc *event_desc;
	size_t nr_build_ids;				/* BUILD_ID */
	struct pev_data_build_id *build_ids;
	/* CPU_TOPOLOGY: sibling lists ("0-3"), then per cpu ids (nr_topo_cpus
	 * = nr_cpus_avail when present); dies only when has_dies. */
	uint32_t nr_core_siblings, nr_thread_siblings, nr_die_siblings;
	char **core_siblings, **thread_siblings, **die_siblings;
	uint32_t nr_topo_cpus;
	struct pev_data_cpu_topo_cpu *topo_cpus;
	bool has_dies;
	uint32_t nr_numa_nodes;				/* NUMA_TOPOLOGY */
	struct pev_data_numa_node *numa_nodes;
	uint32_t nr_pmu_mappings;			/* PMU_MAPPINGS */
	struct pev_data_pmu_mapping *pmu_mappings;
	uint32_t nr_groups;				/* GROUP_DESC */
	struct pev_data_group_desc *groups;
	uint64_t first_sample_time, last_sample_time;	/* SAMPLE_TIME */
	uint64_t clockid_res_ns;			/* CLOCKID */
	struct {					/* CLOCK_DATA */
		uint32_t version, clockid;	/* version 1 */
		uint64_t tod_ns, clockid_ns;	/* read together at start */
	} clock_data;
	struct {					/* COMPRESSED */
		uint32_t version, type, level, ratio, mmap_len;
	} compressed;
	void *tracing_data;				/* TRACING_DATA blob */
	size_t tracing_data_size;
	uint32_t nr_caches;				/* CACHE (version 1) */
	struct pev_data_cache *caches;
	uint64_t mem_block_size;		/* MEM_TOPOLOGY (version 1) */
	uint64_t nr_mem_nodes;
	struct pev_data_mem_node *mem_nodes;
	uint32_t nr_cpu_pmu_caps;		/* CPU_PMU_CAPS (the "cpu" PMU) */
	struct pev_data_pmu_cap *cpu_pmu_caps;
	uint32_t nr_pmu_caps;			/* PMU_CAPS: PMUs with caps */
	struct pev_data_pmu_caps *pmu_caps;
	uint32_t nr_hybrid_nodes;			/* HYBRID_TOPOLOGY */
	struct pev_data_hybrid_node *hybrid_nodes;
	uint64_t dir_format_version;			/* DIR_FORMAT */
	uint64_t nr_auxtrace_index;			/* AUXTRACE */
	struct pev_data_auxtrace_entry *auxtrace_index;
	/* BPF_PROG_INFO and BPF_BTF hold libbpf structures (bpf_prog_info
	 * with its arrays, raw BTF); only their sizes are kept here, the
	 * bytes stay available from pev_data_feature_raw() and are not
	 * written back (encode returns -ENOENT). */
	size_t bpf_prog_info_size, bpf_btf_size;
};

PEV_EXPORT bool pev_data_features_has(const struct pev_data_features *f,
				      unsigned feat);
PEV_EXPORT void pev_data_features_set(struct pev_data_features *f,
				      unsigned feat, bool on);
/* Frees everything the struct owns and zeroes it; accepts NULL. */
PEV_EXPORT void pev_data_features_release(struct pev_data_features *f);

/* Fills what perf record takes from the running system: HOSTNAME,
 * OSRELEASE, ARCH (uname), VERSION ("perfev <version>"), NRCPUS, CPUDESC,
 * CPUID (x86: "Vendor,family,model,stepping"), TOTAL_MEM, CPU_TOPOLOGY,
 * NUMA_TOPOLOGY, PMU_MAPPINGS, and from /sys what
 * pev_data_features_from_sysfs() reads.  Features that cannot be read here
 * are left out.  Call on a zeroed struct.  0 or -ENOMEM. */
PEV_EXPORT int pev_data_features_from_host(struct pev_data_features *f);
/* Fills the features perf 6.1 record reads from sysfs alone, from the tree
 * at sysfs_root (NULL = "/sys"; tests point it at a constructed tree), as
 * perf gathers them:
 *  - CACHE: the distinct cpuN/cache/index0..3 of every possible CPU,
 *    ordered by level (CPU, then index order within a level); present
 *    with no entries when no CPU has a cache directory; left out when an
 *    attribute of an existing index directory cannot be read;
 *  - MEM_TOPOLOGY: memory/block_size_bytes and, per node, the bitmap of
 *    its memoryN links, nodes by id; left out when any of it cannot be
 *    read;
 *  - CPU_PMU_CAPS: the caps/ files of the "cpu" PMU, present (maybe with
 *    no caps) when that PMU exists;
 *  - PMU_CAPS: every other PMU with caps, hybrid core PMUs first, then in
 *    directory order; always present, maybe with no entries.
 * A cap's value is the first line of its file.  Features it fills replace
 * what f held for them.  0; -ENOMEM (f unchanged); -errno when sysfs_root
 * cannot be opened (nothing filled). */
PEV_EXPORT int pev_data_features_from_sysfs(struct pev_data_features *f,
					    const char *sysfs_root);
/* Sets CMDLINE (copies argv[0..argc)); 0 or -ENOMEM. */
PEV_EXPORT int pev_data_features_set_cmdline(struct pev_data_features *f,
					     int argc, const char *const *argv);
/* Appends a BUILD_ID entry (copies filename); 0, -EINVAL (size > 20),
 * -ENOMEM. */
PEV_EXPORT int pev_data_features_add_build_id(struct pev_data_features *f,
					      int32_t pid, uint16_t misc,
					      const uint8_t *id, size_t size,
					      const char *filename);
/* Reads the TRACING_DATA blob for the tracepoints `ids` (attr.config of
 * PERF_TYPE_TRACEPOINT events) from tracefs (mounted at
 * /sys/kernel/tracing or /sys/kernel/debug/tracing) and stores it in f.
 * 0, -ENOENT (no tracefs, or an id not found), -ENOMEM, -errno. */
PEV_EXPORT int pev_data_features_tracing_data(struct pev_data_features *f,
					      const uint64_t *ids, size_t n);

/* The GNU build-id note of an ELF file (libelf): copies up to `max` bytes
 * into id and returns the id's size, -ENOENT (no note), -ENOEXEC (not
 * ELF), -errno. */
PEV_EXPORT int pev_elf_build_id(const char *path, uint8_t *id, size_t max);
/* The running kernel's build id, from /sys/kernel/notes; as above. */
PEV_EXPORT int pev_kernel_build_id(uint8_t *id, size_t max);

/* ---------------------------------------------------------------- writer */

struct pev_data_writer;

struct pev_data_writer_opts {
	size_t size;		/* sizeof(struct pev_data_writer_opts) */
	bool pipe;		/* pipe mode: no seeks, metadata in-band */
	/* zstd level 1..22; 0 = no compression.  Records go into
	 * PERF_RECORD_COMPRESSED (81, what perf 6.1 reads) of <= 64 KiB. */
	int compress_level;
	/* Write the file in the other byte order (for testing readers of
	 * foreign files); not with compression. */
	bool foreign_endian;
};

/* A writer on fd (a file, or with opts->pipe anything, stdout included).
 * The fd stays the caller's.  NULL and errno on failure. */
PEV_EXPORT struct pev_data_writer *
pev_data_writer_new(int fd, const struct pev_data_writer_opts *opts);
/* Frees the writer (does not finish it, does not close fd); accepts NULL. */
PEV_EXPORT void pev_data_writer_free(struct pev_data_writer *w);

/* Adds an event before start: its attr (attr->size bytes, 0 = 64), the
 * kernel ids of its fds, and its name (NULL = none; used for EVENT_DESC
 * and the pipe EVENT_UPDATE NAME).  The attr is written with the smallest
 * size that holds its non-zero bytes, at least 128 (VER7), so that perf
 * 6.1 reads it.  Returns the event index, or -EINVAL (after start),
 * -ENOMEM. */
PEV_EXPORT int pev_data_writer_add_attr(struct pev_data_writer *w,
					const struct perf_event_attr *attr,
					const uint64_t *ids, size_t nids,
					const char *name);
/* The features the writer will write (owned by the writer; fill or change
 * them before start in pipe mode, before finish in file mode).  The writer
 * fills EVENT_DESC from the attrs, SAMPLE_TIME from
 * pev_data_writer_sample_time() and COMPRESSED itself. */
PEV_EXPORT struct pev_data_features *
pev_data_writer_features(struct pev_data_writer *w);

/* Starts the output.  File mode: the header (data.size 0, no features),
 * the id arrays and the attrs; an interrupted recording therefore leaves a
 * file that pev_data_open() (and perf) recover up to the last complete
 * write.  Pipe mode: the pipe header, HEADER_ATTR, HEADER_FEATURE,
 * EVENT_UPDATE (names) and HEADER_TRACING_DATA records.  0 or -errno. */
PEV_EXPORT int pev_data_writer_start(struct pev_data_writer *w);
/* Appends raw records (whole records, native byte order) to the data
 * section: len bytes from buf.  With compression they are compressed and
 * flushed into COMPRESSED records before the call returns.  0 or -errno. */
PEV_EXPORT int pev_data_writer_write(struct pev_data_writer *w,
				     const void *buf, size_t len);
/* The same for several spans that together hold whole records (the two
 * spans of pev_ring_read_spans, where a record may be cut in two). */
PEV_EXPORT int pev_data_writer_writev(struct pev_data_writer *w,
				      const void *const *bufs,
				      const size_t *lens, size_t n);
/* Suits pev_synth_emit_fn: writes one record; `writer` is the writer. */
PEV_EXPORT int pev_data_writer_emit(const void *rec, size_t len, void *writer);
/* Appends a PERF_RECORD_FINISHED_ROUND (after a drain pass over every
 * ring that wrote data); 0 or -errno. */
PEV_EXPORT int pev_data_writer_finished_round(struct pev_data_writer *w);
/* Widens SAMPLE_TIME to include [first, last]. */
PEV_EXPORT void pev_data_writer_sample_time(struct pev_data_writer *w,
					    uint64_t first, uint64_t last);
/* Sets SAMPLE_TIME to exactly [first, last]; first > last: none. */
PEV_EXPORT void pev_data_writer_set_sample_time(struct pev_data_writer *w,
						uint64_t first, uint64_t last);
/* Ends the output.  File mode: the feature index and payloads after the
 * data, then the header rewritten with the final sizes and the feature
 * bitmap.  Pipe mode: flushes.  0 or -errno. */
PEV_EXPORT int pev_data_writer_finish(struct pev_data_writer *w);

/* pev_data_writer_finish_at() kept the records but not the features. */
#define PEV_DATA_FEATURES_DROPPED 1

/* Ends a file whose writing went wrong (ENOSPC, EFBIG, ...) as if its
 * data section ended at data_size bytes.  The header is first rewritten
 * to hold exactly those records, so the file is valid from then on; the
 * file is cut there, then the feature index and payloads and the final
 * header follow as with pev_data_writer_finish() (cutting gives back the
 * bytes of the partial tail, so they usually fit).  data_size must end a
 * record, and with compression a write call: pev_data_writer_round_size()
 * is such a place, as is any pev_data_writer_data_size() read between
 * calls.  What was written or held back after it (compressor state, the
 * sticky error) is dropped.  SAMPLE_TIME is what the writer was given:
 * pev_data_writer_set_sample_time() sets it to the records that stay.
 * COMPRESSED's ratio is exact only when cutting at round_size.
 * Allowed after a failed pev_data_writer_finish().
 * Returns 0: done, the writer takes nothing more.
 * PEV_DATA_FEATURES_DROPPED: the features did not fit (or memory ran
 * out); the file ends at data_size, its header holds data_size and no
 * features, except COMPRESSED when the records are compressed and it
 * fit (perf needs it to read them).  The caller may call again with a
 * smaller data_size (an earlier round) to make room for them: one at
 * least pev_data_writer_features_size() bytes smaller frees enough.
 * -EINVAL: not started, complete already (a finish or finish_at that
 * returned 0), or data_size past the data written (or past the size an
 * earlier call cut to).  -ESPIPE: pipe mode (a stream cannot be cut
 * back).  -errno: a header could not be written; the file keeps one that
 * readers accept: the one before (after a failed recording, data.size 0,
 * which they recover) or data_size with no features. */
PEV_EXPORT int pev_data_writer_finish_at(struct pev_data_writer *w,
					 uint64_t data_size);
/* The bytes the feature index and payloads will take in the file (they
 * are encoded to measure them, with EVENT_DESC, COMPRESSED and
 * SAMPLE_TIME as finishing now would write them).  File mode; 0,
 * -EINVAL (not started, or complete), -ESPIPE (pipe mode), -ENOMEM. */
PEV_EXPORT int pev_data_writer_features_size(struct pev_data_writer *w,
					     uint64_t *size);
/* Bytes of data section written so far (compressed bytes with -z), and
 * bytes of records before compression. */
PEV_EXPORT uint64_t pev_data_writer_data_size(const struct pev_data_writer *w);
PEV_EXPORT uint64_t pev_data_writer_raw_size(const struct pev_data_writer *w);
/* Data section bytes up to the end of the last successful
 * pev_data_writer_finished_round() (0 before the first): where a file can
 * be cut back to with every round before it complete. */
PEV_EXPORT uint64_t pev_data_writer_round_size(const struct pev_data_writer *w);

/* Encodes feature `feat` of f into a malloc'ed payload exactly as it
 * appears in a file section (native byte order, or foreign when `foreign`).
 * out and len get the payload.  0, -ENOENT (not present or no encoder),
 * -ENOMEM. */
PEV_EXPORT int pev_data_feature_encode(const struct pev_data_features *f,
				       unsigned feat, bool foreign,
				       void **out, size_t *len);
/* Parses a payload of feature `feat` (swap: the payload is in the other
 * byte order) into f, setting its bit.  0, -EBADMSG (too short or
 * inconsistent), -ENOENT (no parser: the caller keeps the raw bytes),
 * -ENOMEM. */
PEV_EXPORT int pev_data_feature_parse(struct pev_data_features *f,
				      unsigned feat, const void *buf,
				      size_t len, bool swap);

/* ---------------------------------------------------------------- reader */

struct pev_data;

struct pev_data_open_opts {
	size_t size;		/* sizeof(struct pev_data_open_opts) */
	/* Stop instead of recovering a truncated file (data.size 0, data or
	 * feature sections past the end of the file). */
	bool strict;
	/* File mode: mapped pages more than this many bytes behind the
	 * reading position are given back to the kernel (0: 64 MiB), which
	 * bounds the RSS of a long read; a smaller window costs page-cache
	 * re-reads when time ordering holds records longer. */
	uint64_t window;
};

/* Opens a perf.data file (or the directory perf record --threads writes:
 * DIR/data, then the records of each DIR/data.N); path "-" reads a pipe
 * stream from stdin.  NULL
 * and errno on failure, with the reason ("perf.data: ...") written into
 * err (errlen bytes; err may be NULL). */
PEV_EXPORT struct pev_data *pev_data_open(const char *path,
					  const struct pev_data_open_opts *opts,
					  char *err, size_t errlen);
/* Opens from an fd (file, perf.data directory, or pipe; read to the end
 * if not seekable). */
PEV_EXPORT struct pev_data *pev_data_open_fd(int fd,
					     const struct pev_data_open_opts *opts,
					     char *err, size_t errlen);
/* Opens from memory (the bytes are copied). */
PEV_EXPORT struct pev_data *pev_data_open_mem(const void *buf, size_t len,
					      const struct pev_data_open_opts *opts,
					      char *err, size_t errlen);
PEV_EXPORT void pev_data_close(struct pev_data *d);

PEV_EXPORT bool pev_data_is_pipe(const struct pev_data *d);
/* True when the file is in the other byte order (it is converted). */
PEV_EXPORT bool pev_data_is_swapped(const struct pev_data *d);
/* Set when the file was recovered: data.size was 0 or ran past the end of
 * the file; the text says what was done.  NULL otherwise. */
PEV_EXPORT const char *pev_data_recovered(const struct pev_data *d);
/* What is missing from a file cut short (a copy that stopped, a full disk,
 * a recording killed before it wrote its header): file mode only. */
struct pev_data_cut {
	bool data_size_zero;	/* the header's data size was never written */
	uint64_t header_data_size;	/* what the header announces, else 0 */
	uint64_t data_in_file;	/* bytes of the data section the file holds */
	/* Bytes of the data section read as whole records: reading stopped
	 * there (a record cut by the end of the file).  Known once reading
	 * has reached the end; until then data_in_file. */
	uint64_t records_end;
	bool features_lost;	/* feature sections announced but cut off */
	unsigned nr_features_lost;
};
/* True when d was recovered (pev_data_recovered() != NULL) or lost its
 * feature sections; fills *out.  False, *out zeroed, for a whole file. */
PEV_EXPORT bool pev_data_cut_info(const struct pev_data *d, struct pev_data_cut *out);
/* Data section (file mode): offset and size (after recovery). */
PEV_EXPORT uint64_t pev_data_data_offset(const struct pev_data *d);
PEV_EXPORT uint64_t pev_data_data_size(const struct pev_data *d);
/* The decoder holding the file's attrs and ids (native byte order).  In
 * pipe mode it grows as HEADER_ATTR records are read. */
PEV_EXPORT const struct pev_decoder *pev_data_decoder(const struct pev_data *d);
/* Event names (EVENT_DESC, pipe EVENT_UPDATE NAME); NULL when unknown. */
PEV_EXPORT const char *pev_data_event_name(const struct pev_data *d,
					   size_t index);
/* Parsed features.  In pipe mode they fill in as HEADER_FEATURE records
 * are read (all of perf's come before the first data record). */
PEV_EXPORT const struct pev_data_features *
pev_data_features(const struct pev_data *d);
/* The raw payload of a feature (as stored: foreign byte order in swapped
 * files), or NULL when absent. */
PEV_EXPORT const void *pev_data_feature_raw(const struct pev_data *d,
					    unsigned feat, size_t *size);
/* Why the last call failed ("perf.data: ..."), "" when nothing failed. */
PEV_EXPORT const char *pev_data_error(const struct pev_data *d);

/* One record handed out by the reader. */
struct pev_data_event {
	struct pev_record rec;	/* decoded; views valid until the next call */
	uint64_t offset;	/* file offset of the record, or of the
				 * COMPRESSED record it came from */
	bool compressed;	/* it came out of a COMPRESSED record */
	int decode_error;	/* 0, or pev_record_decode's error: rec then
				 * holds only type/misc/size/raw/error */
};

/* The next record in file order (COMPRESSED records are expanded, their
 * contents handed out; every other type, user types included, is handed
 * out).  Returns 1 with *ev filled, 0 at the end, -errno on a framing
 * error (pev_data_error() says what; the iteration stops). */
PEV_EXPORT int pev_data_next(struct pev_data *d, struct pev_data_event *ev);
/* The next record in time order, as perf report orders them: user records
 * (type >= 64) and records without a time at once; kernel records queued
 * and released up to the previous round's highest time on each
 * FINISHED_ROUND, everything at the end.  FINISHED_ROUND records are
 * handed out too.  Same returns as pev_data_next.  Do not mix the two on
 * one reader without pev_data_rewind(). */
PEV_EXPORT int pev_data_next_ordered(struct pev_data *d,
				     struct pev_data_event *ev);
/* Records that arrived older than the last flush point (perf's "out of
 * order events"). */
PEV_EXPORT uint64_t pev_data_nr_out_of_order(const struct pev_data *d);
/* Starts the iteration over. 0 or -errno. */
PEV_EXPORT int pev_data_rewind(struct pev_data *d);

#ifdef __cplusplus
}
#endif
#endif
