// SPDX-License-Identifier: GPL-2.0-only
#ifndef PERFEV_CLI_FOLDED_NAME_H
#define PERFEV_CLI_FOLDED_NAME_H
#include <stddef.h>

/* How much of a symbol name a folded stack keeps: all of it but a real
 * trailing argument list (folded_name.c says the rule). */
size_t folded_name_keep(const char *name, size_t n);

#endif
