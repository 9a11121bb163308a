/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Small helpers shared across lib/: one copy of each, never exported. */
#ifndef PEV_UTIL_H
#define PEV_UTIL_H

#include <stddef.h>

#define PEV_HIDDEN __attribute__((visibility("hidden")))

/* Read up to size - 1 bytes of the file at path (relative to dirfd, which
 * may be AT_FDCWD) into buf and NUL-terminate it; retries EINTR.  Returns
 * the length read or -errno.  For small text files in /proc and /sys. */
PEV_HIDDEN int pev__read_small(int dirfd, const char *path, char *buf, size_t size);

/* pev__read_small(), then trailing newlines, spaces and tabs trimmed. */
PEV_HIDDEN int pev__read_file_at(int dirfd, const char *name, char *buf, size_t size);

/* Make the array at *arrp (a pointer to a pointer to elem-sized items) hold
 * at least need items; the capacity doubles from first.  0 or -ENOMEM, and
 * on failure the array and *cap are unchanged. */
PEV_HIDDEN int pev__grow(void *arrp, size_t *cap, size_t need, size_t elem, size_t first);

/* pev__grow() for an array lvalue: pev__grow_array(v->items, &v->cap, n + 1, 8). */
#define pev__grow_array(arr, cap, need, first) \
	pev__grow(&(arr), (cap), (need), sizeof(*(arr)), (first))

/* perf's fallback for unprivileged users (evsel__fallback): above
 * kernel.perf_event_paranoid 1 only user space may be counted, so an event
 * refused for counting the kernel too may be opened again with
 * exclude_kernel and exclude_hv.  When that applies, sets them on a and
 * returns the paranoid value (> 1); else leaves a alone and returns 0 (an
 * event that excludes user space or the kernel already stays refused). */
struct perf_event_attr;
PEV_HIDDEN long pev__user_fallback(struct perf_event_attr *a);

/* name as perf renames it after that fallback: ":u" appended ("task-clock:u"),
 * or "u" alone after a name that has modifiers or a PMU ("cpu/e/u").  NULL
 * on ENOMEM. */
PEV_HIDDEN char *pev__user_only_name(const char *name);

#endif
