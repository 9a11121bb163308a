/* perf 6.1's file header listing (perf_session__fprintf_info), as
 * `perf script --header` and `perf report --header` print it before
 * their output, byte for byte for file-mode recordings. */
#ifndef PEV_CLI_HEADER_H
#define PEV_CLI_HEADER_H

#include <stddef.h>

#include <perfev/data.h>

/* The text, from "# ========" to "# ========\n#\n"; full: the sections
 * perf prints only with -I (not implemented: perf's "info available"
 * lines are printed either way).  path gives "captured on" (the file's
 * mtime).  Returns a malloc'ed string (*len bytes), or NULL and errno. */
char *cli_header_text(const struct pev_data *d, const char *path, size_t *len);

#endif
