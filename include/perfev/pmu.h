/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: PMUs as sysfs describes them
 * (<root>/bus/event_source/devices/<pmu>/): type, format bit-fields, event
 * aliases, cpumask, caps.  Every object here is plain read-only data
 * allocated by the library; callers read the fields and never allocate or
 * copy these structs themselves (they may grow).  Loading is thread-safe;
 * a loaded object is immutable and may be shared between threads. */
#ifndef PERFEV_PMU_H
#define PERFEV_PMU_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A format term: "event" -> config:0-7 means the term's value bits go,
 * lowest first, into the set bits of mask in config word `word`
 * (0 = config, 1 = config1, 2 = config2, 3 = config3). */
struct pev_pmu_format {
	char *name;
	int word;
	uint64_t mask;
};

/* An event alias: events/<name> holding terms such as "event=0x3c,umask=0". */
struct pev_pmu_alias {
	char *name;
	char *terms;		/* the file's text, trimmed */
	double scale;		/* <name>.scale, 1.0 when absent */
	char *unit;		/* <name>.unit, "" when absent */
	bool per_pkg;		/* <name>.per-pkg holds 1 */
	bool snapshot;		/* <name>.snapshot holds 1 */
};

/* caps/<key> files. */
struct pev_pmu_cap {
	char *key;
	char *value;		/* trimmed */
};

struct pev_pmu {
	char *name;
	uint32_t type;		/* attr.type for this PMU */
	struct pev_pmu_format *formats;	/* sorted by name */
	size_t nr_formats;
	struct pev_pmu_alias *aliases;	/* sorted by name */
	size_t nr_aliases;
	struct pev_pmu_cap *caps;	/* sorted by key */
	size_t nr_caps;
	char *cpumask;		/* "cpumask" file, trimmed, or NULL */
	char *cpus;		/* "cpus" file (hybrid PMUs), or NULL */
	char *error;		/* set (and the rest may be partial) when this
				 * PMU's files could not be understood; only in
				 * lists from pev_pmu_list_load */
};

/* Parse a format file's text ("config1:1,6-10,44", trailing newline
 * allowed) into *word and *mask.  0, or -EINVAL with a lowercase reason in
 * err (err may be NULL). */
PEV_EXPORT int pev_pmu_format_parse(const char *text, int *word, uint64_t *mask,
				    char *err, size_t errlen);

/* Scatter value into the set bits of mask, lowest first, into *config
 * (clearing those bits first).  0, or -ERANGE when value has more
 * significant bits than mask has set bits. */
PEV_EXPORT int pev_pmu_format_apply(uint64_t mask, uint64_t value, uint64_t *config);

/* The largest value a mask can hold (2^popcount - 1). */
PEV_EXPORT uint64_t pev_pmu_format_max(uint64_t mask);

/* Load one PMU by name from sysfs_root (NULL = "/sys").  NULL and errno on
 * failure: ENOENT when there is no such PMU, EINVAL when a file is
 * malformed (then err, if given, says which and why).  Free with
 * pev_pmu_free. */
PEV_EXPORT struct pev_pmu *pev_pmu_load(const char *sysfs_root, const char *name,
					char *err, size_t errlen);
PEV_EXPORT void pev_pmu_free(struct pev_pmu *pmu);

/* Look a format or an alias up by name (aliases case-insensitively, as
 * perf does).  NULL when absent. */
PEV_EXPORT const struct pev_pmu_format *pev_pmu_find_format(const struct pev_pmu *pmu,
							    const char *name);
PEV_EXPORT const struct pev_pmu_alias *pev_pmu_find_alias(const struct pev_pmu *pmu,
							  const char *name);
/* A caps/ value, or NULL. */
PEV_EXPORT const char *pev_pmu_cap(const struct pev_pmu *pmu, const char *key);

/* Every PMU under sysfs_root, sorted by name. */
struct pev_pmu_list;

/* NULL and errno (ENOENT when the devices directory is missing).  A PMU
 * whose files are malformed is kept with ->error set. */
PEV_EXPORT struct pev_pmu_list *pev_pmu_list_load(const char *sysfs_root);
PEV_EXPORT void pev_pmu_list_free(struct pev_pmu_list *list);
PEV_EXPORT size_t pev_pmu_list_count(const struct pev_pmu_list *list);
/* The i-th PMU, or NULL past the end. */
PEV_EXPORT const struct pev_pmu *pev_pmu_list_get(const struct pev_pmu_list *list, size_t i);
/* By name, or by attr.type; NULL when absent. */
PEV_EXPORT const struct pev_pmu *pev_pmu_list_find(const struct pev_pmu_list *list,
						   const char *name);
PEV_EXPORT const struct pev_pmu *pev_pmu_list_find_type(const struct pev_pmu_list *list,
							uint32_t type);

#ifdef __cplusplus
}
#endif
#endif
