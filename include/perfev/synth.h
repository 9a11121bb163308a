/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: synthesized records for the state that exists when a
 * recording starts (perf's "synthesize" step): COMM, FORK and MMAP2 for
 * running threads from /proc, the kernel map and kernel modules.  Every
 * record carries the sample_id trailer of the given attr when it has
 * sample_id_all, so that readers can decode and order it.  Records are
 * handed to a callback one at a time (native byte order, 8-byte aligned,
 * valid only during the call). */
#ifndef PERFEV_SYNTH_H
#define PERFEV_SYNTH_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Receives one record; a negative return stops the synthesis and is
 * returned.  pev_data_writer_emit() (data.h) fits. */
typedef int (*pev_synth_emit_fn)(const void *rec, size_t len, void *user);

struct pev_synth_opts {
	size_t size;		/* sizeof(struct pev_synth_opts) */
	/* The first event's attr: its sample_type and sample_id_all decide
	 * the trailer.  NULL = no trailer. */
	const struct perf_event_attr *attr;
	uint64_t id;		/* ID / IDENTIFIER written in the trailer */
	uint32_t cpu;		/* CPU written in the trailer */
	uint64_t time;		/* TIME in the trailer: 0, like perf, means
				 * "before everything" (delivered unordered) */
	bool data_mmaps;	/* also non-executable mappings (perf -d),
				 * flagged PERF_RECORD_MISC_MMAP_DATA */
};

/* For process `pid` (its thread-group leader's id): FORK and COMM for each
 * of its threads (/proc/PID/task/TID/{comm,stat}), then one MMAP2 per
 * executable mapping of /proc/PID/maps (maj/min/ino/prot/flags, "//anon"
 * for anonymous ones).  Threads that exit meanwhile are skipped.  Returns
 * the number of records emitted, -ESRCH (no such process), -errno, or the
 * callback's error. */
PEV_EXPORT long pev_synth_process(pid_t pid, const struct pev_synth_opts *opts,
				  pev_synth_emit_fn emit, void *user);
/* The same for every process in /proc (system-wide recording). */
PEV_EXPORT long pev_synth_all_processes(const struct pev_synth_opts *opts,
					pev_synth_emit_fn emit, void *user);
/* The kernel map: a PERF_RECORD_MMAP with pid -1, misc KERNEL, filename
 * "[kernel.kallsyms]_text", start = pgoff = the address of _text from
 * /proc/kallsyms, len up to _etext (0 and ~0 when kptr_restrict hides
 * the addresses).  Returns 1 or -errno. */
PEV_EXPORT long pev_synth_kernel_mmap(const struct pev_synth_opts *opts,
				      pev_synth_emit_fn emit, void *user);
/* One PERF_RECORD_MMAP per loaded module (/proc/modules): pid -1, misc
 * KERNEL, filename "[name]", pgoff 0.  Returns the count (0 without
 * /proc/modules) or -errno. */
PEV_EXPORT long pev_synth_modules(const struct pev_synth_opts *opts,
				  pev_synth_emit_fn emit, void *user);

/* Writes the sample_id trailer for attr (TID, TIME, ID, STREAM_ID, CPU,
 * IDENTIFIER as its sample_type says; nothing without sample_id_all) into
 * out (room for 48 bytes) and returns its size. */
PEV_EXPORT size_t pev_synth_sample_id(const struct perf_event_attr *attr,
				      uint32_t pid, uint32_t tid,
				      uint64_t time, uint64_t id, uint32_t cpu,
				      void *out);

#ifdef __cplusplus
}
#endif
#endif
