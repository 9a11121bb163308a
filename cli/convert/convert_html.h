/* SPDX-License-Identifier: GPL-2.0-only */
/* --to html: the flame graph's data (cli/convert_html_tree.c) and the page
 * around it (cli/convert_html.c, cli/flamegraph/: the page's HTML, CSS and
 * JavaScript, embedded at build time into fg_asset_*).
 *
 * The data is a prefix tree of the shown samples: root, one node per
 * thread (comm, pid, tid), then the frames from the outermost to the leaf,
 * siblings merged by function (name, DSO, kind) and sorted by name, as
 * flamegraph.pl orders them.  Each node has one self value per series:
 * one series for a plain graph, two (on-CPU, off-CPU) when an offcpu-time
 * event is shown, twice that for a differential graph (OLD's first). */
#ifndef PEV_CLI_CONVERT_HTML_H
#define PEV_CLI_CONVERT_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "convert/convert.h"

/* What a function is, for its color (flamegraph.pl's palettes). */
enum fg_kind { FG_USER = 0, FG_KERNEL, FG_JIT, FG_INLINE, FG_THREAD };

struct fg_func {
	uint32_t name;		/* string id: the function, or the thread's comm */
	uint32_t dso;		/* string id + 1 (0: none); a thread: "pid/tid" */
	uint8_t kind;		/* enum fg_kind */
};

struct fg_node {
	uint32_t func;
	uint32_t parent;	/* node 0 is the root */
	uint32_t child, sibling;	/* first child, next sibling (0: none) */
};

struct fg_tab {			/* open addressing over ids + 1 (0: empty) */
	uint32_t *slot;
	size_t cap, n;
};

struct fg_tree {
	char **str;
	size_t nstr, capstr;
	struct fg_tab strtab;
	struct fg_func *funcs;
	size_t nfuncs, capfuncs;
	struct fg_tab functab;
	struct fg_node *nodes;
	uint64_t *self;		/* nodes * nseries */
	size_t nnodes, capnodes;
	struct fg_tab nodetab;
	unsigned nseries;
	uint64_t totals[4];	/* per series */
	/* frame id -> func id + 1 for the profile being added */
	uint32_t *frame_func;
	size_t nframe_func;
};

int fg_tree_init(struct fg_tree *t, unsigned nseries);
void fg_tree_release(struct fg_tree *t);
/* Adds every shown sample of c's profile to series (offcpu-time samples
 * to series + 1 when offcpu).  0 or -ENOMEM. */
int fg_tree_add(struct fg_tree *t, struct conv *c, unsigned series, bool offcpu);
/* Sorts every node's children by name (then DSO, kind).  0 or -ENOMEM. */
int fg_tree_sort(struct fg_tree *t);

/* The page's parts (generated from cli/flamegraph/ by the Makefile). */
extern const char fg_asset_page_html[], fg_asset_flamegraph_css[], fg_asset_flamegraph_js[];

#endif
