// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf.data metadata that both the opener (data_read.c, attrs section) and
 * the record iterator (data_iter.c, in-band records of a pipe or an
 * injected file) feed in: the error text, events added to the decoder,
 * their names, features, tracing data and build ids.  It calls neither. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "data/data_internal.h"

int pev__data_set_error(struct pev_data *d, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
	return err;
}

int pev__data_add_event(struct pev_data *d, struct pev_attr *a, size_t asz,
			const uint64_t *ids, size_t nids)
{
	/* The decoder reads attr.size bytes: never more than we hold. */
	if (asz > sizeof(*a))
		asz = sizeof(*a);
	if (a->attr.size == 0 || a->attr.size > asz)
		a->attr.size = (uint32_t)asz;
	int r = pev_decoder_add_attr(d->dec, &a->attr, ids, nids);

	if (r < 0)
		return pev__data_set_error(d, r,
			"perf.data: event %zu cannot be added (%s): its sample "
			"layout or ids clash with the other events",
			pev_decoder_nr_attrs(d->dec), strerror(-r));
	return 0;
}

static int grow_names(struct pev_data *d, size_t nr)
{
	if (nr <= d->nnames)
		return 0;
	char **n = realloc(d->names, nr * sizeof(*n));

	if (!n)
		return -ENOMEM;
	memset(n + d->nnames, 0, (nr - d->nnames) * sizeof(*n));
	d->names = n;
	d->nnames = nr;
	return 0;
}

static int set_name(struct pev_data *d, size_t idx, const char *name)
{
	int r = grow_names(d, idx + 1);

	if (r < 0)
		return r;
	free(d->names[idx]);
	d->names[idx] = strdup(name);
	return d->names[idx] ? 0 : -ENOMEM;
}

int pev__data_process_meta(struct pev_data *d, const struct raw_rec *rr,
		      const void *extra, size_t extra_len)
{
	struct pev_record rec;
	int r;

	if (rr->chunk == NULL) {
		if (rr->offset < d->meta_upto)
			return 0;	/* seen before a rewind */
		d->meta_upto = rr->offset + 1;
	}
	switch (rr->type) {
	case PEV_RECORD_HEADER_ATTR:
	case PEV_RECORD_HEADER_FEATURE:
	case PEV_RECORD_EVENT_UPDATE:
	case PEV_RECORD_HEADER_BUILD_ID:
		break;
	case PEV_RECORD_HEADER_TRACING_DATA:
		free(d->feat.tracing_data);
		d->feat.tracing_data = malloc(extra_len ? extra_len : 1);
		if (!d->feat.tracing_data)
			return -ENOMEM;
		memcpy(d->feat.tracing_data, extra, extra_len);
		d->feat.tracing_data_size = extra_len;
		d->raw_feat[PEV_FEAT_TRACING_DATA] = extra;
		d->raw_feat_size[PEV_FEAT_TRACING_DATA] = extra_len;
		pev_data_features_set(&d->feat, PEV_FEAT_TRACING_DATA, true);
		return 0;
	default:
		return 0;
	}
	r = pev_record_decode(d->dec, rr->p, rr->size, &rec);
	if (r < 0)
		return pev__data_set_error(d, -EBADMSG,
			"perf.data: %s record at offset %" PRIu64 " is malformed"
			" (%s: %s)", pev_record_type_name(rr->type), rr->offset,
			rec.error.field ? rec.error.field : "?",
			rec.error.reason ? rec.error.reason : "?");
	switch (rr->type) {
	case PEV_RECORD_HEADER_ATTR: {
		struct pev_attr a = rec.u.header_attr.attr;
		/* the ids view may be unaligned in a foreign copy: copy */
		size_t n = (size_t)rec.u.header_attr.nr_ids;
		uint64_t *ids = malloc(n ? n * 8 : 8);

		if (!ids)
			return -ENOMEM;
		memcpy(ids, rec.u.header_attr.ids, n * 8);
		r = pev__data_add_event(d, &a, rec.u.header_attr.attr_size, ids, n);
		free(ids);
		/* the new event is unnamed until EVENT_UPDATE/EVENT_DESC */
		if (r == 0)
			r = grow_names(d, pev_decoder_nr_attrs(d->dec));
		return r;
	}
	case PEV_RECORD_HEADER_FEATURE: {
		uint64_t f = rec.u.feature.feat_id;

		if (f >= PEV_FEAT_BITS)
			return 0;
		r = pev_data_feature_parse(&d->feat, (unsigned)f,
					   rec.u.feature.data,
					   rec.u.feature.size, d->swap);
		if (r == -ENOMEM)
			return r;
		d->raw_feat[f] = rec.u.feature.data;
		d->raw_feat_size[f] = rec.u.feature.size;
		if (r < 0)
			pev_data_features_set(&d->feat, (unsigned)f, r == -ENOENT);
		if (f == PEV_FEAT_EVENT_DESC)
			for (uint32_t i = 0; i < d->feat.nr_event_desc; i++)
				if (i < d->nnames && !d->names[i] &&
				    d->feat.event_desc[i].name &&
				    (r = set_name(d, i, d->feat.event_desc[i].name)) < 0)
					return r;
		return 0;
	}
	case PEV_RECORD_EVENT_UPDATE:
		if (rec.u.event_update.type == PEV_EVENT_UPDATE_NAME &&
		    rec.u.event_update.str) {
			int idx = pev_decoder_find_id(d->dec, rec.u.event_update.id);

			if (idx >= 0)
				return set_name(d, (size_t)idx, rec.u.event_update.str);
		}
		return 0;
	case PEV_RECORD_HEADER_BUILD_ID: {
		const struct pev_record_build_id *b = &rec.u.build_id;

		return pev_data_features_add_build_id(&d->feat, b->pid,
			(uint16_t)(rec.misc & ~PEV_RECORD_MISC_BUILD_ID_SIZE),
			b->build_id, b->size <= 20 ? b->size : 20, b->filename);
	}
	}
	return 0;
}
