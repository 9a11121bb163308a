/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to lib/sample/record*.c: the decoder object (record.c) and the
 * walkers over each record layout, on the cursor of record_cursor.h.
 * Calls point one way: record_decode.c -> record_kernel.c, record_user.c;
 * record_kernel.c -> record.c (ids) -> record_sample.c. */
#ifndef PEV_RECORD_INTERNAL_H
#define PEV_RECORD_INTERNAL_H

#include <perfev/record.h>

#include "sample/record_cursor.h"

struct pev_decoder_attr {
	struct pev_attr attr;
};

struct pev_decoder {
	struct pev_decoder_attr *attrs;
	size_t nattrs, cap;
	/* id -> attr index, open addressing; key 0 is stored out of band
	 * because 0 marks empty slots. */
	uint64_t *keys;
	int *vals;
	size_t nslots, nkeys;
	int zero_id;		/* index for id 0, or -1 */
	int id_pos;		/* u64 index of the id in a sample, or -1 */
	int is_pos;		/* u64s from the end of a trailer, or -1 */
};

/* lib/sample/record_sample.c */
int pev__decode_sample(struct rcur *c, const struct perf_event_attr *attr);
int pev__decode_readfmt(struct rcur *c, uint64_t fmt, struct pev_readfmt *r,
			const char *field);
size_t pev__trailer_size(uint64_t sample_type);
int pev__decode_trailer(struct rcur *c, uint64_t sample_type,
			struct pev_sample_id *id);
int pev__id_pos(uint64_t sample_type);
int pev__is_pos(uint64_t sample_type);
/* lib/sample/record_kernel.c */
int pev__decode_kernel(struct rcur *c, const struct pev_decoder *d);
/* lib/sample/record_user.c */
int pev__decode_user(struct rcur *c);
int pev__attr_walk(struct rcur *c, uint32_t attr_size);
/* lib/sample/record_decode.c */
int pev__decode(const struct pev_decoder *d, uint8_t *buf, size_t len,
		enum swap_mode swap, struct pev_record *out);
/* lib/sample/record.c */
int pev__lookup_attr(const struct pev_decoder *d, uint64_t id);

#endif
