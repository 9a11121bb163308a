// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer harness for the record decoder.  The first 8 bytes choose the
 * event layout; the rest is decoded as a stream of records, each decoded
 * record's pieces are walked with the helpers, and a copy is byte-swapped
 * both ways (which must give it back when it decoded). */
#include <stdlib.h>
#include <string.h>

#include <perfev/perfev.h>

static uint64_t spread(uint8_t m)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		if (m & (1u << i))
			v |= 1ULL << (i * 3);
	return v;
}

static void walk(const struct pev_record *r)
{
	char buf[160];
	int32_t cpus[8];

	switch (r->type) {
	case PERF_RECORD_SAMPLE: {
		const struct pev_sample *s = &r->u.sample;
		struct pev_callchain_iter it;
		struct pev_callchain_segment seg;
		struct pev_readfmt_entry e;
		uint64_t v, sum = 0;
		pev_callchain_iter_init(&it, &s->callchain);
		while (pev_callchain_iter_next(&it, &seg))
			sum += seg.ips[seg.nr - 1];
		for (uint64_t i = 0; i < s->read.nr && i < 64; i++)
			if (!pev_readfmt_entry(&s->read, i, &e))
				sum += e.value + e.id + e.lost;
		for (uint64_t i = 0; i < s->branch_stack.nr && i < 64; i++)
			sum += pev_branch_flags_decode(s->branch_stack.entries[i].flags).cycles;
		for (unsigned reg = 0; reg < 64; reg++)
			if (!pev_regs_get(&s->regs_user, reg, &v) ||
			    !pev_regs_get(&s->regs_intr, reg, &v))
				sum += v;
		if (s->raw.size)
			sum += ((const uint8_t *)s->raw.data)[s->raw.size - 1];
		if (s->stack_user.size)
			sum += ((const uint8_t *)s->stack_user.data)[s->stack_user.size - 1];
		pev_data_src_format(s->data_src, buf, sizeof(buf));
		pev_txn_format(s->transaction, buf, sizeof(buf));
		(void)sum;
		break;
	}
	case PEV_RECORD_CPU_MAP:
		pev_cpu_map_cpus(&r->u.cpu_map.map, cpus, 8);
		break;
	case PEV_RECORD_EVENT_UPDATE:
		if (r->u.event_update.type == PEV_EVENT_UPDATE_CPUS)
			pev_cpu_map_cpus(&r->u.event_update.cpus, cpus, 8);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 8)
		return 0;
	struct perf_event_attr a = { .size = sizeof(a) };
	uint32_t st;
	memcpy(&st, data, 4);
	a.sample_type = st & ((1u << 25) - 1);
	a.read_format = data[4] & 0x1f;
	a.sample_id_all = data[5] & 1;
	if (data[5] & 2)
		a.branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	if (data[5] & 4)
		a.branch_sample_type |= PEV_SAMPLE_BRANCH_COUNTERS;
	a.sample_regs_user = spread(data[6]);
	a.sample_regs_intr = spread(data[7]);

	struct pev_decoder *d = pev_decoder_new();
	if (!d)
		return 0;
	uint64_t ids[2] = { 1, 2 };
	if (data[5] & 8) {
		/* Two events told apart by IDENTIFIER. */
		a.sample_type |= PERF_SAMPLE_IDENTIFIER;
		pev_decoder_add_attr(d, &a, &ids[0], 1);
		a.sample_type ^= PERF_SAMPLE_CALLCHAIN;
		pev_decoder_add_attr(d, &a, &ids[1], 1);
	} else {
		pev_decoder_add_attr(d, &a, ids, 1);
	}

	size_t n = size - 8;
	uint8_t *buf = malloc(n ? n : 1), *copy = malloc(n ? n : 1);
	if (!buf || !copy)
		goto out;
	memcpy(buf, data + 8, n);
	for (size_t off = 0; off < n;) {
		struct pev_record r;
		size_t left = n - off;
		if (pev_record_decode(d, buf + off, left, &r) < 0)
			break;
		walk(&r);
		memcpy(copy, buf + off, r.size);
		if (pev_record_swap(d, copy, r.size, PEV_SWAP_TO_FOREIGN) == 0 &&
		    pev_record_swap(d, copy, r.size, 0) == 0 &&
		    memcmp(copy, buf + off, r.size))
			__builtin_trap();	/* a swap round trip must be exact */
		pev_record_swap(d, copy, r.size, 0);	/* garbage in: no overread */
		off += (r.size + 7u) & ~7u;
	}
out:
	free(buf);
	free(copy);
	pev_decoder_free(d);
	return 0;
}
