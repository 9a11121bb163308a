// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Tracepoints "sys:name" (globs in either part) with ids from tracefs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/tracefs.h>
#include "event/event_internal.h"

/* The tracefs to use: the caller's, or the system's (mounted if needed). */
static int tracefs(struct parse_ctx *c, size_t pos, size_t len)
{
	if (c->tracefs_state == 0) {
		if (c->opts.tracefs_root && *c->opts.tracefs_root) {
			if (strlen(c->opts.tracefs_root) >= sizeof(c->tracefs))
				c->tracefs_state = -ENAMETOOLONG;
			else {
				strcpy(c->tracefs, c->opts.tracefs_root);
				c->tracefs_state = 1;
			}
		} else {
			int r = pev_tracefs_find(c->tracefs, sizeof(c->tracefs), true);
			c->tracefs_state = r < 0 ? r : 1;
		}
	}
	if (c->tracefs_state < 0 && c->opts.tracefs_root && *c->opts.tracefs_root)
		return pev__perr(c, pos, len, -c->tracefs_state, "tracefs root '%s': %s",
				 c->opts.tracefs_root, strerror(-c->tracefs_state));
	if (c->tracefs_state < 0)
		return pev__perr(c, pos, len, -c->tracefs_state,
				 "tracefs is not mounted (neither /sys/kernel/tracing nor /sys/kernel/debug/tracing) and mounting it failed (%s); as root run 'mount -t tracefs nodev /sys/kernel/tracing'",
				 strerror(-c->tracefs_state));
	return 0;
}

/* What a user who may not read tracefs can do.  Its files are 0440/0640
 * root:root whatever the mount mode, so mode=755 alone opens the
 * directories but not the id and format files: the gid= mount option
 * gives every file a group (checked on Linux 6.18).  The whole message
 * must fit pev_event_error's 256 bytes. */
#define TRACEFS_ADVICE \
	"run as root, or as root run 'mount -o remount,mode=755,gid=GROUP %s' for a GROUP this user is in"

/* tracefs found but this user may not look inside (mode 0700 by default
 * on recent kernels): say so rather than "unknown tracepoint". */
static int tracefs_unreadable(struct parse_ctx *c, size_t pos, size_t len)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/events", c->tracefs);
	if (access(path, X_OK) == 0 || errno != EACCES)
		return 0;
	return pev__perr(c, pos, len, EACCES,
			 "cannot read %s: permission denied (tracefs is readable only by root here); " TRACEFS_ADVICE,
			 path, c->tracefs);
}

/* the directories are open but an event's id file is not */
static int tracepoint_unreadable(struct parse_ctx *c, size_t pos, size_t len, const char *sys,
				 const char *name, int err)
{
	int r = tracefs_unreadable(c, pos, len);

	if (r)
		return r;
	return pev__perr(c, pos, len, err,
			 "cannot read the id of '%s:%s' in %s: %s; " TRACEFS_ADVICE, sys, name,
			 c->tracefs, strerror(err), c->tracefs);
}

int pev__tracepoint_unknown(struct parse_ctx *c, size_t pos, size_t len)
{
	const char *s = c->spec + pos;
	char near[128];
	int r;

	if ((r = tracefs(c, pos, len)) || (r = tracefs_unreadable(c, pos, len)))
		return r;
	if (pev__suggest_tracepoint(c->tracefs, s, len, near, sizeof(near)))
		return pev__perr(c, pos, len, ENOENT, "unknown tracepoint '%.*s'; did you mean '%s'?",
				 (int)(len > 128 ? 128 : len), s, near);
	return pev__perr(c, pos, len, ENOENT,
			 "unknown tracepoint '%.*s'; run 'perfev list tracepoint' to see them",
			 (int)(len > 128 ? 128 : len), s);
}

bool pev__tracepoint_subsys_exists(struct parse_ctx *c, const char *s, size_t len)
{
	char path[512];
	struct stat st;

	if (len > PEV_NAME_MAX || memchr(s, '/', len) || (len <= 2 && s[0] == '.'))
		return false;
	if (tracefs(c, 0, 1) < 0)
		return false;
	snprintf(path, sizeof(path), "%s/events/%.*s", c->tracefs, (int)len, s);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

struct tp_walk {
	struct parse_ctx *c;
	size_t pos, len;
	int ret;
	int denied;			/* ids that could not be read: EACCES/EPERM */
	char sys[PEV_NAME_MAX + 1], name[PEV_NAME_MAX + 1];	/* the first of them */
};

static int add_tp(struct parse_ctx *c, size_t pos, size_t len, const char *sys, const char *name)
{
	int64_t id = pev_tracepoint_id(c->tracefs, sys, name);
	char full[2 * PEV_NAME_MAX + 2];

	if (id < 0)
		return (int)id;
	int n = snprintf(full, sizeof(full), "%s:%s", sys, name);
	if (n < 0 || (size_t)n >= sizeof(full))
		return -ENAMETOOLONG;
	if (!pev__new_event(c, pos, PERF_TYPE_TRACEPOINT, (uint64_t)id, full, (size_t)n, "tracepoint"))
		return -ENOMEM;
	return 0;
}

static int walk_cb(const char *sys, const char *name, void *user)
{
	struct tp_walk *w = user;
	int r = add_tp(w->c, w->pos, w->len, sys, name);

	/* Directories without an id (e.g. "enable" files' siblings) are skipped. */
	if (r == -ENOMEM) {
		w->ret = r;
		return 1;
	}
	if ((r == -EACCES || r == -EPERM) && !w->denied++) {
		snprintf(w->sys, sizeof(w->sys), "%s", sys);
		snprintf(w->name, sizeof(w->name), "%s", name);
	}
	return 0;
}

int pev__parse_tracepoint(struct parse_ctx *c, size_t pos, size_t syslen, size_t namepos,
			  size_t namelen)
{
	const char *s = c->spec;
	size_t len = namepos + namelen - pos;
	char sys[PEV_NAME_MAX + 1], name[PEV_NAME_MAX + 1];
	int ret;

	if ((ret = tracefs(c, pos, len)))
		return ret;
	memcpy(sys, s + pos, syslen);
	sys[syslen] = '\0';
	memcpy(name, s + namepos, namelen);
	name[namelen] = '\0';
	if (!strpbrk(sys, "*?[") && !strpbrk(name, "*?[")) {
		ret = add_tp(c, pos, len, sys, name);
		if (ret == -ENOMEM)
			return pev__perr(c, pos, len, ENOMEM, "out of memory");
		if (ret == -EACCES || ret == -EPERM)
			return tracepoint_unreadable(c, pos, len, sys, name, -ret);
		if (ret < 0) {
			char full[2 * PEV_NAME_MAX + 2], near[128];
			snprintf(full, sizeof(full), "%s:%s", sys, name);
			if (pev__suggest_tracepoint(c->tracefs, full, strlen(full), near, sizeof(near)))
				return pev__perr(c, pos, len, ENOENT,
						 "unknown tracepoint '%s'; did you mean '%s'?", full, near);
			return pev__perr(c, pos, len, ENOENT,
					 "unknown tracepoint '%s:%s'; run 'perfev list tracepoint' to see them",
					 sys, name);
		}
		return 0;
	}
	size_t before = c->n;
	struct tp_walk w = { .c = c, .pos = pos, .len = len };
	ret = pev_tracepoint_foreach(c->tracefs, sys, name, walk_cb, &w);
	if (w.ret)
		return pev__perr(c, pos, len, ENOMEM, "out of memory");
	if (ret == -EACCES || ret == -EPERM) {
		int r = tracefs_unreadable(c, pos, len);

		if (r)
			return r;
	}
	if (ret < 0)
		return pev__perr(c, pos, len, -ret, "cannot list tracepoints in %s: %s", c->tracefs,
				 strerror(-ret));
	/* nothing matched because the ids could not be read: not "no match" */
	if (c->n == before && w.denied)
		return tracepoint_unreadable(c, pos, len, w.sys, w.name, EACCES);
	if (c->n == before)
		return pev__perr(c, pos, len, ENOENT,
				 "no tracepoint matches '%s:%s'; run 'perfev list tracepoint' to see them",
				 sys, name);
	return 0;
}
