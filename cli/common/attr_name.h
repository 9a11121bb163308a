/* SPDX-License-Identifier: GPL-2.0-only */
/* perf 6.1's evsel__name for an event whose file does not name it (the
 * EVENT_DESC feature lost with the end of a file cut short, a pipe). */
#ifndef PEV_CLI_ATTR_NAME_H
#define PEV_CLI_ATTR_NAME_H

#include <stddef.h>

#include <perfev/perfev.h>

/* A hardware, software or hw-cache event's perf name ("cycles",
 * "task-clock", "L1-dcache-load-misses") with the modifiers of its
 * exclude bits and precise_ip (":u", ":ppp"), written into buf (sz bytes,
 * 8 or more); NULL for other types or an unknown config. */
const char *cli_attr_name(const struct perf_event_attr *a, char *buf, size_t sz);

#endif
