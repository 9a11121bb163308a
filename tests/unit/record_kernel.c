// SPDX-License-Identifier: GPL-2.0-only
/* Every kernel record type except SAMPLE: built by hand with a full
 * sample_id trailer, decoded, every field asserted; every cut fails. */
#include "record_build.h"

#define ST_ALL (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static struct pev_decoder *dec;		/* sample_id_all, ST_ALL */
static struct pev_decoder *dec_noid;	/* no sample_id_all */
static struct rb b;
static struct pev_record rec;

static void trailer(void)
{
	rb_trailer(&b, ST_ALL, 11, 12, 1000, 77, 88, 3);
}

static void check_trailer(void)
{
	CHECK(rec.has_sample_id);
	CHECK_EQ_U64(rec.sample_id.fields, ST_ALL);
	CHECK_EQ_U64(rec.sample_id.pid, 11);
	CHECK_EQ_U64(rec.sample_id.tid, 12);
	CHECK_EQ_U64(rec.sample_id.time, 1000);
	CHECK_EQ_U64(rec.sample_id.id, 77);
	CHECK_EQ_U64(rec.sample_id.stream_id, 88);
	CHECK_EQ_U64(rec.sample_id.cpu, 3);
	CHECK(rec.attr == pev_decoder_attr(dec, 0));
	CHECK_EQ_INT(rec.attr_index, 0);
}

/* Decode b with dec, check the header and the trailer, test cuts. */
static int decode(const char *what)
{
	size_t n = rb_end(&b);
	int r = pev_record_decode(dec, rb_p(&b), n, &rec);
	CHECK_MSG(r == 0, "%s: decode failed %d (%s: %s)", what, r,
		  rec.error.field ? rec.error.field : "?",
		  rec.error.reason ? rec.error.reason : "?");
	CHECK_EQ_U64(rec.size, n);
	CHECK(rec.raw == rb_p(&b));
	if (r == 0)
		check_trailer();
	rb_check_cuts(dec, rb_p(&b), n, what);
	return r;
}

static void t_mmap(void)
{
	rb_begin(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	rb_u32(&b, 100); rb_u32(&b, 101);
	rb_u64(&b, 0x400000); rb_u64(&b, 0x1000); rb_u64(&b, 0x200);
	rb_str(&b, "/bin/true");
	trailer();
	if (decode("MMAP"))
		return;
	CHECK_EQ_U64(rec.type, PERF_RECORD_MMAP);
	CHECK_EQ_U64(rec.misc, PERF_RECORD_MISC_USER);
	CHECK_EQ_U64(rec.u.mmap.pid, 100);
	CHECK_EQ_U64(rec.u.mmap.tid, 101);
	CHECK_EQ_U64(rec.u.mmap.addr, 0x400000);
	CHECK_EQ_U64(rec.u.mmap.len, 0x1000);
	CHECK_EQ_U64(rec.u.mmap.pgoff, 0x200);
	CHECK_STR(rec.u.mmap.filename, "/bin/true");
}

static void t_mmap2(void)
{
	rb_begin(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	rb_u32(&b, 5); rb_u32(&b, 6);
	rb_u64(&b, 0x7f0000); rb_u64(&b, 0x2000); rb_u64(&b, 0x3000);
	rb_u32(&b, 8); rb_u32(&b, 1);
	rb_u64(&b, 123456); rb_u64(&b, 9);
	rb_u32(&b, 5); rb_u32(&b, 2);
	rb_str(&b, "/usr/lib/libc.so.6");
	trailer();
	if (decode("MMAP2"))
		return;
	struct pev_record_mmap *m = &rec.u.mmap;
	CHECK(!m->has_build_id);
	CHECK_EQ_U64(m->pid, 5);
	CHECK_EQ_U64(m->tid, 6);
	CHECK_EQ_U64(m->addr, 0x7f0000);
	CHECK_EQ_U64(m->len, 0x2000);
	CHECK_EQ_U64(m->pgoff, 0x3000);
	CHECK_EQ_U64(m->maj, 8);
	CHECK_EQ_U64(m->min, 1);
	CHECK_EQ_U64(m->ino, 123456);
	CHECK_EQ_U64(m->ino_generation, 9);
	CHECK_EQ_U64(m->prot, 5);
	CHECK_EQ_U64(m->flags, 2);
	CHECK_STR(m->filename, "/usr/lib/libc.so.6");
}

static void t_mmap2_buildid(void)
{
	uint8_t bid[20];
	for (int i = 0; i < 20; i++)
		bid[i] = (uint8_t)(0xa0 + i);
	rb_begin(&b, PERF_RECORD_MMAP2,
		 PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	rb_u32(&b, 5); rb_u32(&b, 6);
	rb_u64(&b, 0x1000); rb_u64(&b, 0x2000); rb_u64(&b, 0);
	rb_u8(&b, 20); rb_u8(&b, 0); rb_u16(&b, 0); rb_raw(&b, bid, 20);
	rb_u32(&b, 7); rb_u32(&b, 0x802);
	rb_str(&b, "/x");
	trailer();
	if (decode("MMAP2 build-id"))
		return;
	struct pev_record_mmap *m = &rec.u.mmap;
	CHECK(m->has_build_id);
	CHECK_EQ_U64(m->build_id_size, 20);
	CHECK(m->build_id && !memcmp(m->build_id, bid, 20));
	CHECK_EQ_U64(m->maj, 0);
	CHECK_EQ_U64(m->ino, 0);
	CHECK_EQ_U64(m->prot, 7);
	CHECK_EQ_U64(m->flags, 0x802);
	CHECK_STR(m->filename, "/x");

	/* build_id_size above 20 is malformed. */
	rb_p(&b)[40] = 21;
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b), b.len, &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "build_id_size");
	CHECK_EQ_U64(rec.error.offset, 40);
}

static void t_lost(void)
{
	rb_begin(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 42); rb_u64(&b, 1234);
	trailer();
	if (decode("LOST"))
		return;
	CHECK_EQ_U64(rec.u.lost.id, 42);
	CHECK_EQ_U64(rec.u.lost.lost, 1234);
}

static void t_comm(bool exec)
{
	rb_begin(&b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	rb_u32(&b, 300); rb_u32(&b, 301);
	rb_str(&b, "worker-thread");
	trailer();
	if (decode("COMM"))
		return;
	CHECK_EQ_U64(rec.u.comm.pid, 300);
	CHECK_EQ_U64(rec.u.comm.tid, 301);
	CHECK_EQ_INT(rec.u.comm.exec, exec);
	CHECK_STR(rec.u.comm.comm, "worker-thread");
}

static void t_fork_exit(uint32_t type)
{
	rb_begin(&b, type, 0);
	rb_u32(&b, 10); rb_u32(&b, 1); rb_u32(&b, 11); rb_u32(&b, 2);
	rb_u64(&b, 5555);
	trailer();
	if (decode(pev_record_type_name(type)))
		return;
	CHECK_EQ_U64(rec.type, type);
	CHECK_EQ_U64(rec.u.fork.pid, 10);
	CHECK_EQ_U64(rec.u.fork.ppid, 1);
	CHECK_EQ_U64(rec.u.fork.tid, 11);
	CHECK_EQ_U64(rec.u.fork.ptid, 2);
	CHECK_EQ_U64(rec.u.fork.time, 5555);
}

static void t_throttle(uint32_t type)
{
	rb_begin(&b, type, 0);
	rb_u64(&b, 999); rb_u64(&b, 77); rb_u64(&b, 88);
	trailer();
	if (decode(pev_record_type_name(type)))
		return;
	CHECK_EQ_U64(rec.u.throttle.time, 999);
	CHECK_EQ_U64(rec.u.throttle.id, 77);
	CHECK_EQ_U64(rec.u.throttle.stream_id, 88);
}

static void t_read(void)
{
	/* dec's attr has read_format TOTAL_TIME_ENABLED | ID. */
	rb_begin(&b, PERF_RECORD_READ, 0);
	rb_u32(&b, 20); rb_u32(&b, 21);
	rb_u64(&b, 31337); rb_u64(&b, 500); rb_u64(&b, 77);
	trailer();
	if (decode("READ"))
		return;
	CHECK_EQ_U64(rec.u.read.pid, 20);
	CHECK_EQ_U64(rec.u.read.tid, 21);
	CHECK_EQ_U64(rec.u.read.values.nr, 1);
	CHECK_EQ_U64(rec.u.read.values.first.value, 31337);
	CHECK_EQ_U64(rec.u.read.values.time_enabled, 500);
	CHECK_EQ_U64(rec.u.read.values.time_running, 0);
	CHECK_EQ_U64(rec.u.read.values.first.id, 77);
}

static void t_aux(void)
{
	rb_begin(&b, PERF_RECORD_AUX, 0);
	rb_u64(&b, 0x10000); rb_u64(&b, 0x800);
	rb_u64(&b, PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL |
		   PERF_AUX_FLAG_COLLISION | 0x0100);
	trailer();
	if (decode("AUX"))
		return;
	struct pev_record_aux *a = &rec.u.aux;
	CHECK_EQ_U64(a->aux_offset, 0x10000);
	CHECK_EQ_U64(a->aux_size, 0x800);
	CHECK(a->truncated && !a->overwrite && a->partial && a->collision);
	CHECK_EQ_U64(a->pmu_format, 1);

	rb_begin(&b, PERF_RECORD_AUX, 0);
	rb_u64(&b, 1); rb_u64(&b, 2); rb_u64(&b, PERF_AUX_FLAG_OVERWRITE);
	trailer();
	if (decode("AUX overwrite"))
		return;
	CHECK(!rec.u.aux.truncated && rec.u.aux.overwrite && !rec.u.aux.partial);
	CHECK_EQ_U64(rec.u.aux.pmu_format, 0);
}

static void t_itrace_lost_samples(void)
{
	rb_begin(&b, PERF_RECORD_ITRACE_START, 0);
	rb_u32(&b, 40); rb_u32(&b, 41);
	trailer();
	if (!decode("ITRACE_START")) {
		CHECK_EQ_U64(rec.u.itrace_start.pid, 40);
		CHECK_EQ_U64(rec.u.itrace_start.tid, 41);
	}
	rb_begin(&b, PERF_RECORD_LOST_SAMPLES, 0);
	rb_u64(&b, 17);
	trailer();
	if (!decode("LOST_SAMPLES"))
		CHECK_EQ_U64(rec.u.lost_samples.lost, 17);
}

static void t_switch(void)
{
	rb_begin(&b, PERF_RECORD_SWITCH, 0);
	trailer();
	if (!decode("SWITCH in"))
		CHECK(!rec.u.context_switch.out && !rec.u.context_switch.preempt);
	rb_begin(&b, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT);
	trailer();
	if (!decode("SWITCH out"))
		CHECK(rec.u.context_switch.out && !rec.u.context_switch.preempt);
	rb_begin(&b, PERF_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT |
		 PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	rb_u32(&b, 50); rb_u32(&b, 51);
	trailer();
	if (decode("SWITCH_CPU_WIDE"))
		return;
	CHECK(rec.u.context_switch.out && rec.u.context_switch.preempt);
	CHECK_EQ_U64(rec.u.context_switch.next_prev_pid, 50);
	CHECK_EQ_U64(rec.u.context_switch.next_prev_tid, 51);
}

static void t_namespaces(void)
{
	rb_begin(&b, PERF_RECORD_NAMESPACES, 0);
	rb_u32(&b, 60); rb_u32(&b, 61);
	rb_u64(&b, 3);
	for (int i = 0; i < 3; i++) {
		rb_u64(&b, 0x100 + i);
		rb_u64(&b, 0x4000000 + i);
	}
	trailer();
	if (decode("NAMESPACES"))
		return;
	CHECK_EQ_U64(rec.u.namespaces.pid, 60);
	CHECK_EQ_U64(rec.u.namespaces.tid, 61);
	CHECK_EQ_U64(rec.u.namespaces.nr, 3);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_U64(rec.u.namespaces.links[i].dev, 0x100 + i);
		CHECK_EQ_U64(rec.u.namespaces.links[i].ino, 0x4000000 + i);
	}
	/* nr_namespaces claiming more than remains. */
	uint64_t huge = UINT64_MAX / 2;
	memcpy(rb_p(&b) + 16, &huge, 8);
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b), b.len, &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "nr_namespaces");
}

static void t_ksymbol_bpf(void)
{
	rb_begin(&b, PERF_RECORD_KSYMBOL, 0);
	rb_u64(&b, 0xffffffffc0001000ULL); rb_u32(&b, 256);
	rb_u16(&b, PERF_RECORD_KSYMBOL_TYPE_BPF);
	rb_u16(&b, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
	rb_str(&b, "bpf_prog_abc_f");
	trailer();
	if (!decode("KSYMBOL")) {
		CHECK_EQ_U64(rec.u.ksymbol.addr, 0xffffffffc0001000ULL);
		CHECK_EQ_U64(rec.u.ksymbol.len, 256);
		CHECK_EQ_U64(rec.u.ksymbol.ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF);
		CHECK_EQ_U64(rec.u.ksymbol.flags, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
		CHECK_STR(rec.u.ksymbol.name, "bpf_prog_abc_f");
	}
	const uint8_t tag[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	rb_begin(&b, PERF_RECORD_BPF_EVENT, 0);
	rb_u16(&b, PERF_BPF_EVENT_PROG_LOAD); rb_u16(&b, 0); rb_u32(&b, 99);
	rb_raw(&b, tag, 8);
	trailer();
	if (decode("BPF_EVENT"))
		return;
	CHECK_EQ_U64(rec.u.bpf_event.type, PERF_BPF_EVENT_PROG_LOAD);
	CHECK_EQ_U64(rec.u.bpf_event.flags, 0);
	CHECK_EQ_U64(rec.u.bpf_event.id, 99);
	CHECK(!memcmp(rec.u.bpf_event.tag, tag, 8));
}

static void t_cgroup_text_poke(void)
{
	rb_begin(&b, PERF_RECORD_CGROUP, 0);
	rb_u64(&b, 0x1234);
	rb_str(&b, "/system.slice/foo.service");
	trailer();
	if (!decode("CGROUP")) {
		CHECK_EQ_U64(rec.u.cgroup.id, 0x1234);
		CHECK_STR(rec.u.cgroup.path, "/system.slice/foo.service");
	}
	rb_begin(&b, PERF_RECORD_TEXT_POKE, 0);
	rb_u64(&b, 0xffffffff81000000ULL); rb_u16(&b, 2); rb_u16(&b, 5);
	rb_raw(&b, "\x66\x90", 2);
	rb_raw(&b, "\xe8\x01\x02\x03\x04", 5);
	rb_pad8(&b);
	trailer();
	if (decode("TEXT_POKE"))
		return;
	struct pev_record_text_poke *t = &rec.u.text_poke;
	CHECK_EQ_U64(t->addr, 0xffffffff81000000ULL);
	CHECK_EQ_U64(t->old_len, 2);
	CHECK_EQ_U64(t->new_len, 5);
	CHECK(!memcmp(t->old_bytes, "\x66\x90", 2));
	CHECK(!memcmp(t->new_bytes, "\xe8\x01\x02\x03\x04", 5));
}

static void t_hw_id_deferred(void)
{
	rb_begin(&b, PERF_RECORD_AUX_OUTPUT_HW_ID, 0);
	rb_u64(&b, 0xabc);
	trailer();
	if (!decode("AUX_OUTPUT_HW_ID"))
		CHECK_EQ_U64(rec.u.aux_output_hw_id.hw_id, 0xabc);
	rb_begin(&b, PEV_RECORD_CALLCHAIN_DEFERRED, 0);
	rb_u64(&b, 0xc00c1e); rb_u64(&b, 3);
	rb_u64(&b, PERF_CONTEXT_USER); rb_u64(&b, 0x401000); rb_u64(&b, 0x402000);
	trailer();
	if (decode("CALLCHAIN_DEFERRED"))
		return;
	CHECK_EQ_U64(rec.u.callchain_deferred.cookie, 0xc00c1e);
	CHECK_EQ_U64(rec.u.callchain_deferred.callchain.nr, 3);
	CHECK_EQ_U64(rec.u.callchain_deferred.callchain.ips[2], 0x402000);
}

/* Without sample_id_all there is no trailer; with no decoder at all,
 * records that need no attr still decode. */
static void t_no_trailer(void)
{
	rb_begin(&b, PERF_RECORD_COMM, 0);
	rb_u32(&b, 1); rb_u32(&b, 2);
	rb_str(&b, "init");
	size_t n = rb_end(&b);
	CHECK_OK(pev_record_decode(dec_noid, rb_p(&b), n, &rec));
	CHECK(!rec.has_sample_id);
	CHECK_STR(rec.u.comm.comm, "init");
	CHECK_OK(pev_record_decode(NULL, rb_p(&b), n, &rec));
	CHECK(rec.attr == NULL && rec.attr_index == -1);
	CHECK_STR(rec.u.comm.comm, "init");
	rb_check_cuts(dec_noid, rb_p(&b), n, "COMM without trailer");

	/* READ needs an attr for its read_format. */
	rb_begin(&b, PERF_RECORD_READ, 0);
	rb_u32(&b, 1); rb_u32(&b, 2); rb_u64(&b, 3);
	n = rb_end(&b);
	CHECK_EQ_INT(pev_record_decode(NULL, rb_p(&b), n, &rec), -ENOENT);
	CHECK_STR(rec.error.field, "attr");
	/* An unknown kernel type: its body as a payload. */
	rb_begin(&b, 40, 0);
	rb_u64(&b, 1);
	n = rb_end(&b);
	CHECK_OK(pev_record_decode(dec, rb_p(&b), n, &rec));
	CHECK_EQ_U64(rec.u.payload.size, 8);
	CHECK(pev_record_type_name(40) == NULL);
}

/* Records that lie about their sizes or strings. */
static void t_lying(void)
{
	/* header.size larger than the buffer. */
	rb_begin(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 1); rb_u64(&b, 2);
	trailer();
	size_t n = rb_end(&b);
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b), n - 8, &rec), -ERANGE);
	CHECK_STR(rec.error.field, "header.size");
	/* header.size below the header. */
	uint16_t sz = 4;
	memcpy(rb_p(&b) + 6, &sz, 2);
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b), n, &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "header.size");
	/* Not 8-aligned. */
	sz = (uint16_t)(n - 4);
	memcpy(rb_p(&b) + 6, &sz, 2);
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b), n, &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "header.size");
	CHECK_STR(rec.error.reason, "not a multiple of 8");
	/* Smaller than the fixed body plus trailer. */
	sz = 16;
	memcpy(rb_p(&b) + 6, &sz, 2);
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b), n, &rec), -EBADMSG);
	CHECK(rec.error.field != NULL);
	/* A buffer that is not 8-byte aligned. */
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b) + 4, n, &rec), -EINVAL);
	CHECK_EQ_INT(pev_record_decode(dec, NULL, n, &rec), -EINVAL);

	/* comm without its NUL. */
	rb_begin(&b, PERF_RECORD_COMM, 0);
	rb_u32(&b, 1); rb_u32(&b, 2);
	rb_raw(&b, "abcdefgh", 8);
	trailer();
	n = rb_end(&b);
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b), n, &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "comm");
	CHECK_EQ_U64(rec.error.offset, 16);
	/* Filename without NUL (MMAP). */
	rb_begin(&b, PERF_RECORD_MMAP, 0);
	rb_u32(&b, 1); rb_u32(&b, 2); rb_u64(&b, 1); rb_u64(&b, 2); rb_u64(&b, 3);
	rb_raw(&b, "/bin/abc", 8);
	trailer();
	n = rb_end(&b);
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b), n, &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "filename");
	/* TEXT_POKE lengths beyond the record. */
	rb_begin(&b, PERF_RECORD_TEXT_POKE, 0);
	rb_u64(&b, 1); rb_u16(&b, 200); rb_u16(&b, 0); rb_u32(&b, 0);
	trailer();
	n = rb_end(&b);
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b), n, &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "old_len");
	/* CALLCHAIN_DEFERRED with nr that overflows nr * 8. */
	rb_begin(&b, PEV_RECORD_CALLCHAIN_DEFERRED, 0);
	rb_u64(&b, 1); rb_u64(&b, (UINT64_MAX / 8) + 2); rb_u64(&b, 0);
	trailer();
	n = rb_end(&b);
	CHECK_EQ_INT(pev_record_decode(dec, rb_p(&b), n, &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "callchain.nr");
}

int main(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .sample_type = ST_ALL,
		.sample_id_all = 1,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID };
	uint64_t id = 77;

	dec = pev_decoder_new();
	dec_noid = pev_decoder_new();
	if (!dec || !dec_noid)
		T_FATAL("pev_decoder_new");
	CHECK_EQ_INT(pev_decoder_add_attr(dec, &a, &id, 1), 0);
	a.sample_id_all = 0;
	CHECK_EQ_INT(pev_decoder_add_attr(dec_noid, &a, &id, 1), 0);

	t_mmap();
	t_mmap2();
	t_mmap2_buildid();
	t_lost();
	t_comm(false);
	t_comm(true);
	t_fork_exit(PERF_RECORD_FORK);
	t_fork_exit(PERF_RECORD_EXIT);
	t_throttle(PERF_RECORD_THROTTLE);
	t_throttle(PERF_RECORD_UNTHROTTLE);
	t_read();
	t_aux();
	t_itrace_lost_samples();
	t_switch();
	t_namespaces();
	t_ksymbol_bpf();
	t_cgroup_text_poke();
	t_hw_id_deferred();
	t_no_trailer();
	t_lying();

	static const char *const names[] = { NULL, "MMAP", "LOST", "COMM",
		"EXIT", "THROTTLE", "UNTHROTTLE", "FORK", "READ", "SAMPLE",
		"MMAP2", "AUX", "ITRACE_START", "LOST_SAMPLES", "SWITCH",
		"SWITCH_CPU_WIDE", "NAMESPACES", "KSYMBOL", "BPF_EVENT",
		"CGROUP", "TEXT_POKE", "AUX_OUTPUT_HW_ID", "CALLCHAIN_DEFERRED" };
	for (unsigned t = 1; t < sizeof(names) / sizeof(names[0]); t++)
		CHECK_STR(pev_record_type_name(t), names[t]);
	CHECK(pev_record_type_name(0) == NULL);

	pev_decoder_free(dec);
	pev_decoder_free(dec_noid);
	pev_decoder_free(NULL);
	return t_done();
}
