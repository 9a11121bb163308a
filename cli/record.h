/* perfev record: state shared by cmd_record.c (options and flow),
 * record_setup.c (attrs, fds, rings), record_loop.c (drain loop, signals,
 * truncation recovery) and record_post.c (build ids, summary). */
#ifndef PEV_CLI_RECORD_H
#define PEV_CLI_RECORD_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

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
	long period;		/* -c; 0 = unset */
	bool callchain;		/* -g / --call-graph fp|dwarf */
	bool dwarf;		/* --call-graph dwarf */
	unsigned stack_size;	/* dwarf stack dump bytes */
	bool all_cpus;
	const char *cpus, *pids, *tids;
	bool switch_events;
	unsigned mmap_pages;	/* -m; 0 = perf's default */
	const char *output;	/* -o; NULL = perf.data (or "-" on a FIFO) */
	int zlevel;		/* -z: zstd level; 0 = off */
	bool quiet;
	int verbose;
	bool no_inherit;
	bool no_buildid;
	bool use_clockid;	/* -k */
	int clockid;
	uint64_t clockid_res_ns;	/* clock_getres of it; 0 = unknown */
};

/* One event of the recording: its attr and the fds opened for it, one
 * per (thread slot, cpu slot): fds[t * ncpus + c]. */
struct rec_event {
	struct pev_attr attr;
	char *name;
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

	struct pev_target *target;
	struct pev_workload *wl;
	pid_t *threads;		/* thread slots (pids for perf_event_open) */
	size_t nthreads;
	int *cpus;		/* cpu slots */
	size_t ncpus;

	struct pev_ring **rings;	/* one per cpu slot */
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
};

/* Signal state (record_loop.c). */
extern volatile sig_atomic_t rec_signal;	/* SIGINT / SIGTERM caught */
extern volatile sig_atomic_t rec_child_exited;

/* record_setup.c */
int rec_setup_events(struct rec *r);
int rec_setup_targets(struct rec *r);
int rec_open_events(struct rec *r);
int rec_mmap_rings(struct rec *r);
void rec_close(struct rec *r);

/* record_loop.c */
void rec_signals_install(void);
int rec_run(struct rec *r);	/* 0, or -errno of a write failure */
int rec_recover_truncated(struct rec *r);	/* pev_data_writer_finish_at's */
int rec_write_lost_samples(struct rec *r);

/* record_post.c */
int rec_collect_build_ids(struct rec *r);
void rec_summary(const struct rec *r);

#endif
