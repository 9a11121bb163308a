/* C++ names as perf prints them: demangled, without the parameter list
 * (perf's default, no DMGL_PARAMS).  The demangler is libstdc++'s
 * __cxa_demangle, loaded on first use so that the library does not link
 * the C++ runtime; without it names stay mangled. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/symbols_internal.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static cxa_demangle_fn demangler;	/* set once, read-only after */

static void load(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

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

	if (strncmp(name, "_Z", 2))
		return NULL;
	pthread_once(&once, load);
	if (!demangler)
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
