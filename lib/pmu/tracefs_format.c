// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Tracepoint formats through libtraceevent, kept for the sampling code
 * that decodes raw tracepoint payloads. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>

#include <perfev/tracefs.h>
#include "core/util.h"

struct pev_tp_format {
	struct tep_handle *tep;
	struct tep_event *event;
	struct pev_tp_field *fields;
	size_t nr_fields;
};

/* Formats are a few KiB; 1 MiB is a generous bound. */
#define FORMAT_MAX (1 << 20)

static char *read_format(const char *tracefs, const char *sys, const char *name, size_t *len)
{
	char path[4096];
	size_t cap = 8192, n = 0;
	char *buf;
	int fd;

	if (!tracefs || !sys || !name || strchr(sys, '/') || strchr(name, '/') ||
	    !*sys || !*name || !strcmp(sys, "..") || !strcmp(name, "..")) {
		errno = EINVAL;
		return NULL;
	}
	if (snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracefs, sys, name) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		if (n + 1 >= cap) {
			if (cap >= FORMAT_MAX) {
				free(buf);
				buf = NULL;
				errno = EFBIG;
				break;
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			buf = NULL;
			errno = e;
			break;
		}
		if (r == 0) {
			buf[n] = '\0';
			*len = n;
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	return buf;
}

PEV_EXPORT struct tep_event *pev_tp_format_load_into(struct tep_handle *tep, const char *tracefs,
						     const char *sys, const char *name)
{
	struct tep_event *ev = NULL;
	size_t len = 0;
	char *text;

	if (!tep) {
		errno = EINVAL;
		return NULL;
	}
	text = read_format(tracefs, sys, name, &len);
	if (!text)
		return NULL;
	/* tep_parse_format adds the event to tep and hands it back. */
	enum tep_errno r = tep_parse_format(tep, &ev, text, len, sys);
	free(text);
	if (r != 0 || !ev) {
		errno = EINVAL;
		return NULL;
	}
	return ev;
}

static int add_fields(struct pev_tp_format *f, struct tep_format_field *fl, bool common, size_t *cap)
{
	for (; fl; fl = fl->next) {
		if (pev__grow_array(f->fields, cap, f->nr_fields + 1, 16))
			return -ENOMEM;
		struct pev_tp_field *d = &f->fields[f->nr_fields++];
		d->name = fl->name;
		d->type = fl->type;
		d->offset = fl->offset;
		d->size = fl->size;
		d->is_signed = fl->flags & TEP_FIELD_IS_SIGNED;
		d->is_array = fl->flags & TEP_FIELD_IS_ARRAY;
		d->is_dynamic = fl->flags & TEP_FIELD_IS_DYNAMIC;
		d->is_common = common;
	}
	return 0;
}

PEV_EXPORT struct pev_tp_format *pev_tp_format_load(const char *tracefs, const char *sys,
						    const char *name)
{
	struct pev_tp_format *f = calloc(1, sizeof(*f));
	size_t cap = 0;

	if (!f)
		return NULL;
	f->tep = tep_alloc();
	if (!f->tep) {
		free(f);
		errno = ENOMEM;
		return NULL;
	}
	f->event = pev_tp_format_load_into(f->tep, tracefs, sys, name);
	if (!f->event) {
		int e = errno;
		pev_tp_format_free(f);
		errno = e;
		return NULL;
	}
	if (add_fields(f, f->event->format.common_fields, true, &cap) ||
	    add_fields(f, f->event->format.fields, false, &cap)) {
		pev_tp_format_free(f);
		errno = ENOMEM;
		return NULL;
	}
	return f;
}

PEV_EXPORT void pev_tp_format_free(struct pev_tp_format *fmt)
{
	if (!fmt)
		return;
	if (fmt->tep)
		tep_free(fmt->tep);
	free(fmt->fields);
	free(fmt);
}

PEV_EXPORT struct tep_handle *pev_tp_format_tep(struct pev_tp_format *fmt)
{
	return fmt ? fmt->tep : NULL;
}

PEV_EXPORT struct tep_event *pev_tp_format_event(struct pev_tp_format *fmt)
{
	return fmt ? fmt->event : NULL;
}

PEV_EXPORT int pev_tp_format_id(const struct pev_tp_format *fmt)
{
	return fmt && fmt->event ? fmt->event->id : -EINVAL;
}

PEV_EXPORT size_t pev_tp_format_nr_fields(const struct pev_tp_format *fmt)
{
	return fmt ? fmt->nr_fields : 0;
}

PEV_EXPORT const struct pev_tp_field *pev_tp_format_field(const struct pev_tp_format *fmt, size_t i)
{
	return fmt && i < fmt->nr_fields ? &fmt->fields[i] : NULL;
}
