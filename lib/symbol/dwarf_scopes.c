// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The DWARF scopes that hold an address, searched as binutils' addr2line
 * searches them: down the tree of a unit through every scope whose
 * address ranges hold it and every namespace (see dwarf_scopes.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <dwarf.h>

#include "symbol/dwarf_scopes.h"

/* Deeper than any compiler nests scopes; bounds the walk on bad DWARF. */
#define MAX_DEPTH 128

struct scope_vec {
	Dwarf_Die *d;
	size_t n, cap;
	bool nomem;
};

static bool push(struct scope_vec *v, const Dwarf_Die *die)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		Dwarf_Die *d = realloc(v->d, cap * sizeof(*d));

		if (!d) {
			v->nomem = true;
			return false;
		}
		v->d = d;
		v->cap = cap;
	}
	v->d[v->n++] = *die;
	return true;
}

/* Code scopes: a match when their ranges hold pc. */
static bool code_scope(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block:
	case DW_TAG_entry_point:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_with_stmt:
		return true;
	}
	return false;
}

/* Appends to v the chain of parent's descendants that hold pc, outermost
 * first: the first child whose ranges hold it, then its own; a namespace
 * or module without ranges is searched and kept only when something in
 * it holds pc.  True when something was found. */
static bool walk(Dwarf_Die *parent, uint64_t pc, struct scope_vec *v, int depth)
{
	Dwarf_Die child;

	if (depth >= MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (code_scope(tag)) {
			if (dwarf_haspc(&child, pc) != 1)
				continue;
			if (push(v, &child))
				walk(&child, pc, v, depth + 1);
			return true;
		}
		if ((tag == DW_TAG_namespace || tag == DW_TAG_module) &&
		    dwarf_haschildren(&child) == 1) {
			size_t mark = v->n;

			if (dwarf_haspc(&child, pc) == 0 &&
			    (dwarf_hasattr(&child, DW_AT_low_pc) || dwarf_hasattr(&child, DW_AT_ranges)))
				continue;	/* a module with ranges elsewhere */
			if (!push(v, &child))
				return true;
			if (walk(&child, pc, v, depth + 1))
				return true;
			v->n = mark;
		}
	} while (!v->nomem && dwarf_siblingof(&child, &child) == 0);
	return false;
}

int pev__dwarf_scopes(Dwarf_Die *cu, uint64_t pc, Dwarf_Die **scopes)
{
	struct scope_vec v = { 0 };

	*scopes = NULL;
	if (!push(&v, cu))
		return -ENOMEM;
	walk(cu, pc, &v, 0);
	if (v.nomem) {
		free(v.d);
		return -ENOMEM;
	}
	if (v.n == 1) {		/* only the unit: no scope of it holds pc */
		free(v.d);
		return 0;
	}
	/* innermost first */
	for (size_t i = 0, j = v.n - 1; i < j; i++, j--) {
		Dwarf_Die t = v.d[i];

		v.d[i] = v.d[j];
		v.d[j] = t;
	}
	*scopes = v.d;
	return (int)v.n;
}
