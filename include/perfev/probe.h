/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: what the running kernel supports, found by trying.  Each
 * probe opens a cheap software event (the dummy event on the calling
 * thread, user space only) with the feature's bit set and closes it at
 * once.  Definite answers are cached for the life of the process; all
 * functions are thread-safe. */
#ifndef PERFEV_PROBE_H
#define PERFEV_PROBE_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pev_feature {
	PEV_FEAT_FORMAT_LOST = 0,	/* read_format PERF_FORMAT_LOST (6.0) */
	PEV_FEAT_SAMPLE_ID_ALL,		/* attr.sample_id_all (2.6.38) */
	PEV_FEAT_EXCLUDE_GUEST,		/* attr.exclude_guest (3.2) */
	PEV_FEAT_MMAP2,			/* attr.mmap2 (3.16) */
	PEV_FEAT_MMAP2_BUILD_ID,		/* attr.build_id in MMAP2 (5.12) */
	PEV_FEAT_CONTEXT_SWITCH,	/* attr.context_switch (4.3) */
	PEV_FEAT_COMM_EXEC,		/* attr.comm_exec (3.16) */
	PEV_FEAT_USE_CLOCKID,		/* attr.use_clockid (4.1) */
	PEV_FEAT_NAMESPACES,		/* attr.namespaces (4.12; needs CAP_PERFMON) */
	PEV_FEAT_KSYMBOL,		/* attr.ksymbol (5.1) */
	PEV_FEAT_BPF_EVENT,		/* attr.bpf_event (5.1) */
	PEV_FEAT_CGROUP,		/* attr.cgroup records (5.7) */
	PEV_FEAT_TEXT_POKE,		/* attr.text_poke (5.9) */
	PEV_FEAT_SIGTRAP,		/* attr.sigtrap + remove_on_exec (5.13) */
	PEV_FEAT_REMOVE_ON_EXEC,	/* attr.remove_on_exec (5.13) */
	PEV_FEAT_INHERIT_THREAD,	/* attr.inherit_thread (5.13) */
	PEV_FEAT_WRITE_BACKWARD,	/* attr.write_backward (4.7) */
	PEV_FEAT_AUX_OUTPUT,		/* attr.aux_output known (5.4) */
	PEV_FEAT_WEIGHT_STRUCT,		/* PERF_SAMPLE_WEIGHT_STRUCT (5.12) */
	PEV_FEAT_CODE_PAGE_SIZE,	/* PERF_SAMPLE_CODE_PAGE_SIZE (5.11) */
	PEV_FEAT_DATA_PAGE_SIZE,	/* PERF_SAMPLE_DATA_PAGE_SIZE (5.11) */
	PEV_FEAT_SAMPLE_CGROUP,		/* PERF_SAMPLE_CGROUP (5.7, CONFIG_CGROUP_PERF) */
	PEV_FEAT_BRANCH_HW_INDEX,	/* PERF_SAMPLE_BRANCH_HW_INDEX known (5.7) */
	PEV_FEAT_ATTR_SIZE,		/* the kernel's attr size could be learnt */
	PEV_FEAT_HW_PMU,		/* a hardware PMU: sysfs "cpu" or cycles opens */
	PEV_FEAT__COUNT
};

/* 1 supported, 0 missing, or -errno when the kernel would not say (e.g.
 * -EACCES when perf is denied, -EMFILE); -EINVAL for an unknown feature.
 * "Supported" means the kernel accepts the bit: aux_output and
 * branch_hw_index are reported supported when the software PMU refuses
 * them with EOPNOTSUPP (known bit, no AUX/branch hardware), and missing
 * when the kernel rejects the bit itself with EINVAL. */
PEV_EXPORT int pev_probe(enum pev_feature feature);

/* The feature's name ("sigtrap", "mmap2"), or NULL when out of range. */
PEV_EXPORT const char *pev_feature_name(enum pev_feature feature);

/* The kernel's sizeof(struct perf_event_attr) (128, 136, ...), learnt from
 * the size it writes back on E2BIG; -errno when it cannot be learnt. */
PEV_EXPORT int pev_probe_attr_size(void);

#ifdef __cplusplus
}
#endif
#endif
