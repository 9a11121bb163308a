/* SPDX-License-Identifier: GPL-2.0-only */
/* The pager and the progress line, for commands whose output is read by a
 * person on a terminal (perfev report; perfev script does not page, as
 * perf script does not).
 *
 * Pager (perf's and git's rule): only when stdout is a terminal.  The
 * command is $PERF_PAGER, else $PAGER, else "less" with LESS=FRSX (when
 * LESS is not set: quit if one screen, raw colours, chop long lines, no
 * termcap init) and LV=-c, run with "sh -c"; an empty value or "cat"
 * means no pager, as does a missing "less".  stderr goes to the pager too
 * when it is a terminal, so warnings are not drawn over the pager.
 *
 * Progress: one line on stderr, redrawn at most 10 times a second, only
 * when stderr is a terminal and no pager holds it, and only for inputs of
 * at least PROGRESS_MIN_BYTES. */
#ifndef PEV_CLI_PAGER_H
#define PEV_CLI_PAGER_H

#include <stdbool.h>
#include <stdint.h>

/* Starts the pager when stdout is a terminal and `allowed` (false for
 * --no-pager, or output that is not for a person).  True when one runs;
 * it is waited for at exit (the output flushed and closed first).
 * perf's rule for report: --stdio output is paged on a terminal (perf
 * falls back to the pager when no TUI runs); `perf --no-pager` and
 * PAGER=cat turn it off; --header-only and pipes are not paged because
 * stdout is not a terminal or the caller passes false. */
bool pager_start(bool allowed);
/* True while the pager holds stdout. */
bool pager_active(void);
/* Flushes and closes the pipe, waits for the pager; idempotent.  Called
 * by atexit after pager_start. */
void pager_finish(void);

#define PROGRESS_MIN_BYTES (64ull << 20)

struct progress {
	const char *title;	/* "reading 'perf.data'" */
	uint64_t total;		/* bytes; 0: unknown */
	uint64_t next;		/* next byte count worth a clock read */
	uint64_t last_ns;
	bool on, drawn;
};

/* Decides whether to show anything: stderr a terminal, no pager on it,
 * total >= PROGRESS_MIN_BYTES. */
void progress_init(struct progress *p, const char *title, uint64_t total);
/* done bytes of total; cheap when nothing is due (one compare). */
static inline void progress_update(struct progress *p, uint64_t done)
{
	extern void progress_draw(struct progress *p, uint64_t done);

	if (p->on && done >= p->next)
		progress_draw(p, done);
}
/* Erases the line. */
void progress_done(struct progress *p);

#endif
