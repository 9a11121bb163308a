// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The red-black tree perf keeps its symbols in, reproduced node for node.
 *
 * perf 6.1 finds the symbol of an address by walking down its rbtree of
 * symbols (sorted by start; equal starts go right) and returning the
 * first node on the way whose [start, end) holds the address.  Where
 * symbols overlap (a zero-size _init stretched over the PLT and the @plt
 * entries added after it; a label inside a function), which one it
 * returns depends on the shape of that tree, and so on the order the
 * symbols were inserted and erased.  To print what perf prints, the
 * symbol table builds the same tree: the textbook red-black insertion and
 * deletion (the successor replaces a node with two children), as in the
 * kernel's lib/rbtree.c.  Nodes are indexes into an array; PEV_RB_NIL is
 * the empty link. */
#include <stddef.h>

#include <perfev/symbols.h>
#include "symbol/symbols_internal.h"

#define NIL PEV_RB_NIL

static bool is_red(const struct pev_rbnode *t, uint32_t i)
{
	return i != NIL && t[i].red;
}

/* Makes `to` take `from`'s place under from's parent (or as the root). */
static void replace_child(struct pev_rbnode *t, uint32_t *root, uint32_t from,
			  uint32_t to)
{
	uint32_t p = t[from].parent;

	if (p == NIL)
		*root = to;
	else if (t[p].left == from)
		t[p].left = to;
	else
		t[p].right = to;
	if (to != NIL)
		t[to].parent = p;
}

static void rotate_left(struct pev_rbnode *t, uint32_t *root, uint32_t x)
{
	uint32_t y = t[x].right;

	t[x].right = t[y].left;
	if (t[y].left != NIL)
		t[t[y].left].parent = x;
	replace_child(t, root, x, y);
	t[y].left = x;
	t[x].parent = y;
}

static void rotate_right(struct pev_rbnode *t, uint32_t *root, uint32_t x)
{
	uint32_t y = t[x].left;

	t[x].left = t[y].right;
	if (t[y].right != NIL)
		t[t[y].right].parent = x;
	replace_child(t, root, x, y);
	t[y].right = x;
	t[x].parent = y;
}

void pev__rb_insert(struct pev_rbnode *t, uint32_t *root, uint32_t n,
		    const struct pev_symbol *syms)
{
	uint32_t p = NIL, *link = root;

	while (*link != NIL) {
		p = *link;
		link = syms[n].start < syms[p].start ? &t[p].left : &t[p].right;
	}
	*link = n;
	t[n].parent = p;
	t[n].left = t[n].right = NIL;
	t[n].red = 1;
	while (is_red(t, t[n].parent)) {
		uint32_t par = t[n].parent, g = t[par].parent;

		if (par == t[g].left) {
			uint32_t u = t[g].right;

			if (is_red(t, u)) {
				t[par].red = t[u].red = 0;
				t[g].red = 1;
				n = g;
				continue;
			}
			if (n == t[par].right) {
				rotate_left(t, root, par);
				n = par;
				par = t[n].parent;
			}
			t[par].red = 0;
			t[g].red = 1;
			rotate_right(t, root, g);
		} else {
			uint32_t u = t[g].left;

			if (is_red(t, u)) {
				t[par].red = t[u].red = 0;
				t[g].red = 1;
				n = g;
				continue;
			}
			if (n == t[par].left) {
				rotate_right(t, root, par);
				n = par;
				par = t[n].parent;
			}
			t[par].red = 0;
			t[g].red = 1;
			rotate_left(t, root, g);
		}
	}
	t[*root].red = 0;
}

/* Restores the black heights after a black node left from under parent
 * (x is what took its place: NIL or a black node). */
static void erase_fixup(struct pev_rbnode *t, uint32_t *root, uint32_t x,
			uint32_t parent)
{
	while (x != *root && !is_red(t, x)) {
		if (x == t[parent].left) {
			uint32_t w = t[parent].right;

			if (is_red(t, w)) {
				t[w].red = 0;
				t[parent].red = 1;
				rotate_left(t, root, parent);
				w = t[parent].right;
			}
			if (!is_red(t, t[w].left) && !is_red(t, t[w].right)) {
				t[w].red = 1;
				x = parent;
				parent = t[x].parent;
				continue;
			}
			if (!is_red(t, t[w].right)) {
				t[t[w].left].red = 0;
				t[w].red = 1;
				rotate_right(t, root, w);
				w = t[parent].right;
			}
			t[w].red = t[parent].red;
			t[parent].red = 0;
			t[t[w].right].red = 0;
			rotate_left(t, root, parent);
			x = *root;
		} else {
			uint32_t w = t[parent].left;

			if (is_red(t, w)) {
				t[w].red = 0;
				t[parent].red = 1;
				rotate_right(t, root, parent);
				w = t[parent].left;
			}
			if (!is_red(t, t[w].left) && !is_red(t, t[w].right)) {
				t[w].red = 1;
				x = parent;
				parent = t[x].parent;
				continue;
			}
			if (!is_red(t, t[w].left)) {
				t[t[w].right].red = 0;
				t[w].red = 1;
				rotate_left(t, root, w);
				w = t[parent].left;
			}
			t[w].red = t[parent].red;
			t[parent].red = 0;
			t[t[w].left].red = 0;
			rotate_right(t, root, parent);
			x = *root;
		}
	}
	if (x != NIL)
		t[x].red = 0;
}

void pev__rb_erase(struct pev_rbnode *t, uint32_t *root, uint32_t z)
{
	uint32_t x, xparent;
	uint8_t removed_red;

	if (t[z].left == NIL || t[z].right == NIL) {
		x = t[z].left != NIL ? t[z].left : t[z].right;
		xparent = t[z].parent;
		removed_red = t[z].red;
		replace_child(t, root, z, x);
	} else {
		uint32_t y = t[z].right;

		while (t[y].left != NIL)
			y = t[y].left;
		removed_red = t[y].red;
		x = t[y].right;
		if (t[y].parent == z) {
			xparent = y;
		} else {
			xparent = t[y].parent;
			replace_child(t, root, y, x);
			t[y].right = t[z].right;
			t[t[y].right].parent = y;
		}
		replace_child(t, root, z, y);
		t[y].left = t[z].left;
		t[t[y].left].parent = y;
		t[y].red = t[z].red;
	}
	if (!removed_red)
		erase_fixup(t, root, x, xparent);
}

uint32_t pev__rb_first(const struct pev_rbnode *t, uint32_t root)
{
	if (root == NIL)
		return NIL;
	while (t[root].left != NIL)
		root = t[root].left;
	return root;
}

uint32_t pev__rb_next(const struct pev_rbnode *t, uint32_t n)
{
	if (t[n].right != NIL) {
		n = t[n].right;
		while (t[n].left != NIL)
			n = t[n].left;
		return n;
	}
	while (t[n].parent != NIL && n == t[t[n].parent].right)
		n = t[n].parent;
	return t[n].parent;
}
