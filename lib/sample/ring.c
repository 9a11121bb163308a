// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The ring object: mapping (with the locked-memory budget), memory rings
 * for tests, SET_OUTPUT, poll, wakeup guidance, and the AUX area.  The
 * read protocol is in ring_read.c. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <perfev/ring.h>
#include <perfev/sys.h>
#include "sample/ring_internal.h"

int pev__ring_fail(struct pev_ring *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
	return -err;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static size_t sys_page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (size_t)ps : 4096;
}

static void report_set(struct pev_ring_report *rep, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void report_set(struct pev_ring_report *rep, int err, const char *fmt, ...)
{
	va_list ap;

	if (!rep)
		return;
	rep->error = err;
	va_start(ap, fmt);
	vsnprintf(rep->reason, sizeof(rep->reason), fmt, ap);
	va_end(ap);
}

/* perf's default (perf_event_mlock_kb_in_pages): the mlock allowance minus
 * the user page, rounded down to a power of two; 512 KiB when unknown. */
static unsigned default_pages(size_t ps, long mlock_kb)
{
	uint64_t bytes = mlock_kb > 0 ? (uint64_t)mlock_kb * 1024 : 516 * 1024;
	uint64_t pages = bytes > ps ? (bytes - ps) / ps : 1;
	unsigned p = 1;

	while ((uint64_t)p * 2 <= pages && p < (1u << 30))
		p *= 2;
	return p;
}

/* Take the layout from the user page (Linux >= 4.1), else the fixed one. */
static int ring_layout(struct pev_ring *r, size_t len)
{
	uint64_t off = r->pc->data_offset, size = r->pc->data_size;

	if (!size) {
		off = r->page_size;
		size = len > r->page_size ? len - r->page_size : 0;
	}
	if (!is_pow2(size) || size < 8 || off < sizeof(*r->pc) || off > len ||
	    size > len - off)
		return -EINVAL;
	r->data = (unsigned char *)r->base + off;
	r->size = size;
	r->mask = size - 1;
	return 0;
}

static struct pev_ring *ring_alloc(int fd, enum pev_ring_mode mode)
{
	struct pev_ring *r;

	if ((unsigned)mode > PEV_RING_BACKWARD) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->fd = fd;
	r->mode = mode;
	return r;
}

PEV_EXPORT struct pev_ring *pev_ring_new(int fd, const struct pev_ring_opts *opts,
					 struct pev_ring_report *report)
{
	struct pev_ring_opts o = { 0 };
	size_t ps = sys_page_size();
	long mlock_kb = -1;
	struct pev_ring *r;
	unsigned pages;
	void *p;
	int err;

	if (opts)
		memcpy(&o, opts, opts->size && opts->size < sizeof(o) ? opts->size : sizeof(o));
	if (report) {
		size_t sz = report->size;
		memset(report, 0, sizeof(*report));
		report->size = sz;
	}
	if (pev_sysctl_read(PEV_SYSCTL_MLOCK_KB, &mlock_kb) < 0)
		mlock_kb = -1;
	if (report)
		report->mlock_kb = mlock_kb;
	pages = o.data_pages;
	if (!pages) {
		pages = default_pages(ps, mlock_kb);
		o.flags |= PEV_RING_SHRINK;
	}
	if (report)
		report->requested_pages = pages;
	if (!is_pow2(pages) || pages > (1u << 30)) {
		report_set(report, EINVAL, "a ring needs a power-of-two number of data pages "
			   "(1 + 2^n pages mapped); %u is not one", pages);
		errno = EINVAL;
		return NULL;
	}
	if (fd < 0) {
		report_set(report, EBADF, "no event fd to map");
		errno = EBADF;
		return NULL;
	}
	r = ring_alloc(fd, o.mode);
	if (!r) {
		report_set(report, errno, "bad ring mode or out of memory");
		return NULL;
	}
	r->page_size = ps;
	/* Read-only mappings make the kernel treat the ring as overwritable
	 * (no RING_BUFFER_WRITABLE): it ignores data_tail. */
	int prot = o.mode == PEV_RING_FORWARD ? PROT_READ | PROT_WRITE : PROT_READ;
	unsigned first = pages;
	for (;;) {
		size_t len = (size_t)(pages + 1) * ps;
		p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
		if (p != MAP_FAILED) {
			r->map_len = len;
			break;
		}
		err = errno;
		if (err == EPERM && (o.flags & PEV_RING_SHRINK) && pages > 1) {
			pages /= 2;
			if (report)
				report->retries++;
			continue;
		}
		if (err == EPERM)
			report_set(report, err, "mmap of %u data pages refused (EPERM): locked ring "
				   "memory is limited by kernel.perf_event_mlock_kb = %ld KiB per "
				   "user per CPU, beyond that by RLIMIT_MEMLOCK; raise "
				   "kernel.perf_event_mlock_kb or map fewer pages", pages, mlock_kb);
		else if (err == EINVAL)
			report_set(report, err, "mmap of 1 + %u pages refused (EINVAL): the event "
				   "already has a ring of another size, or cannot have one", pages);
		else
			report_set(report, err, "mmap of 1 + %u pages failed: %s", pages, strerror(err));
		free(r);
		errno = err;
		return NULL;
	}
	r->base = p;
	r->mapped = true;
	r->pc = p;
	r->data_pages = pages;
	if (ring_layout(r, r->map_len) < 0) {
		report_set(report, EINVAL, "the user page describes an impossible data area "
			   "(offset %llu, size %llu)", (unsigned long long)r->pc->data_offset,
			   (unsigned long long)r->pc->data_size);
		munmap(p, r->map_len);
		free(r);
		errno = EINVAL;
		return NULL;
	}
	/* A fresh ring's tail is 0; an fd mapped twice shares the old one. */
	r->prev = r->mode == PEV_RING_BACKWARD ? 0 :
		__atomic_load_n(&r->pc->data_tail, __ATOMIC_ACQUIRE);
	if (report) {
		report->mapped_pages = pages;
		if (pages != first)
			report_set(report, 0, "mmap of %u data pages refused (EPERM): locked ring "
				   "memory is limited by kernel.perf_event_mlock_kb = %ld KiB per "
				   "user per CPU, beyond that by RLIMIT_MEMLOCK; mapped %u data "
				   "pages instead", first, mlock_kb, pages);
	}
	return r;
}

PEV_EXPORT struct pev_ring *pev_ring_from_memory(const struct pev_ring_memory *mem,
						 enum pev_ring_mode mode)
{
	struct pev_ring_memory m = { 0 };
	struct pev_ring *r;

	if (!mem || !mem->base) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(&m, mem, mem->size && mem->size < sizeof(m) ? mem->size : sizeof(m));
	if (!m.page_size)
		m.page_size = sys_page_size();
	if (m.len < m.page_size || m.len < sizeof(struct perf_event_mmap_page)) {
		errno = EINVAL;
		return NULL;
	}
	r = ring_alloc(-1, mode);
	if (!r)
		return NULL;
	r->base = m.base;
	r->map_len = m.len;
	r->page_size = m.page_size;
	r->pc = m.base;
	if (ring_layout(r, m.len) < 0)
		goto inval;
	r->data_pages = (unsigned)(r->size / m.page_size);
	r->prev = mode == PEV_RING_BACKWARD ? 0 :
		__atomic_load_n(&r->pc->data_tail, __ATOMIC_ACQUIRE);
	if (m.aux) {
		uint64_t sz = r->pc->aux_size ? r->pc->aux_size : m.aux_len;
		if (sz != m.aux_len || !is_pow2(sz))
			goto inval;
		r->aux = m.aux;
		r->aux_size = sz;
		r->aux_pos = __atomic_load_n(&r->pc->aux_tail, __ATOMIC_ACQUIRE);
		r->aux_snap = r->aux_pos;
	}
	return r;
inval:
	free(r);
	errno = EINVAL;
	return NULL;
}

PEV_EXPORT void pev_ring_free(struct pev_ring *r)
{
	if (!r)
		return;
	if (r->paused && r->fd >= 0)
		pev_ioc_pause_output(r->fd, false);
	if (r->mapped) {
		if (r->aux_mapped)
			munmap(r->aux, r->aux_size);
		munmap(r->base, r->map_len);
	}
	free(r->offs);
	free(r->scratch);
	free(r);
}

PEV_EXPORT int pev_ring_fd(const struct pev_ring *r)
{
	return r ? r->fd : -1;
}

PEV_EXPORT unsigned pev_ring_data_pages(const struct pev_ring *r)
{
	return r ? r->data_pages : 0;
}

PEV_EXPORT uint64_t pev_ring_data_size(const struct pev_ring *r)
{
	return r ? r->size : 0;
}

PEV_EXPORT enum pev_ring_mode pev_ring_mode(const struct pev_ring *r)
{
	return r ? r->mode : PEV_RING_FORWARD;
}

PEV_EXPORT struct perf_event_mmap_page *pev_ring_user_page(const struct pev_ring *r)
{
	return r ? r->pc : NULL;
}

PEV_EXPORT const char *pev_ring_reason(const struct pev_ring *r)
{
	return r ? r->reason : "";
}

PEV_EXPORT uint64_t pev_ring_lost_bytes(const struct pev_ring *r)
{
	return r ? r->lost : 0;
}

PEV_EXPORT int pev_ring_add_fd(struct pev_ring *r, int fd)
{
	int err;

	if (!r || r->fd < 0)
		return -EINVAL;
	err = pev_ioc_set_output(fd, r->fd);
	if (err == -EINVAL)
		return pev__ring_fail(r, EINVAL, "cannot redirect fd %d into this ring: the kernel "
				 "wants both events on the same CPU (or the same task for "
				 "cpu -1), with the same clock and write_backward, and fd %d "
				 "without a ring of its own", fd, fd);
	if (err < 0)
		return pev__ring_fail(r, -err, "PERF_EVENT_IOC_SET_OUTPUT on fd %d: %s", fd,
				 strerror(-err));
	return 0;
}

PEV_EXPORT int pev_ring_poll(struct pev_ring *const *rings, size_t n, int timeout_ms,
			     short *revents)
{
	struct pollfd *pfd;
	int ret = 0;

	if (!rings || !n)
		return -EINVAL;
	pfd = calloc(n, sizeof(*pfd));
	if (!pfd)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		pfd[i].fd = rings[i] ? rings[i]->fd : -1;	/* poll ignores -1 */
		pfd[i].events = POLLIN;
	}
	ret = poll(pfd, n, timeout_ms);
	if (ret < 0)
		ret = -errno;
	for (size_t i = 0; revents && i < n; i++)
		revents[i] = ret > 0 ? pfd[i].revents : 0;
	free(pfd);
	return ret;
}

PEV_EXPORT void pev_attr_wakeup_events(struct perf_event_attr *attr, uint32_t n)
{
	if (!attr)
		return;
	attr->watermark = 0;
	attr->wakeup_events = n;
}

PEV_EXPORT void pev_attr_wakeup_watermark(struct perf_event_attr *attr, uint32_t bytes)
{
	if (!attr)
		return;
	attr->watermark = 1;
	attr->wakeup_watermark = bytes;
}

PEV_EXPORT int pev_ring_aux_map(struct pev_ring *r, unsigned pages, bool overwrite)
{
	uint64_t off, size;
	void *p;

	if (!r)
		return -EINVAL;
	if (r->aux)
		return pev__ring_fail(r, EEXIST, "this ring already has an AUX area");
	if (!r->mapped || r->mode != PEV_RING_FORWARD)
		return pev__ring_fail(r, EINVAL, "an AUX area needs a writable ring mapped from an "
				 "event (its user page takes aux_offset/aux_size)");
	if (!is_pow2(pages) || pages > (1u << 30))
		return pev__ring_fail(r, EINVAL, "the AUX area needs a power-of-two number of pages; "
				 "%u is not one", pages);
	size = (uint64_t)pages * r->page_size;
	/* The kernel wants aux_offset page aligned, past the data area. */
	off = (uint64_t)(r->data - (unsigned char *)r->base) + r->size;
	off = (off + r->page_size - 1) & ~((uint64_t)r->page_size - 1);
	r->pc->aux_offset = off;
	r->pc->aux_size = size;
	p = mmap(NULL, size, overwrite ? PROT_READ : PROT_READ | PROT_WRITE, MAP_SHARED,
		 r->fd, (off_t)off);
	if (p == MAP_FAILED) {
		int err = errno;
		r->pc->aux_offset = 0;
		r->pc->aux_size = 0;
		if (err == EOPNOTSUPP)
			return pev__ring_fail(r, err, "the event's PMU has no AUX area (EOPNOTSUPP): only "
					 "PMUs such as intel_pt, arm_spe or cs_etm have one");
		if (err == EPERM)
			return pev__ring_fail(r, err, "mmap of %u AUX pages refused (EPERM): limited by "
					 "kernel.perf_event_mlock_kb and RLIMIT_MEMLOCK; map fewer "
					 "pages", pages);
		return pev__ring_fail(r, err, "mmap of %u AUX pages at offset %llu failed: %s", pages,
				 (unsigned long long)off, strerror(err));
	}
	r->aux = p;
	r->aux_size = size;
	r->aux_mapped = true;
	r->aux_overwrite = overwrite;
	r->aux_pos = __atomic_load_n(&r->pc->aux_tail, __ATOMIC_ACQUIRE);
	r->aux_snap = r->aux_pos;
	return 0;
}

PEV_EXPORT uint64_t pev_ring_aux_size(const struct pev_ring *r)
{
	return r && r->aux ? r->aux_size : 0;
}

int pev__ring_spans(struct pev_ring_span span[2], const unsigned char *base,
		    uint64_t size, uint64_t pos, uint64_t len)
{
	uint64_t off = pos & (size - 1);
	uint64_t first = size - off < len ? size - off : len;
	int n = 0;

	if (!len)
		return 0;
	span[n].data = base + off;
	span[n++].size = (size_t)first;
	if (first < len) {
		span[n].data = base;
		span[n++].size = (size_t)(len - first);
	}
	return n;
}

PEV_EXPORT int pev_ring_aux_read(struct pev_ring *r, struct pev_ring_span span[2],
				 uint64_t *lost)
{
	uint64_t head, tail, avail;

	if (lost)
		*lost = 0;
	if (!r || !span)
		return -EINVAL;
	if (!r->aux)
		return -ENODEV;
	/* Pairs with the kernel's store of aux_head after writing the data
	 * (the same rules as data_head, says the manual). */
	head = __atomic_load_n(&r->pc->aux_head, __ATOMIC_ACQUIRE);
	tail = r->aux_pos;
	avail = head - tail;
	if (avail > r->aux_size) {
		/* Overwritten before we read it: hand out the newest buffer. */
		if (lost)
			*lost = avail - r->aux_size;
		r->lost += avail - r->aux_size;
		tail = head - r->aux_size;
		avail = r->aux_size;
	}
	r->aux_snap = head;
	r->aux_pos = tail;
	return pev__ring_spans(span, r->aux, r->aux_size, tail, avail);
}

PEV_EXPORT int pev_ring_aux_done(struct pev_ring *r)
{
	if (!r)
		return -EINVAL;
	if (!r->aux)
		return -ENODEV;
	r->aux_pos = r->aux_snap;
	/* Pairs with the kernel's read of aux_tail before it writes: our
	 * reads of the data happen before the space is given back. */
	if (!r->aux_overwrite)
		__atomic_store_n(&r->pc->aux_tail, r->aux_pos, __ATOMIC_RELEASE);
	return 0;
}
