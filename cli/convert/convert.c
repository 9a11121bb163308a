// SPDX-License-Identifier: GPL-2.0-only
/* perfev convert: loading a file into a profile that keeps its samples,
 * and what every writer shares (see convert.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "convert/convert.h"
#include "common/input.h"

static bool file_has_sample_bit(const struct pev_data *d, uint64_t bit)
{
	const struct pev_decoder *dec = pev_data_decoder(d);

	for (size_t i = 0; i < pev_decoder_nr_attrs(dec); i++)
		if (pev_decoder_attr(dec, i)->sample_type & bit)
			return true;
	return false;
}

static bool any_filter(const struct pev_filter_opts *f)
{
	return f->comm || f->pid || f->tid || f->cpu || f->time || f->dso || f->symbols;
}

static int open_input(struct conv *c)
{
	char err[512] = "";
	struct pev_data_open_opts oo = { .size = sizeof(oo), .window = 8u << 20 };

	if (strcmp(c->input, "-") && cli_check_owner(c->input, c->force))
		return EXIT_ERROR;
	c->data = pev_data_open(c->input, &oo, err, sizeof(err));
	if (!c->data) {
		if (errno == ENOENT && strcmp(c->input, "-"))
			cli_error("cannot open '%s': no such file; record one with 'perfev record' or give it with -i",
				  c->input);
		else
			cli_error("cannot read '%s': %s", c->input, cli_data_errmsg(err, errno));
		return EXIT_ERROR;
	}
	/* a file cut short: one warning, cli_report_cut's, once it is read */
	if (c->symfs && !c->symfs[strspn(c->symfs, "/")])
		c->symfs = NULL;	/* perf: --symfs / is the root */
	struct pev_dso_cache_opts dopts = { .size = sizeof(dopts), .kallsyms = c->kallsyms,
					    .symfs = c->symfs, .vmlinux = c->vmlinux };

	c->dsos = pev_dso_cache_new(&dopts);
	c->machine = c->dsos ? pev_machine_new(c->dsos) : NULL;
	if (!c->machine) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	const struct pev_data_features *f = pev_data_features(c->data);

	for (size_t i = 0; f && i < f->nr_build_ids; i++) {
		const struct pev_data_build_id *b = &f->build_ids[i];

		if (b->filename)
			pev_dso_cache_set_build_id(c->dsos, b->filename, b->id, b->size);
	}
	return EXIT_OK;
}

static int make_filter(struct conv *c)
{
	char err[512] = "";

	if (!any_filter(&c->fopts))
		return EXIT_OK;
	if (c->fopts.cpu && !pev_data_is_pipe(c->data) &&
	    !file_has_sample_bit(c->data, PERF_SAMPLE_CPU)) {
		cli_error("'%s' has no CPU in its samples, so -C selects none; record with -a or --sample-cpu, or leave -C out",
			  c->input);
		return EXIT_ERROR;
	}
	c->fopts.size = sizeof(c->fopts);
	c->filter = pev_filter_new(&c->fopts, err, sizeof(err));
	if (!c->filter) {
		if (errno == EINVAL)
			cli_error("%s", err);
		else
			cli_error("cannot read a filter list: %s", strerror(errno));
		return errno == EINVAL ? EXIT_USAGE : EXIT_ERROR;
	}
	if (pev_filter_needs_sample_time(c->filter)) {
		const struct pev_data_features *f = pev_data_features(c->data);

		if (pev_filter_set_sample_time(c->filter, f ? f->first_sample_time : 0,
					       f ? f->last_sample_time : 0, err, sizeof(err)) < 0) {
			cli_error("%s", err);
			return EXIT_ERROR;
		}
	}
	return EXIT_OK;
}

/* --event and the default --value, once the events are known */
static int pick_events(struct conv *c)
{
	size_t n = pev_profile_nr_events(c->prof);
	bool found = false, offcpu = false;

	c->nevents = n;
	c->ev_on = calloc(n ? n : 1, sizeof(*c->ev_on));
	if (!c->ev_on) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = conv_event_name(c, (uint32_t)i);

		c->ev_on[i] = !c->event || !strcmp(name, c->event);
		found |= c->ev_on[i];
		offcpu |= c->ev_on[i] && !strcmp(name, "offcpu-time");
	}
	if (c->event && !found) {
		cli_error("'%s' has no event '%s'; its events:", c->input, c->event);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "  %s\n", conv_event_name(c, (uint32_t)i));
		return EXIT_USAGE;
	}
	/* record --off-cpu's own sched:sched_switch samples (period 1, the
	 * raw material of offcpu-time) are not shown unless asked for */
	for (size_t i = 0; offcpu && !c->event && i < n; i++)
		if (!strcmp(conv_event_name(c, (uint32_t)i), "sched:sched_switch"))
			c->ev_on[i] = false;
	if (c->value == CONV_VALUE_DEFAULT)
		c->value = offcpu ? CONV_VALUE_PERIOD : CONV_VALUE_SAMPLES;
	return EXIT_OK;
}

/* pev_profile_read, handing every record to the writer as it goes */
static int read_each(struct conv *c)
{
	struct pev_data_event ev;
	int rc;

	while ((rc = pev_data_next_ordered(c->data, &ev)) > 0) {
		size_t before, after;
		const struct pev_profile_sample *s;

		pev_profile_samples(c->prof, &before);
		if (!ev.decode_error && (rc = pev_profile_add(c->prof, &ev.rec)) < 0)
			return rc;
		s = pev_profile_samples(c->prof, &after);
		rc = c->each_record(c, &ev, after > before ? &s[after - 1] : NULL);
		if (rc < 0)
			return rc;
		if (c->out && ferror(c->out))
			return 0;	/* the output failed: close_output says why */
	}
	return rc;
}

int conv_open(struct conv *c)
{
	int ret;

	if (c->data)
		return EXIT_OK;
	if (!c->input)
		c->input = "perf.data";
	if ((ret = open_input(c)) != EXIT_OK || (ret = make_filter(c)) != EXIT_OK)
		return ret;
	return EXIT_OK;
}

int conv_load(struct conv *c)
{
	int ret;

	if ((ret = conv_open(c)) != EXIT_OK)
		return ret;
	/* --max-stack 0: a flat profile, as perf report's (every format
	 * sees a file without chains: each sample its own frame) */
	c->has_callchain = c->max_stack != 0 &&
			   (file_has_sample_bit(c->data, PERF_SAMPLE_CALLCHAIN) ||
			    file_has_sample_bit(c->data, PERF_SAMPLE_STACK_USER));
	struct pev_chain_opts copts = { .size = sizeof(copts), .no_inline = c->no_inline };
	struct pev_profile_opts popts = { .size = sizeof(popts) };

	if (c->has_callchain || (pev_data_is_pipe(c->data) && c->max_stack != 0)) {
		c->chain = pev_chain_new(c->machine, &copts);
		if (!c->chain) {
			cli_error("out of memory");
			return EXIT_ERROR;
		}
	}
	/* report's default keys: a filter rejects the same samples */
	popts.keys[0] = PEV_SORT_COMM;
	popts.keys[1] = PEV_SORT_DSO;
	popts.keys[2] = PEV_SORT_SYM;
	popts.callchains = c->chain != NULL;
	popts.order = PEV_PROFILE_CALLEE;
	popts.match = c->by_address ? PEV_PROFILE_ADDRESS : PEV_PROFILE_FUNCTION;
	popts.max_stack = (unsigned)c->max_stack;
	popts.filter = c->filter;
	popts.keep_samples = true;
	c->prof = pev_profile_new(c->machine, c->chain, pev_data_decoder(c->data), &popts);
	if (!c->prof) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	const struct pev_data_features *f = pev_data_features(c->data);

	for (size_t i = 0; f && i < f->nr_build_ids; i++) {
		struct pev_dso *dso = f->build_ids[i].filename ?
			pev_dso_cache_get(c->dsos, f->build_ids[i].filename) : NULL;

		if (dso)
			pev_profile_seed_dso(c->prof, dso);
	}
	int rc = c->each_record ? read_each(c) : pev_profile_read(c->prof, c->data, NULL, NULL);

	if (rc == -ENOMEM) {
		cli_error("out of memory reading '%s'", c->input);
		return EXIT_ERROR;
	}
	if (rc < 0) {
		cli_error("'%s' is damaged: %s; it may be truncated, record it again",
			  c->input, pev_data_error(c->data));
		return EXIT_ERROR;
	}
	if (pev_profile_finish(c->prof) < 0) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	return pick_events(c);
}

void conv_release(struct conv *c)
{
	free(c->ev_on);
	c->ev_on = NULL;
	pev_profile_free(c->prof);
	pev_chain_free(c->chain);
	pev_filter_free(c->filter);
	pev_machine_free(c->machine);
	pev_dso_cache_free(c->dsos);
	pev_data_close(c->data);
	c->prof = NULL;
	c->chain = NULL;
	c->filter = NULL;
	c->machine = NULL;
	c->dsos = NULL;
	c->data = NULL;
}

size_t conv_stack(const struct conv *c, const struct pev_profile_sample *s,
		  const uint32_t **ids)
{
	size_t n = pev_profile_chain(c->prof, s->chain, ids);

	if (n)
		return n;
	*ids = &s->self;
	return 1;
}

bool conv_sample_on(const struct conv *c, const struct pev_profile_sample *s)
{
	return !s->filtered && s->event < c->nevents && c->ev_on[s->event];
}

const char *conv_func_name(const struct pev_profile_frame *f, char *buf, size_t size)
{
	if (f->inline_name)
		return f->inline_name;
	if (f->sym)
		return f->sym->name;
	if (!f->dso)
		return "[unknown]";
	snprintf(buf, size, "[%s]", pev_profile_dso_short(f->dso));
	return buf;
}

const char *conv_dso_path(const struct pev_profile_frame *f)
{
	return f->dso ? pev_dso_name(f->dso) : "[unknown]";
}

const char *conv_event_name(const struct conv *c, uint32_t event)
{
	const char *name = pev_data_event_name(c->data, event);

	return name ? name : "unknown";
}

void conv_summary(struct conv *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->summary, sizeof(c->summary), fmt, ap);
	va_end(ap);
}
