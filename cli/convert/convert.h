/* SPDX-License-Identifier: GPL-2.0-only */
/* perfev convert: a perf.data file loaded into a profile that keeps its
 * samples, and one writer per output format (cli/convert_<fmt>.c).
 *
 * Every format is built from the same profile as `perfev report`: the
 * same frames (pev_chain_resolve through the profile's interning), the
 * same filters, the same periods. */
#ifndef PEV_CLI_CONVERT_H
#define PEV_CLI_CONVERT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <perfev/data.h>
#include <perfev/filter.h>
#include <perfev/profile.h>
#include <perfev/symbols.h>
#include <perfev/callchain.h>

/* What a folded count or a weight is made of. */
enum conv_value { CONV_VALUE_DEFAULT = 0, CONV_VALUE_SAMPLES, CONV_VALUE_PERIOD };

struct conv {
	/* The command line. */
	const char *input;		/* -i (default perf.data) */
	const char *output;		/* -o (NULL: the format's default) */
	const char *to;			/* --to */
	const char *event;		/* --event: one event by name */
	struct pev_filter_opts fopts;	/* --comm --pid --tid --dso -S -C --time */
	const char *kallsyms, *vmlinux, *symfs;
	const char *value_name;		/* --value samples|period */
	const char *diff_old;		/* --diff OLD (html) */
	int max_stack;			/* --max-stack (default the sysctl's) */
	bool force;			/* -f: files of other owners */
	bool no_inline;			/* --no-inline */
	bool with_pid, with_tid;	/* folded: comm-pid, comm-pid/tid */
	bool kernel_tag;		/* folded: _[k] after kernel frames */
	bool quiet;			/* -q: no summary line on stderr */
	bool by_address;		/* CONV_BY_ADDRESS */
	/* Set by a CONV_STREAM writer before conv_load: called for every
	 * record in time order (those that failed to decode too), with the
	 * sample the profile kept for it (NULL for other records and for
	 * samples outside the time and CPU ranges).  0 or -ENOMEM; reading
	 * stops once the output has failed (ferror). */
	int (*each_record)(struct conv *c, const struct pev_data_event *ev,
			   const struct pev_profile_sample *s);
	void *writer_state;

	/* Loaded by conv_load. */
	struct pev_data *data;
	struct pev_dso_cache *dsos;
	struct pev_machine *machine;
	struct pev_chain *chain;
	struct pev_filter *filter;
	struct pev_profile *prof;
	bool has_callchain;		/* the file's samples have chains */
	enum conv_value value;		/* resolved: never DEFAULT */
	/* The events the output shows: ev_on[i] for event index i. */
	bool *ev_on;
	size_t nevents;

	/* What was written, one line (conv_summary): printed on stderr
	 * once the output is closed without an error, unless -q. */
	char summary[256];

	/* The output, opened by the driver (stdout or -o). */
	FILE *out;
	const char *out_name;		/* for messages */
};

/* One writer per format.  Returns EXIT_OK or EXIT_ERROR after cli_error. */
typedef int (*conv_writer)(struct conv *c);

struct conv_format {
	const char *name;
	conv_writer write;
	/* -o's default when not given (NULL: stdout) */
	const char *default_output;
	/* binary output: refused on a terminal */
	bool binary;
	const char *help;
};
/* What a format needs before the file is read (cmd_convert.c's
 * format_flags). */
/* Frames are kept per address (not merged per function): pprof. */
#define CONV_BY_ADDRESS	1u
/* The writer reads the file itself (conv_load with c->each_record) and
 * writes as it goes; the output is opened first: json. */
#define CONV_STREAM	2u

/* Opens c->input and reads it into c->prof (samples kept).  EXIT_OK, or
 * an exit code after the error line. */
int conv_load(struct conv *c);
/* Its first half: opens c->input and makes the filter (conv_load does
 * not open it again). */
int conv_open(struct conv *c);
/* The whole command once the options are parsed (convert, flamegraph). */
int conv_run(struct conv *c);
void conv_release(struct conv *c);

/* The frames of sample s, leaf first: its chain when it has one, else its
 * own ip's frame.  Returns how many (at least 1). */
size_t conv_stack(const struct conv *c, const struct pev_profile_sample *s,
		  const uint32_t **ids);
/* Whether sample s is shown: its event is on and no filter rejected it. */
bool conv_sample_on(const struct conv *c, const struct pev_profile_sample *s);
/* The value sample s adds under c->value. */
static inline uint64_t conv_value_of(const struct conv *c, const struct pev_profile_sample *s)
{
	return c->value == CONV_VALUE_PERIOD ? s->period : 1;
}
/* A frame's function name as flame-graph tools show it (the rules of
 * stackcollapse-perf.pl on perf script's output): the symbol's name, an
 * inline frame's name, "[dso]" (base name) for code of a known DSO
 * without a symbol, "[unknown]" for no map.  Written into buf when it
 * must be built; the result may point into the profile. */
const char *conv_func_name(const struct pev_profile_frame *f, char *buf, size_t size);
/* The DSO's path as the file names it ("[kernel.kallsyms]" for the
 * kernel), "[unknown]" without one. */
const char *conv_dso_path(const struct pev_profile_frame *f);
/* Sets the summary line (printf format, no "perfev: ", no newline). */
void conv_summary(struct conv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The event's name as perf prints it. */
const char *conv_event_name(const struct conv *c, uint32_t event);

/* The writers (cli/convert_<fmt>.c). */
int conv_write_folded(struct conv *c);
int conv_write_pprof(struct conv *c);
int conv_write_json(struct conv *c);
int conv_write_firefox(struct conv *c);
int conv_write_speedscope(struct conv *c);
int conv_write_chrome(struct conv *c);
int conv_write_html(struct conv *c);

#endif
