/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the perfev stat live tests: the bundled workload, tracefs, and
 * small parsers for the CSV and JSON outputs. */
#ifndef PEV_TEST_STAT_UTIL_H
#define PEV_TEST_STAT_UTIL_H

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "testutil.h"
#include "cliutil.h"

/* build/examples/workload (PERFEV_BUILD is exported by tests/run.sh). */
static inline const char *t_workload(void)
{
	static char path[512];
	const char *b = getenv("PERFEV_BUILD");
	snprintf(path, sizeof(path), "%s/examples/workload", b && *b ? b : "build");
	if (access(path, X_OK))
		T_SKIP("%s was not built (run make)", path);
	return path;
}

/* Make sure tracefs is mounted and the getppid tracepoint exists; skip
 * with the reason when it cannot be. */
static inline void t_need_getppid_tracepoint(void)
{
	const char *id = "/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id";
	if (access(id, R_OK) == 0)
		return;
	if (access("/sys/kernel/tracing", F_OK) == 0 &&
	    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) != 0 && errno != EBUSY)
		T_SKIP("cannot mount tracefs on /sys/kernel/tracing: %s", strerror(errno));
	if (access(id, R_OK))
		T_SKIP("no syscalls:sys_enter_getppid tracepoint (kernel without "
		       "CONFIG_FTRACE_SYSCALLS?)");
}

/* Split a line at sep (in place) into at most max fields; returns count. */
static inline int t_split(char *line, const char *sep, char **f, int max)
{
	int n = 0;
	size_t sl = strlen(sep);
	char *p = line;

	while (n < max) {
		f[n++] = p;
		char *q = strstr(p, sep);
		if (!q)
			break;
		*q = '\0';
		p = q + sl;
	}
	return n;
}

/* The next line of *cursor (NUL-terminated in place), or NULL. */
static inline char *t_next_line(char **cursor)
{
	char *s = *cursor;
	if (!s || !*s)
		return NULL;
	char *nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = s + strlen(s);
	}
	return s;
}

/* ---- a tiny JSON checker: one flat object of string/number values ---- */

struct t_json_kv {
	char key[64];
	char val[128];	/* strings unescaped; numbers as written */
	bool is_str;
};

static inline const char *t_json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static inline const char *t_json_string(const char *p, char *out, size_t size)
{
	size_t n = 0;
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		char c = *p++;
		if ((unsigned char)c < 0x20)
			return NULL;
		if (c == '\\') {
			c = *p++;
			if (c == 'u') {
				for (int i = 0; i < 4; i++)
					if (!isxdigit((unsigned char)*p++))
						return NULL;
				c = '?';
			} else if (!strchr("\"\\/bfnrt", c) || !c)
				return NULL;
		}
		if (n + 1 < size)
			out[n++] = c;
	}
	out[n] = '\0';
	return *p == '"' ? p + 1 : NULL;
}

static inline const char *t_json_number(const char *p, char *out, size_t size)
{
	const char *s = p;
	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	snprintf(out, size, "%.*s", (int)(p - s), s);
	return p;
}

/* Parse one line as a flat JSON object; returns the number of members, or
 * -1 when it is not valid JSON of that shape. */
static inline int t_json_object(const char *line, struct t_json_kv *kv, int max)
{
	const char *p = t_json_ws(line);
	int n = 0;

	if (*p++ != '{')
		return -1;
	p = t_json_ws(p);
	if (*p == '}')
		return *t_json_ws(p + 1) ? -1 : 0;
	for (;;) {
		if (n == max)
			return -1;
		p = t_json_string(t_json_ws(p), kv[n].key, sizeof(kv[n].key));
		if (!p)
			return -1;
		p = t_json_ws(p);
		if (*p++ != ':')
			return -1;
		p = t_json_ws(p);
		kv[n].is_str = *p == '"';
		p = kv[n].is_str ? t_json_string(p, kv[n].val, sizeof(kv[n].val))
				 : t_json_number(p, kv[n].val, sizeof(kv[n].val));
		if (!p)
			return -1;
		n++;
		p = t_json_ws(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p++ != '}')
			return -1;
		return *t_json_ws(p) ? -1 : n;
	}
}

static inline const struct t_json_kv *t_json_get(const struct t_json_kv *kv, int n,
						 const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return &kv[i];
	return NULL;
}

#endif
