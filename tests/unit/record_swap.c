// SPDX-License-Identifier: GPL-2.0-only
/* pev_record_swap: native -> foreign -> native gives back every record
 * byte for byte; records written big-endian decode to the right values
 * after a swap; pev_attr_swap re-lays out the flag bit-fields. */
#include "record_build.h"

#define ST_ALL (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static struct rb b;
static struct pev_record rec;

static void round_trip(const struct pev_decoder *d, const char *what)
{
	size_t n = rb_end(&b);
	static uint64_t copy[2048];
	memcpy(copy, rb_p(&b), n);
	int r = pev_record_swap(d, copy, n, PEV_SWAP_TO_FOREIGN);
	CHECK_MSG(r == 0, "%s: to foreign %d (%s)", what, r,
		  rec.error.field ? rec.error.field : "?");
	CHECK_MSG(memcmp(copy, rb_p(&b), n) != 0, "%s: swap changed nothing", what);
	r = pev_record_swap(d, copy, n, 0);
	CHECK_MSG(r == 0, "%s: from foreign %d", what, r);
	CHECK_MSG(!memcmp(copy, rb_p(&b), n), "%s: round trip differs", what);
}

static void t_round_trips(void)
{
	struct pev_decoder *d = pev_decoder_new();
	struct perf_event_attr a = mkattr(((1ULL << 25) - 1));
	a.sample_id_all = 1;
	a.branch_sample_type |= PEV_SAMPLE_BRANCH_COUNTERS;
	pev_decoder_add_attr(d, &a, NULL, 0);
	put_sample(&b, &a);
	round_trip(d, "sample, all fields");

	struct pev_decoder *dt = pev_decoder_new();
	struct perf_event_attr t = { .size = sizeof(t), .sample_type = ST_ALL,
		.sample_id_all = 1, .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID };
	pev_decoder_add_attr(dt, &t, NULL, 0);
	rb_begin(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID);
	rb_u32(&b, 1); rb_u32(&b, 2); rb_u64(&b, 3); rb_u64(&b, 4); rb_u64(&b, 5);
	rb_u8(&b, 20); rb_u8(&b, 0); rb_u16(&b, 0x1234); rb_raw(&b, "01234567890123456789", 20);
	rb_u32(&b, 6); rb_u32(&b, 7); rb_str(&b, "/lib/x.so");
	rb_trailer(&b, ST_ALL, 1, 2, 3, 4, 5, 6);
	round_trip(dt, "MMAP2");
	rb_begin(&b, PERF_RECORD_READ, 0);
	rb_u32(&b, 1); rb_u32(&b, 2); rb_u64(&b, 2);
	rb_u64(&b, 10); rb_u64(&b, 11); rb_u64(&b, 20); rb_u64(&b, 21);
	rb_trailer(&b, ST_ALL, 1, 2, 3, 4, 5, 6);
	round_trip(dt, "READ group");
	rb_begin(&b, PERF_RECORD_NAMESPACES, 0);
	rb_u32(&b, 1); rb_u32(&b, 2); rb_u64(&b, 1); rb_u64(&b, 3); rb_u64(&b, 4);
	rb_trailer(&b, ST_ALL, 1, 2, 3, 4, 5, 6);
	round_trip(dt, "NAMESPACES");
	rb_begin(&b, PERF_RECORD_KSYMBOL, 0);
	rb_u64(&b, 1); rb_u32(&b, 2); rb_u16(&b, 3); rb_u16(&b, 4); rb_str(&b, "sym");
	rb_trailer(&b, ST_ALL, 1, 2, 3, 4, 5, 6);
	round_trip(dt, "KSYMBOL");
	rb_begin(&b, PERF_RECORD_TEXT_POKE, 0);
	rb_u64(&b, 1); rb_u16(&b, 1); rb_u16(&b, 2); rb_raw(&b, "abc", 3); rb_pad8(&b);
	rb_trailer(&b, ST_ALL, 1, 2, 3, 4, 5, 6);
	round_trip(dt, "TEXT_POKE");

	struct perf_event_attr ha = { .type = 4, .size = 136, .config = 0x1c0,
		.sample_type = 0x107, .disabled = 1, .precise_ip = 1, .mmap = 1,
		.clockid = 1, .sample_max_stack = 127 };
	rb_begin(&b, PEV_RECORD_HEADER_ATTR, 0);
	rb_raw(&b, &ha, sizeof(ha));
	while (b.len < 8 + 136)
		rb_u8(&b, 0);
	rb_u64(&b, 99);
	round_trip(NULL, "HEADER_ATTR");
	rb_begin(&b, PEV_RECORD_CPU_MAP, 0);
	rb_u16(&b, PEV_CPU_MAP_MASK); rb_u16(&b, 2); rb_u16(&b, 8); rb_u32(&b, 0);
	rb_u64(&b, 5); rb_u64(&b, 6); rb_pad8(&b);
	round_trip(NULL, "CPU_MAP mask64");
	rb_begin(&b, PEV_RECORD_AUXTRACE_ERROR, 0);
	for (uint32_t i = 1; i <= 6; i++)
		rb_u32(&b, i);
	char msg[64] = "m";
	rb_u64(&b, 1); rb_u64(&b, 2); rb_raw(&b, msg, 64); rb_u32(&b, 3); rb_u32(&b, 4);
	round_trip(NULL, "AUXTRACE_ERROR");
	rb_begin(&b, PEV_RECORD_TIME_CONV, 0);
	rb_u64(&b, 1); rb_u64(&b, 2); rb_u64(&b, 3); rb_u64(&b, 4); rb_u64(&b, 5);
	rb_u8(&b, 1); rb_u8(&b, 0); rb_pad8(&b);
	round_trip(NULL, "TIME_CONV");

	/* A truncated foreign record is an error, not an overread. */
	size_t n = rb_end(&b);
	CHECK_EQ_INT(pev_record_swap(NULL, rb_p(&b), n - 1, 0), -ERANGE);
	CHECK_EQ_INT(pev_record_swap(NULL, rb_p(&b), n, 7), -EINVAL);
	pev_decoder_free(d);
	pev_decoder_free(dt);
}

/* A sample with every field, written by a big-endian machine. */
static void t_big_endian_sample(void)
{
	struct pev_decoder *d = pev_decoder_new();
	struct perf_event_attr a = mkattr(((1ULL << 25) - 1));
	pev_decoder_add_attr(d, &a, NULL, 0);
	b.be = true;
	size_t n = put_sample(&b, &a);
	b.be = false;
	CHECK(pev_record_decode(d, rb_p(&b), n, &rec) < 0);
	CHECK_OK(pev_record_swap(d, rb_p(&b), n, 0));
	CHECK_OK(pev_record_decode(d, rb_p(&b), n, &rec));
	check_sample(&rec, &a);

	/* A big-endian non-sample record with its trailer. */
	struct perf_event_attr t = { .size = sizeof(t), .sample_type = ST_ALL,
		.sample_id_all = 1 };
	struct pev_decoder *dt = pev_decoder_new();
	pev_decoder_add_attr(dt, &t, NULL, 0);
	b.be = true;
	rb_begin(&b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	rb_u32(&b, 0x01020304); rb_u32(&b, 0x05060708); rb_str(&b, "bigendian");
	rb_trailer(&b, ST_ALL, 9, 10, 0x1122334455667788ULL, 12, 13, 14);
	n = rb_end(&b);
	b.be = false;
	CHECK_OK(pev_record_swap(dt, rb_p(&b), n, 0));
	CHECK_OK(pev_record_decode(dt, rb_p(&b), n, &rec));
	CHECK_EQ_U64(rec.u.comm.pid, 0x01020304);
	CHECK_EQ_U64(rec.u.comm.tid, 0x05060708);
	CHECK(rec.u.comm.exec);
	CHECK_STR(rec.u.comm.comm, "bigendian");
	CHECK_EQ_U64(rec.sample_id.time, 0x1122334455667788ULL);
	CHECK_EQ_U64(rec.sample_id.cpu, 14);
	pev_decoder_free(d);
	pev_decoder_free(dt);
}

/* A big-endian attr: flags allocated from bit 63. */
static void t_attr_swap(void)
{
	uint8_t buf[136];
	struct rb w;

	w.be = true;
	w.len = 0;
	rb_u32(&w, PERF_TYPE_RAW); rb_u32(&w, 136); rb_u64(&w, 0x1c0);
	rb_u64(&w, 4000); rb_u64(&w, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	rb_u64(&w, PERF_FORMAT_ID);
	/* disabled (pos 0), sample_id_all (pos 18), precise_ip = 2 (pos 15..16) */
	rb_u64(&w, (1ULL << 63) | (1ULL << (63 - 18)) | (2ULL << (64 - 15 - 2)));
	rb_u32(&w, 5); rb_u32(&w, 0);
	rb_u64(&w, 0x11); rb_u64(&w, 0x22); rb_u64(&w, 0x33); rb_u64(&w, 0x44);
	rb_u32(&w, 8192); rb_u32(&w, 1); rb_u64(&w, 0x55);
	rb_u32(&w, 64); rb_u16(&w, 127); rb_u16(&w, 0); rb_u32(&w, 4096);
	rb_u32(&w, 1u << 31);	/* aux_start_paused (pos 0 of that u32) */
	rb_u64(&w, 0x66); rb_u64(&w, 0x77);
	memcpy(buf, rb_p(&w), 136);
	CHECK_OK(pev_attr_swap(buf, sizeof(buf), 0));
	struct pev_attr pa;
	memcpy(&pa, buf, sizeof(pa) < 136 ? sizeof(pa) : 136);
	struct perf_event_attr *a = &pa.attr;
	CHECK_EQ_U64(a->type, PERF_TYPE_RAW);
	CHECK_EQ_U64(a->size, 136);
	CHECK_EQ_U64(a->config, 0x1c0);
	CHECK_EQ_U64(a->sample_period, 4000);
	CHECK_EQ_U64(a->read_format, PERF_FORMAT_ID);
	CHECK(a->disabled && a->sample_id_all && !a->inherit);
	CHECK_EQ_U64(a->precise_ip, 2);
	CHECK_EQ_U64(a->wakeup_events, 5);
	CHECK_EQ_U64(a->config1, 0x11);
	CHECK_EQ_U64(a->sample_regs_user, 0x44);
	CHECK_EQ_U64(a->sample_stack_user, 8192);
	CHECK_EQ_U64(a->clockid, 1);
	CHECK_EQ_U64(a->sample_max_stack, 127);
	CHECK_EQ_U64(a->aux_sample_size, 4096);
	CHECK_EQ_U64(buf[116] & 1, 1);
	CHECK_EQ_U64(*pev_attr_config3(&pa), 0x77);
	/* And back. */
	CHECK_OK(pev_attr_swap(buf, sizeof(buf), PEV_SWAP_TO_FOREIGN));
	CHECK(!memcmp(buf, rb_p(&w), 136));
	CHECK_EQ_INT(pev_attr_swap(buf, 32, 0), -EBADMSG);
}

int main(void)
{
	t_round_trips();
	t_big_endian_sample();
	t_attr_swap();
	return t_done();
}
