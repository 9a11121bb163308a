/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* The profile model's shared core: the interning tables, the aggregation
 * state every file of lib/profile reads, and profile_intern.c's functions.
 * Each other file's functions are declared in a header of its own
 * (profile_entry.h for profile_entry.c, ...), included by its callers. */
#ifndef PEV_PROFILE_INTERN_H
#define PEV_PROFILE_INTERN_H

#include <regex.h>
#include <stdint.h>
#include <perfev/profile.h>

struct pf_rbt;
struct pf_bh_counts;
struct pf_ipc_sym;

/* Open addressing over indices: slot holds index + 1, 0 is empty. */
struct pf_htab {
	uint32_t *slot;
	uint32_t mask;		/* capacity - 1 (a power of two) */
	uint32_t n;
};

int pev__pf_htab_init(struct pf_htab *h, uint32_t cap);
void pev__pf_htab_release(struct pf_htab *h);
/* Doubles when 3/4 full; rehash(i) gives the hash of index i. */
int pev__pf_htab_grow(struct pf_htab *h, uint64_t (*rehash)(void *ctx, uint32_t i),
		 void *ctx);

static inline uint64_t pf_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/* The key of an entry: every field a sort key may read (unused ones 0). */
struct pf_key {
	const char *comm;
	struct pev_dso *dso;
	const struct pev_symbol *sym;
	const char *inl;
	uint64_t kip;		/* address when there is no symbol */
	const char *srcline, *srcfile;
	const char *parent;	/* interned name: equal names, equal keys */
	const char *trace;	/* interned tracepoint output */
	/* memory keys: the data_src fields compared, data address, phys
	 * address, data page size, data DSO, cache line and cpumode */
	uint64_t data_src, daddr, phys_addr, dps;
	struct pev_dso *ddso, *dcl_dso;
	uint64_t dcl, cpumode, dcl_pid, iaddr;
	struct pev_dso_id dcl_id;	/* the data map's DSO id */
	bool dcl_anon;			/* private anonymous user memory */
	uint64_t time, weight, cgroup, cps;
	uint64_t sym_size, dso_size;	/* symbol_size, dso_size */
	uint64_t cgroup_dev, cgroup_ino;	/* cgroup_id */
	uint64_t ins_lat;
	/* branch mode: the ends (DSO, symbol, address when keyed by it),
	 * the flags kept by the keys in use, the srclines */
	struct pev_dso *dso_from, *dso_to;
	const struct pev_symbol *sym_from, *sym_to;
	uint64_t addr_from, addr_to, bflags;
	uint64_t pstart_from, pstart_to;	/* the symbols' starts as perf has them */
	const char *srcline_from, *srcline_to;
	int32_t tid, cpu, socket;
	uint32_t event;
	uint32_t filtered;	/* the sample failed a filter (kept, hidden) */
	uint32_t pad_;
};

/* A frame and the id chain entries match on. */
struct pf_frame {
	struct pev_profile_frame f;
	uint32_t match;		/* index of the frame chains match on */
	/* What entries key on: perf compares DSOs by name and symbols by
	 * address, so two copies of a file (a rebuilt binary) are one. */
	struct pev_dso *cdso;
	const struct pev_symbol *csym;
	uint64_t keyip;		/* the address it is keyed by, or 0 */
	const char *raw_inl;	/* the resolver's inline name (f.inline_name: interned) */
	const char *srcl_raw;	/* pev__pf_chain_entry_srcline's answer */
	uint64_t map_size;	/* size of the map it was first seen in */
	/* that map (pev_profile_frame_map), when has_map */
	uint64_t map_start, map_end, map_pgoff;
	bool has_map;
	/* an inline group's call site (pev_frame.call_file/call_line) */
	const char *call_file;
	unsigned call_line;
	uint64_t hash;
	/* --branch-history: a branch end (profile_bhist.c's tag: role,
	 * flags, cycles, loop iterations), matching as frame match; 0 for
	 * every other frame */
	uint64_t br_tag;
};

struct pf_entry {
	struct pev_profile_entry e;
	struct pf_key key;
	uint64_t hash;
	uint64_t seq;		/* number of the first sample that made it */
	uint32_t sub;		/* 0: as that sample's self, j + 1: chain entry j */
	/* perf's he->ms.map of an entry without a symbol (the key leaves
	 * it out: perf compares two such entries by address alone, but one
	 * of them with a symbolized entry by DSO first) */
	struct pev_dso *sdso;
	char level;
	uint32_t canon;		/* replay: the entry whose key it has */
	uint32_t tpos;		/* when perf puts it in the tree its output sort walks */
};

struct pf_chain {		/* an interned sequence of frames, leaf first */
	uint64_t off;		/* into chain_pool */
	uint32_t len;
	uint64_t hash;
	const char *parent;	/* PEV_SORT_PARENT of its samples (interned) */
};

struct pf_pair {		/* (entry, chain, thread) with its totals */
	uint32_t entry, chain;
	int32_t pid, tid;
	uint32_t filtered;	/* its samples failed a filter */
	uint64_t period, count;
	uint64_t seq;		/* its first sample's number */
	uint64_t hash;
	uint64_t items;		/* replay: its lookups in p->items */
	uint32_t nitems;
	uint8_t cpumode;
	uint32_t self;		/* the samples' own frame (perf's he->ms.map) */
};

/* Replay (profile_replay.c): one kept sample, and one lookup of a pair
 * (the entry, its chain position j, UINT32_MAX for the sample's own,
 * and its level). */
struct pf_logent {
	uint64_t period;
	uint32_t pair, weight;
};

struct pf_item {
	uint32_t ent, j;
	char level;
};

/* A sample's raw (pid, cpumode, ip, callchain) and what it resolved to,
 * valid until the maps change (cleared on MMAP, FORK, COMM exec). */
struct pf_raw {
	uint64_t hash, ip, off;
	uint32_t pid, nr;
	uint32_t self, chain;	/* frame and chain ids; chain UINT32_MAX: none */
	uint8_t cpumode;
};

struct pf_node {
	struct pev_profile_node n;
	uint32_t match;		/* frame match id */
	uint32_t inl_child;	/* a child is an inlined frame */
	uint64_t hash;
};

#define PF_FRAME_BLOCK 4096

struct pev_profile {
	struct pev_machine *m;
	struct pev_chain *chain;
	const struct pev_decoder *dec;
	/* PERF_SAMPLE_READ: each id's last value read (perf's sid->period) */
	struct pf_readval { uint64_t id, value; } *readvals;
	uint32_t nreadvals, readval_cap;
	struct pev_profile_opts opts;
	unsigned nkeys;
	/* cgroup names (CGROUP records) and thread cgroup namespaces */
	struct { uint64_t id; char *name; } *cgroups;
	uint32_t ncgroups, cgroup_cap;
	struct { uint32_t tid; uint64_t dev, ino; } *thread_ns;
	uint32_t nthread_ns, thread_ns_cap;
	bool key_on[PEV_SORT_MAX];
	bool frame_ip;		/* frames keep their ip (not merged per sym) */
	bool parent_on;		/* parent_re compiled: chains get a parent */
	regex_t parent_re;
	bool ignore_on;		/* ignore_re compiled (opts.ignore_callees) */
	regex_t ignore_re;
	bool finished;

	/* Interned frames (in blocks, so pointers stay valid). */
	struct pf_frame **fblocks;
	uint32_t nframes, nfblocks;
	struct pf_htab fhash;
	/* Interned strings (comms, srclines). */
	char **strs;
	uint64_t *str_hash;
	uint32_t nstrs, str_cap;
	struct pf_htab shash;
	/* DSOs in the order first seen. */
	struct pev_dso **dsos;
	uint32_t ndsos, dso_cap;
	/* Entries. */
	struct pf_entry *ents;
	uint32_t nents, ent_cap;
	uint32_t last_ent;	/* the entry found last */
	struct pf_htab ehash;
	/* Chains. */
	uint32_t *chain_pool;
	uint64_t pool_len, pool_cap;
	struct pf_chain *chains;
	uint32_t nchains, chain_cap;
	struct pf_htab chash;
	/* Pairs. */
	struct pf_pair *pairs;
	uint32_t npairs, pair_cap;
	struct pf_htab phash;
	/* Call-tree nodes (index 0 unused). */
	struct pf_node *nodes;
	uint32_t nnodes, node_cap;
	struct pf_htab nhash;

	/* Canonical DSOs (by short name) and symbols (by DSO, start, end). */
	struct { const char *name; struct pev_dso *dso; } *cdsos;
	uint32_t ncdsos;
	struct { struct pev_dso *dso; uint64_t start, end, hash; const struct pev_symbol *sym; } *csyms;
	uint32_t ncsyms, csym_cap;
	struct pf_htab cshash;
	/* Raw chain cache. */
	struct pf_raw *raws;
	uint32_t nraws, raw_cap;
	uint32_t last_raw;	/* the slot found last */
	struct pf_htab rhash;
	uint64_t *raw_pool;
	uint64_t raw_len, raw_cap2;

	/* Per event. */
	size_t nevents;
	struct pev_profile_stats *stats;
	uint32_t **order;	/* entry indices in output order */
	uint64_t lost_samples;
	uint64_t seq;		/* samples kept so far */
	bool comm_cached;	/* comm_last is the comm of (comm_pid, comm_tid) */
	uint32_t comm_pid, comm_tid;
	const char *comm_last, *comm_last_shown;
	/* perf's ":TID" name of a thread no COMM has named yet: the thread's
	 * own string, renamed in place by its first COMM (perf's
	 * comm__override), so that the entries made before that COMM show
	 * the later name (profile_comm.c); dhash: tid -> the live one */
	struct pf_dcomm { uint32_t tid; bool live; char *s; } *dcomms;
	uint32_t ndcomms, dcomm_cap;
	struct pf_htab dhash;
	bool comm_renamed;	/* entries' comms may be equal strings */
	const char *comm_shown;	/* add_sample: what its new entries show */

	/* opts.keep_samples */
	struct pev_profile_sample *kept;
	size_t nkept, kept_cap;

	/* Scratch. */
	uint32_t *scratch;
	size_t scratch_cap;
	struct pev_srclines *srclines;
	/* Branch mode with keys perf compares with != (mispredict, in_tx,
	 * abort): perf's entries_in tree per event, built as samples come
	 * (position -> entry in live_ent), so entries merge as perf's do. */
	struct pf_rbt *live;
	uint32_t **live_ent;
	bool live_on;
	/* Branch mode's IPC (opts.branch_ipc): per symbol, the cycles of the
	 * basic blocks ending in it (profile_ipc.c). */
	struct pf_ipc_sym *ipcs;
	uint32_t nipcs, ipc_cap;
	struct pf_htab ipc_hash;
	/* --branch-history: per call-tree node, the branch counts */
	struct pf_bh_counts *bh;
	uint32_t bh_cap;
	uint32_t *bh_ids;	/* scratch: a sample's chain with its branches */
	uint32_t bh_ids_cap;
	/* The sym key compares unresolved addresses by a wrapping difference
	 * (not transitive): every kept sample is logged (its pair, period,
	 * weight) so that pev_profile_finish can replay perf's lookups. */
	bool replay_on;
	struct pf_logent *log;
	uint64_t nlog, log_cap;
	struct pf_item *items;
	uint64_t nitems, items_cap;
};

/* profile_intern.c */
int64_t pev__pf_frame_tagged(struct pev_profile *p, uint32_t base, uint64_t tag);
/* A hash of n words (call chains, entry keys). */
uint64_t pev__pf_hash_words(const uint64_t *w, uint64_t n);
int pev__pf_grow(void **arr, uint32_t *cap, uint32_t need, size_t elsz);
struct pev_profile_frame *pev__pf_frame_at(const struct pev_profile *p, uint32_t i);
uint32_t pev__pf_dso_order(struct pev_profile *p, struct pev_dso *dso);
int64_t pev__pf_frame_get(struct pev_profile *p, struct pev_dso *dso,
		     const struct pev_symbol *sym, const char *inl,
		     uint64_t keyip, uint64_t ip, uint64_t addr, char level);
char pev__pf_level_of(uint8_t cpumode, bool kernel);
const char *pev__pf_intern_str(struct pev_profile *p, const char *s, size_t len);

#endif
