// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The event-spec grammar:
 *   spec   := item (',' item)*
 *   item   := '{' event (',' event)* '}' [':' mods] | event
 *   event  := mem:ADDR[/LEN][:rwx] | uprobe:PATH:SYM[+OFF] | uretprobe:PATH:SYM
 *           | NAME '/' terms '/' [mods] | SYS ':' NAME | NAME      then [':' mods]
 * It is hand-written and iterative (groups do not nest), every scan is
 * bounded by the spec's length, and numbers are overflow-checked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>

#include "event/event_internal.h"
#include "core/util.h"

#define MOD_LETTERS "ukhIGHpPSDeW"

static bool is_name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-' || ch == '.' || ch == '*' || ch == '?' || ch == '[' ||
	       ch == ']' || ch == '!';
}

static bool is_sep(const struct parse_ctx *c, size_t p)
{
	return p >= c->len || c->spec[p] == ',' || c->spec[p] == '}';
}

static size_t name_run(const struct parse_ctx *c, size_t p)
{
	while (p < c->len && is_name_char(c->spec[p]))
		p++;
	return p;
}

static bool has_glob(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return true;
	return false;
}

/* ---- modifiers ---- */

struct modstate {
	int eu, ek, eh, eH, eG, eI, exclude_GH, precise;
	bool precise_max, sample_read, pinned, exclusive, weak;
};

/* Check a modifier run [pos, pos+len): known letters, none twice except
 * p, at most three p. */
static int check_mods(struct parse_ctx *c, size_t pos, size_t len)
{
	const char *m = c->spec + pos;
	int np = 0;

	if (len == 0)
		return pev__perr(c, pos, 1, EINVAL, "missing modifiers after ':'; valid modifiers: u k h I G H p P S D e W");
	for (size_t i = 0; i < len; i++) {
		if (m[i] == 'b')
			return pev__perr(c, pos + i, 1, EINVAL,
					 "modifier 'b' (count with BPF) is not supported by perfev; remove it");
		if (!strchr(MOD_LETTERS, m[i]) || !m[i])
			return pev__perr(c, pos + i, 1, EINVAL,
					 "unknown modifier '%c'; valid modifiers: u k h I G H p P S D e W", m[i]);
		if (m[i] == 'p') {
			if (++np > 3)
				return pev__perr(c, pos, len, EINVAL,
						 "too many 'p' modifiers: precise levels go up to 3 (ppp)");
			continue;
		}
		if (memchr(m, m[i], i))
			return pev__perr(c, pos + i, 1, EINVAL, "modifier '%c' given twice; give it once", m[i]);
	}
	return 0;
}

/* perf's get_event_modifier(): any of u/k/h excludes the others; u and p
 * imply exclude_guest unless G or H was given. */
static void eval_mods(const char *m, size_t len, struct modstate *st)
{
	int exclude = st->eu | st->ek | st->eh;

	for (size_t i = 0; i < len; i++) {
		switch (m[i]) {
		case 'u':
			if (!exclude)
				exclude = st->eu = st->ek = st->eh = 1;
			if (!st->exclude_GH)
				st->eG = 1;
			st->eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = st->eu = st->ek = st->eh = 1;
			st->ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = st->eu = st->ek = st->eh = 1;
			st->eh = 0;
			break;
		case 'G':
			if (!st->exclude_GH)
				st->exclude_GH = st->eG = st->eH = 1;
			st->eG = 0;
			break;
		case 'H':
			if (!st->exclude_GH)
				st->exclude_GH = st->eG = st->eH = 1;
			st->eH = 0;
			break;
		case 'I': st->eI = 1; break;
		case 'p':
			st->precise++;
			if (!st->exclude_GH)
				st->eG = 1;
			break;
		case 'P': st->precise_max = true; break;
		case 'S': st->sample_read = true; break;
		case 'D': st->pinned = true; break;
		case 'e': st->exclusive = true; break;
		case 'W': st->weak = true; break;
		}
	}
}

static int append_name(struct pev_event *e, const char *sep, const char *m, size_t len)
{
	size_t l = strlen(e->name), sl = strlen(sep);
	char *n = realloc(e->name, l + sl + len + 1);

	if (!n)
		return -ENOMEM;
	memcpy(n + l, sep, sl);
	memcpy(n + l + sl, m, len);
	n[l + sl + len] = '\0';
	e->name = n;
	return 0;
}

/* Apply modifiers [pos, pos+len) to events [first, c->n).  Event modifiers
 * start from nothing; group modifiers start from each member's state
 * (perf's parse_events__modifier_group). */
static int apply_mods(struct parse_ctx *c, size_t first, size_t pos, size_t len, bool group)
{
	const char *m = c->spec + pos;
	int ret = check_mods(c, pos, len);

	if (ret)
		return ret;
	for (size_t i = first; i < c->n; i++) {
		struct pev_event *e = &c->ev[i];
		struct ev_extra *x = &c->ex[i];
		struct perf_event_attr *a = &e->attr.attr;
		struct modstate st = { 0 };

		if (group) {
			st.eu = a->exclude_user;
			st.ek = a->exclude_kernel;
			st.eh = a->exclude_hv;
			st.eH = a->exclude_host;
			st.eG = a->exclude_guest;
			st.eI = a->exclude_idle;
			st.exclude_GH = x->exclude_GH;
			st.precise = a->precise_ip;
			st.pinned = a->pinned;
			st.exclusive = a->exclusive;
		}
		eval_mods(m, len, &st);
		if (st.precise > 3)
			return pev__perr(c, pos, len, EINVAL,
					 "too many 'p' modifiers for '%s': precise levels go up to 3", e->name);
		a->exclude_user = st.eu;
		a->exclude_kernel = st.ek;
		a->exclude_hv = st.eh;
		a->exclude_host = st.eH;
		a->exclude_guest = st.eG;
		a->exclude_idle = st.eI;
		a->precise_ip = st.precise;
		a->pinned = st.pinned;
		a->exclusive = st.exclusive;
		x->exclude_GH = st.exclude_GH;
		e->precise_max |= st.precise_max;
		e->sample_read |= st.sample_read;
		e->weak_group |= st.weak;
		if (x->fixed_name)
			continue;
		if (append_name(e, x->has_mods || x->pmu_style ? "" : ":", m, len))
			return pev__perr(c, pos, len, ENOMEM, "out of memory");
		x->has_mods = true;
	}
	return 0;
}

/* After an event's base at *p: an optional ":mods" (or, for pmu/.../,
 * letters right after the closing '/'), then a separator. */
static int event_tail(struct parse_ctx *c, size_t first, size_t *p, bool pmu_style,
		      const char *what_in)
{
	size_t q = *p;
	char what[128];

	/* A copy: what_in may be an event's name, which apply_mods reallocs
	 * (the fuzzer's heap-use-after-free on "msr/tsc/e:bin/"). */
	snprintf(what, sizeof(what), "%s", what_in);

	if (q < c->len && (c->spec[q] == ':' || (pmu_style && !is_sep(c, q)))) {
		if (c->spec[q] == ':')
			q++;
		size_t m = q;
		while (!is_sep(c, q) && c->spec[q] != ':' && c->spec[q] != '{')
			q++;
		int ret = apply_mods(c, first, m, q - m, false);
		if (ret)
			return ret;
	}
	if (!is_sep(c, q)) {
		if (c->spec[q] == ':')
			return pev__perr(c, q, 1, EINVAL, "unexpected ':' after the modifiers of '%s'", what);
		return pev__perr(c, q, 1, EINVAL, "unexpected '%c' after '%s'; separate events with ','",
				 c->spec[q], what);
	}
	*p = q;
	return 0;
}

/* ---- the simple forms ---- */

static int parse_mem(struct parse_ctx *c, size_t start, size_t *p)
{
	const char *s = c->spec;
	size_t q = start + 4, a = q, bad;
	uint64_t addr, len = 4;
	unsigned type = 0;
	int ret;

	while (q < c->len && s[q] != '/' && s[q] != ':' && !is_sep(c, q))
		q++;
	if (q == a)
		return pev__perr(c, a, 1, EINVAL, "missing address after 'mem:'; write mem:0x1000[/len][:rwx]");
	ret = pev__parse_u64(s + a, q - a, &addr, &bad);
	if (ret == -ERANGE)
		return pev__perr(c, a, q - a, ERANGE, "address does not fit in 64 bits");
	if (ret)
		return pev__perr(c, a + bad, 1, EINVAL, "bad address: expected a number such as 0x1000");
	bool len_given = false;
	if (q < c->len && s[q] == '/') {
		size_t l = ++q;
		while (q < c->len && s[q] != ':' && !is_sep(c, q))
			q++;
		uint64_t v;
		if (q == l)
			return pev__perr(c, l, 1, EINVAL, "missing length after '/'; use 1, 2, 4 or 8");
		ret = pev__parse_u64(s + l, q - l, &v, &bad);
		if (ret || (v != 1 && v != 2 && v != 4 && v != 8))
			return pev__perr(c, l, q - l, EINVAL, "breakpoint length must be 1, 2, 4 or 8 bytes");
		len = v;
		len_given = true;
	}
	if (q < c->len && s[q] == ':') {
		size_t t = q + 1, e = t;
		unsigned bits = 0;
		bool access = true;
		while (!is_sep(c, e) && s[e] != ':')
			e++;
		for (size_t i = t; i < e; i++) {
			unsigned b = s[i] == 'r' ? HW_BREAKPOINT_R : s[i] == 'w' ? HW_BREAKPOINT_W :
				     s[i] == 'x' ? HW_BREAKPOINT_X : 0;
			if (!b || (bits & b))
				access = false;
			bits |= b;
		}
		if (access && e > t) {
			type = bits;
			q = e;
		}
	}
	if (!type)
		type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (type & HW_BREAKPOINT_X) {
		if (type != HW_BREAKPOINT_X)
			return pev__perr(c, start, q - start, EINVAL,
					 "an execute breakpoint (x) cannot also watch reads or writes; use :x alone");
		if (!len_given)
			len = sizeof(long);
	}
	struct pev_event *e = pev__new_event(c, start, PERF_TYPE_BREAKPOINT, 0, s + start, q - start,
					     "breakpoint");
	if (!e)
		return -ENOMEM;
	e->attr.attr.bp_type = type;
	e->attr.attr.bp_addr = addr;
	e->attr.attr.bp_len = len;
	*p = q;
	return 0;
}

static bool raw_like(const char *s, size_t len)
{
	if (len < 2 || s[0] != 'r')
		return false;
	for (size_t i = 1; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return false;
	return true;
}

static int parse_builtin(struct parse_ctx *c, size_t pos, size_t len)
{
	const char *s = c->spec + pos;
	const struct pev_symbolic_event *sym = pev__symbol_find(s, len);
	struct pev_event *e;
	char why[160];
	uint64_t config;
	int r;

	if (sym)
		return (r = pev__new_symbolic_event(c, pos, len, sym, s, len, &e)) ? r : 1;
	r = pev__cache_parse(s, len, &config, why, sizeof(why));
	if (r < 0)
		return pev__perr(c, pos, len, EINVAL, "'%.*s' is not a valid cache event: %s",
				 (int)len, s, why);
	if (r > 0)
		return pev__new_event(c, pos, PERF_TYPE_HW_CACHE, config, s, len, "cpu") ? 1 : -ENOMEM;
	if (raw_like(s, len)) {
		size_t bad;
		char hex[PEV_NAME_MAX + 3] = "0x";
		memcpy(hex + 2, s + 1, len - 1);
		r = pev__parse_u64(hex, len + 1, &config, &bad);
		if (r == -ERANGE)
			return pev__perr(c, pos, len, ERANGE,
					 "raw event '%.*s' does not fit in 64 bits (at most 16 hex digits)",
					 (int)(len > 40 ? 40 : len), s);
		return pev__new_event(c, pos, PERF_TYPE_RAW, config, s, len, "cpu") ? 1 : -ENOMEM;
	}
	return 0;
}

static int unknown_event(struct parse_ctx *c, size_t pos, size_t len)
{
	const char *s = c->spec + pos;

	if (len == 1 && s[0] == 'r')
		return pev__perr(c, pos, 1, EINVAL, "'r' needs a hex number: rNNNN, e.g. r1a8");
	if (len > 1 && s[0] == 'r') {
		bool alnum = true;
		size_t firstbad = 0;
		for (size_t i = 1; i < len; i++) {
			char ch = s[i];
			bool hex = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
			bool an = hex || (ch >= 'g' && ch <= 'z') || (ch >= 'G' && ch <= 'Z');
			if (!an)
				alnum = false;
			if (!hex && !firstbad)
				firstbad = i;
		}
		/* Short alphanumeric r-words look like a mistyped raw code. */
		if (alnum && len <= 17 && firstbad && (s[1] >= 'A' && s[1] <= 'Z'))
			return pev__perr(c, pos + firstbad, 1, EINVAL,
					 "'%.*s' is not a raw event: rNNNN takes hex digits 0-9 and a-f",
					 (int)len, s);
	}
	char near[128];
	if (pev__suggest_event(c, s, len, near, sizeof(near)))
		return pev__perr(c, pos, len, ENOENT, "unknown event '%.*s'; did you mean '%s'?",
				 (int)(len > 64 ? 64 : len), s, near);
	return pev__perr(c, pos, len, ENOENT,
			 "unknown event '%.*s'; run 'perfev list' to see the events this machine offers",
			 (int)(len > 64 ? 64 : len), s);
}

/* NAME with no '/' or ':' part (or whose ':' part are modifiers). */
static int parse_plain(struct parse_ctx *c, size_t pos, size_t len, bool allow_unknown)
{
	int r = parse_builtin(c, pos, len);

	if (r)
		return r < 0 ? r : 1;
	if ((r = pev__parse_bare_alias(c, pos, len)))
		return r < 0 ? r : 1;
	if ((r = pev__parse_pfm(c, pos, len)))
		return r < 0 ? r : 1;
	return allow_unknown ? 0 : unknown_event(c, pos, len);
}

static bool all_mod_letters(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(MOD_LETTERS "b", s[i]) || !s[i])
			return false;
	return len > 0;
}

/* One event (which may expand to several) starting at *p. */
static int parse_event(struct parse_ctx *c, size_t *p)
{
	const char *s = c->spec;
	size_t start = *p, first = c->n, q, ne;
	int ret;

	if (c->len - start >= 4 && !memcmp(s + start, "mem:", 4)) {
		if ((ret = parse_mem(c, start, &q)))
			return ret;
		ret = event_tail(c, first, &q, false, "mem:");
		*p = q;
		return ret;
	}
	bool uret = c->len - start >= 10 && !memcmp(s + start, "uretprobe:", 10);
	if (uret || (c->len - start >= 7 && !memcmp(s + start, "uprobe:", 7))) {
		/* PATH:SYM[+OFF]: the path ends at the first ':' */
		q = start + (uret ? 10 : 7);
		while (q < c->len && s[q] != ':' && !is_sep(c, q))
			q++;
		if (q < c->len && s[q] == ':')
			q++;
		while (q < c->len && s[q] != ':' && !is_sep(c, q))
			q++;
		if ((ret = pev__parse_uprobe(c, start, q - start, uret)))
			return ret;
		ret = event_tail(c, first, &q, false, uret ? "uretprobe:" : "uprobe:");
		*p = q;
		return ret;
	}
	ne = name_run(c, start);
	if (ne == start) {
		if (start >= c->len || s[start] == ',' || s[start] == '}')
			return pev__perr(c, start, 1, EINVAL, "expected an event name here");
		if (s[start] == ':')
			return pev__perr(c, start, 1, EINVAL, "missing event name before ':'");
		if (s[start] == '{')
			return pev__perr(c, start, 1, EINVAL, "groups cannot be nested; close the group with '}' first");
		if (s[start] == ' ')
			return pev__perr(c, start, 1, EINVAL, "unexpected space; write the spec without spaces");
		return pev__perr(c, start, 1, EINVAL, "unexpected '%c': expected an event name", s[start]);
	}
	if (ne - start > PEV_NAME_MAX)
		return pev__perr(c, start, ne - start, ENAMETOOLONG,
				 "event name too long (%zu bytes; at most %d)", ne - start, PEV_NAME_MAX);
	if (ne < c->len && s[ne] == '/') {
		size_t t = ne + 1;
		while (t < c->len && s[t] != '/' && s[t] != '}' && s[t] != '{' && s[t] != ' ')
			t++;
		if (t >= c->len || s[t] != '/')
			return pev__perr(c, ne, 1, EINVAL,
					 "missing '/' to close the terms of '%.*s': write %.*s/term=value,.../",
					 (int)(ne - start), s + start, (int)(ne - start), s + start);
		if ((ret = pev__parse_pmu_event(c, start, ne - start, t - ne - 1)))
			return ret;
		for (size_t i = first; i < c->n; i++)
			c->ex[i].pmu_style = true;
		q = t + 1;
		ret = event_tail(c, first, &q, true, c->n > first ? c->ev[first].name : "");
		*p = q;
		return ret;
	}
	if (ne < c->len && s[ne] == ':') {
		size_t n2 = ne + 1, e2 = name_run(c, n2);
		bool mods_after = all_mod_letters(s + n2, e2 - n2) && is_sep(c, e2);

		/* A built-in name followed by ':' takes modifiers. */
		ret = parse_builtin(c, start, ne - start);
		if (ret < 0)
			return ret;
		if (ret == 0 && (has_glob(s + start, ne - start) ||
				 pev__tracepoint_subsys_exists(c, s + start, ne - start))) {
			if (e2 == n2)
				return pev__perr(c, n2, 1, EINVAL,
						 "missing tracepoint name after '%.*s:'; e.g. '%.*s:*' for all of them",
						 (int)(ne - start), s + start, (int)(ne - start), s + start);
			if (e2 - n2 > PEV_NAME_MAX)
				return pev__perr(c, n2, e2 - n2, ENAMETOOLONG, "tracepoint name too long");
			if ((ret = pev__parse_tracepoint(c, start, ne - start, n2, e2 - n2)))
				return ret;
			q = e2;
			ret = event_tail(c, first, &q, false, "tracepoint");
			*p = q;
			return ret;
		}
		if (ret == 0 && mods_after)
			ret = parse_plain(c, start, ne - start, true);
		if (ret == 0) {
			/* libpfm names carry ':' themselves (INST_RETIRED:ANY_P). */
			size_t end = start;
			while (!is_sep(c, end))
				end++;
			if ((ret = pev__parse_pfm(c, start, end - start))) {
				if (ret > 0)
					*p = end;
				return ret < 0 ? ret : 0;
			}
			if (mods_after || e2 == n2)
				return unknown_event(c, start, ne - start);
			return pev__tracepoint_unknown(c, start, e2 - start);
		}
		q = ne;
		ret = event_tail(c, first, &q, false, "event");
		*p = q;
		return ret;
	}
	if ((ret = parse_plain(c, start, ne - start, false)) < 0)
		return ret;
	q = ne;
	ret = event_tail(c, first, &q, false, "event");
	*p = q;
	return ret;
}

/* Structural checks over the whole spec before any lookup, so that a
 * misplaced ',' or '}' is reported as such rather than as the unknown
 * event that happens to come first. */
static int prescan(struct parse_ctx *c)
{
	const char *s = c->spec;
	size_t i = 0, open = 0;
	bool in_group = false;

	for (;;) {
		/* at the start of an event */
		if (i >= c->len)
			return pev__perr(c, i, 1, EINVAL, c->len ? "expected an event after ','" :
					 "empty event spec; name at least one event");
		if (s[i] == ',')
			return pev__perr(c, i, 1, EINVAL, i && s[i - 1] == '{' ?
					 "expected an event after '{'" : i ? "expected an event between the commas" :
					 "expected an event before ','");
		if (s[i] == '}')
			return pev__perr(c, i, 1, EINVAL, in_group && s[i - 1] == '{' ?
					 "empty group; put events between '{' and '}'" :
					 "expected an event before '}'");
		if (s[i] == '{') {
			if (in_group)
				return pev__perr(c, i, 1, EINVAL,
						 "groups cannot be nested; close the group with '}' first");
			in_group = true;
			open = i++;
			continue;
		}
		/* skip the event: terms between '/' may hold ',' */
		size_t ne = name_run(c, i);
		bool opaque = (c->len - i >= 4 && !memcmp(s + i, "mem:", 4)) ||
			      (c->len - i >= 7 && !memcmp(s + i, "uprobe:", 7)) ||
			      (c->len - i >= 10 && !memcmp(s + i, "uretprobe:", 10));
		i = ne;
		if (!opaque && ne < c->len && s[ne] == '/') {
			i = ne + 1;
			while (i < c->len && s[i] != '/' && s[i] != '}' && s[i] != '{' && s[i] != ' ')
				i++;
			if (i < c->len && s[i] == '/')
				i++;
		}
		while (i < c->len && s[i] != ',' && s[i] != '}' && s[i] != '{')
			i++;
		if (i < c->len && s[i] == '{')
			return pev__perr(c, i, 1, EINVAL, in_group ?
					 "groups cannot be nested; close the group with '}' first" :
					 "unexpected '{': separate a group from the event before it with ','");
		if (i < c->len && s[i] == '}') {
			if (!in_group)
				return pev__perr(c, i, 1, EINVAL, "'}' without a matching '{'");
			in_group = false;
			i++;
			if (i < c->len && s[i] == ':') {
				while (i < c->len && s[i] != ',' && s[i] != '{' && s[i] != '}')
					i++;
				if (i < c->len && s[i] != ',')
					return pev__perr(c, i, 1, EINVAL, "unexpected '%c' after the group's modifiers", s[i]);
			} else if (i < c->len && s[i] != ',') {
				return pev__perr(c, i, 1, EINVAL, "expected ',' or ':modifiers' after '}'");
			}
		}
		if (i >= c->len)
			break;
		i++;	/* ',' */
	}
	if (in_group)
		return pev__perr(c, open, 1, EINVAL, "the group opened here is never closed; add '}'");
	return 0;
}

static void set_group(struct parse_ctx *c, size_t first)
{
	for (size_t i = first; i < c->n; i++) {
		c->ev[i].leader = (int)first;
		c->ev[i].group_size = i == first ? (int)(c->n - first) : 0;
	}
}

int pev__parse_spec(struct parse_ctx *c);

int pev__parse_spec(struct parse_ctx *c)
{
	const char *s = c->spec;
	size_t p = 0;
	int ret;

	if ((ret = prescan(c)))
		return ret;
	while (p < c->len) {
		if (s[p] == '{') {
			size_t open = p++, first = c->n;
			for (;;) {
				if ((ret = parse_event(c, &p)))
					return ret;
				if (p < c->len && s[p] == ',') {
					p++;
					continue;
				}
				if (p < c->len && s[p] == '}')
					break;
				return pev__perr(c, open, 1, EINVAL, "the group opened here is never closed; add '}'");
			}
			p++;
			set_group(c, first);
			if (p < c->len && s[p] == ':') {
				size_t m = ++p;
				while (p < c->len && s[p] != ',')
					p++;
				if ((ret = apply_mods(c, first, m, p - m, true)))
					return ret;
			}
		} else {
			if ((ret = parse_event(c, &p)))
				return ret;
		}
		if (p < c->len) {
			if (s[p] != ',')
				return pev__perr(c, p, 1, EINVAL, "unexpected '%c'; separate events with ','", s[p]);
			p++;
		}
	}
	return 0;
}
