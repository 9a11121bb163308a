/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: tracefs (where tracepoints live): find or mount it, list
 * tracepoints, read their ids and formats.  All functions are thread-safe;
 * a format object is not (use one per thread). */
#ifndef PERFEV_TRACEFS_H
#define PERFEV_TRACEFS_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tep_handle;
struct tep_event;

/* Find the tracefs mount: /sys/kernel/tracing, else
 * /sys/kernel/debug/tracing.  When neither is there and mount_if_needed is
 * set, mount tracefs at /sys/kernel/tracing (needs root).  Writes the path
 * into buf; returns its length, or -errno: -ENOENT when it is not mounted
 * (and was not to be mounted), -EPERM/-EACCES when mounting was refused,
 * -ENAMETOOLONG when buf is too small. */
PEV_EXPORT int pev_tracefs_find(char *buf, size_t size, bool mount_if_needed);

/* Mount tracefs at /sys/kernel/tracing (mount -t tracefs nodev ...).
 * 0 (also when already mounted) or -errno. */
PEV_EXPORT int pev_tracefs_mount(void);

/* A tracepoint's id from <tracefs>/events/<sys>/<name>/id: >= 0, or
 * -errno (-ENOENT when there is no such tracepoint). */
PEV_EXPORT int64_t pev_tracepoint_id(const char *tracefs, const char *sys, const char *name);

/* Called for each tracepoint; return non-zero to stop (that value is
 * returned by the walker). */
typedef int (*pev_tracepoint_cb)(const char *sys, const char *name, void *user);

/* Walk every tracepoint whose subsystem matches sys_glob and name matches
 * name_glob (fnmatch; NULL means "*"), sorted by subsystem then name.
 * Returns the number visited, the callback's non-zero value, or -errno. */
PEV_EXPORT int pev_tracepoint_foreach(const char *tracefs, const char *sys_glob,
				      const char *name_glob, pev_tracepoint_cb cb, void *user);

/* One field of a tracepoint's format. */
struct pev_tp_field {
	const char *name;
	const char *type;	/* C type as the format spells it */
	int offset;		/* in the raw sample */
	int size;
	bool is_signed;
	bool is_array;
	bool is_dynamic;	/* __data_loc: the value holds offset/len */
	bool is_common;		/* common_* header field */
};

/* A tracepoint's format parsed with libtraceevent. */
struct pev_tp_format;

/* Load <tracefs>/events/<sys>/<name>/format.  NULL and errno on failure
 * (EINVAL when libtraceevent cannot parse it).  Free with
 * pev_tp_format_free. */
PEV_EXPORT struct pev_tp_format *pev_tp_format_load(const char *tracefs, const char *sys,
						    const char *name);
PEV_EXPORT void pev_tp_format_free(struct pev_tp_format *fmt);
/* The libtraceevent handle and event (owned by fmt) for printing or
 * decoding samples with tep_* functions. */
PEV_EXPORT struct tep_handle *pev_tp_format_tep(struct pev_tp_format *fmt);
PEV_EXPORT struct tep_event *pev_tp_format_event(struct pev_tp_format *fmt);
/* The tracepoint id the format declares. */
PEV_EXPORT int pev_tp_format_id(const struct pev_tp_format *fmt);
/* Fields, common ones first, in format order; NULL past the end.
 * Pointers stay valid until pev_tp_format_free. */
PEV_EXPORT size_t pev_tp_format_nr_fields(const struct pev_tp_format *fmt);
PEV_EXPORT const struct pev_tp_field *pev_tp_format_field(const struct pev_tp_format *fmt, size_t i);

/* Load the format into an existing tep handle (many events in one handle,
 * as a sampler wants).  Returns the event (owned by tep) or NULL and errno. */
PEV_EXPORT struct tep_event *pev_tp_format_load_into(struct tep_handle *tep, const char *tracefs,
						     const char *sys, const char *name);

#ifdef __cplusplus
}
#endif
#endif
