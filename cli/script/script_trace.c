// SPDX-License-Identifier: GPL-2.0-only
/* perfev script: tracepoint samples printed through libtraceevent
 * (tracefmt.c). */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "script/script.h"

int script_trace_setup(struct script *s)
{
	s->tf.data = s->data;
	return tracefmt_setup(&s->tf);
}

struct tep_event *script_trace_find(struct script *s, const struct perf_event_attr *attr)
{
	size_t idx;

	for (idx = 0; idx < pev_decoder_nr_attrs(s->dec); idx++)
		if (pev_decoder_attr(s->dec, idx) == attr)
			break;
	s->tf.data = s->data;
	return tracefmt_find(&s->tf, attr, idx);
}

void script_trace_print(struct script *s, struct script_event *ev,
			const struct pev_sample *smp)
{
	struct trace_seq seq;

	trace_seq_init(&seq);
	tracefmt_info(&s->tf, &seq, smp->raw.data, smp->raw.size, smp->time, (int)smp->cpu);
	trace_seq_terminate(&seq);
	so_mem(&s->out, seq.buffer, seq.len);
	trace_seq_destroy(&seq);
	(void)ev;
}

void script_trace_release(struct script *s)
{
	tracefmt_release(&s->tf);
}
