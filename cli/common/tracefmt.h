/* SPDX-License-Identifier: GPL-2.0-only */
/* Tracepoint samples formatted through libtraceevent, as perf prints
 * them (perf script, perf report's trace key): the formats come from the
 * file's tracing data (HEADER_TRACING_DATA), else from this machine's
 * tracefs, with libtraceevent's plugins loaded as perf loads them. */
#ifndef PEV_CLI_TRACEFMT_H
#define PEV_CLI_TRACEFMT_H

#include <stdbool.h>
#include <stddef.h>

#include <perfev/data.h>

struct tep_handle;
struct tep_plugin_list;
struct tep_event;
struct trace_seq;

struct tracefmt {
	struct pev_data *data;		/* borrowed */
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	bool tried;
};

/* Loads the formats once: 0, -ENOENT (an earlier try failed), -ENOMEM. */
int tracefmt_setup(struct tracefmt *t);
/* The format of the tracepoint event with this attr (index idx in the
 * file), or NULL. */
struct tep_event *tracefmt_find(struct tracefmt *t, const struct perf_event_attr *attr,
				size_t idx);
/* perf's TEP_PRINT_INFO of a sample's raw data into seq (ts and cpu as
 * given). */
void tracefmt_info(struct tracefmt *t, struct trace_seq *seq, const void *raw,
		   size_t size, unsigned long long ts, int cpu);
/* perf's --raw-trace: " name=value" for each of the event's own fields
 * (libtraceevent's tep_print_fields), no print fmt, no plugin. */
void tracefmt_fields(struct trace_seq *seq, const void *raw, size_t size,
		     struct tep_event *ev);
void tracefmt_release(struct tracefmt *t);

#endif
