/* SPDX-License-Identifier: GPL-2.0-only */
/* The build ids a recording names (perfev buildid-list, perfev archive). */
#ifndef PEV_CLI_BUILDID_H
#define PEV_CLI_BUILDID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bid_dso {
	char *name;		/* as perf prints it: a path, "[kernel.kallsyms]" */
	char hex[41];		/* "" when the recording has no build id for it */
	bool hit;		/* a sample's ip fell in it */
	bool from_header;
};

struct bid_list {
	struct bid_dso *v;
	size_t nr, cap;
};

/* perf buildid-list's DSO list for a perf.data file ("-": a pipe on
 * stdin): the BUILD_ID feature's entries in file order; with `hits` (or
 * in pipe mode, where perf reads the whole stream) the records are read
 * too: MMAPs add DSOs, samples mark the DSO of their ip as hit.  Returns
 * EXIT_OK or EXIT_ERROR (message printed); *pipe tells whether the input
 * was a pipe. */
int bid_collect(const char *input, bool hits, struct bid_list *out, bool *pipe);
void bid_list_release(struct bid_list *l);

#endif
