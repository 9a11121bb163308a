/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: the mmap ring buffer of a perf event (records, and the AUX
 * area).  The ring hands out raw records (header + body, contiguous); it
 * does not decode them (see record.h).
 *
 * A struct pev_ring is not thread-safe: one reader at a time.  Several
 * events may share one ring (pev_ring_add_fd, PERF_EVENT_IOC_SET_OUTPUT). */
#ifndef PERFEV_RING_H
#define PERFEV_RING_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pev_ring;

/* How the kernel writes and we read. */
enum pev_ring_mode {
	/* Mapped read-write: the kernel never overwrites unread data (it
	 * drops records and later writes PERF_RECORD_LOST); the reader
	 * advances data_tail.  The normal mode. */
	PEV_RING_FORWARD = 0,
	/* Mapped read-only, attr.write_backward = 0: the kernel overwrites
	 * the oldest data.  The reader pauses output while reading and can
	 * only detect that data was lost (a forward ring cannot be resynced
	 * after an overrun: record boundaries are unknown). */
	PEV_RING_FORWARD_OVERWRITE = 1,
	/* Mapped read-only, attr.write_backward = 1 (the flight recorder):
	 * the kernel writes each record below the previous one; the reader
	 * pauses output, walks the records from data_head, and hands them
	 * out oldest first. */
	PEV_RING_BACKWARD = 2,
};

/* Options for pev_ring_new.  .size = sizeof(struct pev_ring_opts); zero
 * fields mean the defaults. */
struct pev_ring_opts {
	size_t size;
	/* Data pages: a power of two.  0 = perf's default: as many as
	 * kernel.perf_event_mlock_kb allows for one ring (mlock_kb minus the
	 * user page, rounded down to a power of two; 128 with 4 KiB pages),
	 * and PEV_RING_SHRINK is implied. */
	unsigned data_pages;
	enum pev_ring_mode mode;
	unsigned flags;		/* PEV_RING_* below */
};
/* On EPERM from mmap (the locked-memory budget), halve the data pages and
 * retry, down to 1 data page. */
#define PEV_RING_SHRINK 0x1u

/* What pev_ring_new did (optional out-parameter; .size must be set). */
struct pev_ring_report {
	size_t size;
	unsigned requested_pages;	/* data pages asked for */
	unsigned mapped_pages;		/* data pages mapped (0 on failure) */
	unsigned retries;		/* mmaps refused with EPERM before success */
	long mlock_kb;			/* kernel.perf_event_mlock_kb, -1 unknown */
	int error;			/* 0, or the errno of the failure */
	char reason[256];		/* why it failed, or why it shrank; "" */
};

/* Map the ring of perf event fd: 1 + data_pages pages at offset 0.
 * Returns the ring, or NULL with errno: EINVAL when data_pages is not a
 * power of two, EPERM when the locked-memory budget refuses even the
 * smallest ring tried, or mmap's errno.  report (may be NULL) says why.
 * The ring does not own fd (pev_ring_free does not close it). */
PEV_EXPORT struct pev_ring *pev_ring_new(int fd, const struct pev_ring_opts *opts,
					 struct pev_ring_report *report);

/* Caller-provided memory laid out like a mapped ring: the user page at
 * base, the data area at data_offset (from the page; page_size when 0),
 * of data_size bytes (from the page; len - page_size when 0).  aux (may
 * be NULL) is the AUX area, aux_len bytes (aux_size from the page when it
 * is set must equal aux_len).  For tests, and for reading a copy of a
 * ring.  .size = sizeof(struct pev_ring_memory). */
struct pev_ring_memory {
	size_t size;
	void *base;
	size_t len;
	void *aux;
	size_t aux_len;
	size_t page_size;	/* 0 = the system's page size */
};
/* A ring over caller memory (never unmapped; the caller frees it after
 * pev_ring_free).  NULL with errno EINVAL when the layout does not hold
 * (data size not a power of two, area outside len). */
PEV_EXPORT struct pev_ring *pev_ring_from_memory(const struct pev_ring_memory *mem,
						 enum pev_ring_mode mode);

/* Unmap (when mapped by pev_ring_new) and free; resumes output if a batch
 * left it paused.  NULL is fine. */
PEV_EXPORT void pev_ring_free(struct pev_ring *r);

/* The fd the ring was mapped from (-1 for memory rings).  Poll it: POLLIN
 * when wakeup_events/wakeup_watermark is reached, POLLHUP when the
 * monitored task exited (or the event was disabled by REFRESH). */
PEV_EXPORT int pev_ring_fd(const struct pev_ring *r);
/* Data pages mapped; the data area's size in bytes. */
PEV_EXPORT unsigned pev_ring_data_pages(const struct pev_ring *r);
PEV_EXPORT uint64_t pev_ring_data_size(const struct pev_ring *r);
PEV_EXPORT enum pev_ring_mode pev_ring_mode(const struct pev_ring *r);
/* The control page (see user_page.h). */
PEV_EXPORT struct perf_event_mmap_page *pev_ring_user_page(const struct pev_ring *r);
/* Why the last failing call on this ring failed ("" when none). */
PEV_EXPORT const char *pev_ring_reason(const struct pev_ring *r);
/* Bytes known to be lost by the reader: overruns of overwrite rings
 * (forward) and the rest of a batch dropped after a corrupt header.
 * Records the kernel dropped are reported by PERF_RECORD_LOST instead. */
PEV_EXPORT uint64_t pev_ring_lost_bytes(const struct pev_ring *r);

/* Redirect event fd's records into this ring (PERF_EVENT_IOC_SET_OUTPUT).
 * The kernel wants both on the same CPU (or the same task when cpu = -1),
 * the same clock, and the same write_backward.  0 or -errno. */
PEV_EXPORT int pev_ring_add_fd(struct pev_ring *r, int fd);

/* --- Reading records, in batches (like libperf's perf_mmap__read_*) ---
 *
 *	if (pev_ring_read_init(r) > 0) {
 *		const struct perf_event_header *h;
 *		while (pev_ring_read_next(r, &h) > 0)
 *			use(h);
 *		pev_ring_read_done(r);
 *	}
 *
 * read_init takes a snapshot of data_head (load-acquire) and, in the
 * overwrite modes, pauses output (PERF_EVENT_IOC_PAUSE_OUTPUT) until
 * read_done.  Returns the bytes in the batch (> 0), 0 when there is
 * nothing new, -EOVERFLOW when an overwrite ring lost data that cannot be
 * resynchronized (the position moves to the head; pev_ring_lost_bytes
 * grows; no batch is open), -EBADMSG on a corrupt backward ring, -EBUSY
 * when a batch is already open. */
PEV_EXPORT int pev_ring_read_init(struct pev_ring *r);
/* Next record of the batch: 1 and *rec, 0 at the end, or -EBADMSG when a
 * header is impossible (size < 8, or larger than what the batch holds);
 * the batch then ends.  Records are oldest first in every mode.  *rec is
 * contiguous (a record that wraps past the end of the data area is copied
 * into the ring's scratch buffer) and stays valid until the next
 * read_next or read_done. */
PEV_EXPORT int pev_ring_read_next(struct pev_ring *r, const struct perf_event_header **rec);
/* End the batch: PEV_RING_FORWARD stores data_tail (store-release) past
 * every record handed out, or past the whole batch after -EBADMSG (so a
 * corrupt ring cannot jam); overwrite modes remember the position and
 * resume output.  0, or -EINVAL when no batch is open. */
PEV_EXPORT int pev_ring_read_done(struct pev_ring *r);

/* A piece of ring memory. */
struct pev_ring_span {
	const void *data;
	size_t size;
};
/* The unread bytes of the open batch as up to two spans, in ring memory
 * order (end of the data area, then its start), for a writer that copies
 * them verbatim.  They are marked read: read_done then consumes them.
 * Forward rings: oldest record first.  Backward rings: the memory order
 * is newest record first.  Returns the number of spans (0..2). */
PEV_EXPORT int pev_ring_read_spans(struct pev_ring *r, struct pev_ring_span span[2]);

/* Wait until some ring is readable or hung up: poll(2) on the rings' fds.
 * revents[i] (may be NULL) gets ring i's POLLIN/POLLHUP/POLLERR bits.
 * timeout_ms as poll(2).  Returns the number of rings with events, 0 on
 * timeout, or -errno (-EINTR included). */
PEV_EXPORT int pev_ring_poll(struct pev_ring *const *rings, size_t n, int timeout_ms,
			     short *revents);

/* Attr guidance for wakeups (the poll()/signal notification):
 * wakeup every n PERF_RECORD_SAMPLEs (watermark = 0), or once `bytes` of
 * any records are pending (watermark = 1).  With neither, the kernel wakes
 * at half the data area. */
PEV_EXPORT void pev_attr_wakeup_events(struct perf_event_attr *attr, uint32_t n);
PEV_EXPORT void pev_attr_wakeup_watermark(struct perf_event_attr *attr, uint32_t bytes);

/* --- The AUX area (Intel PT, ARM SPE, CoreSight: PMUs with setup_aux) ---
 * Map pages (a power of two) of AUX buffer after the data area: writes
 * aux_offset/aux_size into the user page and maps them.  overwrite maps it
 * read-only (the PMU's snapshot mode).  Needs a PEV_RING_FORWARD ring
 * mapped by pev_ring_new.  0 or -errno: -EINVAL bad size, -EEXIST already
 * mapped, -EOPNOTSUPP when the event's PMU has no AUX support (every
 * software event), or mmap's errno; pev_ring_reason says which. */
PEV_EXPORT int pev_ring_aux_map(struct pev_ring *r, unsigned pages, bool overwrite);
/* AUX bytes, in bytes (0 when unmapped). */
PEV_EXPORT uint64_t pev_ring_aux_size(const struct pev_ring *r);
/* The new AUX bytes since the last aux_done, as up to two spans (the
 * aux_head snapshot is a load-acquire).  When the head ran more than a
 * whole buffer ahead (overwrite AUX), only the last aux_size bytes are
 * handed out and *lost (may be NULL) gets the bytes skipped.  Returns the
 * number of spans (0..2), or -ENODEV when no AUX area is mapped. */
PEV_EXPORT int pev_ring_aux_read(struct pev_ring *r, struct pev_ring_span span[2],
				 uint64_t *lost);
/* Consume what aux_read handed out: store-release of aux_tail (writable
 * AUX areas).  0 or -ENODEV. */
PEV_EXPORT int pev_ring_aux_done(struct pev_ring *r);

#ifdef __cplusplus
}
#endif
#endif
