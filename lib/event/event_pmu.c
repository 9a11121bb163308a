// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* "pmu/term=value,.../": terms from the PMU's format files, its event
 * aliases (events/<name>), and the generic config/period/freq/name terms;
 * also bare alias names ("tsc") and symbolic names with terms
 * ("cpu-clock/period=1000/"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_internal.h"

/* Where the term text came from: the user's spec (positions are real) or
 * an alias file (errors point at the alias's name in the spec). */
struct term_src {
	const char *text;
	size_t len;
	size_t base;		/* offset of text in the spec, when from_spec */
	bool from_spec;
	size_t apos, alen;	/* the alias token, when !from_spec */
	const char *alias;	/* alias name, when !from_spec */
};

static const char *const unsupported_terms[] = {
	"call-graph", "stack-size", "max-stack", "inherit", "no-inherit", "overwrite",
	"no-overwrite", "percore", "aux-output", "aux-sample-size", "metric-id", "raw",
	"legacy-cache", "hardware", "branch_type", "time", "driver-config",
};

static int term_err(struct parse_ctx *c, const struct term_src *src, size_t off, size_t len,
		    int code, const char *msg)
{
	if (src->from_spec)
		return pev__perr(c, src->base + off, len, code, "%s", msg);
	return pev__perr(c, src->apos, src->alen, code, "sysfs alias '%s' ('%.60s'): %s",
			 src->alias, src->text, msg);
}

static uint64_t *config_word(struct pev_event *e, int w)
{
	switch (w) {
	case 0: return (uint64_t *)&e->attr.attr.config;
	case 1: return (uint64_t *)&e->attr.attr.config1;
	case 2: return (uint64_t *)&e->attr.attr.config2;
	default: return pev_attr_config3(&e->attr);
	}
}

static void valid_terms(const struct pev_pmu *pmu, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; pmu && i < pmu->nr_formats && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s, ", pmu->formats[i].name);
	if (n < size)
		n += (size_t)snprintf(buf + n, size - n, "config, config1, config2, config3, period, freq, name");
	for (size_t i = 0; pmu && i < pmu->nr_aliases && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "; events: ",
				      pmu->aliases[i].name);
}

/* Alias terms written "term=?" that the user must set. */
struct pending {
	char key[8][PEV_NAME_MAX + 1];
	int n;
};

static int apply_terms(struct parse_ctx *c, struct pev_event *e, struct ev_extra *x,
		       const struct pev_pmu *pmu, const struct term_src *src, int depth,
		       struct pending *pend);

static int apply_alias(struct parse_ctx *c, struct pev_event *e, struct ev_extra *x,
		       const struct pev_pmu *pmu, const struct pev_pmu_alias *a,
		       size_t apos, size_t alen, int depth, struct pending *pend)
{
	struct term_src as = {
		.text = a->terms, .len = strlen(a->terms), .from_spec = false,
		.apos = apos, .alen = alen, .alias = a->name,
	};
	int ret;

	if (depth > 0)
		return pev__perr(c, apos, alen, EINVAL, "sysfs alias '%s' refers to another alias", a->name);
	if ((ret = apply_terms(c, e, x, pmu, &as, depth + 1, pend)))
		return ret;
	e->scale = a->scale;
	e->per_pkg = a->per_pkg;
	e->snapshot = a->snapshot;
	if (pev__set_str(&e->unit, a->unit, strlen(a->unit)))
		return pev__perr(c, apos, alen, ENOMEM, "out of memory");
	return 0;
}

static int apply_one(struct parse_ctx *c, struct pev_event *e, struct ev_extra *x,
		     const struct pev_pmu *pmu, const struct term_src *src, int depth,
		     struct pending *pend, size_t ks, size_t kl, size_t vs, size_t vl, bool hasval)
{
	const char *t = src->text;
	char key[PEV_NAME_MAX + 1], msg[1024];
	uint64_t v = 1;
	size_t bad;
	int ret, word = -1;

	if (kl > PEV_NAME_MAX)
		return term_err(c, src, ks, kl, ENAMETOOLONG, "term name too long");
	memcpy(key, t + ks, kl);
	key[kl] = '\0';
	if (hasval && vl == 0) {
		snprintf(msg, sizeof(msg), "missing value after '%s='", key);
		return term_err(c, src, vs, 1, EINVAL, msg);
	}
	if (!strcmp(key, "name")) {
		if (!hasval)
			return term_err(c, src, ks, kl, EINVAL, "'name' needs a value: name=NAME");
		if (pev__set_str(&e->name, t + vs, vl))
			return term_err(c, src, vs, vl, ENOMEM, "out of memory");
		x->fixed_name = true;
		return 0;
	}
	for (size_t i = 0; i < sizeof(unsupported_terms) / sizeof(unsupported_terms[0]); i++)
		if (!strcmp(key, unsupported_terms[i])) {
			snprintf(msg, sizeof(msg), "term '%s' is not supported by perfev; remove it", key);
			return term_err(c, src, ks, kl, EINVAL, msg);
		}
	for (int i = 0; i < pend->n; i++)
		if (!strcmp(pend->key[i], key)) {
			memmove(pend->key[i], pend->key[i + 1], sizeof(pend->key[0]) * (size_t)(pend->n - i - 1));
			pend->n--;
			break;
		}
	if (hasval && vl == 1 && t[vs] == '?' && !src->from_spec && pend->n < 8) {
		strcpy(pend->key[pend->n++], key);
		return 0;
	}
	if (hasval && vl == 1 && t[vs] == '?') {
		snprintf(msg, sizeof(msg), "term '%s' needs a value; add %s=N to the event's terms", key, key);
		return term_err(c, src, ks, kl, EINVAL, msg);
	}
	if (hasval) {
		ret = pev__parse_u64(t + vs, vl, &v, &bad);
		if (ret == -ERANGE)
			return term_err(c, src, vs, vl, ERANGE, "value does not fit in 64 bits");
		if (ret) {
			snprintf(msg, sizeof(msg), "bad value for '%s': expected a number such as 0x1a or 26", key);
			return term_err(c, src, vs + bad, 1, EINVAL, msg);
		}
	}
	if (!strcmp(key, "config"))
		word = 0;
	else if (!strcmp(key, "config1"))
		word = 1;
	else if (!strcmp(key, "config2"))
		word = 2;
	else if (!strcmp(key, "config3"))
		word = 3;
	if (word >= 0) {
		*config_word(e, word) = v;
		return 0;
	}
	if (!strcmp(key, "period")) {
		e->attr.attr.sample_period = v;
		e->attr.attr.freq = 0;
		e->user_period = v;
		return 0;
	}
	if (!strcmp(key, "freq")) {
		e->attr.attr.sample_freq = v;
		e->attr.attr.freq = 1;
		return 0;
	}
	const struct pev_pmu_format *f = pev_pmu_find_format(pmu, key);
	if (f) {
		if (pev_pmu_format_apply(f->mask, v, config_word(e, f->word)) < 0) {
			snprintf(msg, sizeof(msg), "value 0x%llx too big for term '%s' (at most 0x%llx)",
				 (unsigned long long)v, key, (unsigned long long)pev_pmu_format_max(f->mask));
			return term_err(c, src, hasval ? vs : ks, hasval ? vl : kl, ERANGE, msg);
		}
		return 0;
	}
	const struct pev_pmu_alias *a = hasval ? NULL : pev_pmu_find_alias(pmu, key);
	if (a)
		return apply_alias(c, e, x, pmu, a, src->from_spec ? src->base + ks : src->apos,
				   src->from_spec ? kl : src->alen, depth, pend);
	char valid[200];
	valid_terms(pmu, valid, sizeof(valid));
	snprintf(msg, sizeof(msg), "unknown term '%s' for PMU '%s'; valid terms: %s", key,
		 pmu ? pmu->name : e->pmu, valid);
	return term_err(c, src, ks, kl, EINVAL, msg);
}

static bool is_key_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-' || ch == '.';
}

static int apply_terms(struct parse_ctx *c, struct pev_event *e, struct ev_extra *x,
		       const struct pev_pmu *pmu, const struct term_src *src, int depth,
		       struct pending *pend)
{
	const char *t = src->text;
	size_t i = 0;
	int ret;

	if (src->len == 0)
		return 0;
	for (;;) {
		size_t ks = i, vs = 0, vl = 0;
		bool hasval = false;

		while (i < src->len && is_key_char(t[i]))
			i++;
		if (i == ks) {
			if (i >= src->len || t[i] == ',')
				return term_err(c, src, i, 1, EINVAL, "empty term; write term=value");
			return term_err(c, src, i, 1, EINVAL, "unexpected character in a term name");
		}
		size_t kl = i - ks;
		if (i < src->len && t[i] == '=') {
			hasval = true;
			vs = ++i;
			while (i < src->len && t[i] != ',' && t[i] != '\n')
				i++;
			vl = i - vs;
		}
		if ((ret = apply_one(c, e, x, pmu, src, depth, pend, ks, kl, vs, vl, hasval)))
			return ret;
		if (i >= src->len || (!src->from_spec && t[i] == '\n'))
			return 0;
		if (t[i] != ',')
			return term_err(c, src, i, 1, EINVAL, "expected ',' between terms");
		i++;
		if (i >= src->len)
			return term_err(c, src, i, 1, EINVAL, "expected a term after ','");
	}
}

static int setup_pmu_event(struct parse_ctx *c, struct pev_event *e, const struct pev_pmu *pmu)
{
	const char *cpus = pmu->cpumask ? pmu->cpumask : pmu->cpus;

	if (cpus && pev__set_str(&e->cpus, cpus, strlen(cpus)))
		return -ENOMEM;
	return 0;
}

/* PMUs that "name" stands for: itself, or name_<N>... (uncore boxes). */
static bool pmu_matches(const char *pmu, const char *name, size_t len)
{
	if (strncmp(pmu, name, len))
		return false;
	return pmu[len] == '\0' || (pmu[len] == '_' && pmu[len + 1] >= '0' && pmu[len + 1] <= '9');
}

int pev__parse_pmu_event(struct parse_ctx *c, size_t pos, size_t namelen, size_t termslen)
{
	const char *s = c->spec;
	size_t total = namelen + termslen + 2;
	struct term_src src = {
		.text = s + pos + namelen + 1, .len = termslen, .base = pos + namelen + 1,
		.from_spec = true,
	};
	const struct pev_symbolic_event *sym = pev__symbol_find(s + pos, namelen);
	struct pev_pmu_list *pmus;
	char pname[PEV_NAME_MAX + 1];
	int ret, found = 0;

	if (sym) {
		struct pev_event *e;

		if ((ret = pev__new_symbolic_event(c, pos, namelen, sym, s + pos, total, &e)))
			return ret;
		/* Only the generic terms make sense here: no PMU formats. */
		struct pending pend = { .n = 0 };
		return apply_terms(c, e, &c->ex[c->n - 1], NULL, &src, 0, &pend);
	}
	pmus = pev__pmus(c, pos, namelen);
	if (!pmus)
		return -ENOENT;
	memcpy(pname, s + pos, namelen);
	pname[namelen] = '\0';
	for (size_t i = 0; i < pev_pmu_list_count(pmus); i++) {
		const struct pev_pmu *pmu = pev_pmu_list_get(pmus, i);
		if (!pmu_matches(pmu->name, pname, namelen))
			continue;
		if (pmu->error)
			return pev__perr(c, pos, namelen, EINVAL, "PMU '%s' cannot be used: %s",
					 pmu->name, pmu->error);
		struct pev_event *e = pev__new_event(c, pos, pmu->type, 0, s + pos, total, pmu->name);
		if (!e)
			return -ENOMEM;
		if (setup_pmu_event(c, e, pmu))
			return pev__perr(c, pos, namelen, ENOMEM, "out of memory");
		struct pending pend = { .n = 0 };
		if ((ret = apply_terms(c, e, &c->ex[c->n - 1], pmu, &src, 0, &pend)))
			return ret;
		if (pend.n)
			return pev__perr(c, pos, total, EINVAL,
					 "term '%s' needs a value; add %s=N to the event's terms",
					 pend.key[0], pend.key[0]);
		found++;
	}
	if (!found) {
		char names[160];
		size_t n = 0;
		names[0] = '\0';
		for (size_t i = 0; i < pev_pmu_list_count(pmus) && n < sizeof(names); i++)
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
					      pev_pmu_list_get(pmus, i)->name);
		char near[128];
		if (pev__suggest_pmu(c, pname, strlen(pname), near, sizeof(near)))
			return pev__perr(c, pos, namelen, ENOENT, "unknown PMU '%s'; did you mean '%s'?",
					 pname, near);
		return pev__perr(c, pos, namelen, ENOENT, "unknown PMU '%s'; PMUs here: %s", pname, names);
	}
	return 0;
}

int pev__parse_bare_alias(struct parse_ctx *c, size_t pos, size_t len)
{
	struct pev_pmu_list *pmus;
	char name[PEV_NAME_MAX + 1];
	int ret, found = 0;

	if (len > PEV_NAME_MAX)
		return 0;
	memcpy(name, c->spec + pos, len);
	name[len] = '\0';
	pmus = pev__pmus(c, pos, len);
	if (!pmus)
		return 0;
	for (size_t i = 0; i < pev_pmu_list_count(pmus); i++) {
		const struct pev_pmu *pmu = pev_pmu_list_get(pmus, i);
		const struct pev_pmu_alias *a = pmu->error ? NULL : pev_pmu_find_alias(pmu, name);
		if (!a)
			continue;
		struct pev_event *e = pev__new_event(c, pos, pmu->type, 0, name, len, pmu->name);
		if (!e)
			return -ENOMEM;
		if (setup_pmu_event(c, e, pmu))
			return pev__perr(c, pos, len, ENOMEM, "out of memory");
		struct pending pend = { .n = 0 };
		if ((ret = apply_alias(c, e, &c->ex[c->n - 1], pmu, a, pos, len, 0, &pend)))
			return ret;
		if (pend.n)
			return pev__perr(c, pos, len, EINVAL,
					 "term '%s' needs a value; write %s/%s,%s=N/", pend.key[0],
					 pmu->name, name, pend.key[0]);
		found++;
	}
	return found ? 1 : 0;
}

bool pev__have_cpu_pmu(struct parse_ctx *c)
{
	struct pev_pmu_list *pmus = pev__pmus(c, 0, 1);

	for (size_t i = 0; i < pev_pmu_list_count(pmus); i++) {
		const struct pev_pmu *p = pev_pmu_list_get(pmus, i);
		if (!strcmp(p->name, "cpu") || !strncmp(p->name, "cpu_", 4) || p->type == PERF_TYPE_RAW)
			return true;
	}
	return false;
}
