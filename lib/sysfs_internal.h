/* Private helpers shared by the sysfs, tracefs and event-parsing code. */
#ifndef PEV_SYSFS_INTERNAL_H
#define PEV_SYSFS_INTERNAL_H

#include <stddef.h>

/* Read a small file below dirfd into buf (NUL-terminated, trailing
 * whitespace trimmed).  Returns its length or -errno. */
int pev__read_file_at(int dirfd, const char *name, char *buf, size_t size);

/* sysfs_root, or "/sys" when NULL or empty. */
const char *pev__sysfs_root(const char *root);

#endif
