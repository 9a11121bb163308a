/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private helpers shared by the sysfs, tracefs and event-parsing code. */
#ifndef PEV_SYSFS_INTERNAL_H
#define PEV_SYSFS_INTERNAL_H

#include <stddef.h>

/* sysfs_root, or "/sys" when NULL or empty. */
const char *pev__sysfs_root(const char *root);

#endif
