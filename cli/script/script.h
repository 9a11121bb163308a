/* SPDX-License-Identifier: GPL-2.0-only */
/* perfev script: shared between cmd_script.c and script_*.c. */
#ifndef PEV_CLI_SCRIPT_H
#define PEV_CLI_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <perfev/filter.h>
#include <perfev/perfev.h>
#include <perfev/symbols.h>

#include "script/script_out.h"
#include "common/tracefmt.h"

/* ---- Fields (perf script -F); 64 bits, as there are more than 32. */
#define F_COMM		(1ull << 0)
#define F_TID		(1ull << 1)
#define F_PID		(1ull << 2)
#define F_TIME		(1ull << 3)
#define F_CPU		(1ull << 4)
#define F_EVNAME	(1ull << 5)
#define F_TRACE		(1ull << 6)
#define F_IP		(1ull << 7)
#define F_SYM		(1ull << 8)
#define F_DSO		(1ull << 9)
#define F_ADDR		(1ull << 10)
#define F_SYMOFFSET	(1ull << 11)
#define F_PERIOD	(1ull << 12)
#define F_MISC		(1ull << 13)
#define F_PHYS_ADDR	(1ull << 14)
#define F_WEIGHT	(1ull << 15)
#define F_DATA_SRC	(1ull << 16)
#define F_CGROUP	(1ull << 17)
#define F_SRCLINE	(1ull << 18)
#define F_IREGS		(1ull << 19)
#define F_UREGS		(1ull << 20)
#define F_BRSTACK	(1ull << 21)
#define F_BRSTACKSYM	(1ull << 22)
#define F_BRSTACKOFF	(1ull << 23)
#define F_BPF_OUTPUT	(1ull << 24)
#define F_BRSTACKINSN	(1ull << 25)
#define F_BRSTACKINSNLEN (1ull << 26)
#define F_CALLINDENT	(1ull << 27)
#define F_INSN		(1ull << 28)
#define F_INSNLEN	(1ull << 29)
#define F_SYNTH		(1ull << 30)
#define F_METRIC	(1ull << 31)
#define F_SRCCODE	(1ull << 32)
#define F_IPC		(1ull << 33)
#define F_TOD		(1ull << 34)
#define F_DATA_PAGE_SIZE (1ull << 35)
#define F_CODE_PAGE_SIZE (1ull << 36)
#define F_INS_LAT	(1ull << 37)
/* Not a field bit in perf: "flags" sets one switch for every type. */
#define F_FLAGS		(1ull << 63)

/* Per-event output settings. */
struct script_event {
	const struct perf_event_attr *attr;
	const char *name;	/* name_buf, or the owned copy `owned` */
	char name_buf[64];
	char *owned;
	uint64_t fields;
	bool callchain;		/* sample has CALLCHAIN and -G not given */
	struct tep_event *tp;	/* tracepoint format, or NULL */
	bool ready;
	/* --per-event-dump: INPUT.EVENT.dump, what went to it */
	struct obuf dump;
	char *dump_path;
	uint64_t dump_samples, dump_bytes;
};

struct script_opts {
	const char *input;
	const char *fields;
	const char *kallsyms;
	bool show_task, show_mmap, show_switch, show_lost;
	bool show_namespace, show_cgroup, show_rounds;
	bool dump_raw, dump_unsorted;
	bool hide_callchain;
	bool ns;
	int max_stack;
	struct pev_filter_opts filter;	/* --comm, --pid, --tid, -C, --time, ... */
	bool header, show_info, force;
	bool inline_frames;	/* --inline (default), --no-inline */
	bool reltime, deltatime;	/* times from the first / the previous record */
	bool header_only;	/* --header-only */
	bool per_event_dump;	/* --per-event-dump */
	const char *stop_bt;	/* --stop-bt: names, comma-separated */
	const char *graph_function;	/* --graph-function */
	int dso_pad;		/* --call-trace: DSO names padded to 50 */
	const char *symfs;	/* --symfs */
	bool demangle;		/* --demangle (default), --no-demangle */
};

struct script {
	struct script_opts opt;
	struct pev_data *data;
	const struct pev_decoder *dec;
	struct pev_dso_cache *dsos;
	struct pev_machine *machine;
	struct pev_chain *chain;	/* call chains to frames */
	struct obuf out;
	struct script_event *events;
	size_t nr_events;
	int name_width;		/* computed at the first sample */
	uint64_t initial_time;	/* --reltime: the first time printed (perf's) */
	uint64_t previous_time;	/* --deltatime: the last time printed */
	bool dump_failed;	/* --per-event-dump: a file could not be made */
	int data_src_width;	/* perf: the longest data_src text so far */
	struct tracefmt tf;	/* tracepoint formats */
	/* -F as parsed: per perf type (0..5, 6 = other) */
	struct {
		bool user_set, wildcard;
		uint64_t set, add, del;
	} fsel[8];
	bool fsel_any;
	bool print_flags;	/* -F flags (any type) */
	const char *arch;	/* perf's name: "x86", "arm64", ... */
	struct pev_srclines *srclines;	/* NULL until srcline/srccode */
	struct srccode_state *srccode;	/* per-thread last line, script_src.c */
	size_t srccode_len, srccode_cap;
	struct insn_cache *insn;	/* script_insn.c */
	struct pev_filter *filter;	/* NULL: no filter option */
	/* perf's thread->pid_ for the pid filter: the first pid seen with a
	 * tid, used for samples whose pid is -1 (script_filter.c) */
	struct { int32_t tid, pid; } *tid_pid;
	size_t tid_pid_cap, tid_pid_len;
};

/* script_fields.c */
int script_fields_parse(struct script *s, const char *spec);
/* -F's field names, one a line (--list-values, shell completion) */
void script_field_values(FILE *out);
int script_event_setup(struct script *s, size_t idx);
/* Takes the file's name for event idx again (pipe mode names arrive
 * after the attrs). */
void script_event_refresh_name(struct script *s, size_t idx);
const char *script_field_missing(const struct perf_event_attr *attr, uint64_t fields);

/* script_sample.c */
void script_print_sample(struct script *s, const struct pev_record *rec);
void script_print_start(struct script *s, const struct script_event *ev,
			const struct pev_sample_id *sid, uint32_t pid, uint32_t tid,
			bool has_time, const struct pev_record *rec);

/* script_extra.c: a DSO's name as perf prints it (padded by --call-trace) */
void script_put_dso(const struct script *s, struct obuf *o, const struct pev_addr_loc *al);

/* script_extra.c: the fields beyond the basic ones */
void script_print_regs(struct script *s, const struct pev_regs *r);
void script_print_brstack(struct script *s, const struct script_event *ev,
			  const struct pev_sample *smp, uint8_t cpumode);
void script_print_page_size(struct obuf *o, uint64_t size);
void script_print_tod(struct script *s, uint64_t time);
void script_print_flags(struct obuf *o);
void script_print_bpf_output(struct obuf *o, const struct pev_raw *raw);

/* script_src.c: srcline and srccode */
/* Prints prefix + "file:line" for ip in al's DSO, or perf's fallback
 * "dso[addr]" when no line is known (nothing without a DSO). */
void script_print_srcline(struct script *s, const struct pev_addr_loc *al,
			  const char *prefix);
void script_print_frame_srcline(struct script *s, const struct pev_frame *fr,
				const char *prefix);
/* Prints "|line text" and a newline when the sample's source line changed
 * for this thread. */
void script_print_srccode(struct script *s, uint32_t tid,
			  const struct pev_addr_loc *al);
void script_src_release(struct script *s);

/* script_insn.c: insn and insnlen (x86 files read on x86) */
void script_print_insn(struct script *s, uint64_t fields,
		       const struct pev_addr_loc *al);
void script_insn_release(struct script *s);

/* script_sample.c: --per-event-dump's file for event idx; 0 or -1 after
 * the error line (s->out.err set: the run stops) */
int script_dump_open(struct script *s, size_t idx);

/* script_side.c */
void script_print_side(struct script *s, const struct pev_record *rec);
void script_dump_raw(struct script *s, const struct pev_data_event *ev);

/* script_filter.c: 0 or the exit code after printing the error */
int script_filter_setup(struct script *s);
int script_filter_check_file(struct script *s);
/* True when the sample (or side-band record) is to be printed. */
bool script_filter_sample(struct script *s, const struct pev_record *rec);
bool script_filter_side(struct script *s, const struct pev_record *rec);
void script_filter_release(struct script *s);

/* script_trace.c */
int script_trace_setup(struct script *s);
void script_trace_print(struct script *s, struct script_event *ev,
			const struct pev_sample *smp);
struct tep_event *script_trace_find(struct script *s, const struct perf_event_attr *attr);
void script_trace_release(struct script *s);

#endif
