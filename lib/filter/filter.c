// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Sample filters from perf 6.1's option strings (--comm, --pid, --tid,
 * -C, --time, --dso, --symbols).  Everything is parsed and sorted once;
 * matching is binary searches, a bitmap test and a few compares.
 *
 * The grammar follows perf (util/strlist.c, util/intlist.c, libperf's
 * perf_cpu_map__new, util/time-utils.c); where perf accepts garbage
 * silently (a pid "abc" reads as "problems parsing pid list" and exit 0,
 * "-C x" as every CPU) we refuse it with one line naming the option. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/filter.h>

#include "filter/filter_internal.h"

static void seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- string lists (perf's strlist: ',' separated, file://PATH) */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int strs_add(struct pev_filter_strs *l, const char *s, size_t n)
{
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->nr] = strndup(s, n);
	if (!l->v[l->nr])
		return -ENOMEM;
	if (n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		l->has_hex = true;
	l->nr++;
	return 0;
}

/* perf's strlist__load(): one entry a line, the newline dropped. */
static int strs_load(struct pev_filter_strs *l, const char *opt, const char *path,
		     char *err, size_t errlen)
{
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	if (!fp) {
		rc = -errno;
		seterr(err, errlen, "cannot read the %s list 'file://%s': %s", opt, path,
		       strerror(errno));
		return rc;
	}
	while (!rc && (n = getline(&line, &cap, fp)) >= 0) {
		if (n && line[n - 1] == '\n')
			n--;
		if (n)
			rc = strs_add(l, line, (size_t)n);
	}
	free(line);
	fclose(fp);
	return rc;
}

static int strs_parse(struct pev_filter_strs *l, const char *opt, const char *s,
		      char *err, size_t errlen)
{
	const char *p = s;
	int rc = 0;

	while (!rc) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if (n > 7 && !strncmp(p, "file://", 7)) {
			char *path = strndup(p + 7, n - 7);

			rc = path ? strs_load(l, opt, path, err, errlen) : -ENOMEM;
			free(path);
		} else if (n) {
			rc = strs_add(l, p, n);
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	if (rc)
		return rc;
	if (!l->nr) {
		seterr(err, errlen, "empty %s list '%s': give one or more names separated by ','",
		       opt, s);
		return -EINVAL;
	}
	qsort(l->v, l->nr, sizeof(*l->v), cmp_str);
	return 0;
}

static bool strs_has(const struct pev_filter_strs *l, const char *s)
{
	size_t lo = 0, hi = l->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s, l->v[mid]);

		if (!c)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

static void strs_release(struct pev_filter_strs *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ---- integer lists (perf's intlist: strtol entries, ',' separated) */

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static int ints_parse(struct pev_filter_ints *l, const char *opt, const char *s,
		      char *err, size_t errlen)
{
	size_t cap = 1;

	for (const char *c = s; *c; c++)
		cap += *c == ',';
	l->v = calloc(cap, sizeof(*l->v));
	if (!l->v)
		return -ENOMEM;
	for (const char *p = s;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char buf[32], *end;
		long v;

		while (n && isspace((unsigned char)*p)) {
			p++;
			n--;
		}
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		if (n) {
			if (n >= sizeof(buf))
				goto bad;
			memcpy(buf, p, n);
			buf[n] = '\0';
			errno = 0;
			v = strtol(buf, &end, 10);
			if (*end || errno || v < 0 || v > INT32_MAX)
				goto bad;
			l->v[l->nr++] = (int32_t)v;
		}
		if (!comma)
			break;
		p = comma + 1;
		continue;
bad:
		seterr(err, errlen, "invalid %s list '%s': '%.*s' is not a %s; give numbers separated by ','",
		       opt, s, (int)n, p, !strcmp(opt, "--tid") ? "thread id" : "process id");
		return -EINVAL;
	}
	if (!l->nr) {
		seterr(err, errlen, "empty %s list '%s': give one or more numbers separated by ','",
		       opt, s);
		return -EINVAL;
	}
	qsort(l->v, l->nr, sizeof(*l->v), cmp_i32);
	return 0;
}

static bool ints_has(const struct pev_filter_ints *l, int32_t x)
{
	size_t lo = 0, hi = l->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->v[mid] == x)
			return true;
		if (l->v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* ---- CPU list (libperf's perf_cpu_map__new: "N", "N-M", ','; strtoul
 * base 0; a CPU twice or a range backwards is invalid) */

static int cpus_parse(struct pev_filter *f, const char *s, char *err, size_t errlen)
{
	const char *p = s;

	f->cpus = calloc(PEV_FILTER_MAX_CPUS / 64, sizeof(*f->cpus));
	if (!f->cpus)
		return -ENOMEM;
	if (!*p)
		goto bad;
	while (*p) {
		unsigned long a, b;
		char *end;

		if (!isdigit((unsigned char)*p))
			goto bad;
		errno = 0;
		a = strtoul(p, &end, 0);
		if (errno || (*end && *end != ',' && *end != '-'))
			goto bad;
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtoul(p, &end, 0);
			if (errno || (*end && *end != ','))
				goto bad;
			if (b < a) {
				seterr(err, errlen, "invalid CPU list '%s': the range %lu-%lu goes backwards",
				       s, a, b);
				return -EINVAL;
			}
		}
		if (b >= PEV_FILTER_MAX_CPUS) {
			seterr(err, errlen, "invalid CPU list '%s': CPU %lu is too large (at most %d)",
			       s, b, PEV_FILTER_MAX_CPUS - 1);
			return -EINVAL;
		}
		for (unsigned long c = a; c <= b; c++) {
			if (f->cpus[c / 64] & (1ull << (c % 64))) {
				seterr(err, errlen, "invalid CPU list '%s': CPU %lu is given twice",
				       s, c);
				return -EINVAL;
			}
			f->cpus[c / 64] |= 1ull << (c % 64);
		}
		p = end;
		if (*p == ',') {
			p++;
			if (!*p)
				goto bad;
		}
	}
	return 0;
bad:
	seterr(err, errlen, "invalid CPU list '%s': give CPU numbers and ranges such as '0-3,6'", s);
	return -EINVAL;
}

bool pev_filter_cpu_ok(const struct pev_filter *f, uint32_t cpu)
{
	if (!f || !f->cpus)
		return true;
	return cpu < PEV_FILTER_MAX_CPUS && (f->cpus[cpu / 64] & (1ull << (cpu % 64)));
}

/* ---- construction and matching */

struct pev_filter *pev_filter_new(const struct pev_filter_opts *opts, char *err,
				  size_t errlen)
{
	struct pev_filter_opts o = { 0 };
	struct pev_filter *f = calloc(1, sizeof(*f));
	int rc = 0;

	if (err && errlen)
		err[0] = '\0';
	if (!f)
		return NULL;
	if (opts) {
		if (opts->size < sizeof(size_t)) {
			free(f);
			errno = EINVAL;
			seterr(err, errlen, "pev_filter_opts.size is not set");
			return NULL;
		}
		memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
	}
	if (o.comm) {
		rc = strs_parse(&f->comm, "--comm", o.comm, err, errlen);
		f->needs |= PEV_FILTER_NEED_COMM;
	}
	if (!rc && o.dso) {
		rc = strs_parse(&f->dso, "--dso", o.dso, err, errlen);
		f->needs |= PEV_FILTER_NEED_DSO;
	}
	if (!rc && o.symbols) {
		rc = strs_parse(&f->sym, "--symbols", o.symbols, err, errlen);
		f->needs |= PEV_FILTER_NEED_SYMBOL;
	}
	if (!rc && o.pid)
		rc = ints_parse(&f->pid, "--pid", o.pid, err, errlen);
	if (!rc && o.tid)
		rc = ints_parse(&f->tid, "--tid", o.tid, err, errlen);
	if (!rc && o.cpu) {
		rc = cpus_parse(f, o.cpu, err, errlen);
		f->needs |= PEV_FILTER_NEED_CPU;
	}
	if (!rc && o.time) {
		rc = pev_filter_time_parse(f, o.time, err, errlen);
		f->needs |= PEV_FILTER_NEED_TIME;
	}
	if (rc == -ENOMEM)
		seterr(err, errlen, "out of memory");
	if (rc) {
		pev_filter_free(f);
		errno = -rc;
		return NULL;
	}
	return f;
}

void pev_filter_free(struct pev_filter *f)
{
	if (!f)
		return;
	strs_release(&f->comm);
	strs_release(&f->dso);
	strs_release(&f->sym);
	free(f->pid.v);
	free(f->tid.v);
	free(f->cpus);
	free(f->ranges);
	free(f->pct);
	free(f);
}

unsigned pev_filter_needs(const struct pev_filter *f)
{
	return f ? f->needs : 0;
}

bool pev_filter_thread_ok(const struct pev_filter *f, int32_t pid, int32_t tid,
			  const char *comm)
{
	if (!f)
		return true;
	if (f->comm.nr && (!comm || !strs_has(&f->comm, comm)))
		return false;
	if (f->pid.v && !ints_has(&f->pid, pid))
		return false;
	if (f->tid.v && !ints_has(&f->tid, tid))
		return false;
	return true;
}

unsigned pev_filter_match(const struct pev_filter *f, const struct pev_filter_sample *s)
{
	unsigned why = PEV_FILTER_PASS;

	if (!f)
		return why;
	if (!pev_filter_time_ok(f, s->time))
		why |= PEV_FILTER_TIME;
	if (f->cpus && (!s->has_cpu || !pev_filter_cpu_ok(f, s->cpu)))
		why |= PEV_FILTER_CPU;
	if (!pev_filter_thread_ok(f, s->pid, s->tid, s->comm))
		why |= PEV_FILTER_THREAD;
	/* perf's machine__resolve(): no map fails --dso; the short name or a
	 * different long name must be listed. */
	if (f->dso.nr && (!s->dso_short ||
			  !(strs_has(&f->dso, s->dso_short) ||
			    (s->dso_long && strcmp(s->dso_long, s->dso_short) &&
			     strs_has(&f->dso, s->dso_long)))))
		why |= PEV_FILTER_DSO;
	if (f->sym.nr) {
		bool ok = false;

		if (s->sym) {
			ok = strs_has(&f->sym, s->sym);
			if (!ok && f->sym.has_hex) {
				char a[24];

				snprintf(a, sizeof(a), "0x%llx", (unsigned long long)s->ip);
				ok = strs_has(&f->sym, a);
			}
		}
		if (!ok)
			why |= PEV_FILTER_SYMBOL;
	}
	return why;
}
