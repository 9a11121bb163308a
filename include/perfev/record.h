/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: decoding perf records (ring-buffer and perf.data records).
 *
 * A record is a struct perf_event_header followed by a body whose layout
 * depends on its type and, for samples and the sample_id trailer, on the
 * attr of the event that wrote it.  pev_record_decode() turns one record
 * into a struct pev_record: plain data whose pointers are VIEWS into the
 * caller's buffer (nothing is copied except fixed-size scalars), valid as
 * long as that buffer is.
 *
 * Error contract (pev_record_decode, pev_record_swap):
 *   -EINVAL   bad arguments: NULL pointers, or buf not 8-byte aligned.
 *   -ERANGE   the buffer is too short: fewer than 8 bytes, or fewer than
 *             header.size bytes (a record cut by the end of the buffer).
 *   -EBADMSG  the record is malformed within its own header.size: size
 *             below the fixed part, not a multiple of 8 where the format
 *             aligns, a count (callchain nr, branch nr, namespaces, raw
 *             size, stack size, registers...) needing more bytes than
 *             remain, or a string without its NUL.
 *   -ENOENT   a sample (or a record whose trailer must be read) names an
 *             event id the decoder does not know, or needs an attr and the
 *             decoder has none.
 * On every error but -EINVAL, out->error says which field was bad and at
 * which byte offset of the record it starts.  No call ever reads outside
 * [buf, buf + len).
 *
 * Thread-safety: a decoder is read-only once its attrs are added, so any
 * number of threads may decode with it at once; adding attrs while others
 * decode needs a lock.  Byte order: records are decoded in native order.
 * Records from a file of the other byte order are first converted in place
 * with pev_record_swap(). */
#ifndef PERFEV_RECORD_H
#define PERFEV_RECORD_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Constants newer than Debian 12's <linux/perf_event.h> (Linux 6.1).
 * Macros there are completed with #ifndef; enum values get PEV_ names. */
#define PEV_RECORD_CALLCHAIN_DEFERRED	22	/* Linux 6.19 */
#define PEV_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)	/* branch_sample_type, 6.8 */
#define PEV_CONTEXT_USER_DEFERRED	((uint64_t)-640)	/* callchain marker */
#ifndef PERF_MEM_LVLNUM_L2_MHB
#define PERF_MEM_LVLNUM_L2_MHB		0x05
#endif
#ifndef PERF_MEM_LVLNUM_MSC
#define PERF_MEM_LVLNUM_MSC		0x06
#endif
#ifndef PERF_MEM_LVLNUM_UNC
#define PERF_MEM_LVLNUM_UNC		0x08
#endif
#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID	(1 << 14)
#endif
/* perf.data HEADER_BUILD_ID: the size byte is valid. */
#define PEV_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)

/* perf.data user record types (perf's tools/lib/perf/include/perf/event.h). */
enum pev_user_record_type {
	PEV_RECORD_USER_TYPE_START	= 64,
	PEV_RECORD_HEADER_ATTR		= 64,
	PEV_RECORD_HEADER_EVENT_TYPE	= 65,	/* deprecated */
	PEV_RECORD_HEADER_TRACING_DATA	= 66,
	PEV_RECORD_HEADER_BUILD_ID	= 67,
	PEV_RECORD_FINISHED_ROUND	= 68,
	PEV_RECORD_ID_INDEX		= 69,
	PEV_RECORD_AUXTRACE_INFO	= 70,
	PEV_RECORD_AUXTRACE		= 71,
	PEV_RECORD_AUXTRACE_ERROR	= 72,
	PEV_RECORD_THREAD_MAP		= 73,
	PEV_RECORD_CPU_MAP		= 74,
	PEV_RECORD_STAT_CONFIG		= 75,
	PEV_RECORD_STAT			= 76,
	PEV_RECORD_STAT_ROUND		= 77,
	PEV_RECORD_EVENT_UPDATE		= 78,
	PEV_RECORD_TIME_CONV		= 79,
	PEV_RECORD_HEADER_FEATURE	= 80,
	PEV_RECORD_COMPRESSED		= 81,
	PEV_RECORD_FINISHED_INIT	= 82,
	PEV_RECORD_COMPRESSED2		= 83,
	PEV_RECORD_BPF_METADATA		= 84,
	PEV_RECORD_SCHEDSTAT_CPU	= 85,
	PEV_RECORD_SCHEDSTAT_DOMAIN	= 86,
};

enum { PEV_CPU_MAP_CPUS = 0, PEV_CPU_MAP_MASK = 1, PEV_CPU_MAP_RANGE = 2 };
enum { PEV_EVENT_UPDATE_UNIT = 0, PEV_EVENT_UPDATE_SCALE = 1,
       PEV_EVENT_UPDATE_NAME = 2, PEV_EVENT_UPDATE_CPUS = 3 };

/* ---- The decoder: the attrs of the events whose records are decoded. */
struct pev_decoder;

/* A new, empty decoder; NULL and errno = ENOMEM on failure. */
PEV_EXPORT struct pev_decoder *pev_decoder_new(void);
/* Frees the decoder and its copies of the attrs; accepts NULL. */
PEV_EXPORT void pev_decoder_free(struct pev_decoder *d);

/* Adds an event: its attr (attr->size bytes are read, 0 meaning 64; bytes
 * past what this library knows are ignored) and the kernel ids of its fds
 * (PERF_EVENT_IOC_ID or PERF_FORMAT_ID).  Returns the event's index (0, 1,
 * ...), or -EINVAL when attrs would become ambiguous: with more than one
 * event, every attr must carry PERF_SAMPLE_IDENTIFIER or PERF_SAMPLE_ID at
 * the same position in samples and in the sample_id trailer, and all must
 * agree on sample_id_all (perf's evlist rules); -EEXIST when an id is
 * already known; -ENOMEM.  With a single event, records need no id. */
PEV_EXPORT int pev_decoder_add_attr(struct pev_decoder *d,
				    const struct perf_event_attr *attr,
				    const uint64_t *ids, size_t nids);
/* Adds more ids to event `index`; 0, -EINVAL, -EEXIST or -ENOMEM. */
PEV_EXPORT int pev_decoder_add_ids(struct pev_decoder *d, int index,
				   const uint64_t *ids, size_t nids);
/* Number of events added. */
PEV_EXPORT size_t pev_decoder_nr_attrs(const struct pev_decoder *d);
/* The decoder's copy of event `index`'s attr (zero-filled past the size it
 * was given), or NULL when out of range. Valid until the decoder is freed. */
PEV_EXPORT const struct perf_event_attr *
pev_decoder_attr(const struct pev_decoder *d, size_t index);
/* The event index for a kernel id, or -ENOENT.  Id 0 (never a kernel id;
 * perf writes it in records it synthesizes) is the first event, as in
 * perf, unless an event was added with id 0. */
PEV_EXPORT int pev_decoder_find_id(const struct pev_decoder *d, uint64_t id);

/* ---- Sample pieces (all views into the record). */

/* read_format values (PERF_SAMPLE_READ, PERF_RECORD_READ, or read() on an
 * event fd).  Entry 0 is decoded in `first`; with PERF_FORMAT_GROUP, all
 * `nr` entries are in `group` (stride u64s each: value, [id], [lost]). */
struct pev_readfmt_entry {
	uint64_t value;
	uint64_t id;		/* 0 unless PERF_FORMAT_ID */
	uint64_t lost;		/* 0 unless PERF_FORMAT_LOST */
};
struct pev_readfmt {
	uint64_t format;	/* the attr's read_format */
	uint64_t nr;		/* entries: 1 without PERF_FORMAT_GROUP */
	uint64_t time_enabled;	/* 0 unless TOTAL_TIME_ENABLED */
	uint64_t time_running;	/* 0 unless TOTAL_TIME_RUNNING */
	struct pev_readfmt_entry first;
	const uint64_t *group;	/* GROUP: nr * stride u64s; else NULL */
	uint32_t stride;	/* u64s per group entry */
};
/* Parses read_format data (as read() returns it) from buf; returns the
 * bytes used, or -EBADMSG when len is too short (or nr overflows). */
PEV_EXPORT long pev_readfmt_parse(uint64_t read_format, const void *buf,
				  size_t len, struct pev_readfmt *out);
/* Entry i (0 <= i < nr) into *e; 0 or -ERANGE. */
PEV_EXPORT int pev_readfmt_entry(const struct pev_readfmt *r, uint64_t i,
				 struct pev_readfmt_entry *e);

/* PERF_SAMPLE_CALLCHAIN: nr u64s, PERF_CONTEXT_* markers included. */
struct pev_callchain {
	uint64_t nr;
	const uint64_t *ips;
};
/* One run of addresses between context markers. */
struct pev_callchain_segment {
	uint64_t context;	/* PERF_CONTEXT_KERNEL, _USER, _HV, _GUEST*,
				 * PEV_CONTEXT_USER_DEFERRED; 0 before any marker */
	const uint64_t *ips;
	uint64_t nr;		/* >= 1: empty runs are skipped */
};
struct pev_callchain_iter {
	const uint64_t *ips;
	uint64_t nr, pos, context;
};
/* True when ip is a PERF_CONTEXT_* marker (>= PERF_CONTEXT_MAX). */
PEV_EXPORT bool pev_callchain_is_context(uint64_t ip);
/* "kernel", "user", "hv", "guest", "guest-kernel", "guest-user",
 * "user-deferred"; "unknown" for 0 or anything else. */
PEV_EXPORT const char *pev_callchain_context_name(uint64_t context);
PEV_EXPORT void pev_callchain_iter_init(struct pev_callchain_iter *it,
					const struct pev_callchain *cc);
/* Next non-empty segment into *seg; false at the end. */
PEV_EXPORT bool pev_callchain_iter_next(struct pev_callchain_iter *it,
					struct pev_callchain_segment *seg);

/* PERF_SAMPLE_RAW: u32 size + bytes (the u32 and data pad to 8). */
struct pev_raw {
	uint32_t size;
	const void *data;
};

/* PERF_SAMPLE_BRANCH_STACK.  flags are in this host's bitfield layout
 * (pev_record_swap converts them from the other byte order). */
struct pev_branch_entry {
	uint64_t from, to, flags;
};
struct pev_branch_flags {
	bool mispred, predicted, in_tx, abort;
	uint16_t cycles;
	uint8_t type;		/* PERF_BR_* */
	uint8_t spec;		/* PERF_BR_SPEC_* */
	uint8_t new_type;	/* PERF_BR_NEW_* (type == PERF_BR_EXTEND_ABI) */
	uint8_t priv;		/* PERF_BR_PRIV_* */
};
struct pev_branch_stack {
	uint64_t nr;
	bool has_hw_idx;	/* branch_sample_type has HW_INDEX */
	uint64_t hw_idx;
	const struct pev_branch_entry *entries;	/* nr entries */
	const uint64_t *counters;  /* nr u64s with PEV_SAMPLE_BRANCH_COUNTERS,
				    * else NULL */
};
/* The bit-fields of a branch entry's flags word. */
PEV_EXPORT struct pev_branch_flags pev_branch_flags_decode(uint64_t flags);

/* PERF_SAMPLE_REGS_USER / REGS_INTR: abi, then one u64 per mask bit. */
struct pev_regs {
	uint64_t abi;		/* PERF_SAMPLE_REGS_ABI_*; NONE = no regs */
	uint64_t mask;		/* the attr's sample_regs_user / _intr */
	uint64_t nr;		/* popcount(mask), or 0 when abi is NONE */
	const uint64_t *regs;
};
/* Register number `reg` (a bit of the mask, e.g. PERF_REG_X86_IP) into
 * *val; 0, or -ENOENT when it was not sampled. */
PEV_EXPORT int pev_regs_get(const struct pev_regs *r, unsigned reg,
			    uint64_t *val);

/* PERF_SAMPLE_STACK_USER: size, data[size], dyn_size (when size != 0). */
struct pev_stack_user {
	uint64_t size;
	const void *data;
	uint64_t dyn_size;	/* bytes of data that are valid */
};

/* PERF_SAMPLE_AUX: size + data. */
struct pev_aux_sample {
	uint64_t size;
	const void *data;
};

/* A decoded PERF_RECORD_SAMPLE.  `fields` has the PERF_SAMPLE_* bits that
 * are present (the attr's sample_type); fields not present are zero. */
struct pev_sample {
	uint64_t fields;
	uint64_t id;		/* IDENTIFIER, else ID */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;	/* without PERIOD: the attr's fixed sample_period, as perf */
	struct pev_readfmt read;
	struct pev_callchain callchain;
	struct pev_raw raw;
	struct pev_branch_stack branch_stack;
	struct pev_regs regs_user;
	struct pev_stack_user stack_user;
	uint64_t weight;	/* WEIGHT, or WEIGHT_STRUCT's full u64 */
	uint64_t data_src;	/* see pev_data_src_decode() */
	uint64_t transaction;	/* see pev_txn_decode() */
	struct pev_regs regs_intr;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	struct pev_aux_sample aux;
};

/* The identity of a record: the sample_id trailer of a non-sample record
 * (attr.sample_id_all), or the same fields taken from a sample. */
struct pev_sample_id {
	uint64_t fields;	/* of TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER */
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;		/* IDENTIFIER, else ID */
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
};

/* ---- Bodies of the kernel record types. */
struct pev_record_mmap {	/* MMAP and MMAP2 */
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	/* MMAP2 only: */
	bool has_build_id;	/* misc & PERF_RECORD_MISC_MMAP_BUILD_ID */
	uint32_t maj, min;	/* 0 with a build id */
	uint64_t ino, ino_generation;
	uint8_t build_id_size;	/* <= 20 */
	const uint8_t *build_id;/* 20 bytes, build_id_size valid */
	uint32_t prot, flags;
	const char *filename;
};
struct pev_record_lost { uint64_t id, lost; };
struct pev_record_comm {
	uint32_t pid, tid;
	bool exec;		/* PERF_RECORD_MISC_COMM_EXEC */
	const char *comm;
};
struct pev_record_fork {	/* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};
struct pev_record_throttle {	/* THROTTLE and UNTHROTTLE */
	uint64_t time, id, stream_id;
};
struct pev_record_read {
	uint32_t pid, tid;
	struct pev_readfmt values;
};
struct pev_record_aux {
	uint64_t aux_offset, aux_size, flags;
	bool truncated, overwrite, partial, collision;
	uint8_t pmu_format;	/* (flags & PMU_FORMAT_TYPE_MASK) >> 8 */
};
struct pev_record_itrace_start { uint32_t pid, tid; };
struct pev_record_lost_samples { uint64_t lost; };
struct pev_record_switch {	/* SWITCH and SWITCH_CPU_WIDE */
	bool out;		/* PERF_RECORD_MISC_SWITCH_OUT */
	bool preempt;		/* out and PERF_RECORD_MISC_SWITCH_OUT_PREEMPT */
	uint32_t next_prev_pid, next_prev_tid;	/* CPU_WIDE only */
};
struct pev_ns_link { uint64_t dev, ino; };
struct pev_record_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const struct pev_ns_link *links;
};
struct pev_record_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	const char *name;
};
struct pev_record_bpf_event {
	uint16_t type, flags;
	uint32_t id;
	const uint8_t *tag;	/* 8 bytes */
};
struct pev_record_cgroup {
	uint64_t id;
	const char *path;
};
struct pev_record_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *old_bytes, *new_bytes;
};
struct pev_record_aux_output_hw_id { uint64_t hw_id; };
struct pev_record_callchain_deferred {
	uint64_t cookie;
	struct pev_callchain callchain;
};

/* ---- Bodies of the perf.data user record types. */
struct pev_record_header_attr {
	struct pev_attr attr;	/* a zero-padded COPY (the record's attr may
				 * be shorter than the struct) */
	uint32_t attr_size;	/* bytes of attr in the record */
	uint64_t nr_ids;
	const uint64_t *ids;
};
struct pev_record_event_type {
	uint64_t event_id;
	const char *name;	/* NUL within its 64 bytes */
};
struct pev_record_tracing_data {
	uint32_t size;		/* bytes that FOLLOW the record (outside
				 * header.size), padded to 8 in files */
};
struct pev_record_build_id {
	int32_t pid;
	uint8_t size;		/* from the record, or 20 without
				 * PEV_RECORD_MISC_BUILD_ID_SIZE */
	const uint8_t *build_id;/* 20 bytes */
	const char *filename;
};
struct pev_id_index_entry { uint64_t id, idx, cpu, tid; };
struct pev_id_index_entry2 { uint64_t machine_pid, vcpu; };
struct pev_record_id_index {
	uint64_t nr;
	const struct pev_id_index_entry *entries;
	const struct pev_id_index_entry2 *entries2;	/* NULL when absent */
};
struct pev_record_auxtrace_info {
	uint32_t type;
	uint64_t nr_priv;
	const uint64_t *priv;
};
struct pev_record_auxtrace {
	uint64_t size;		/* AUX bytes that FOLLOW the record */
	uint64_t offset, reference;
	uint32_t idx, tid, cpu;
};
struct pev_record_auxtrace_error {
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip, time;
	const char *msg;	/* NUL within its 64 bytes */
	bool has_machine;	/* the record is long enough for these: */
	uint32_t machine_pid, vcpu;
};
struct pev_thread_map_entry {
	uint64_t pid;
	char comm[16];		/* may fill all 16 bytes without a NUL */
};
struct pev_record_thread_map {
	uint64_t nr;
	const struct pev_thread_map_entry *entries;
};
/* A perf cpu map payload (CPU_MAP, EVENT_UPDATE CPUS): a list of u16 cpus,
 * a bitmap of 32- or 64-bit words, or a range.  The words are not aligned
 * in the record: read them with pev_cpu_map_cpus(). */
struct pev_cpu_map_data {
	uint16_t type;		/* PEV_CPU_MAP_* */
	uint16_t nr;		/* CPUS: cpus; MASK: words */
	uint16_t long_size;	/* MASK: 4 or 8 */
	const void *data;	/* CPUS: u16[nr]; MASK: words */
	bool any_cpu;		/* RANGE: -1 is in the map too */
	uint16_t start_cpu, end_cpu;	/* RANGE, inclusive */
};
/* Expands a cpu map: writes up to `max` cpus (-1 = "any cpu") into cpus
 * in map order and returns how many the map has (which may exceed max). */
PEV_EXPORT long pev_cpu_map_cpus(const struct pev_cpu_map_data *m,
				 int32_t *cpus, size_t max);
struct pev_record_cpu_map { struct pev_cpu_map_data map; };
struct pev_stat_config_entry { uint64_t tag, val; };
struct pev_record_stat_config {
	uint64_t nr;
	const struct pev_stat_config_entry *entries;
};
struct pev_record_stat {
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};
struct pev_record_stat_round { uint64_t type, time; };
struct pev_record_event_update {
	uint64_t type, id;	/* PEV_EVENT_UPDATE_* */
	const char *str;	/* UNIT, NAME */
	double scale;		/* SCALE */
	struct pev_cpu_map_data cpus;	/* CPUS */
};
struct pev_record_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	bool has_cycles;	/* newer records: the fields below are valid */
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
};
struct pev_record_feature {
	uint64_t feat_id;
	const void *data;	/* the feature payload, as in the file section */
	size_t size;
};
struct pev_record_compressed {	/* COMPRESSED and COMPRESSED2 */
	const void *data;	/* zstd frames holding records */
	size_t size;
};
/* Any other type, and BPF_METADATA / SCHEDSTAT_*: the body, undecoded. */
struct pev_record_payload {
	const void *data;
	size_t size;
};

/* Where decoding failed. */
struct pev_decode_error {
	const char *field;	/* "header.size", "comm", "callchain.nr", ... */
	const char *reason;	/* "runs past the end of the record", ... */
	size_t offset;		/* byte offset of the field in the record */
};

/* One decoded record. */
struct pev_record {
	uint32_t type;		/* PERF_RECORD_* / PEV_RECORD_* */
	uint16_t misc;
	uint16_t size;		/* header.size */
	const void *raw;	/* the record, header included */
	const struct perf_event_attr *attr;	/* the event's attr (the
				 * decoder's copy), NULL for user records or
				 * when no event matched */
	int attr_index;		/* its index in the decoder, or -1 */
	bool has_sample_id;	/* sample_id is valid: the trailer was decoded,
				 * or the record is a sample */
	struct pev_sample_id sample_id;
	struct pev_decode_error error;	/* set when decoding fails */
	union {
		struct pev_record_mmap mmap;	/* MMAP, MMAP2 */
		struct pev_record_lost lost;
		struct pev_record_comm comm;
		struct pev_record_fork fork;	/* FORK, EXIT */
		struct pev_record_throttle throttle;	/* (UN)THROTTLE */
		struct pev_record_read read;
		struct pev_sample sample;
		struct pev_record_aux aux;
		struct pev_record_itrace_start itrace_start;
		struct pev_record_lost_samples lost_samples;
		struct pev_record_switch context_switch; /* SWITCH(_CPU_WIDE) */
		struct pev_record_namespaces namespaces;
		struct pev_record_ksymbol ksymbol;
		struct pev_record_bpf_event bpf_event;
		struct pev_record_cgroup cgroup;
		struct pev_record_text_poke text_poke;
		struct pev_record_aux_output_hw_id aux_output_hw_id;
		struct pev_record_callchain_deferred callchain_deferred;
		struct pev_record_header_attr header_attr;
		struct pev_record_event_type event_type;
		struct pev_record_tracing_data tracing_data;
		struct pev_record_build_id build_id;
		struct pev_record_id_index id_index;
		struct pev_record_auxtrace_info auxtrace_info;
		struct pev_record_auxtrace auxtrace;
		struct pev_record_auxtrace_error auxtrace_error;
		struct pev_record_thread_map thread_map;
		struct pev_record_cpu_map cpu_map;
		struct pev_record_stat_config stat_config;
		struct pev_record_stat stat;
		struct pev_record_stat_round stat_round;
		struct pev_record_event_update event_update;
		struct pev_record_time_conv time_conv;
		struct pev_record_feature feature;
		struct pev_record_compressed compressed;
		struct pev_record_payload payload;
		/* FINISHED_ROUND, FINISHED_INIT, SWITCH: no body */
	} u;
};

/* Decodes the record at buf (8-byte aligned; len = bytes available, which
 * may hold more records after this one: out->size says where the next
 * starts).  d may be NULL when no records need an attr (user records, or
 * kernel records without sample_id_all).  Returns 0 or a negative errno as
 * described at the top of this header. */
PEV_EXPORT int pev_record_decode(const struct pev_decoder *d, const void *buf,
				 size_t len, struct pev_record *out);

/* The time of a PERF_RECORD_SAMPLE at buf, read without decoding the rest
 * of it (what a time-ordering queue needs; perf reads only the timestamp
 * there too).  0 and *time; -EINVAL bad arguments; -ENOENT not a sample,
 * no attr for its id, or its event has no PERF_SAMPLE_TIME; -EBADMSG the
 * header or the fields up to the time do not fit.  The fields after the
 * time are not checked: pev_record_decode() still may refuse the record. */
PEV_EXPORT int pev_sample_time(const struct pev_decoder *d, const void *buf,
			       size_t len, uint64_t *time);

/* Byte-swap one record in place, field by field per its type and (for
 * samples and trailers) its attr's layout.  By default the record is in
 * the other byte order and becomes native; with PEV_SWAP_TO_FOREIGN a
 * native record is turned into the other byte order.  Byte arrays
 * (strings, raw data, stack dumps, AUX data, compressed data, feature
 * payloads) are left as they are; branch flag bit-fields are re-laid out.
 * The attrs in d must be native.  Same errors as pev_record_decode(); on
 * error the record may be partly swapped. */
#define PEV_SWAP_TO_FOREIGN	1u
PEV_EXPORT int pev_record_swap(const struct pev_decoder *d, void *buf,
			       size_t len, unsigned flags);
/* Byte-swap a perf_event_attr of `len` bytes in place (its size field
 * says how much is swapped; 0 means 64): integers are swapped, the flag
 * bit-fields re-laid out.  flags as for pev_record_swap.  0 or -EBADMSG. */
PEV_EXPORT int pev_attr_swap(void *attr, size_t len, unsigned flags);

/* ---- Names, for dumps ("script -D"). */
/* "MMAP2", "SAMPLE", "FINISHED_ROUND", ...; NULL for an unknown type. */
PEV_EXPORT const char *pev_record_type_name(uint32_t type);
/* "IP", "TID", "CALLCHAIN", ... for one PERF_SAMPLE_* bit; NULL otherwise. */
PEV_EXPORT const char *pev_sample_field_name(uint64_t bit);

/* ---- Decoding the packed sample values. */
struct pev_data_src {
	uint8_t mem_op;		/* PERF_MEM_OP_* */
	uint16_t mem_lvl;	/* PERF_MEM_LVL_* */
	uint8_t mem_snoop;	/* PERF_MEM_SNOOP_* */
	uint8_t mem_lock;	/* PERF_MEM_LOCK_* */
	uint8_t mem_dtlb;	/* PERF_MEM_TLB_* */
	uint8_t mem_lvl_num;	/* PERF_MEM_LVLNUM_* */
	uint8_t mem_remote;
	uint8_t mem_snoopx;	/* PERF_MEM_SNOOPX_* */
	uint8_t mem_blk;	/* PERF_MEM_BLK_* */
	uint8_t mem_hops;	/* PERF_MEM_HOPS_* */
};
PEV_EXPORT struct pev_data_src pev_data_src_decode(uint64_t data_src);
/* Renders data_src as perf 6.1 script does (its meminfo text, before perf
 * cuts the line at 99 characters):
 * "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A".
 * snprintf semantics: returns the length of the full text. */
PEV_EXPORT int pev_data_src_format(uint64_t data_src, char *buf, size_t len);

/* The parts of that text; each is also what perf report prints in its
 * mem, snoop, tlb, locked and blocked columns. */
enum pev_data_src_part {
	PEV_DATA_SRC_OP,	/* "LOAD" */
	PEV_DATA_SRC_LVL,	/* "L2 or L2 hit", "Remote node, same socket RAM hit" */
	PEV_DATA_SRC_SNOOP,	/* "Hit or Fwd" */
	PEV_DATA_SRC_TLB,	/* "L1 or L2 hit" */
	PEV_DATA_SRC_LOCK,	/* "Yes", "No", "N/A" */
	PEV_DATA_SRC_BLK,	/* " Data Addr", " N/A" (with perf's leading space) */
};
/* One part's text, with pev_data_src_format's semantics. */
PEV_EXPORT int pev_data_src_format_part(uint64_t data_src, enum pev_data_src_part part,
					char *buf, size_t len);

struct pev_weight {		/* PERF_SAMPLE_WEIGHT_STRUCT */
	uint32_t var1_dw;	/* e.g. the load latency */
	uint16_t var2_w;	/* e.g. instruction latency */
	uint16_t var3_w;
};
PEV_EXPORT struct pev_weight pev_weight_decode(uint64_t weight);

struct pev_txn {		/* PERF_SAMPLE_TRANSACTION */
	uint32_t flags;		/* PERF_TXN_* bits */
	uint32_t abort_code;	/* bits 32..63 */
};
PEV_EXPORT struct pev_txn pev_txn_decode(uint64_t transaction);
/* Renders as perf report's transaction column: "TX SYNC RETRY :3f".
 * snprintf semantics. */
PEV_EXPORT int pev_txn_format(uint64_t transaction, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
