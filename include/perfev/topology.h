/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: where a CPU sits — socket, die, core and NUMA node — read
 * from sysfs, for per-socket/die/core/node aggregation (perf stat
 * --per-socket and friends). */
#ifndef PERFEV_TOPOLOGY_H
#define PERFEV_TOPOLOGY_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One CPU's place; a field is -1 when sysfs does not say (e.g. die_id
 * before Linux 5.2, or a kernel without NUMA). */
struct pev_cpu_topology {
	int cpu;
	int socket;	/* topology/physical_package_id */
	int die;	/* topology/die_id */
	int core;	/* topology/core_id */
	int node;	/* the nodeN link in the CPU's directory */
};

/* Fill *out for cpu from /sys/devices/system/cpu.  Returns 0, -EINVAL for
 * a bad cpu or NULL out, -ENOENT when sysfs has no such CPU. */
PEV_EXPORT int pev_cpu_topology(int cpu, struct pev_cpu_topology *out);

/* The same under another root (root + "/devices/system/cpu/cpuN/..."),
 * so that tools and tests can read a saved or synthetic sysfs tree. */
PEV_EXPORT int pev_cpu_topology_at(const char *sysfs_root, int cpu,
				   struct pev_cpu_topology *out);

#ifdef __cplusplus
}
#endif

#endif
