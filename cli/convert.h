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

/* Opens c->input and reads it into c->prof (samples kept).  EXIT_OK, or
 * an exit code after the error line. */
int conv_load(struct conv *c);
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
/* The event's name as perf prints it. */
const char *conv_event_name(const struct conv *c, uint32_t event);

/* The writers (cli/convert_<fmt>.c). */
int conv_write_folded(struct conv *c);
int conv_write_html(struct conv *c);

#endif
