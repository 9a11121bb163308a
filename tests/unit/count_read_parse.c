// SPDX-License-Identifier: GPL-2.0-only
/* pev_read_parse and pev_read_size over every read_format layout: the 16
 * combinations of TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING, ID and LOST, each
 * with and without GROUP, on synthetic buffers; short buffers are refused. */
#include <perfev/perfev.h>
#include "testutil.h"

#define ENA  PERF_FORMAT_TOTAL_TIME_ENABLED
#define RUN  PERF_FORMAT_TOTAL_TIME_RUNNING
#define ID   PERF_FORMAT_ID
#define GRP  PERF_FORMAT_GROUP
#define LOST PERF_FORMAT_LOST

/* Write the layout by hand from the manual's description, in words. */
static size_t build(uint64_t *w, uint64_t rf, size_t nr)
{
	size_t n = 0;

	if (rf & GRP) {
		w[n++] = nr;
		if (rf & ENA)
			w[n++] = 1000;
		if (rf & RUN)
			w[n++] = 500;
		for (size_t i = 0; i < nr; i++) {
			w[n++] = 100 + i;
			if (rf & ID)
				w[n++] = 7000 + i;
			if (rf & LOST)
				w[n++] = 30 + i;
		}
	} else {
		w[n++] = 100;
		if (rf & ENA)
			w[n++] = 1000;
		if (rf & RUN)
			w[n++] = 500;
		if (rf & ID)
			w[n++] = 7000;
		if (rf & LOST)
			w[n++] = 30;
	}
	return n * 8;
}

int main(void)
{
	uint64_t w[64];
	struct pev_read_value v[4];
	int combos = 0;

	/* Fixed sizes, from the layout in the manual. */
	CHECK_EQ_U64(pev_read_size(0, 1), 8);
	CHECK_EQ_U64(pev_read_size(ENA | RUN | ID | LOST, 1), 40);
	CHECK_EQ_U64(pev_read_size(GRP, 1), 16);
	CHECK_EQ_U64(pev_read_size(GRP | ENA | RUN | ID | LOST, 2), 72);
	CHECK_EQ_U64(pev_read_size(1u << 5, 1), 0);

	for (uint64_t bits = 0; bits < 16; bits++) {
		uint64_t rf = ((bits & 1) ? ENA : 0) | ((bits & 2) ? RUN : 0) |
			      ((bits & 4) ? ID : 0) | ((bits & 8) ? LOST : 0);

		for (int g = 0; g < 2; g++) {
			uint64_t f = rf | (g ? GRP : 0);

			for (size_t nr = 1; nr <= (g ? 3u : 1u); nr++) {
				size_t len = build(w, f, nr);
				uint64_t ena = 1, run = 1;
				int r;

				combos++;
				CHECK_EQ_U64(pev_read_size(f, nr), len);
				memset(v, 0xff, sizeof(v));
				r = pev_read_parse(w, len, f, v, 4, &ena, &run);
				CHECK_EQ_INT(r, (int)nr);
				for (size_t i = 0; i < nr && r > 0; i++) {
					CHECK_EQ_U64(v[i].value, 100 + i);
					CHECK_EQ_U64(v[i].id, (f & ID) ? 7000 + i : 0);
					CHECK_EQ_U64(v[i].lost, (f & LOST) ? 30 + i : 0);
				}
				CHECK_EQ_U64(ena, (f & ENA) ? 1000 : 0);
				CHECK_EQ_U64(run, (f & RUN) ? 500 : 0);
				/* Extra bytes after the layout are ignored. */
				CHECK_EQ_INT(pev_read_parse(w, len + 8, f, v, 4, NULL, NULL), (int)nr);
				/* Every shorter length is refused. */
				for (size_t l = 0; l < len; l++)
					CHECK_EQ_INT(pev_read_parse(w, l, f, v, 4, &ena, &run), -EBADMSG);
				/* Too little room for the values. */
				if (nr > 1)
					CHECK_EQ_INT(pev_read_parse(w, len, f, v, nr - 1, NULL, NULL), -ENOSPC);
			}
		}
	}
	CHECK_EQ_INT(combos, 16 * 4);

	/* Group with nr 0, or an absurd nr, is malformed (not an overflow). */
	w[0] = 0;
	CHECK_EQ_INT(pev_read_parse(w, 64, GRP, v, 4, NULL, NULL), -EBADMSG);
	w[0] = UINT64_MAX;
	CHECK_EQ_INT(pev_read_parse(w, 64, GRP | ID, v, 4, NULL, NULL), -EBADMSG);
	w[0] = (UINT64_MAX / 8) + 1;
	CHECK_EQ_INT(pev_read_parse(w, 64, GRP | ID | LOST, v, 4, NULL, NULL), -EBADMSG);
	/* nr claims more values than the buffer holds. */
	w[0] = 3;
	CHECK_EQ_INT(pev_read_parse(w, 5 * 8, GRP | ID, v, 4, NULL, NULL), -EBADMSG);

	/* Unknown bits and NULL arguments. */
	CHECK_EQ_INT(pev_read_parse(w, 64, 1u << 5, v, 4, NULL, NULL), -EINVAL);
	CHECK_EQ_INT(pev_read_parse(NULL, 64, 0, v, 4, NULL, NULL), -EINVAL);
	CHECK_EQ_INT(pev_read_parse(w, 64, 0, NULL, 4, NULL, NULL), -EINVAL);
	CHECK_EQ_INT(pev_read_parse(w, 64, 0, v, 0, NULL, NULL), -ENOSPC);

	/* An unaligned buffer reads the same. */
	unsigned char raw[8 * 6 + 1];
	size_t len = build(w, ENA | RUN | ID, 1);
	memcpy(raw + 1, w, len);
	CHECK_EQ_INT(pev_read_parse(raw + 1, len, ENA | RUN | ID, v, 1, NULL, NULL), 1);
	CHECK_EQ_U64(v[0].id, 7000);
	return t_done();
}
