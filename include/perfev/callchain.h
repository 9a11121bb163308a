/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* perfev/callchain.h: one sample's call chain, resolved to frames.
 *
 * The one place where a sample becomes a list of frames, leaf first, for
 * every consumer (script, report, the profile model, exports):
 *  - the kernel and user runs of PERF_SAMPLE_CALLCHAIN, context markers
 *    interpreted and unknown markers dropped as perf drops them;
 *  - the user frames unwound with libdw from PERF_SAMPLE_REGS_USER and
 *    PERF_SAMPLE_STACK_USER when the sample carries them (--call-graph
 *    dwarf), joined after the kernel frames of the callchain as perf joins
 *    them;
 *  - the inline frames DWARF gives for each address, as extra frames with
 *    the same ip (perf 6.1 prints them with " (inlined)").
 *
 * Frames point into the resolver: they stay valid until the next call of
 * pev_chain_resolve() on the same resolver or until it is freed.  A
 * resolver keeps per-DSO caches (libdw sessions, CFI, inline lookups), so
 * keep one for a whole file. */
#ifndef PERFEV_CALLCHAIN_H
#define PERFEV_CALLCHAIN_H

#include <perfev/common.h>
#include <perfev/record.h>
#include <perfev/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pev_frame {
	uint64_t ip;		/* the address as sampled or unwound */
	uint8_t cpumode;	/* PERF_RECORD_MISC_KERNEL / _USER / ... */
	struct pev_addr_loc loc;/* map, DSO, symbol and offset of ip */
	/* Non-NULL for a frame that DWARF says was inlined at ip: the name
	 * of the inlined function (perf prints "NAME (inlined)"); loc is the
	 * same as the frame that follows it. */
	const char *inline_name;
	/* Where it came from: the sampled callchain, or the unwinder. */
	bool unwound;
	/* Of the frames DWARF gives for one address (addr2line -i: the
	 * inlined ones and the function holding them), each but the
	 * innermost has the source position of the call inlined in it
	 * (DW_AT_call_file as its line table names it, DW_AT_call_line),
	 * which perf 6.1 prints as its srcline.  NULL for every other frame,
	 * whose line is the address's. */
	const char *call_file;
	unsigned call_line;
};

struct pev_chain_opts {
	size_t size;		/* sizeof(struct pev_chain_opts) */
	unsigned max_stack;	/* 0: no limit (perf's --max-stack) */
	bool no_inline;		/* leave inline frames out (perf --no-inline) */
	bool no_unwind;		/* ignore regs/stack dumps */
	/* Prepend the sample's ip when the sample has no callchain (perf
	 * reports such samples as a one-frame chain). */
	bool ip_if_empty;
	/* The recorded machine's ELF e_machine (EM_X86_64, EM_AARCH64),
	 * which says how to read the user registers; 0: this host's. */
	uint16_t e_machine;
	/* Look the inline frames of a sample's unwound frames up from the
	 * outermost frame in, as perf does when it builds caller-first
	 * chains (report's default): the names binutils gives an address
	 * can depend on the addresses asked before it (libperfev-callchain(3)).
	 * The frames still come leaf first. */
	bool caller_first;
};

struct pev_chain;

/* A resolver over machine m (which must outlive it); opts may be NULL. */
PEV_EXPORT struct pev_chain *pev_chain_new(struct pev_machine *m,
					   const struct pev_chain_opts *opts);
PEV_EXPORT void pev_chain_free(struct pev_chain *c);

/* The frames of smp, leaf first, into *frames (n of them; returned).
 * Negative errno on failure (-ENOMEM).  An unwinding failure is not an
 * error: the frames found before it are returned, as perf does. */
PEV_EXPORT long pev_chain_resolve(struct pev_chain *c,
				  const struct pev_sample *smp,
				  const struct pev_frame **frames);

#ifdef __cplusplus
}
#endif
#endif
