// SPDX-License-Identifier: GPL-2.0-only
/* perfev record: the drain loop (perf's record__mmap_read_all:
 * every ring copied verbatim, a FINISHED_ROUND after each pass that wrote
 * data, a final synchronous pass after disabling), the LOST_SAMPLES read
 * at the end, and cutting a file back to its last complete round when a
 * write failed. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/signals.h"
#include "record/record.h"

/* The only per-record work of the hot path: the headers are walked to
 * count samples and LOST records and to keep SAMPLE_TIME; the bytes
 * themselves go to the file untouched. */
static void account(struct rec *r, const struct pev_ring_span *sp, int n,
		    size_t total)
{
	size_t time_off = 8 + 16 +
		(r->ev[0].attr.attr.sample_type & PERF_SAMPLE_IDENTIFIER ? 8 : 0);
	bool has_time = r->ev[0].attr.attr.sample_type & PERF_SAMPLE_TIME;

	for (size_t off = 0; off + 8 <= total; ) {
		struct perf_event_header h;
		uint64_t v;

		if (n && off + 8 <= sp[0].size)
			memcpy(&h, (const unsigned char *)sp[0].data + off, 8);
		else
			rec_span_copy(sp, n, off, &h, 8);
		if (h.size < 8)
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			r->samples++;
			if (has_time && h.size >= time_off + 8) {
				rec_span_copy(sp, n, off + time_off, &v, 8);
				if (v < r->first_time)
					r->first_time = v;
				if (v > r->last_time)
					r->last_time = v;
			}
		} else if (h.type == PERF_RECORD_LOST && h.size >= 24) {
			rec_span_copy(sp, n, off + 16, &v, 8);
			r->lost += v;
			r->lost_records++;
		}
		off += h.size;
	}
}

/* One pass over every ring; a FINISHED_ROUND when it wrote anything. */
static int drain_pass(struct rec *r)
{
	bool wrote = false;
	int err = 0;

	for (size_t i = 0; i < r->nrings && !err; i++) {
		struct pev_ring *ring = r->rings[i];
		struct pev_ring_span sp[2];

		if (pev_ring_read_init(ring) <= 0)
			continue;
		int n = pev_ring_read_spans(ring, sp);
		const void *bufs[2];
		size_t lens[2], total = 0;

		for (int k = 0; k < n; k++) {
			bufs[k] = sp[k].data;
			lens[k] = sp[k].size;
			total += sp[k].size;
		}
		if (total) {
			account(r, sp, n, total);
			err = pev_data_writer_writev(r->w, bufs, lens, (size_t)n);
			if (!err && r->o.off_cpu)
				rec_offcpu_scan(r, sp, n, total);
			r->bytes += total;
			wrote = true;
		}
		pev_ring_read_done(ring);
	}
	if (wrote && !err && r->o.off_cpu)
		err = rec_offcpu_flush(r);
	if (wrote && !err)
		err = pev_data_writer_finished_round(r->w);
	if (err) {
		r->write_err = err;
		return err;
	}
	if (wrote)
		r->rounds[r->nrounds++ % REC_ROUNDS_KEPT] = (struct rec_round){
			pev_data_writer_round_size(r->w), r->samples,
			r->first_time, r->last_time };
	return 0;
}

static void disable_all(struct rec *r)
{
	for (size_t i = 0; i < r->nev; i++) {
		if (r->ev[i].leader != (int)i)
			continue;
		for (size_t s = 0; s < r->nthreads * r->ncpus; s++)
			if (r->ev[i].fds[s] >= 0)
				pev_ioc_disable(r->ev[i].fds[s], false);
	}
}

/* --max-size: perf stops once the data written reaches the limit (checked
 * after each pass, so the file may hold one pass more). */
static bool size_reached(struct rec *r)
{
	uint64_t n;

	if (!r->o.max_size || r->size_limited)
		return r->size_limited;
	n = pev_data_writer_data_size(r->w);
	if (n < r->o.max_size)
		return false;
	r->size_limited = true;
	fflush(stdout);
	fprintf(stderr, "[ perfev record: perf size limit reached (%llu KB), stopping "
		"session ]\n", (unsigned long long)(n >> 10));
	return true;
}

int rec_run(struct rec *r)
{
	sigset_t open;
	bool done = false;

	signals_wait_mask(&open, true);
	while (!r->write_err) {
		uint64_t before = r->bytes;

		/* --overwrite: the rings are read once, at the end. */
		if ((!r->o.overwrite && drain_pass(r) < 0) || size_reached(r) || done)
			break;
		if (signals_stop() || (signals_child_exited() && r->wl)) {
			done = true;	/* one more pass, then stop */
			continue;
		}
		/* Data is still coming: no wait, but a zero-timeout ppoll opens
		 * the signal mask, so that a SIGINT, SIGTERM or SIGCHLD pending
		 * since the last pass is seen even when the rings never empty
		 * (-F max on a busy machine); it does not count as a wakeup. */
		if (r->bytes != before) {
			static const struct timespec now;

			ppoll(NULL, 0, &now, &open);
			continue;
		}
		int n = ppoll(r->pfd, r->nrings, NULL, &open);

		/* perf counts every return of its poll, a signal's included */
		r->wakeups++;
		if (n > 0) {
			size_t hup = 0;

			for (size_t i = 0; i < r->nrings; i++)
				if (r->pfd[i].revents & (POLLHUP | POLLERR))
					hup++;
			/* Every monitored task is gone. */
			if (hup == r->nrings)
				done = true;
		} else if (n < 0 && errno != EINTR) {
			break;
		}
	}
	disable_all(r);
	if (!r->write_err && !r->size_limited)
		drain_pass(r);	/* the final synchronous pass */
	return r->write_err;
}

/* PERF_RECORD_LOST_SAMPLES for every fd whose read() reports lost
 * samples (read_format LOST), as perf writes at the end. */
int rec_write_lost_samples(struct rec *r)
{
	for (size_t i = 0; i < r->nev; i++) {
		const struct perf_event_attr *a = &r->ev[i].attr.attr;

		if (!(a->read_format & PERF_FORMAT_LOST))
			continue;
		for (size_t s = 0; s < r->nthreads * r->ncpus; s++) {
			uint64_t buf[3 + 3 * 64];
			int fd = r->ev[i].fds[s];

			if (fd < 0 || (a->read_format & PERF_FORMAT_GROUP &&
				       r->ev[i].leader != (int)i))
				continue;
			ssize_t got = read(fd, buf, sizeof(buf));
			uint64_t n = a->read_format & PERF_FORMAT_GROUP ? buf[0] : 1;
			const uint64_t *e = a->read_format & PERF_FORMAT_GROUP ? buf + 1 : buf;

			if (got < (ssize_t)(8 * 3) || n > 64 ||
			    (size_t)got < 8 * (3 * n + (e != buf)))
				continue;
			for (uint64_t k = 0; k < n; k++, e += 3) {
				uint64_t rec[8] = { 0 };
				struct perf_event_header *h = (void *)rec;

				if (!e[2])
					continue;
				h->type = PERF_RECORD_LOST_SAMPLES;
				rec[1] = e[2];
				size_t t = pev_synth_sample_id(a, (uint32_t)-1,
					(uint32_t)-1, 0, e[1],
					(uint32_t)r->cpus[s % r->ncpus], &rec[2]);

				h->size = (uint16_t)(16 + t);
				int err = pev_data_writer_write(r->w, rec, h->size);

				if (err) {
					r->write_err = err;
					return err;
				}
			}
		}
	}
	return 0;
}

/* Ends the file at `at` with SAMPLE_TIME for its samples. */
static int cut_at(struct rec *r, const struct rec_round *at)
{
	pev_data_writer_set_sample_time(r->w, at->first_time, at->last_time);
	int e = pev_data_writer_finish_at(r->w, at->size);

	if (e >= 0)
		r->samples = at->samples;
	return e;
}

/* The writer could not write everything: the library ends the file at the
 * last complete round (after every record, when only the end failed),
 * with the feature sections when they fit in the room the cut gave back,
 * so perf and perfev read it without complaint.  When they do not fit,
 * the file is cut back once more, to the newest round that frees as many
 * bytes as the features take: a file without EVENT_DESC, BUILD_ID,
 * CMDLINE ... (or, compressed, without COMPRESSED, which perf needs) is
 * worth less than that many bytes of samples.  Without such a round
 * among the last REC_ROUNDS_KEPT, nothing more is given up.  Returns
 * pev_data_writer_finish_at's result. */
int rec_recover_truncated(struct rec *r)
{
	struct rec_round all = { pev_data_writer_data_size(r->w), r->samples,
				 r->first_time, r->last_time };
	static const struct rec_round none = { 0, 0, UINT64_MAX, 0 };
	uint64_t kept = r->nrounds < REC_ROUNDS_KEPT ? r->nrounds : REC_ROUNDS_KEPT;
	const struct rec_round *at = r->data_complete ? &all : kept ?
		&r->rounds[(r->nrounds - 1) % REC_ROUNDS_KEPT] : &none;
	uint64_t need;
	int e;

	if (r->pipe)
		return 0;
	/* BUILD_ID was not collected yet: from what the file holds, the
	 * partial round included (an id more than needed is harmless). */
	if (!r->data_complete && !r->o.no_buildid)
		rec_collect_build_ids(r);
	e = cut_at(r, at);
	if (e != PEV_DATA_FEATURES_DROPPED ||
	    pev_data_writer_features_size(r->w, &need) < 0 || need > at->size)
		return e;
	for (uint64_t k = 0; k < kept; k++) {
		const struct rec_round *o = &r->rounds[(r->nrounds - 1 - k) %
						       REC_ROUNDS_KEPT];

		if (o->size <= at->size - need) {
			r->data_complete = false;
			r->rounds_given_up = (unsigned)k;
			return cut_at(r, o);
		}
	}
	return e;
}
