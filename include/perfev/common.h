/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: shared definitions for every public header. */
#ifndef PERFEV_COMMON_H
#define PERFEV_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(PEV_BUILDING_LIB)
#define PEV_EXPORT __attribute__((visibility("default")))
#else
#define PEV_EXPORT
#endif

#define PEV_VERSION_MAJOR 0
#define PEV_VERSION_MINOR 1
#define PEV_VERSION_PATCH 0

/* The library's version as "MAJOR.MINOR.PATCH". */
PEV_EXPORT const char *pev_version(void);

/* The kernel ABI that this build knows, beyond what an older
 * <linux/perf_event.h> may define.  The system header on Debian 12 stops at
 * VER7 (128 bytes); kernels since 6.3 know VER8 (config3). */
#ifndef PERF_ATTR_SIZE_VER8
#define PERF_ATTR_SIZE_VER8 136
#endif
#define PEV_ATTR_SIZE_MAX 136

/* Room for any attr the library builds: the system struct plus fields a
 * newer kernel knows (config3 lives at byte 128).  pev_sys_open() accepts
 * a pointer to .attr with .attr.size up to sizeof(struct pev_attr). */
struct pev_attr {
	struct perf_event_attr attr;
	uint64_t ext[(PEV_ATTR_SIZE_MAX > sizeof(struct perf_event_attr) ?
		      PEV_ATTR_SIZE_MAX - sizeof(struct perf_event_attr) : 8) / 8];
};

/* config3 of an extended attr (0 when the build's struct lacks it). */
PEV_EXPORT uint64_t *pev_attr_config3(struct pev_attr *a);

/* Log callback: the library never prints.  level: 0 error, 1 warning,
 * 2 info, 3 debug.  Set per object where objects take one; NULL = silent. */
typedef void (*pev_log_fn)(int level, const char *msg, void *user);

#ifdef __cplusplus
}
#endif
#endif
