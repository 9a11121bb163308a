// SPDX-License-Identifier: GPL-2.0-only
/* folded_name_keep: the length of name without its argument list: stackcollapse-perf.pl
 * cuts a name at its first '(' (but "(anonymous namespace)" and Go's
 * "pkg.(*T).m"), which also cuts "drop_in_place<(A,B)>" to
 * "drop_in_place<" and "std::function<void (int)>::operator()" to
 * "std::function<void ", merging distinct functions.  Here only a real
 * argument list goes: a balanced "(...)" that ends the name, opened
 * outside any <...>, (...), {...} or [...] and not the "()" of
 * "operator()", with the qualifiers after it ("f(int) const" becomes
 * "f"); "T::operator()(int)" becomes "T::operator()" (README: folded). */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "convert/folded_name.h"

static bool word_at(const char *name, size_t i, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(name + i, w, n) &&
	       (i == 0 || !(isalnum((unsigned char)name[i - 1]) || name[i - 1] == '_'));
}

size_t folded_name_keep(const char *name, size_t n)
{
	size_t open = 0;
	int depth = 0;

	/* a member function's qualifiers after the list go with it */
	static const char *const quals[] = { " const", " volatile", " &&", " &", " noexcept" };
	size_t end = n;

	for (bool more = true; more;) {
		more = false;
		for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++) {
			size_t ql = strlen(quals[q]);

			if (end > ql && !memcmp(name + end - ql, quals[q], ql)) {
				end -= ql;
				more = true;
			}
		}
	}
	if (end < 2 || name[end - 1] != ')')
		return n;
	for (size_t i = end; i-- > 0;) {
		if (name[i] == ')') {
			depth++;
		} else if (name[i] == '(' && --depth == 0) {
			open = i;
			break;
		}
	}
	if (depth || !open || !strncmp(name + open, "(anonymous namespace)", 21))
		return n;
	/* the "()" of operator(): the name itself */
	if (open >= 8 && word_at(name, open - 8, "operator"))
		return n;
	/* opened at the top level: count the brackets before it, skipping an
	 * operator's symbol ("operator<", "operator->", "operator()") */
	depth = 0;
	for (size_t i = 0; i < open; i++) {
		if (word_at(name, i, "operator")) {
			i += 8;
			while (i < open && name[i] == ' ')
				i++;
			while (i < open && strchr("<>=!+-*/%&|^~,()[]", name[i]))
				i++;
			i--;
			continue;
		}
		if (strchr("<({[", name[i]))
			depth++;
		else if (strchr(">)}]", name[i]))
			depth--;
	}
	if (depth)
		return n;
	while (open > 0 && name[open - 1] == ' ')
		open--;
	return open ? open : n;
}
