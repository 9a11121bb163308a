// SPDX-License-Identifier: GPL-2.0-only
/* perfev script: --comm, --pid, --tid, -C, --time, --dsos, -S through the
 * library's pev_filter, applied where perf script 6.1 applies them:
 *  - samples: --time first, then the thread (comm, pid, tid), DSO and
 *    symbol of the sample's ip (machine__resolve's al.filtered), then -C;
 *  - side-band records printed by --show-*-events: -C only (perf's
 *    filter_cpu()). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "script/script.h"

int script_filter_setup(struct script *s)
{
	const struct pev_filter_opts *o = &s->opt.filter;
	char err[512] = "";

	if (!o->comm && !o->pid && !o->tid && !o->cpu && !o->time && !o->dso &&
	    !o->symbols)
		return 0;
	s->filter = pev_filter_new(o, err, sizeof(err));
	if (!s->filter) {
		cli_error("%s", err[0] ? err : strerror(errno));
		return errno == EINVAL ? EXIT_USAGE : EXIT_ERROR;
	}
	return 0;
}

/* seconds "S[.F]" (up to 9 decimals) as ns; false when it is not that */
static bool parse_secs(const char *s, size_t n, uint64_t *ns)
{
	uint64_t v = 0, frac = 0;
	size_t i = 0, digits = 0;

	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9' && digits < 9; i++, digits++)
			frac = frac * 10 + (uint64_t)(s[i] - '0');
	if (i != n || !n)
		return false;
	while (digits++ < 9)
		frac *= 10;
	*ns = v * 1000000000ull + frac;
	return true;
}

/* --reltime with --time: perf 6.1 takes the times from the first sample's
 * (the SAMPLE_TIME feature); each "START,STOP" is moved by it (an open
 * end stays open).  A new string, NULL when a part is not seconds (the
 * filter said why already) or on ENOMEM. */
static char *shift_time(const char *spec, uint64_t first)
{
	size_t cap = strlen(spec) * 2 + 64, len = 0;
	char *out = malloc(cap);
	const char *p = spec;

	if (!out)
		return NULL;
	while (*p) {
		size_t n = strcspn(p, " ");

		if (n) {
			const char *comma = memchr(p, ',', n);
			const char *sides[2] = { p, comma ? comma + 1 : p + n };
			size_t lens[2] = { comma ? (size_t)(comma - p) : n,
					   comma ? (size_t)(p + n - comma - 1) : 0 };

			if (!comma) {
				free(out);
				return NULL;
			}
			for (int k = 0; k < 2; k++) {
				uint64_t ns;

				if (lens[k] && !parse_secs(sides[k], lens[k], &ns)) {
					free(out);
					return NULL;
				}
				if (len + 48 > cap) {
					char *b = realloc(out, cap *= 2);

					if (!b) {
						free(out);
						return NULL;
					}
					out = b;
				}
				if (lens[k])
					len += (size_t)snprintf(out + len, cap - len, "%llu.%09llu",
								(unsigned long long)((ns + first) / 1000000000ull),
								(unsigned long long)((ns + first) % 1000000000ull));
				if (!k)
					out[len++] = ',';
			}
			p += n;
		}
		if (*p == ' ') {
			if (len + 2 > cap) {
				char *b = realloc(out, cap *= 2);

				if (!b) {
					free(out);
					return NULL;
				}
				out = b;
			}
			out[len++] = ' ';
			p++;
		}
		out[len] = 0;
	}
	out[len] = 0;
	return out;
}

/* After the file is open: -C needs CPU in the samples (perf checks the
 * first event of each type), percent --time needs SAMPLE_TIME. */
int script_filter_check_file(struct script *s)
{
	const struct pev_data_features *f = pev_data_features(s->data);
	char err[512] = "";

	if (!s->filter)
		return 0;
	if (s->opt.filter.cpu) {
		bool seen[PERF_TYPE_MAX] = { false };

		for (size_t i = 0; i < pev_decoder_nr_attrs(s->dec); i++) {
			const struct perf_event_attr *a = pev_decoder_attr(s->dec, i);

			if (!a || a->type >= PERF_TYPE_MAX || seen[a->type])
				continue;
			seen[a->type] = true;
			if (!(a->sample_type & PERF_SAMPLE_CPU)) {
				cli_error("'%s' has no CPU in its samples, so -C cannot select any; record with -a or --sample-cpu, or remove -C",
					  s->opt.input);
				return EXIT_ERROR;
			}
		}
	}
	if (s->opt.reltime && s->opt.filter.time && !strchr(s->opt.filter.time, '%')) {
		struct pev_filter_opts o = s->opt.filter;
		char *shifted;

		if (!f || !f->first_sample_time) {
			cli_error("'%s' has no first sample time (the SAMPLE_TIME feature), so --time cannot be taken from it with --reltime; record with a newer perf or perfev, or leave --reltime out",
				  s->opt.input);
			return EXIT_ERROR;
		}
		shifted = shift_time(o.time, f->first_sample_time);
		if (!shifted) {
			cli_error("out of memory");
			return EXIT_ERROR;
		}
		o.time = shifted;
		pev_filter_free(s->filter);
		s->filter = pev_filter_new(&o, err, sizeof(err));
		free(shifted);
		if (!s->filter) {
			cli_error("%s", err[0] ? err : strerror(errno));
			return EXIT_ERROR;
		}
	}
	if (pev_filter_needs_sample_time(s->filter) &&
	    pev_filter_set_sample_time(s->filter, f ? f->first_sample_time : 0,
				       f ? f->last_sample_time : 0, err, sizeof(err))) {
		cli_error("'%s': %s", s->opt.input, err);
		return EXIT_ERROR;
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b && b[1] ? b + 1 : path;
}

/* perf's threads are found by tid and keep the first pid they were seen
 * with (machine__update_thread_pid), so a sample that lost its pid (-1,
 * a task exiting) counts for the pid its tid had: an open-addressing
 * table tid -> first pid.  Returns the pid the filter sees. */
static int32_t thread_pid(struct script *s, int32_t pid, int32_t tid)
{
	size_t cap = s->tid_pid_cap, i;

	if (s->tid_pid_len * 2 >= cap) {
		size_t ncap = cap ? cap * 2 : 1024;
		__typeof__(s->tid_pid) t = malloc(ncap * sizeof(*t));

		if (!t)
			return pid;
		for (i = 0; i < ncap; i++)
			t[i].tid = INT32_MIN;
		for (size_t j = 0; j < cap; j++) {
			if (s->tid_pid[j].tid == INT32_MIN)
				continue;
			for (i = (uint32_t)s->tid_pid[j].tid % ncap; t[i].tid != INT32_MIN;
			     i = (i + 1) % ncap)
				;
			t[i] = s->tid_pid[j];
		}
		free(s->tid_pid);
		s->tid_pid = t;
		s->tid_pid_cap = cap = ncap;
	}
	for (i = (uint32_t)tid % cap; s->tid_pid[i].tid != INT32_MIN; i = (i + 1) % cap)
		if (s->tid_pid[i].tid == tid) {
			if (s->tid_pid[i].pid == -1)
				s->tid_pid[i].pid = pid;
			return s->tid_pid[i].pid;
		}
	s->tid_pid[i].tid = tid;
	s->tid_pid[i].pid = pid;
	s->tid_pid_len++;
	return pid;
}

void script_filter_release(struct script *s)
{
	free(s->tid_pid);
	s->tid_pid = NULL;
	pev_filter_free(s->filter);
	s->filter = NULL;
}

bool script_filter_sample(struct script *s, const struct pev_record *rec)
{
	const struct pev_sample *smp = &rec->u.sample;
	struct pev_filter_sample fs;
	unsigned needs;

	if (!s->filter)
		return true;
	if ((smp->fields & PERF_SAMPLE_TIME) && !pev_filter_time_ok(s->filter, smp->time))
		return false;
	needs = pev_filter_needs(s->filter);
	memset(&fs, 0, sizeof(fs));
	fs.tid = (int32_t)smp->tid;
	fs.pid = s->opt.filter.pid ? thread_pid(s, (int32_t)smp->pid, fs.tid) : (int32_t)smp->pid;
	fs.cpu = smp->cpu;
	fs.has_cpu = smp->fields & PERF_SAMPLE_CPU;
	if (needs & PEV_FILTER_NEED_COMM)
		fs.comm = pev_machine_comm(s->machine, smp->pid, smp->tid);
	if (needs & (PEV_FILTER_NEED_DSO | PEV_FILTER_NEED_SYMBOL)) {
		struct pev_addr_loc al;

		pev_machine_resolve(s->machine, smp->pid, smp->ip,
				    rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, &al);
		if (al.dso) {
			fs.dso_long = pev_dso_name(al.dso);
			fs.dso_short = base_name(fs.dso_long);
		}
		fs.sym = al.sym ? al.sym->name : NULL;
		fs.ip = smp->ip;
	}
	/* time was checked above; a sample without TIME passes it */
	return !(pev_filter_match(s->filter, &fs) & ~(unsigned)PEV_FILTER_TIME);
}

bool script_filter_side(struct script *s, const struct pev_record *rec)
{
	if (!s->filter || !s->opt.filter.cpu)
		return true;
	if (rec->has_sample_id && (rec->sample_id.fields & PERF_SAMPLE_CPU))
		return pev_filter_cpu_ok(s->filter, rec->sample_id.cpu);
	return true;
}
