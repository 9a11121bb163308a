// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf.data reader: opening (file or pipe stream, either byte order), the
 * header, attrs and feature sections, and recovery of unfinished files.
 * Every offset and size read from the file is checked against the file's
 * length before use. */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/data_internal.h"

static uint64_t u64s(const struct pev_data *d, uint64_t v)
{
	return d->swap ? bswap_64(v) : v;
}

/* True when [off, off+size) lies inside the file. */
static bool in_file(const struct pev_data *d, uint64_t off, uint64_t size)
{
	return off <= d->len && size <= d->len - off;
}

static int read_attrs(struct pev_data *d)
{
	const struct file_header *h = &d->hdr;
	uint64_t asz = h->attr_size;

	if (!in_file(d, h->attrs.offset, h->attrs.size))
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: attr section at offset %" PRIu64
			" extends past the end of the file (size %zu)",
			h->attrs.offset, d->len);
	if (asz < PERF_ATTR_SIZE_VER0 + 16 || asz > 4096 + 16)
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: attr_size %" PRIu64 " in the header is "
			"impossible (an attr is 64..4096 bytes plus 16)", asz);
	if (h->attrs.size % asz)
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: attr section size %" PRIu64 " is not a "
			"multiple of attr_size %" PRIu64, h->attrs.size, asz);
	for (uint64_t i = 0; i < h->attrs.size / asz; i++) {
		const unsigned char *e = d->buf + h->attrs.offset + i * asz;
		struct pev_attr a;
		size_t alen = (size_t)asz - 16;
		size_t keep = alen < sizeof(a) ? alen : sizeof(a);
		uint64_t ids_sec[2];

		memset(&a, 0, sizeof(a));
		memcpy(&a, e, keep);
		memcpy(ids_sec, e + alen, 16);
		if (d->swap && pev_attr_swap(&a, keep, 0) < 0)
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: attr %" PRIu64 " cannot be byte-swapped", i);
		uint32_t own = a.attr.size ? a.attr.size : PERF_ATTR_SIZE_VER0;

		if (own != alen)
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: attr %" PRIu64 " has size %u but the "
				"header's attr_size says %zu", i, own, alen);
		uint64_t ioff = u64s(d, ids_sec[0]), isz = u64s(d, ids_sec[1]);

		if (!in_file(d, ioff, isz) || isz % 8)
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: ids of attr %" PRIu64 " at offset %"
				PRIu64 " (size %" PRIu64 ") extend past the end "
				"of the file (size %zu)", i, ioff, isz, d->len);
		size_t nids = (size_t)(isz / 8);
		uint64_t *ids = malloc(nids ? nids * 8 : 8);

		if (!ids)
			return -ENOMEM;
		memcpy(ids, d->buf + ioff, nids * 8);
		for (size_t j = 0; d->swap && j < nids; j++)
			ids[j] = bswap_64(ids[j]);
		int r = pev__data_add_event(d, &a, keep, ids, nids);

		free(ids);
		if (r < 0)
			return r;
	}
	return 0;
}

static int read_features(struct pev_data *d)
{
	uint64_t off = d->data_end;
	size_t n = 0;

	for (unsigned f = 0; f < PEV_FEAT_BITS; f++)
		n += pev_data_features_has(&d->feat, f);
	if (!n)
		return 0;
	if (!in_file(d, off, n * 16)) {
		if (d->strict)
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: feature index at offset %" PRIu64
				" (%zu entries) extends past the end of the file (size %zu)",
				off, n, d->len);
		/* The records are whole, the features were never copied (a
		 * copy that stopped there): read the records, as perf does,
		 * and say so. */
		memset(d->feat.present, 0, sizeof(d->feat.present));
		d->cut.features_lost = true;
		d->cut.nr_features_lost = (unsigned)n;
		snprintf(d->recovered, sizeof(d->recovered),
			 "perf.data: the %zu feature sections after the data "
			 "are cut by the end of the file (size %zu); reading "
			 "the records without them", n, d->len);
		return 0;
	}
	struct pev_data_features bits = d->feat;

	memset(d->feat.present, 0, sizeof(d->feat.present));
	for (unsigned f = 0; f < PEV_FEAT_BITS; f++) {
		if (!pev_data_features_has(&bits, f))
			continue;
		uint64_t sec[2];

		memcpy(sec, d->buf + off, 16);
		off += 16;
		uint64_t so = u64s(d, sec[0]), ss = u64s(d, sec[1]);
		const char *name = pev_feat_name(f);

		if (!in_file(d, so, ss))
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: feature %s section at offset %" PRIu64
				" (size %" PRIu64 ") extends past the end of the "
				"file (size %zu)", name ? name : "?", so, ss, d->len);
		d->raw_feat[f] = d->buf + so;
		d->raw_feat_size[f] = (size_t)ss;
		int r = pev_data_feature_parse(&d->feat, f, d->buf + so,
					       (size_t)ss, d->swap);

		if (r == -ENOMEM)
			return r;
		/* A payload we cannot parse stays available raw, as perf
		 * skips a bad feature with a warning. */
		if (r < 0)
			pev_data_features_set(&d->feat, f, r == -ENOENT);
	}
	/* Event names from EVENT_DESC, in attr order. */
	for (uint32_t i = 0; i < d->feat.nr_event_desc && i < d->nnames; i++)
		if (d->feat.event_desc[i].name && !d->names[i])
			d->names[i] = strdup(d->feat.event_desc[i].name);
	return 0;
}

static int open_file(struct pev_data *d)
{
	struct file_header *h = &d->hdr;
	uint64_t magic;

	if (d->len == 0)
		return pev__data_set_error(d, -EBADMSG, "perf.data: the file is empty");
	if (d->len < 16)
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: file of %zu bytes is too short for a header",
			d->len);
	memcpy(&magic, d->buf, 8);
	if (magic == PERF_MAGIC2_SWAPPED)
		d->swap = true;
	else if (magic != PERF_MAGIC2)
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: bad magic 0x%016" PRIx64 " (not a PERFILE2 "
			"perf.data file)", magic);
	uint64_t hsize;

	memcpy(&hsize, d->buf + 8, 8);
	hsize = u64s(d, hsize);
	if (hsize == PIPE_HEADER_SIZE) {
		d->pipe = true;
		d->data_off = PIPE_HEADER_SIZE;
		d->data_end = d->len;
		return 0;
	}
	if (hsize != FILE_HEADER_SIZE && hsize != 72)
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: header size %" PRIu64 " is neither 104 nor 72"
			" nor 16 (pipe)", hsize);
	if (d->len < hsize)
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: header of %" PRIu64 " bytes extends past the "
			"end of the file (size %zu)", hsize, d->len);
	memset(h, 0, sizeof(*h));
	memcpy(h, d->buf, hsize);
	if (d->swap) {
		/* The bitmap is u64 words; a 32-bit foreign writer's
		 * unsigned long words would need u32 swaps (perf's HOSTNAME
		 * test), which no current writer produces. */
		pev__feat_header_swap(h);
	}
	if (hsize == 72)
		memset(h->features, 0, sizeof(h->features));
	if (h->attrs.offset < hsize || h->data.offset < hsize)
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: attr (%" PRIu64 ") or data (%" PRIu64 ") "
			"section starts inside the header", h->attrs.offset,
			h->data.offset);
	int r = read_attrs(d);

	if (r < 0)
		return r;
	if (h->attrs.offset < h->data.offset + h->data.size &&
	    h->data.offset < h->attrs.offset + h->attrs.size &&
	    h->attrs.size && h->data.size)
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: attr section and data section overlap");
	memcpy(d->feat.present, h->features, sizeof(h->features));
	d->data_off = h->data.offset;
	if (d->data_off > d->len)
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: data section at offset %" PRIu64 " starts "
			"past the end of the file (size %zu)", d->data_off, d->len);
	bool no_feat = true;

	for (int i = 0; i < 4; i++)
		no_feat &= !h->features[i];
	if (h->data.size == 0 && no_feat && d->len > d->data_off) {
		/* The header of a recording that never finished: data.size
		 * is still 0.  Read records to the end of the file. */
		if (d->strict)
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: data size is 0 in the header (the "
				"recording did not finish)");
		d->data_end = d->len;
		d->recovering = true;
		d->cut.data_size_zero = true;
		d->cut.data_in_file = d->cut.records_end = d->len - d->data_off;
		snprintf(d->recovered, sizeof(d->recovered),
			 "perf.data: the header's data size is 0 (the recording "
			 "did not finish); reading the %zu bytes after offset %"
			 PRIu64 " up to the last complete record",
			 d->len - (size_t)d->data_off, d->data_off);
		return 0;
	}
	if (!in_file(d, d->data_off, h->data.size)) {
		if (d->strict)
			return pev__data_set_error(d, -EBADMSG,
				"perf.data: data section at offset %" PRIu64
				" (size %" PRIu64 ") extends past the end of the "
				"file (size %zu)", d->data_off, h->data.size, d->len);
		d->data_end = d->len;
		d->recovering = true;
		d->cut.header_data_size = h->data.size;
		d->cut.data_in_file = d->cut.records_end = d->len - d->data_off;
		for (unsigned f = 0; f < PEV_FEAT_BITS; f++)
			d->cut.nr_features_lost += pev_data_features_has(&d->feat, f);
		d->cut.features_lost = d->cut.nr_features_lost > 0;
		memset(d->feat.present, 0, sizeof(d->feat.present));
		snprintf(d->recovered, sizeof(d->recovered),
			 "perf.data: the data section (size %" PRIu64 ") is cut "
			 "by the end of the file (size %zu, truncated?); reading "
			 "up to the last complete record, without features",
			 h->data.size, d->len);
		return 0;
	}
	d->data_end = d->data_off + h->data.size;
	return read_features(d);
}

/* Reads the leading metadata of a pipe stream (attrs, features, names,
 * tracing data) so that the accessors work right after opening. */
static int pipe_prescan(struct pev_data *d)
{
	struct raw_rec r;
	int ret;

	for (;;) {
		uint64_t save = d->pos;

		ret = pev__data_next_raw(d, &r);
		if (ret <= 0 || r.type < PEV_RECORD_USER_TYPE_START ||
		    r.chunk || r.type == PEV_RECORD_FINISHED_ROUND ||
		    r.type == PEV_RECORD_COMPRESSED ||
		    r.type == PEV_RECORD_COMPRESSED2) {
			/* Start over: pev_data_next() hands out the
			 * metadata records too (meta_upto keeps them from
			 * being applied twice). */
			(void)save;
			pev__data_iter_release(d);
			d->pos = d->data_off;
			return ret < 0 ? ret : 0;
		}
	}
}

static struct pev_data *finish_open(struct pev_data *d,
				    const struct pev_data_open_opts *opts,
				    char *err, size_t errlen)
{
	int r = -ENOMEM;

	d->strict = opts && opts->size > offsetof(struct pev_data_open_opts,
						  strict) && opts->strict;
	d->window = opts && opts->size >= offsetof(struct pev_data_open_opts, window) +
				 sizeof(opts->window) && opts->window ? opts->window : (64u << 20);
	d->dec = pev_decoder_new();
	d->q = pev_order_new();
	if (d->dec && d->q) {
		r = open_file(d);
		if (r == 0) {
			d->nnames = pev_decoder_nr_attrs(d->dec);
			d->names = calloc(d->nnames + 1, sizeof(char *));
			if (!d->names)
				r = -ENOMEM;
		}
		if (r == 0 && !d->pipe) {
			for (uint32_t i = 0; i < d->feat.nr_event_desc &&
			     i < d->nnames; i++)
				if (d->feat.event_desc[i].name)
					d->names[i] = strdup(d->feat.event_desc[i].name);
		}
		d->pos = d->data_off;
		d->swapped_upto = d->data_off;
		d->meta_upto = d->data_off;
		if (r == 0 && d->pipe)
			r = pipe_prescan(d);
	}
	if (r < 0) {
		if (err && errlen)
			snprintf(err, errlen, "%s", d->err[0] ? d->err :
				 strerror(-r));
		pev_data_close(d);
		errno = -r;
		return NULL;
	}
	d->err[0] = 0;
	return d;
}

PEV_EXPORT struct pev_data *pev_data_open_mem(const void *buf, size_t len,
					      const struct pev_data_open_opts *opts,
					      char *err, size_t errlen)
{
	struct pev_data *d = calloc(1, sizeof(*d));

	if (!d || !(d->buf = malloc(len ? len : 1))) {
		free(d);
		if (err && errlen)
			snprintf(err, errlen, "%s", strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	if (len)
		memcpy(d->buf, buf, len);
	d->len = len;
	return finish_open(d, opts, err, errlen);
}

static int cmp_u32(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* The data.N files of a directory, in N order (perf record --threads
 * writes data.0 .. data.N-1, one per thread): each non-empty one is
 * mapped and added after the main file's data section. */
static int open_dir_files(struct pev_data *d, int dirfd)
{
	int dfd = dup(dirfd);
	DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;
	unsigned *nums = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int r = 0;

	if (!dir) {
		r = -errno;
		if (dfd >= 0)
			close(dfd);
		return r;
	}
	while ((de = readdir(dir))) {
		const char *s = de->d_name;
		char *end;

		if (strncmp(s, "data.", 5) || s[5] < '0' || s[5] > '9')
			continue;
		unsigned long v = strtoul(s + 5, &end, 10);

		if (*end || v > 1u << 20)
			continue;
		if (n == cap) {
			unsigned *q = realloc(nums, (cap = cap ? cap * 2 : 16) * sizeof(*q));

			if (!q) {
				r = -ENOMEM;
				break;
			}
			nums = q;
		}
		nums[n++] = (unsigned)v;
	}
	closedir(dir);
	if (r == 0 && n)
		qsort(nums, n, sizeof(*nums), cmp_u32);
	d->segs = r == 0 ? calloc(n + 1, sizeof(*d->segs)) : NULL;
	if (r == 0 && !d->segs)
		r = -ENOMEM;
	if (r == 0) {
		d->segs[0] = (struct dseg){ d->buf, d->len, d->data_off, d->data_end };
		d->nsegs = 1;
	}
	for (size_t i = 0; r == 0 && i < n; i++) {
		char name[32];
		struct stat st;

		snprintf(name, sizeof(name), "data.%u", nums[i]);
		int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

		if (fd < 0 || fstat(fd, &st) < 0) {
			r = pev__data_set_error(d, -errno, "perf.data: cannot open '%s' of the "
						"directory: %s", name, strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		if (!S_ISREG(st.st_mode) || st.st_size == 0) {
			close(fd);
			continue;
		}
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);

		close(fd);
		if (p == MAP_FAILED) {
			r = pev__data_set_error(d, -errno, "perf.data: cannot map '%s' of the "
						"directory: %s", name, strerror(errno));
			break;
		}
		d->segs[d->nsegs++] = (struct dseg){ p, (size_t)st.st_size, 0, (uint64_t)st.st_size };
	}
	free(nums);
	return r;
}

/* A perf.data directory (perf record --threads): the header, attrs and
 * features come from DIR/data, the records from its data section and
 * then from each DIR/data.N. */
static struct pev_data *open_dir(int dirfd, const struct pev_data_open_opts *opts,
				 char *err, size_t errlen)
{
	int fd = openat(dirfd, "data", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		if (err && errlen)
			snprintf(err, errlen, "perf.data: a directory without a 'data' file "
				 "(perf record --threads writes one): %s", strerror(e));
		errno = e;
		return NULL;
	}
	struct pev_data *d = pev_data_open_fd(fd, opts, err, errlen);
	int e = errno;

	close(fd);
	if (!d) {
		errno = e;
		return NULL;
	}
	if (d->pipe) {
		pev_data_close(d);
		if (err && errlen)
			snprintf(err, errlen, "perf.data: the directory's 'data' file is a pipe stream");
		errno = EBADMSG;
		return NULL;
	}
	int r = open_dir_files(d, dirfd);

	if (r < 0) {
		if (err && errlen)
			snprintf(err, errlen, "%s", d->err[0] ? d->err : strerror(-r));
		pev_data_close(d);
		errno = -r;
		return NULL;
	}
	d->err[0] = 0;
	return d;
}

PEV_EXPORT struct pev_data *pev_data_open_fd(int fd,
					     const struct pev_data_open_opts *opts,
					     char *err, size_t errlen)
{
	struct stat st;
	struct pev_data *d = calloc(1, sizeof(*d));
	int e = ENOMEM;

	if (!d)
		goto fail;
	if (fstat(fd, &st) < 0) {
		e = errno;
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		free(d);
		return open_dir(fd, opts, err, errlen);
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		/* Private and writable: records of the other byte order
		 * are converted in place without touching the file. */
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE, fd, 0);

		if (p == MAP_FAILED) {
			e = errno;
			goto fail;
		}
		d->buf = p;
		d->len = (size_t)st.st_size;
		d->mapped = true;
		return finish_open(d, opts, err, errlen);
	}
	/* A pipe: read the whole stream (records are views into it). */
	size_t cap = 1 << 16;

	d->buf = malloc(cap);
	while (d->buf) {
		ssize_t n = read(fd, d->buf + d->len, cap - d->len);

		if (n < 0 && errno == EINTR)
			continue;
		/* A non-blocking pipe (its writer set O_NONBLOCK on it):
		 * wait for more, as a blocking read would. */
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };

			if (poll(&pfd, 1, -1) < 0 && errno != EINTR) {
				e = errno;
				goto fail;
			}
			continue;
		}
		if (n < 0) {
			e = errno;
			goto fail;
		}
		if (n == 0)
			return finish_open(d, opts, err, errlen);
		d->len += (size_t)n;
		if (d->len == cap) {
			unsigned char *q = realloc(d->buf, cap * 2);

			if (!q)
				break;
			d->buf = q;
			cap *= 2;
		}
	}
fail:
	if (err && errlen)
		snprintf(err, errlen, "perf.data: %s", strerror(e));
	if (d && !d->mapped)
		free(d->buf);
	free(d);
	errno = e;
	return NULL;
}

PEV_EXPORT struct pev_data *pev_data_open(const char *path,
					  const struct pev_data_open_opts *opts,
					  char *err, size_t errlen)
{
	if (!strcmp(path, "-"))
		return pev_data_open_fd(0, opts, err, errlen);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		if (err && errlen)
			snprintf(err, errlen, "cannot open '%s': %s", path,
				 strerror(e));
		errno = e;
		return NULL;
	}
	struct pev_data *d = pev_data_open_fd(fd, opts, err, errlen);
	int e = errno;

	close(fd);
	errno = e;
	return d;
}

PEV_EXPORT void pev_data_close(struct pev_data *d)
{
	if (!d)
		return;
	pev__data_iter_release(d);
	while (d->arena) {
		struct arena *n = d->arena->next;

		free(d->arena);
		d->arena = n;
	}
	for (size_t i = 0; d->names && i < d->nnames; i++)
		free(d->names[i]);
	free(d->names);
	pev_data_features_release(&d->feat);
	pev_decoder_free(d->dec);
	pev_order_free(d->q);
	if (d->nsegs)
		pev__data_seg_switch(d, 0);
	for (size_t i = 1; i < d->nsegs; i++)
		munmap(d->segs[i].buf, d->segs[i].len);
	free(d->segs);
	if (d->mapped)
		munmap(d->buf, d->len);
	else
		free(d->buf);
	free(d);
}

PEV_EXPORT bool pev_data_is_pipe(const struct pev_data *d) { return d->pipe; }
PEV_EXPORT bool pev_data_is_swapped(const struct pev_data *d) { return d->swap; }
PEV_EXPORT const char *pev_data_recovered(const struct pev_data *d)
{
	return d->recovered[0] ? d->recovered : NULL;
}
PEV_EXPORT bool pev_data_cut_info(const struct pev_data *d, struct pev_data_cut *out)
{
	bool cut = !d->pipe && (d->recovered[0] || d->cut.features_lost);

	if (cut)
		*out = d->cut;
	else
		memset(out, 0, sizeof(*out));
	return cut;
}
PEV_EXPORT uint64_t pev_data_data_offset(const struct pev_data *d)
{
	return d->nsegs ? d->segs[0].off : d->data_off;
}
PEV_EXPORT uint64_t pev_data_data_size(const struct pev_data *d)
{
	return d->nsegs ? d->segs[0].end - d->segs[0].off : d->data_end - d->data_off;
}
PEV_EXPORT const struct pev_decoder *pev_data_decoder(const struct pev_data *d)
{
	return d->dec;
}
PEV_EXPORT const char *pev_data_event_name(const struct pev_data *d,
					   size_t index)
{
	return index < d->nnames ? d->names[index] : NULL;
}
PEV_EXPORT const struct pev_data_features *
pev_data_features(const struct pev_data *d)
{
	return &d->feat;
}
PEV_EXPORT const void *pev_data_feature_raw(const struct pev_data *d,
					    unsigned feat, size_t *size)
{
	if (feat >= PEV_FEAT_BITS || !d->raw_feat[feat])
		return NULL;
	if (size)
		*size = d->raw_feat_size[feat];
	return d->raw_feat[feat];
}
PEV_EXPORT const char *pev_data_error(const struct pev_data *d)
{
	return d->err;
}
