// SPDX-License-Identifier: GPL-2.0-only
/* AUX spans on a constructed AUX area: plain, wrapping, overrun; aux_tail
 * stored exactly. */
#include <perfev/perfev.h>
#include "testutil.h"
#include "ring_fake.h"

static void concat(const struct pev_ring_span *sp, int n, unsigned char *out, size_t *len)
{
	*len = 0;
	for (int i = 0; i < n; i++) {
		memcpy(out + *len, sp[i].data, sp[i].size);
		*len += sp[i].size;
	}
}

int main(void)
{
	struct fake f;
	unsigned char aux[64], got[128], want[128];
	size_t len;
	uint64_t lost;
	struct pev_ring_span sp[2];

	fake_init(&f, 4096, 1);
	for (int i = 0; i < 64; i++)
		aux[i] = (unsigned char)(i + 1);
	f.pc->aux_offset = FAKE_PAGE + 4096;
	f.pc->aux_size = sizeof(aux);
	f.pc->aux_tail = 50;
	f.pc->aux_head = 50;
	struct pev_ring_memory m = { .size = sizeof(m), .base = f.mem, .len = f.len,
				     .aux = aux, .aux_len = sizeof(aux), .page_size = FAKE_PAGE };
	struct pev_ring *r = pev_ring_from_memory(&m, PEV_RING_FORWARD);
	CHECK(r != NULL);
	if (!r)
		return 1;
	CHECK_EQ_U64(pev_ring_aux_size(r), 64);
	CHECK_EQ_INT(pev_ring_aux_read(r, sp, &lost), 0);

	/* 10 bytes, no wrap. */
	f.pc->aux_head = 60;
	CHECK_EQ_INT(pev_ring_aux_read(r, sp, &lost), 1);
	CHECK(sp[0].data == aux + 50 && sp[0].size == 10 && lost == 0);
	CHECK_OK(pev_ring_aux_done(r));
	CHECK_EQ_U64(f.pc->aux_tail, 60);

	/* 30 bytes wrapping: [60, 64) + [0, 26). */
	f.pc->aux_head = 90;
	CHECK_EQ_INT(pev_ring_aux_read(r, sp, &lost), 2);
	CHECK(sp[0].data == aux + 60 && sp[0].size == 4);
	CHECK(sp[1].data == aux && sp[1].size == 26);
	concat(sp, 2, got, &len);
	memcpy(want, aux + 60, 4);
	memcpy(want + 4, aux, 26);
	CHECK(len == 30 && memcmp(got, want, 30) == 0);
	/* Reading again without done gives the same bytes (tail unchanged). */
	CHECK_EQ_U64(f.pc->aux_tail, 60);
	CHECK_EQ_INT(pev_ring_aux_read(r, sp, &lost), 2);
	CHECK_OK(pev_ring_aux_done(r));
	CHECK_EQ_U64(f.pc->aux_tail, 90);

	/* Overrun by 136 bytes: the newest 64 bytes, from head & mask. */
	f.pc->aux_head = 90 + 200;
	CHECK_EQ_INT(pev_ring_aux_read(r, sp, &lost), 2);
	CHECK_EQ_U64(lost, 136);
	CHECK(sp[0].data == aux + (290 % 64) && sp[0].size == 64 - 290 % 64);
	CHECK_EQ_U64(sp[0].size + sp[1].size, 64);
	CHECK_OK(pev_ring_aux_done(r));
	CHECK_EQ_U64(f.pc->aux_tail, 290);

	/* Head crossing 2^64. */
	pev_ring_free(r);
	f.pc->aux_tail = UINT64_MAX - 9;
	f.pc->aux_head = UINT64_MAX - 9;
	r = pev_ring_from_memory(&m, PEV_RING_FORWARD);
	f.pc->aux_head = 10;	/* 20 bytes later */
	CHECK_EQ_INT(pev_ring_aux_read(r, sp, &lost), 2);
	CHECK(sp[0].size == 10 && sp[1].size == 10 && sp[1].data == aux);
	CHECK_OK(pev_ring_aux_done(r));
	CHECK_EQ_U64(f.pc->aux_tail, 10);
	pev_ring_free(r);

	/* No AUX area; a size that disagrees with the page. */
	struct pev_ring_memory m2 = m;
	m2.aux = NULL;
	r = pev_ring_from_memory(&m2, PEV_RING_FORWARD);
	CHECK_EQ_INT(pev_ring_aux_read(r, sp, &lost), -ENODEV);
	CHECK_EQ_INT(pev_ring_aux_done(r), -ENODEV);
	CHECK_EQ_INT(pev_ring_aux_map(r, 1, false), -EINVAL);	/* not mapped from an fd */
	pev_ring_free(r);
	m2 = m;
	m2.aux_len = 32;
	CHECK(pev_ring_from_memory(&m2, PEV_RING_FORWARD) == NULL);
	fake_free(&f);
	return t_done();
}
