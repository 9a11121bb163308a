// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* C++ names as perf prints them: demangled, without the parameter list
 * (perf's default, no DMGL_PARAMS).  perf 6.1 calls libiberty's
 * cplus_demangle(name, 0); binutils' libbfd carries the same code, so it
 * is the first choice (loaded on first use: the library links neither).
 * It also reads names that GCC 12's libstdc++ __cxa_demangle refuses
 * (long V8 templates).  Without libbfd, __cxa_demangle's full name is cut
 * back to what cplus_demangle prints; without either, names stay
 * mangled. */
#include <dlfcn.h>
#include <glob.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/symbols_internal.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

typedef char *(*cplus_demangle_fn)(const char *, int);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static cxa_demangle_fn demangler;	/* set once, read-only after */
static cplus_demangle_fn cplus;		/* likewise */

/* libbfd's file name carries its version (libbfd-2.40-system.so). */
static void load_bfd(void)
{
	static const char *const pats[] = {
		"/usr/lib/*/libbfd-*.so", "/usr/lib/libbfd-*.so",
		"/usr/lib64/libbfd-*.so", "/usr/local/lib/libbfd-*.so",
	};
	void *h = dlopen("libbfd.so", RTLD_LAZY | RTLD_LOCAL);

	for (size_t i = 0; !h && i < sizeof(pats) / sizeof(pats[0]); i++) {
		glob_t g;

		if (glob(pats[i], 0, NULL, &g) == 0 && g.gl_pathc)
			h = dlopen(g.gl_pathv[g.gl_pathc - 1], RTLD_LAZY | RTLD_LOCAL);
		globfree(&g);
	}
	if (h)
		cplus = (cplus_demangle_fn)dlsym(h, "cplus_demangle");
}

static void load(void)
{
	void *h;

	load_bfd();
	if (cplus)
		return;
	h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (h)
		demangler = (cxa_demangle_fn)dlsym(h, "__cxa_demangle");
}

/* Index of the '(' opening the final top-level parameter list, or -1. */
static long params_start(const char *s, size_t n)
{
	size_t end = n;

	/* Trailing qualifiers: "(int) const", "() &&", "() [clone .cold]". */
	for (;;) {
		while (end && s[end - 1] == ' ')
			end--;
		if (end >= 5 && !strncmp(s + end - 5, "const", 5))
			end -= 5;
		else if (end >= 8 && !strncmp(s + end - 8, "volatile", 8))
			end -= 8;
		else if (end && s[end - 1] == '&')
			end--;
		else if (end && s[end - 1] == ']') {
			/* " [clone .part.0]" suffixes of compiler clones */
			size_t i = end - 1;

			while (i && s[i] != '[')
				i--;
			if (s[i] != '[' || strncmp(s + i, "[clone ", 7))
				break;
			end = i;
		} else
			break;
	}
	if (!end || s[end - 1] != ')')
		return -1;
	int depth = 0;

	for (size_t i = end; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return (long)i;
	}
	return -1;
}

/* Start of the qualified name holding the first "operator" keyword at
 * depth 0 of s[0, n), or n when there is none. */
static long operator_start(const char *s, long n)
{
	int depth = 0;

	for (long i = 0; i + 8 <= n; i++) {
		if (s[i] == '<' || s[i] == '(')
			depth++;
		else if ((s[i] == '>' || s[i] == ')') && depth)
			depth--;
		else if (!depth && !strncmp(s + i, "operator", 8) &&
			 (i == 0 || s[i - 1] == ':' || s[i - 1] == ' ') &&
			 (i + 8 == n || !(s[i + 8] == '_' || (s[i + 8] >= 'a' && s[i + 8] <= 'z') ||
					  (s[i + 8] >= 'A' && s[i + 8] <= 'Z') ||
					  (s[i + 8] >= '0' && s[i + 8] <= '9'))))
			return i;
	}
	return n;
}

char *pev_demangle(const char *name)
{
	int status = -1;
	char *full;

	/* Only names starting with '_' can demangle (C++ _Z, Rust _R, D _D). */
	if (name[0] != '_')
		return NULL;
	pthread_once(&once, load);
	if (cplus)
		return cplus(name, 0);	/* DMGL_NO_OPTS, as perf */
	if (!demangler || strncmp(name, "_Z", 2))
		return NULL;
	full = demangler(name, NULL, NULL, &status);
	if (!full || status != 0) {
		free(full);
		return NULL;
	}
	size_t n = strlen(full);
	long p = params_start(full, n);

	if (p > 0) {
		full[p] = 0;
		/* A template function's return type: drop up to the last space
		 * outside <...>. */
		int depth = 0;
		long cut = -1;

		/* "operator delete", "operator bool", "std::operator<": the
		 * name's own spaces and brackets are not the return type's. */
		long lim = operator_start(full, p);

		for (long i = 0; i < lim; i++) {
			if (full[i] == '<' || full[i] == '(')
				depth++;
			else if ((full[i] == '>' || full[i] == ')') && depth)
				depth--;
			else if (full[i] == ' ' && !depth)
				cut = i;
		}
		if (cut >= 0)
			memmove(full, full + cut + 1, strlen(full + cut + 1) + 1);
	}
	return full;
}
