/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: what depends on the CPU architecture for self-monitoring:
 * whether user space may read counters (x86 rdpmc, arm64 PMU registers),
 * the attr bits that ask for it, and arm64's exception-level rules for the
 * exclude_* bits.  Every function is pure or reads only the files it
 * names, and takes the architecture as data, so that each architecture's
 * rules are tested on any host. */
#ifndef PERFEV_ARCH_H
#define PERFEV_ARCH_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pev_arch {
	PEV_ARCH_UNKNOWN = 0,
	PEV_ARCH_X86_64,
	PEV_ARCH_ARM64,
};

/* The architecture this library was built for. */
PEV_EXPORT enum pev_arch pev_arch_host(void);

/* What a machine allows for user-space counter reads.  .size = sizeof. */
struct pev_user_access {
	size_t size;
	enum pev_arch arch;
	int perf_user_access;	/* arm64: /proc/sys/kernel/perf_user_access
				 * (0 or 1); -1 when the file is absent */
	int rdpmc;		/* x86: /sys/bus/event_source/devices/cpu/rdpmc
				 * (0 never, 1 tasks with a mapped event, 2
				 * always); -1 when absent */
	bool pmu;		/* a core PMU exists (x86: devices/cpu or
				 * cpu_core; arm64: a devices/armv8_* or
				 * devices folder named *pmu* with a
				 * format/rdpmc) */
	/* Added after the fields above (check .size): */
	uint32_t pmu_types[4];	/* the core PMUs' perf types (devices/<pmu>/type),
				 * 0 after the last; arm64 big.LITTLE has one
				 * per core type, x86 hybrid cpu_core, cpu_atom */
	char rdpmc_pmu[16];	/* x86: the folder whose rdpmc was read
				 * ("cpu" or "cpu_core"), "" when none */
};

/* Fill ua for arch from the files under root ("/" when NULL; tests give a
 * fake tree): ROOT/proc/sys/kernel/perf_user_access,
 * ROOT/sys/bus/event_source/devices/{cpu,cpu_core}/rdpmc and the PMU
 * folders there.  ua->size says how much of ua the caller has.  0, or
 * -EINVAL for NULL. */
PEV_EXPORT int pev_user_access_probe(struct pev_user_access *ua,
				     enum pev_arch arch, const char *root);

/* Whether attr counts on the core PMU (hardware, hw-cache, raw, or the
 * type of the core PMU named in ua's probe), where user reads apply. */
PEV_EXPORT bool pev_user_access_applies(const struct pev_user_access *ua,
					const struct perf_event_attr *attr);

/* Ask for user-space reads in attr before it is opened.  arm64, when
 * perf_user_access is 1 and the event applies: set config1 bit 1 (user
 * access) and bit 0 (a 64-bit counter).  x86: nothing to set.  Returns
 * true when attr was changed. */
PEV_EXPORT bool pev_user_access_request(const struct pev_user_access *ua,
					struct perf_event_attr *attr);

/* After the open of an attr prepared by pev_user_access_request failed
 * with -err (err positive or negative): take back one request and say
 * whether to try again.  arm64: first bit 0 (this PMU has no 64-bit
 * counters: pmc_width 32 then), then bit 1 (no user access: read(2) it
 * is).  false when nothing is left to take back, or when err cannot come
 * from these bits (only EINVAL and EOPNOTSUPP can: EACCES, ENOENT, EMFILE
 * ... are the caller's to report). */
PEV_EXPORT bool pev_user_access_retry(const struct pev_user_access *ua,
				      struct perf_event_attr *attr, int err);

/* Why user-space reads are off on this machine, and what to run to turn
 * them on, in one lowercase line without a newline ("" when they are
 * allowed or the architecture has none).  Returns what snprintf returns. */
PEV_EXPORT int pev_user_access_explain(const struct pev_user_access *ua,
				       char *buf, size_t size);

/* ---- arm64 ---- */

/* Exception levels. */
#define PEV_EL0 (1u << 0)	/* user space */
#define PEV_EL1 (1u << 1)	/* kernel (non-VHE host), guest kernel */
#define PEV_EL2 (1u << 2)	/* kernel under VHE, else the hypervisor */

/* The exception levels an arm64 PMU event with attr's exclude_user,
 * exclude_kernel and exclude_hv counts at, on a host (guest false) with or
 * without VHE, or inside a guest (guest true: EL2 is never counted, and
 * exclude_hv has no effect).  Under VHE exclude_hv is ignored: the kernel
 * is the hypervisor, and exclude_kernel excludes EL1 and EL2. */
PEV_EXPORT unsigned pev_arm64_levels(const struct perf_event_attr *attr,
				     bool vhe, bool guest);

/* The register that holds the counter whose control page index is index
 * (index - 1 = n: PMEVCNTR<n>_EL0 for n 0..30; index 32: PMCCNTR_EL0, the
 * cycle counter).  0 and the name in buf, or -EINVAL (index 0: not on a
 * counter now; above 32). */
PEV_EXPORT int pev_arm64_counter_reg(uint32_t index, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
