// SPDX-License-Identifier: GPL-2.0-only
/* The AUX area on a software event: this machine has no AUX PMU, so the
 * kernel refuses; the errno is the kernel's and the reason says why.  The
 * reading logic is tested on constructed memory (unit/ring_aux). */
#include <perfev/perfev.h>
#include "ring_live.h"

int main(void)
{
	struct perf_event_attr a;
	int fd = open_clock(&a, 1000000, PERF_SAMPLE_IP);
	skip_if_cannot_open(fd, &a, 0, -1, "cpu-clock");
	struct pev_ring *r = map_ring(fd, 2, PEV_RING_FORWARD);
	CHECK_EQ_INT(pev_ring_aux_map(r, 3, false), -EINVAL);	/* not a power of two */
	CHECK(strstr(pev_ring_reason(r), "power-of-two") != NULL);
	int err = pev_ring_aux_map(r, 4, false);
	printf("aux_map: %s: %s\n", strerror(-err), pev_ring_reason(r));
	/* kernel/events/ring_buffer.c rb_alloc_aux: no setup_aux -> EOPNOTSUPP */
	CHECK_EQ_INT(err, -EOPNOTSUPP);
	CHECK(strstr(pev_ring_reason(r), "no AUX area") != NULL);
	CHECK_EQ_U64(pev_ring_aux_size(r), 0);
	CHECK_EQ_U64(pev_ring_user_page(r)->aux_size, 0);	/* put back */
	struct pev_ring_span sp[2];
	CHECK_EQ_INT(pev_ring_aux_read(r, sp, NULL), -ENODEV);
	pev_ring_free(r);

	/* A read-only ring cannot take an AUX area (its user page is read-only). */
	r = map_ring(fd, 2, PEV_RING_FORWARD_OVERWRITE);
	CHECK(r == NULL || pev_ring_aux_map(r, 4, false) == -EINVAL);
	pev_ring_free(r);
	close(fd);
	return t_done();
}
