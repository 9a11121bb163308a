/* Private to the target and workload sources. */
#ifndef PEV_TARGET_PRIV_H
#define PEV_TARGET_PRIV_H

#include <perfev/target.h>

/* Read a small text file into buf (NUL-terminated): its length or -errno. */
int pev__target_read_file(const char *path, char *buf, size_t size);

#endif
