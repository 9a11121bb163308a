/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* perfev/profile.h: a profile built from a stream of samples.
 *
 * One aggregation for every view (report tables, call graphs, exports):
 *  - frames (DSO, symbol, address, inline name) are interned once: every
 *    sample and call tree points at the same struct pev_profile_frame;
 *  - samples are grouped into entries by a set of sort keys (perf's
 *    --sort), per event, with self period and sample count and, in
 *    children mode, the cumulative (children) period of every function on
 *    the call chain, counted once per sample as perf 6.1 counts them;
 *  - every entry has a call tree (caller or callee order, matched by
 *    function or by address) with the hit and children_hit totals perf's
 *    callchain code computes;
 *  - input is streamed: records are fed one at a time (or read from a
 *    struct pev_data); only the distinct (entry, call chain) pairs are
 *    kept, so memory grows with the variety of the data, not its size.
 *
 * Lifecycle: pev_profile_new, pev_profile_add (or pev_profile_read), then
 * pev_profile_finish once, then the read-only queries.  Not thread-safe. */
#ifndef PERFEV_PROFILE_H
#define PERFEV_PROFILE_H

#include <perfev/common.h>
#include <perfev/callchain.h>
#include <perfev/data.h>
#include <perfev/filter.h>
#include <perfev/record.h>
#include <perfev/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sort keys (perf 6.1 report --sort names in comments). */
enum pev_sort_key {
	PEV_SORT_NONE = 0,
	PEV_SORT_COMM,		/* comm */
	PEV_SORT_PID,		/* pid: the thread (tid:comm) */
	PEV_SORT_DSO,		/* dso */
	PEV_SORT_SYM,		/* symbol / sym */
	PEV_SORT_CPU,		/* cpu */
	PEV_SORT_SOCKET,	/* socket */
	PEV_SORT_SRCLINE,	/* srcline */
	PEV_SORT_SRCFILE,	/* srcfile */
	PEV_SORT_TIME,		/* time */
	PEV_SORT_SYM_SIZE,	/* symbol_size */
	PEV_SORT_DSO_SIZE,	/* dso_size */
	PEV_SORT_WEIGHT,	/* weight (local_weight: same value) */
	PEV_SORT_LOCAL_WEIGHT,	/* local_weight */
	PEV_SORT_CGROUP_ID,	/* cgroup_id */
	PEV_SORT_CODE_PAGE_SIZE,/* code_page_size */
	PEV_SORT_PARENT,	/* parent */
	PEV_SORT_CGROUP,	/* cgroup: the sample's cgroup (name) */
	PEV_SORT_INS_LAT,	/* ins_lat (WEIGHT_STRUCT bits 32-47) */
	PEV_SORT_LOCAL_INS_LAT,	/* local_ins_lat */
	/* Branch mode (pev_profile_opts.branch_mode) only: */
	PEV_SORT_DSO_FROM,	/* dso_from */
	PEV_SORT_DSO_TO,	/* dso_to */
	PEV_SORT_SYM_FROM,	/* symbol_from */
	PEV_SORT_SYM_TO,	/* symbol_to */
	PEV_SORT_MISPREDICT,	/* mispredict */
	PEV_SORT_IN_TX,		/* in_tx */
	PEV_SORT_ABORT,		/* abort */
	PEV_SORT_CYCLES,	/* cycles */
	PEV_SORT_SRCLINE_FROM,	/* srcline_from */
	PEV_SORT_SRCLINE_TO,	/* srcline_to */
	PEV_SORT_ADDR_FROM,	/* addr_from */
	PEV_SORT_ADDR_TO,	/* addr_to */
	PEV_SORT_TRACE,		/* trace: a tracepoint's formatted output */
	/* Memory keys (perf's --mem-mode): PERF_SAMPLE_DATA_SRC fields, the
	 * data address (ADDR), PHYS_ADDR and DATA_PAGE_SIZE. */
	PEV_SORT_MEM,		/* mem: data_src memory level */
	PEV_SORT_SNOOP,		/* snoop */
	PEV_SORT_TLB,		/* tlb */
	PEV_SORT_LOCKED,	/* locked */
	PEV_SORT_BLOCKED,	/* blocked */
	PEV_SORT_SYM_DADDR,	/* symbol_daddr: the data address's symbol */
	PEV_SORT_DSO_DADDR,	/* dso_daddr: the data address's DSO */
	PEV_SORT_DCACHELINE,	/* dcacheline: its 64-byte cache line */
	PEV_SORT_PHYS_DADDR,	/* phys_daddr */
	PEV_SORT_DATA_PAGE_SIZE,/* data_page_size */
	PEV_SORT_SYM_IADDR,	/* symbol_iaddr: the sample's ip (its symbol) */
	PEV_SORT_MAX
};
#define PEV_PROFILE_MAX_KEYS 16

/* Items of an output order (pev_profile_opts.sort_order) besides the sort
 * keys: perf's hpp fields, each sorting larger values first. */
enum pev_sort_field {
	PEV_FIELD_OVERHEAD = 256,	/* overhead: self period */
	PEV_FIELD_CHILDREN,		/* overhead_children: cumulative period */
	PEV_FIELD_SYS,			/* overhead_sys */
	PEV_FIELD_US,			/* overhead_us */
	PEV_FIELD_GUEST_SYS,		/* overhead_guest_sys */
	PEV_FIELD_GUEST_US,		/* overhead_guest_us */
	PEV_FIELD_SAMPLES,		/* sample */
	PEV_FIELD_PERIOD,		/* period */
};

enum pev_profile_order { PEV_PROFILE_CALLEE = 0, PEV_PROFILE_CALLER = 1 };
enum pev_profile_match { PEV_PROFILE_FUNCTION = 0, PEV_PROFILE_ADDRESS = 1 };

struct pev_profile_opts {
	size_t size;			/* sizeof(struct pev_profile_opts) */
	enum pev_sort_key keys[PEV_PROFILE_MAX_KEYS];	/* PEV_SORT_NONE ends */
	bool callchains;		/* build call trees */
	bool children;			/* cumulate along the chains */
	enum pev_profile_order order;	/* order of the call trees */
	enum pev_profile_match match;	/* how chain entries match */
	unsigned max_stack;		/* 0: 127 */
	/* Entries of equal children period: the caller first, as perf 6.1
	 * orders them when call graphs are shown. */
	bool caller_first;
	/* The filter (borrowed; NULL: keep all).  Samples outside its time
	 * and CPU ranges are dropped; as in perf, an entry made by a sample
	 * it rejects otherwise is marked filtered (later samples, rejected
	 * or not, add to it), and the self samples and periods of marked
	 * entries count in pev_profile_stats.nr_filtered and
	 * filtered_period, not in nr_samples and total_period. */
	const struct pev_filter *filter;
	/* Report time in buckets of this many ns for PEV_SORT_TIME (0: the
	 * exact time, as perf without --time-quantum... perf's default is
	 * 100 ms). */
	uint64_t time_quantum;
	/* PEV_SORT_SOCKET: the socket of each CPU (cpu_socket[cpu], borrowed),
	 * from the file's CPU_TOPOLOGY; -1 for CPUs past it or without. */
	const int32_t *cpu_socket;
	size_t nr_cpu_socket;
	/* Timestamps printed relative to nothing: the profile only keeps the
	 * numbers. */
	/* The output order (perf's sort list) when it is not the default
	 * (overhead_children in children mode, overhead, then keys[]):
	 * enum pev_sort_field items and sort keys, compared in turn, 0 ends.
	 * Keys listed here must also be in keys[]. */
	int sort_order[2 * PEV_PROFILE_MAX_KEYS];
	/* perf's branch mode: every entry of a sample's branch stack counts
	 * as one sample of period 1, keyed also by its from and to ends and
	 * flags (the PEV_SORT_*_FROM/TO keys); samples without one are left
	 * out.  No call trees or children then. */
	bool branch_mode;
	/* PEV_SORT_PARENT (perf's -p): the first function on the sample's
	 * call chain, walked in the tree's order, whose name matches this
	 * POSIX extended regex; NULL: perf's "^sys_|^do_page_fault".  An
	 * invalid one makes pev_profile_new fail with EINVAL. */
	const char *parent_regex;
	/* perf's -x/--exclude-other: samples without a parent are filtered
	 * (kept hidden, as the filter's rejects; see filter above). */
	bool exclude_other;
	/* PEV_SORT_TRACE: writes the formatted output of sample s of event
	 * `event` (perf's trace key) into buf (NUL-terminated) and returns
	 * its length, or -1 when that event is not a tracepoint (the key
	 * then holds NULL, perf's "N/A").  arg is trace_arg. */
	int (*trace_output)(void *arg, uint32_t event, const struct pev_sample *s,
			    char *buf, size_t size);
	void *trace_arg;
	/* perf's --mem-mode: a sample counts its weight (1 when 0) instead
	 * of its period. */
	bool mem_mode;
	/* Keys (bit i: keys[i]) the output order passes over: perf's elided
	 * columns (a comm, DSO or symbol filtered to one value) still make
	 * the entries but no longer order them. */
	uint32_t unsorted_keys;
	/* Branch mode: count the cycles of the basic blocks the branch
	 * stacks end, per function, for pev_profile_entry_ipc (perf's
	 * ipc_lbr key). */
	bool branch_ipc;
	/* perf's --branch-history: with callchains, a sample's chain starts
	 * with its branch stack (each branch's target, then its source;
	 * loops folded; perf's order and overlap rules), and the call-tree
	 * nodes count the branches (pev_profile_node_branch). */
	bool branch_history;
	/* Keep one record per sample added (struct pev_profile_sample, in
	 * the order they came), for the views that need every sample and
	 * its stack: pev_profile_samples.  Not in branch mode. */
	bool keep_samples;
	/* perf's -U/--hide-unresolved: a sample whose own address has no
	 * symbol is left out (not counted), and so are the frames of a
	 * chain that have none. */
	bool hide_unresolved;
	/* perf's --full-source-path: srclines (and srcfiles) name the
	 * source file by its full path, not its base name. */
	bool full_srcpath;
	/* perf's --socket-filter: with socket_filter_on, a sample whose CPU
	 * is not on socket socket_filter (cpu_socket; a sample without a
	 * CPU is on none) is rejected as the filter's are (see filter). */
	bool socket_filter_on;
	int32_t socket_filter;
	/* perf's --ignore-callees: a POSIX extended regex (unanchored).  In
	 * a sample's chain walked as perf walks it (leaf first in callee
	 * order, root first in caller order) each frame whose symbol
	 * matches drops what came before it: the sample counts at the last
	 * such frame, its chain starting there.  NULL: none; an invalid one
	 * makes pev_profile_new fail with EINVAL. */
	const char *ignore_callees;
};

/* A sample kept with opts.keep_samples: its frames are the profile's own
 * (the same frames the call trees are made of). */
struct pev_profile_sample {
	uint64_t time;		/* 0 without PERF_SAMPLE_TIME */
	uint64_t period;	/* what it counts (the weight in mem mode) */
	const char *comm;	/* the thread's comm when sampled (interned) */
	int32_t pid, tid;
	int32_t cpu;		/* -1 without PERF_SAMPLE_CPU */
	uint32_t event;		/* event index */
	uint32_t self;		/* frame id of the sample's own ip */
	uint32_t chain;		/* chain id (pev_profile_chain); UINT32_MAX: none */
	uint8_t cpumode;	/* PERF_RECORD_MISC_CPUMODE_MASK bits */
	/* Rejected by the filter's comm, pid, tid, DSO or symbol lists:
	 * kept so that totals can be told apart, not meant to be shown.
	 * Samples outside the time and CPU ranges are not kept at all. */
	bool filtered;
};

/* --branch-history: what perf 6.1 counts on a call-tree node.  branch:
 * the branch ends met there (0: only call-chain entries, perf's
 * "calltrace"); branch_to: the first was a target; predicted and abort
 * (targets), cycles, iter, iter_cycles (sources) and from (sources after
 * the first sample) are sums. */
struct pev_profile_branch_counts {
	uint64_t branch, predicted, abort, cycles, iter, iter_cycles, from;
	bool branch_to;
};

/* One interned location: what a sample's ip or a chain entry resolved to. */
struct pev_profile_frame {
	struct pev_dso *dso;		/* NULL: no map */
	const struct pev_symbol *sym;	/* NULL: no symbol */
	const char *inline_name;	/* non-NULL: an inline frame */
	uint64_t ip;			/* the address as sampled */
	uint64_t addr;			/* map-relative (perf's al->addr) */
	char level;			/* '.', 'k', ... (perf's [x]) */
	uint32_t dso_order;		/* order the DSO was first seen */
};

/* A node of a call tree: one frame; nodes are numbered per profile. */
struct pev_profile_node {
	const struct pev_profile_frame *frame;	/* NULL at a root */
	uint64_t hit, children_hit;	/* periods ending here / below */
	uint64_t count, children_count;	/* samples ending here / below */
	uint32_t parent, first_child, next_sibling;	/* 0: none */
	uint32_t nr_children;
};

/* A row of the table. */
struct pev_profile_entry {
	/* The sort-key values (only those of the keys in use are set). */
	const char *comm;
	int32_t pid, tid;
	const struct pev_profile_frame *frame;	/* dso, symbol, address */
	/* With a symbol key and no symbol: the address the entry is keyed
	 * by (perf's he->ip): map-relative for a sample's own location, as
	 * sampled for a chain entry in children mode. */
	uint64_t ip;
	/* PEV_SORT_PARENT: the parent function's name (NULL: perf's
	 * "[other]") */
	const char *parent;
	const char *srcline, *srcfile;
	int32_t cpu, socket;
	uint64_t time, weight, cgroup, code_page_size;
	/* symbol_size: the symbol's size; dso_size: the size of its map */
	uint64_t sym_size, dso_size;
	/* cgroup_id: the thread's cgroup namespace (NAMESPACES records) */
	uint64_t cgroup_dev, cgroup_ino;
	uint64_t ins_lat;	/* ins_lat, local_ins_lat */
	const char *trace;	/* trace (NULL: not a tracepoint) */
	/* perf formats an entry's trace output only when a comparison
	 * reaches the trace key (another entry of the event equal on the
	 * keys before it): the others do not widen its column and are cut
	 * to the header's width.  Set after finish. */
	bool trace_compared;
	/* memory keys: the sample's data_src (perf's PERF_MEM_DATA_SRC_NONE
	 * when the file has none), data address, where it resolved
	 * (daddr_frame: NULL when no map holds it), physical address, data
	 * page size, and the cpumode of the sample (dcacheline) */
	uint64_t data_src, daddr, phys_addr, data_page_size;
	const struct pev_profile_frame *daddr_frame;
	uint64_t daddr_sym_off;		/* daddr - its symbol's start */
	uint64_t iaddr;			/* symbol_iaddr: the sample's ip */
	uint8_t cpumode;
	/* the data map is a shared, non-executable file mapping of a user
	 * sample (perf's dcacheline shows [s]) */
	bool daddr_shared;
	/* Totals. */
	uint64_t period, nr_samples;		/* self */
	uint64_t period_sys, period_us;		/* self, by cpumode */
	uint64_t period_guest_sys, period_guest_us;
	uint64_t acc_period, acc_samples;	/* children mode */
	uint64_t weight_sum;			/* sum of sample weights */
	uint32_t tree;		/* root node of its call tree (0: none) */
	uint32_t max_depth;	/* longest chain in the tree */
	char level;		/* perf's [x] of the entry ('.', 'k', ...) */
	/* Made by a sample the filter rejected (comm, pid, tid, DSO,
	 * symbol): kept as perf keeps it, in the order and the absolute
	 * totals, not meant to be shown. */
	bool filtered;
	uint32_t event;		/* event index */
	uint32_t pid_tid_comm;	/* internal */
	/* Branch mode: the ends of the entry's first branch (level 'H' and
	 * no DSO where nothing is mapped), its flags word, the srclines. */
	const struct pev_profile_frame *from, *to;
	uint64_t from_off, to_off;	/* from and to - their symbol's start */
	uint64_t branch_flags;
	const char *srcline_from, *srcline_to;
};

struct pev_profile_stats {
	uint64_t nr_samples;		/* self samples of entries shown */
	uint64_t total_period;		/* their period */
	uint64_t nr_filtered;		/* of the entries marked filtered */
	uint64_t filtered_period;
	uint64_t nr_entries;
};

struct pev_profile;

/* A profile over machine m, resolving chains with chain (both borrowed,
 * both must outlive it; chain may be NULL when opts->callchains is
 * false); dec names the events of the samples (borrowed).  NULL and
 * errno (EINVAL, ENOMEM). */
PEV_EXPORT struct pev_profile *
pev_profile_new(struct pev_machine *m, struct pev_chain *chain,
		const struct pev_decoder *dec, const struct pev_profile_opts *opts);
PEV_EXPORT void pev_profile_free(struct pev_profile *p);

/* Declares a DSO before any record names it.  perf breaks ties between
 * call-graph branches by the order its DSOs were created: the file's
 * build-id table first (seed those here, in the table's order), then the
 * MMAP records (the profile follows those itself).  0, -EINVAL, -ENOMEM. */
PEV_EXPORT int pev_profile_seed_dso(struct pev_profile *p, struct pev_dso *dso);
/* Feeds one record: side-band records go to the machine (MMAP, COMM,
 * FORK, EXIT), samples are aggregated, LOST_SAMPLES counted.  0 or
 * -ENOMEM. */
PEV_EXPORT int pev_profile_add(struct pev_profile *p,
			       const struct pev_record *rec);
/* Reads every record of d in time order into the profile.  progress, when
 * not NULL, is called now and then with the bytes read so far.  0,
 * -errno from the reader (pev_data_error says what), -ENOMEM. */
PEV_EXPORT int pev_profile_read(struct pev_profile *p, struct pev_data *d,
				void (*progress)(uint64_t done, void *arg),
				void *arg);
/* Builds the entries and call trees and sorts them (perf's output
 * order).  Once.  0 or -ENOMEM. */
PEV_EXPORT int pev_profile_finish(struct pev_profile *p);

/* PERF_RECORD_LOST_SAMPLES total. */
PEV_EXPORT uint64_t pev_profile_lost_samples(const struct pev_profile *p);
/* Events seen (the decoder's attrs). */
PEV_EXPORT size_t pev_profile_nr_events(const struct pev_profile *p);
PEV_EXPORT const struct pev_profile_stats *
pev_profile_stats(const struct pev_profile *p, size_t event);
/* The entries of an event in output order (after finish). */
PEV_EXPORT size_t pev_profile_nr_entries(const struct pev_profile *p,
					 size_t event);
PEV_EXPORT const struct pev_profile_entry *
pev_profile_entry(const struct pev_profile *p, size_t event, size_t i);
/* Two entries (of any of p's events) by the profile's sort keys: 0 when
 * perf would merge them into one line (its hist_entry__collapse, what
 * perf report --group pairs an event's entries with its group leader's
 * by), else -1 or 1; -EINVAL for an entry not of p. */
PEV_EXPORT int pev_profile_entry_collapse(const struct pev_profile *p,
					  const struct pev_profile_entry *a,
					  const struct pev_profile_entry *b);
/* When perf puts an entry into the tree its output sort walks (its
 * event's collapsed tree, or entries_in when no sort key collapses):
 * 0 first; SIZE_MAX for an entry not of p.  Inserting the entries in
 * this order, each to the left of an entry when
 * pev_profile_entry_collapse(new, old) < 0, builds perf's tree (the
 * keys' order is not transitive where entries without a symbol meet
 * entries with one, so the tree's shape matters). */
PEV_EXPORT size_t pev_profile_entry_tree_index(const struct pev_profile *p,
					       const struct pev_profile_entry *e);
/* Two entries by the sort keys of the output order alone (the ties
 * left after the overhead fields): < 0 when a is printed first, 0 when
 * the keys tie (or an entry is not of p). */
PEV_EXPORT int pev_profile_entry_key_order(const struct pev_profile *p,
					   const struct pev_profile_entry *a,
					   const struct pev_profile_entry *b);
/* A call-tree node by number (1..), NULL for 0 or out of range. */
PEV_EXPORT const struct pev_profile_node *
pev_profile_node(const struct pev_profile *p, uint32_t n);
/* The children of node n in perf's print order (cumulative period
 * descending, ties in perf's chain order), those below min_hit left out,
 * into out (room for node->nr_children); returns how many. */
PEV_EXPORT size_t pev_profile_node_children(const struct pev_profile *p,
					    uint32_t n, uint64_t min_hit,
					    uint32_t *out);
/* The children of node n in perf's chain order (its rb_root_in: by DSO,
 * then symbol start or address), all of them; returns how many. */
PEV_EXPORT size_t pev_profile_node_children_chain(const struct pev_profile *p,
						  uint32_t n, uint32_t *out);
/* perf's short name of a DSO: the base name of its path, or the
 * "[kernel.kallsyms]"-style name itself. */
PEV_EXPORT const char *pev_profile_dso_short(const struct pev_dso *dso);
/* The name perf report shows and sorts by: the short name, except a JIT
 * map /tmp/perf-PID.map, shown as "[JIT] tid PID" (written into b). */
PEV_EXPORT const char *pev_profile_dso_shown(const struct pev_dso *dso, char *b,
					     size_t sz);
/* The thread's comm now (at the end of the stream), for column widths. */
PEV_EXPORT const char *pev_profile_entry_thread_comm(const struct pev_profile *p,
						     const struct pev_profile_entry *e);
/* The source line "file:line" of a frame (perf's srcline), interned;
 * "??:0" when unknown.  full: the file's path instead of its base name. */
/* The path of cgroup id as a PERF_RECORD_CGROUP named it, or NULL. */
PEV_EXPORT const char *pev_profile_cgroup_name(const struct pev_profile *p,
					       uint64_t id);
/* Branch mode with opts.branch_ipc: the IPC of the function an entry
 * is keyed by (its symbol; in branch mode the first branch's target) and
 * the share of its instructions (percent) the measured blocks cover, as
 * perf 6.1's annotation computes them (its ipc_lbr key): 0 and 0 for a
 * function no block with cycles ends in or whose code cannot be read.
 * -ENOENT for an entry without a symbol (perf's "-"). */
PEV_EXPORT int pev_profile_entry_ipc(struct pev_profile *p, const struct pev_profile_entry *e,
				     double *ipc, double *coverage);
/* The branch counts of call-tree node n (zeros without --branch-history);
 * -EINVAL for a bad node. */
PEV_EXPORT int pev_profile_node_branch(const struct pev_profile *p, uint32_t n,
				       struct pev_profile_branch_counts *out);
/* With opts.keep_samples: the samples added, in the order they came
 * (*n of them); NULL and 0 when none were kept. */
PEV_EXPORT const struct pev_profile_sample *
pev_profile_samples(const struct pev_profile *p, size_t *n);
/* The frame ids of chain c, leaf first (with --max-stack applied as the
 * call trees have it); returns how many, 0 for UINT32_MAX or a bad id. */
PEV_EXPORT size_t pev_profile_chain(const struct pev_profile *p, uint32_t c,
				    const uint32_t **ids);
/* A frame by id (a sample's self, a chain's entries); NULL out of range. */
PEV_EXPORT const struct pev_profile_frame *
pev_profile_frame(const struct pev_profile *p, uint32_t id);
PEV_EXPORT size_t pev_profile_nr_frames(const struct pev_profile *p);
/* The memory map frame id's address was first found in (its process's
 * mapping of the frame's DSO: [start, end), the file offset pgoff at
 * start).  0 and *out; -ENOENT for a frame without a map, -EINVAL for a
 * bad id. */
struct pev_profile_map { uint64_t start, end, pgoff; };
PEV_EXPORT int pev_profile_frame_map(const struct pev_profile *p, uint32_t id,
				     struct pev_profile_map *out);
/* A chain frame of an inline group (pev_frame.call_file, call_line):
 * where the function inlined into it is called, as the line table names
 * the file.  1 and *file, *line; 0 for a frame without one (the group's
 * innermost frame: its line is its address's, pev_profile_srcline). */
PEV_EXPORT int pev_profile_frame_call_line(const struct pev_profile *p, uint32_t id,
					   const char **file, unsigned *line);
PEV_EXPORT const char *pev_profile_srcline(struct pev_profile *p,
					   const struct pev_profile_frame *f,
					   bool chain);

#ifdef __cplusplus
}
#endif
#endif
