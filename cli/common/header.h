/* SPDX-License-Identifier: GPL-2.0-only */
/* perf 6.1's file header listing (perf_session__fprintf_info), as
 * `perf script --header` and `perf report --header` print it before
 * their output, byte for byte for file-mode recordings. */
#ifndef PEV_CLI_HEADER_H
#define PEV_CLI_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <perfev/data.h>

/* The text, from "# ========" to "# ========\n#\n"; full (-I): the CPU
 * and NUMA topology, caches and memory nodes in full, where perf
 * otherwise prints "info available, use -I to display".  path gives
 * "captured on" (the file's mtime).  Returns a malloc'ed string (*len
 * bytes), or NULL and errno. */
char *cli_header_text(const struct pev_data *d, const char *path, bool full, size_t *len);

/* perf 6.1's perf_event_attr__fprintf(): the attr's nonzero fields in
 * its order and formats, each as SEP NAME EQ VALUE, SEP being first_sep
 * for the first field printed and ", " after it (the header listing:
 * ", " and " = "; perf evlist -v: ": " and ": ").  Returns the number of
 * fields printed. */
int cli_attr_fprintf(FILE *o, const struct perf_event_attr *a, const char *first_sep,
		     const char *eq);

#endif
