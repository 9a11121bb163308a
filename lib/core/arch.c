// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* What depends on the CPU architecture for self-monitoring: whether user
 * space may read counters, the attr bits that ask for it, and what to
 * tell the user when it may not.
 *
 * x86: the kernel lets user space run rdpmc when
 * /sys/bus/event_source/devices/cpu/rdpmc (cpu_core on hybrid parts) is 1
 * (tasks with a mapped event) or 2 (always); nothing to set in the attr.
 * arm64 (Documentation/arch/arm64/perf.rst, the arm_pmuv3 driver): the
 * sysctl kernel.perf_user_access must be 1, and the event must ask with
 * config1 bit 1 ("rdpmc" in the PMU's format folder); config1 bit 0
 * ("long") asks for a 64-bit counter, which open(2) refuses where the
 * hardware has none.  Chained (64-bit on 32-bit hardware) events cannot
 * be read from user space. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/arch.h>

#include "core/util.h"

#define ARM64_CONFIG1_LONG	(1ull << 0)	/* format/long: config1:0 */
#define ARM64_CONFIG1_RDPMC	(1ull << 1)	/* format/rdpmc: config1:1 */

#define DEVICES "sys/bus/event_source/devices"

PEV_EXPORT enum pev_arch pev_arch_host(void)
{
#if defined(__x86_64__)
	return PEV_ARCH_X86_64;
#elif defined(__aarch64__)
	return PEV_ARCH_ARM64;
#else
	return PEV_ARCH_UNKNOWN;
#endif
}

/* The integer in root/rel, or -1 when it cannot be read or parsed. */
static int read_int(const char *root, const char *rel)
{
	char path[4096], buf[32], *end;
	long v;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (pev__read_file_at(AT_FDCWD, path, buf, sizeof(buf)) <= 0)
		return -1;
	v = strtol(buf, &end, 10);
	if (end == buf || *end || v < 0 || v > 1000000)
		return -1;
	return (int)v;
}

static bool is_dir(const char *root, const char *rel)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Remember the perf type of devices/name, when it has one and room is left. */
static void add_type(struct pev_user_access *ua, const char *root, const char *name)
{
	char rel[512];
	int t;

	snprintf(rel, sizeof(rel), DEVICES "/%s/type", name);
	t = read_int(root, rel);
	if (t <= 0)
		return;
	for (size_t i = 0; i < sizeof(ua->pmu_types) / sizeof(ua->pmu_types[0]); i++) {
		if (ua->pmu_types[i] == (uint32_t)t)
			return;
		if (!ua->pmu_types[i]) {
			ua->pmu_types[i] = (uint32_t)t;
			return;
		}
	}
}

/* arm64 core PMUs: armv8_* (armv8_pmuv3_0, armv8_cortex_a53, ...), or any
 * *pmu* folder whose format has rdpmc (the PMUv3 driver's own bit). */
static void probe_arm64_pmus(struct pev_user_access *ua, const char *root)
{
	char path[4096];
	struct dirent **ents;
	int n;

	snprintf(path, sizeof(path), "%s/" DEVICES, root);
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char rel[512];
		bool core = false;

		if (!strncmp(name, "armv8_", 6)) {
			core = true;
		} else if (strstr(name, "pmu")) {
			snprintf(rel, sizeof(rel), DEVICES "/%s/format/rdpmc", name);
			snprintf(path, sizeof(path), "%s/%s", root, rel);
			core = access(path, F_OK) == 0;
		}
		if (core) {
			ua->pmu = true;
			add_type(ua, root, name);
		}
		free(ents[i]);
	}
	free(ents);
}

PEV_EXPORT int pev_user_access_probe(struct pev_user_access *ua,
				     enum pev_arch arch, const char *root)
{
	struct pev_user_access u = { .size = sizeof(u) };
	size_t have;

	if (!ua)
		return -EINVAL;
	have = ua->size && ua->size < sizeof(u) ? ua->size : sizeof(u);
	if (!root || !*root)
		root = "";
	else if (!strcmp(root, "/"))
		root = "";
	u.arch = arch;
	u.perf_user_access = read_int(root, "proc/sys/kernel/perf_user_access");
	u.rdpmc = -1;
	if (arch == PEV_ARCH_ARM64) {
		probe_arm64_pmus(&u, root);
	} else if (arch == PEV_ARCH_X86_64) {
		static const char *const core[] = { "cpu", "cpu_core", "cpu_atom" };

		for (size_t i = 0; i < sizeof(core) / sizeof(core[0]); i++) {
			char rel[256];

			snprintf(rel, sizeof(rel), DEVICES "/%s", core[i]);
			if (!is_dir(root, rel))
				continue;
			u.pmu = true;
			add_type(&u, root, core[i]);
			if (u.rdpmc < 0 && i < 2) {
				snprintf(rel, sizeof(rel), DEVICES "/%s/rdpmc", core[i]);
				u.rdpmc = read_int(root, rel);
				if (u.rdpmc >= 0)
					snprintf(u.rdpmc_pmu, sizeof(u.rdpmc_pmu), "%s", core[i]);
			}
		}
	}
	u.size = have;
	memcpy(ua, &u, have);
	return 0;
}

/* Whether the caller's ua has field f (older callers' structs are shorter). */
#define UA_HAS(ua, f) ((ua)->size >= offsetof(struct pev_user_access, f) + sizeof((ua)->f))

PEV_EXPORT bool pev_user_access_applies(const struct pev_user_access *ua,
					const struct perf_event_attr *attr)
{
	if (!ua || !attr)
		return false;
	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		return ua->pmu;
	default:
		break;
	}
	if (!UA_HAS(ua, pmu_types))
		return false;
	for (size_t i = 0; i < sizeof(ua->pmu_types) / sizeof(ua->pmu_types[0]); i++)
		if (ua->pmu_types[i] && ua->pmu_types[i] == attr->type)
			return true;
	return false;
}

PEV_EXPORT bool pev_user_access_request(const struct pev_user_access *ua,
					struct perf_event_attr *attr)
{
	uint64_t old;

	if (!ua || !attr || ua->arch != PEV_ARCH_ARM64 || ua->perf_user_access != 1 ||
	    !pev_user_access_applies(ua, attr))
		return false;
	old = attr->config1;
	attr->config1 |= ARM64_CONFIG1_RDPMC | ARM64_CONFIG1_LONG;
	return attr->config1 != old;
}

PEV_EXPORT bool pev_user_access_retry(const struct pev_user_access *ua,
				      struct perf_event_attr *attr, int err)
{
	if (err < 0)
		err = -err;
	if (!ua || !attr || ua->arch != PEV_ARCH_ARM64 || (err != EINVAL && err != EOPNOTSUPP))
		return false;
	/* The 64-bit counter first: a PMU without them refuses only that,
	 * and a 32-bit counter is still readable (pmc_width 32). */
	if (attr->config1 & ARM64_CONFIG1_LONG) {
		attr->config1 &= ~ARM64_CONFIG1_LONG;
		return true;
	}
	if (attr->config1 & ARM64_CONFIG1_RDPMC) {
		attr->config1 &= ~ARM64_CONFIG1_RDPMC;
		return true;
	}
	return false;
}

PEV_EXPORT int pev_user_access_explain(const struct pev_user_access *ua,
				       char *buf, size_t size)
{
	const char *pmu;

	if (!ua)
		return snprintf(buf, size, "%s", "");
	switch (ua->arch) {
	case PEV_ARCH_ARM64:
		if (!ua->pmu)
			return snprintf(buf, size, "%s", "");
		if (ua->perf_user_access == 1)
			return snprintf(buf, size, "%s", "");
		if (ua->perf_user_access < 0)
			return snprintf(buf, size, "user-space counter reads are off: this kernel "
					"has no /proc/sys/kernel/perf_user_access (linux 5.17 or "
					"later has it); counters are read with read(2)");
		return snprintf(buf, size, "user-space counter reads are off "
				"(/proc/sys/kernel/perf_user_access is %d); counters are read "
				"with read(2); to turn them on: "
				"echo 1 > /proc/sys/kernel/perf_user_access", ua->perf_user_access);
	case PEV_ARCH_X86_64:
		if (!ua->pmu || ua->rdpmc != 0)
			return snprintf(buf, size, "%s", "");
		pmu = UA_HAS(ua, rdpmc_pmu) && ua->rdpmc_pmu[0] ? ua->rdpmc_pmu : "cpu";
		return snprintf(buf, size, "user-space counter reads (rdpmc) are off "
				"(/sys/bus/event_source/devices/%s/rdpmc is 0); counters are "
				"read with read(2); to turn them on: "
				"echo 1 > /sys/bus/event_source/devices/%s/rdpmc", pmu, pmu);
	default:
		return snprintf(buf, size, "%s", "");
	}
}
