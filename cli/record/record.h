/* SPDX-License-Identifier: GPL-2.0-only */
/* perfev record: state shared by cmd_record.c (options and flow),
 * record_setup.c (attrs, fds, rings), record_loop.c (drain loop,
 * truncation recovery) and record_post.c (build ids, summary). */
#ifndef PEV_CLI_RECORD_H
#define PEV_CLI_RECORD_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <perfev/perfev.h>
#include <perfev/data.h>
#include <perfev/synth.h>

#define REC_MAX_SPECS 64
/* Ends of rounds remembered as places to cut the file back to. */
#define REC_ROUNDS_KEPT 64

/* The state at the end of a complete round. */
struct rec_round {
	uint64_t size;			/* data section bytes */
	uint64_t samples;
	uint64_t first_time, last_time;	/* of those samples */
};

struct rec_opts {
	const char *specs[REC_MAX_SPECS];
	int nspecs;
	long freq;		/* -F; 0 = unset */
	bool user_freq;		/* -F was given (not the default 4000) */
	long period;		/* -c; 0 = unset */
	bool callchain;		/* -g / --call-graph fp|dwarf */
	bool dwarf;		/* --call-graph dwarf */
	unsigned stack_size;	/* dwarf stack dump bytes */
	bool all_cpus;
	const char *cpus, *pids, *tids;
	bool switch_events;
	unsigned mmap_pages;	/* -m; 0 = perf's default */
	bool mmap_rounded;	/* -m was rounded up to a power of two */
	const char *output;	/* -o; NULL = perf.data (or "-" on a FIFO) */
	int zlevel;		/* -z: zstd level; 0 = off */
	bool quiet;
	int verbose;
	bool no_inherit;
	bool no_buildid;
	bool no_buildid_cache;	/* -N: do not add to perf's ~/.debug */
	bool use_clockid;	/* -k */
	int clockid;
	uint64_t clockid_res_ns;	/* clock_getres of it; 0 = unknown */

	/* Sample content (perf's -d, --phys-data, ..., -s). */
	bool sample_addr, phys_data, data_page_size, code_page_size;
	bool sample_time, sample_cpu, sample_period, weight, raw, no_samples;
	bool inherit_stat;
	bool sample_intr_regs, sample_user_regs;
	uint64_t intr_regs, user_regs;	/* register masks */
	uint64_t branch_stack;		/* branch_sample_type; 0 = none */
	/* Targets and control. */
	long delay_ms;			/* -D; 0 = none, -1 = start disabled */
	bool per_thread;
	bool uid_set;
	uid_t uid;
	const char *cgroup;		/* -G */
	bool all_user, all_kernel;
	bool overwrite;
	uint64_t max_size;		/* --max-size bytes; 0 = none */
	bool namespaces, all_cgroups;
	bool off_cpu;			/* --off-cpu */
};

/* One event of the recording: its attr and the fds opened for it, one
 * per (thread slot, cpu slot): fds[t * ncpus + c]. */
struct rec_event {
	struct pev_attr attr;
	char *name;
	char *own_name;		/* name when record made it (":u" fallback), freed */
	int leader;		/* index of the group leader */
	int *fds;
	uint64_t *ids;
	size_t nids;
};

struct rec {
	struct rec_opts o;
	char **argv;		/* the workload, or NULL */
	int argc;
	int cmd_argc;		/* perfev's own command line, for CMDLINE */
	char **cmd_argv;

	struct pev_evlist *evl;
	struct rec_event *ev;
	size_t nev;
	bool cpu_wide;		/* -a / -C */
	bool default_event;	/* no -e: perf's cycles, falling back */
	size_t track;		/* the event carrying the side-band bits */
	bool track_dummy;	/* it is an added dummy:HG (perf's -D, -a) */
	int cgroup_fd;		/* -G: the cgroup directory, else -1 */

	struct pev_target *target;
	struct pev_workload *wl;
	bool wl_timer;		/* -p/-t/-u with a command: it only times the
				 * recording of those tasks, as in perf */
	pid_t *threads;		/* thread slots (pids for perf_event_open) */
	size_t nthreads;
	int *cpus;		/* cpu slots */
	size_t ncpus;

	struct pev_ring **rings;	/* one per cpu slot (--per-thread: thread slot) */
	size_t nrings;
	struct pollfd *pfd;

	const char *path;	/* output path, "-" for stdout */
	int fd;
	bool pipe;
	struct pev_data_writer *w;

	/* Counters for the summary. */
	uint64_t wakeups, samples, lost, lost_records, bytes;
	uint64_t first_time, last_time;
	struct rec_round rounds[REC_ROUNDS_KEPT];	/* the last ones, a ring */
	uint64_t nrounds;	/* rounds completed */
	unsigned rounds_given_up;	/* complete rounds cut to fit the features */
	int write_err;		/* -errno of the failed write, else 0 */
	bool data_complete;	/* every record was written, only the end failed */
	bool size_limited;	/* --max-size reached */

	/* --off-cpu (record_offcpu.c): the indexes of sched:sched_switch
	 * and offcpu-time in ev, and the pairing state (NULL before the
	 * first pass). */
	size_t off_switch, off_event;
	struct rec_offcpu *off;
	uint64_t offcpu_samples;
};

/* record_setup.c */
int rec_setup_events(struct rec *r);
int rec_setup_targets(struct rec *r);
int rec_open_events(struct rec *r);
int rec_mmap_rings(struct rec *r);
void rec_close(struct rec *r);

/* record_loop.c */
int rec_run(struct rec *r);	/* 0, or -errno of a write failure */
int rec_recover_truncated(struct rec *r);	/* pev_data_writer_finish_at's */
int rec_write_lost_samples(struct rec *r);

/* Copies len bytes at logical offset off of the spans into out (here,
 * for record_loop.c and record_offcpu.c alike: neither calls the other). */
static inline void rec_span_copy(const struct pev_ring_span *sp, int n, size_t off,
				 void *out, size_t len)
{
	unsigned char *o = out;

	for (int i = 0; i < n && len; i++) {
		if (off >= sp[i].size) {
			off -= sp[i].size;
			continue;
		}
		size_t k = sp[i].size - off < len ? sp[i].size - off : len;

		memcpy(o, (const unsigned char *)sp[i].data + off, k);
		o += k;
		len -= k;
		off = 0;
	}
}

/* record_offcpu.c: --off-cpu.  check: tracefs and the tracepoint's id
 * readable (else one error printed, -errno); config: the attrs of the two
 * events, after config_attr; open_error: why sched_switch was refused;
 * scan: a ring's records of a pass (out of memory: a warning, and no more
 * pairing); flush: the pass's offcpu-time samples to the file (before its
 * FINISHED_ROUND), 0 or the writer's -errno; free: the state. */
int rec_offcpu_check(void);
void rec_offcpu_config(struct rec *r);
void rec_offcpu_open_error(struct rec *r, int err);
void rec_offcpu_scan(struct rec *r, const struct pev_ring_span *sp, int n, size_t total);
int rec_offcpu_flush(struct rec *r);
void rec_offcpu_free(struct rec *r);

/* record_opts.c: option callbacks (ctx is struct rec_opts) */
struct opt;
int rec_opt_intr_regs(const struct opt *o, const char *arg, void *ctx);
int rec_opt_user_regs(const struct opt *o, const char *arg, void *ctx);
int rec_opt_branch_filter(const struct opt *o, const char *arg, void *ctx);
int rec_opt_branch_any(const struct opt *o, const char *arg, void *ctx);
int rec_opt_delay(const struct opt *o, const char *arg, void *ctx);
int rec_opt_max_size(const struct opt *o, const char *arg, void *ctx);
int rec_opt_uid(const struct opt *o, const char *arg, void *ctx);
int rec_opt_period(const struct opt *o, const char *arg, void *ctx);
int rec_opt_freq(const struct opt *o, const char *arg, void *ctx);
int rec_opt_mmap_pages(const struct opt *o, const char *arg, void *ctx);
/* perf's "rounding mmap pages size to 16K (4 pages)", unless -q. */
void rec_mmap_notice(const struct rec_opts *o);
/* perf 6.1's -j: a branch_sample_type, -ENOENT for an unknown name. */
int rec_branch_parse(const char *arg, uint64_t *mode);
/* Every register perf samples by default on this machine (x86_64:
 * 0xff0fff); 0 on an architecture without a table. */
uint64_t rec_regs_all_mask(void);

/* record_synth.c: the side band of what exists already; the number of
 * records, or -errno.  For a launched workload perf 6.1 writes only the
 * COMM of the forked child (no FORK, none of its maps before the exec:
 * its libunwind glue would take them for the workload's). */
long rec_synth_workload_comm(struct rec *r, const struct pev_synth_opts *so);
/* -p/-t/-u: FORK, COMM and maps of each process of the thread slots,
 * once per process. */
long rec_synth_targets(struct rec *r, const struct pev_synth_opts *so);
long rec_synth_namespaces(struct rec *r, const struct pev_synth_opts *so);
long rec_synth_cgroups(struct rec *r, const struct pev_synth_opts *so);

/* record_post.c */
int rec_collect_build_ids(struct rec *r);
void rec_summary(const struct rec *r);

#endif
