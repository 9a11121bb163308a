// SPDX-License-Identifier: GPL-2.0-only
/* perf.data user records (types 64..86): each built, decoded, every field
 * asserted, every cut rejected. */
#include "record_build.h"

static struct rb b;
static struct pev_record rec;

static int decode(const char *what)
{
	size_t n = rb_end(&b);
	int r = pev_record_decode(NULL, rb_p(&b), n, &rec);
	CHECK_MSG(r == 0, "%s: %d (%s: %s)", what, r,
		  rec.error.field ? rec.error.field : "?",
		  rec.error.reason ? rec.error.reason : "?");
	CHECK(rec.attr == NULL && !rec.has_sample_id);
	rb_check_cuts(NULL, rb_p(&b), n, what);
	return r;
}

static void t_attr(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = 120,
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 4000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
		.disabled = 1, .sample_id_all = 1, .precise_ip = 2 };
	rb_begin(&b, PEV_RECORD_HEADER_ATTR, 0);
	rb_raw(&b, &a, 120);
	rb_u64(&b, 101); rb_u64(&b, 102);
	if (decode("HEADER_ATTR"))
		return;
	struct pev_record_header_attr *h = &rec.u.header_attr;
	CHECK_EQ_U64(h->attr_size, 120);
	CHECK_EQ_U64(h->attr.attr.config, PERF_COUNT_SW_CPU_CLOCK);
	CHECK_EQ_U64(h->attr.attr.sample_period, 4000);
	CHECK(h->attr.attr.disabled && h->attr.attr.sample_id_all);
	CHECK_EQ_U64(h->attr.attr.precise_ip, 2);
	CHECK_EQ_U64(h->nr_ids, 2);
	CHECK_EQ_U64(h->ids[1], 102);
	CHECK_STR(pev_record_type_name(rec.type), "ATTR");

	/* An attr.size larger than the record. */
	uint32_t big = 400;
	memcpy(rb_p(&b) + 12, &big, 4);
	CHECK_EQ_INT(pev_record_decode(NULL, rb_p(&b), b.len, &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "attr.size");
}

static void t_small(void)
{
	char name[64] = "cycles";
	rb_begin(&b, PEV_RECORD_HEADER_EVENT_TYPE, 0);
	rb_u64(&b, 7); rb_raw(&b, name, 64);
	if (!decode("EVENT_TYPE")) {
		CHECK_EQ_U64(rec.u.event_type.event_id, 7);
		CHECK_STR(rec.u.event_type.name, "cycles");
	}
	/* 12-byte TRACING_DATA (old perf) is accepted unaligned. */
	rb_begin(&b, PEV_RECORD_HEADER_TRACING_DATA, 0);
	rb_u32(&b, 4096);
	if (!decode("TRACING_DATA"))
		CHECK_EQ_U64(rec.u.tracing_data.size, 4096);
	CHECK_EQ_U64(rec.size, 12);

	rb_begin(&b, PEV_RECORD_FINISHED_ROUND, 0);
	if (!decode("FINISHED_ROUND"))
		CHECK_STR(pev_record_type_name(rec.type), "FINISHED_ROUND");
	rb_begin(&b, PEV_RECORD_FINISHED_INIT, 0);
	if (!decode("FINISHED_INIT"))
		CHECK_EQ_U64(rec.type, PEV_RECORD_FINISHED_INIT);

	rb_begin(&b, PEV_RECORD_STAT, 0);
	rb_u64(&b, 5); rb_u32(&b, 1); rb_u32(&b, 2);
	rb_u64(&b, 100); rb_u64(&b, 200); rb_u64(&b, 150);
	if (!decode("STAT")) {
		struct pev_record_stat *s = &rec.u.stat;
		CHECK(s->id == 5 && s->cpu == 1 && s->thread == 2);
		CHECK(s->val == 100 && s->ena == 200 && s->run == 150);
	}
	rb_begin(&b, PEV_RECORD_STAT_ROUND, 0);
	rb_u64(&b, 1); rb_u64(&b, 12345);
	if (!decode("STAT_ROUND"))
		CHECK(rec.u.stat_round.type == 1 && rec.u.stat_round.time == 12345);
	rb_begin(&b, PEV_RECORD_STAT_CONFIG, 0);
	rb_u64(&b, 2); rb_u64(&b, 0); rb_u64(&b, 3); rb_u64(&b, 1); rb_u64(&b, 1000);
	if (!decode("STAT_CONFIG")) {
		CHECK_EQ_U64(rec.u.stat_config.nr, 2);
		CHECK_EQ_U64(rec.u.stat_config.entries[1].tag, 1);
		CHECK_EQ_U64(rec.u.stat_config.entries[1].val, 1000);
	}
}

static void t_build_id(void)
{
	uint8_t bid[20];
	for (int i = 0; i < 20; i++)
		bid[i] = (uint8_t)i;
	rb_begin(&b, PEV_RECORD_HEADER_BUILD_ID,
		 PERF_RECORD_MISC_USER | PEV_RECORD_MISC_BUILD_ID_SIZE);
	rb_u32(&b, (uint32_t)-1); rb_raw(&b, bid, 20);
	rb_u8(&b, 16); rb_u8(&b, 0); rb_u16(&b, 0);
	rb_str(&b, "/usr/bin/ls");
	if (decode("BUILD_ID"))
		return;
	CHECK_EQ_INT(rec.u.build_id.pid, -1);
	CHECK_EQ_U64(rec.u.build_id.size, 16);
	CHECK(!memcmp(rec.u.build_id.build_id, bid, 20));
	CHECK_STR(rec.u.build_id.filename, "/usr/bin/ls");
	rb_begin(&b, PEV_RECORD_HEADER_BUILD_ID, PERF_RECORD_MISC_KERNEL);
	rb_u32(&b, 0); rb_raw(&b, bid, 20); rb_u32(&b, 0);
	rb_str(&b, "[kernel.kallsyms]");
	if (!decode("BUILD_ID without size"))
		CHECK_EQ_U64(rec.u.build_id.size, 20);
}

static void t_index_aux(void)
{
	rb_begin(&b, PEV_RECORD_ID_INDEX, 0);
	rb_u64(&b, 2);
	for (uint64_t i = 0; i < 2; i++) {
		rb_u64(&b, 50 + i); rb_u64(&b, i); rb_u64(&b, i + 4); rb_u64(&b, 900 + i);
	}
	if (!decode("ID_INDEX")) {
		CHECK_EQ_U64(rec.u.id_index.nr, 2);
		CHECK_EQ_U64(rec.u.id_index.entries[1].id, 51);
		CHECK_EQ_U64(rec.u.id_index.entries[1].idx, 1);
		CHECK_EQ_U64(rec.u.id_index.entries[1].cpu, 5);
		CHECK_EQ_U64(rec.u.id_index.entries[1].tid, 901);
		CHECK(rec.u.id_index.entries2 == NULL);
	}
	for (uint64_t i = 0; i < 2; i++) {
		rb_u64(&b, 3000 + i); rb_u64(&b, i);
	}
	if (!decode("ID_INDEX with machine")) {
		CHECK(rec.u.id_index.entries2 != NULL);
		CHECK_EQ_U64(rec.u.id_index.entries2[1].machine_pid, 3001);
	}

	rb_begin(&b, PEV_RECORD_AUXTRACE_INFO, 0);
	rb_u32(&b, 6); rb_u32(&b, 0); rb_u64(&b, 0xaa); rb_u64(&b, 0xbb);
	if (!decode("AUXTRACE_INFO")) {
		CHECK_EQ_U64(rec.u.auxtrace_info.type, 6);
		CHECK_EQ_U64(rec.u.auxtrace_info.nr_priv, 2);
		CHECK_EQ_U64(rec.u.auxtrace_info.priv[1], 0xbb);
	}
	rb_begin(&b, PEV_RECORD_AUXTRACE, 0);
	rb_u64(&b, 4096); rb_u64(&b, 8192); rb_u64(&b, 0x77);
	rb_u32(&b, 1); rb_u32(&b, 2); rb_u32(&b, 3); rb_u32(&b, 0);
	if (!decode("AUXTRACE")) {
		struct pev_record_auxtrace *a = &rec.u.auxtrace;
		CHECK(a->size == 4096 && a->offset == 8192 && a->reference == 0x77);
		CHECK(a->idx == 1 && a->tid == 2 && a->cpu == 3);
	}
	char msg[64] = "decoder error";
	rb_begin(&b, PEV_RECORD_AUXTRACE_ERROR, 0);
	for (uint32_t i = 1; i <= 6; i++)
		rb_u32(&b, i);
	rb_u64(&b, 0x401000); rb_u64(&b, 777); rb_raw(&b, msg, 64);
	rb_u32(&b, 42); rb_u32(&b, 3);
	if (!decode("AUXTRACE_ERROR")) {
		struct pev_record_auxtrace_error *e = &rec.u.auxtrace_error;
		CHECK(e->type == 1 && e->code == 2 && e->cpu == 3 && e->pid == 4 &&
		      e->tid == 5 && e->fmt == 6);
		CHECK(e->ip == 0x401000 && e->time == 777);
		CHECK_STR(e->msg, "decoder error");
		CHECK(e->has_machine && e->machine_pid == 42 && e->vcpu == 3);
	}
}

static void t_maps(void)
{
	char comm[16] = "bash";
	rb_begin(&b, PEV_RECORD_THREAD_MAP, 0);
	rb_u64(&b, 2);
	rb_u64(&b, 100); rb_raw(&b, comm, 16);
	rb_u64(&b, 101); rb_raw(&b, "0123456789abcdef", 16);
	if (!decode("THREAD_MAP")) {
		CHECK_EQ_U64(rec.u.thread_map.nr, 2);
		CHECK_EQ_U64(rec.u.thread_map.entries[0].pid, 100);
		CHECK_STR(rec.u.thread_map.entries[0].comm, "bash");
		CHECK_EQ_U64(rec.u.thread_map.entries[1].pid, 101);
	}

	int32_t cpus[16];
	/* CPUS list, with "any cpu". */
	rb_begin(&b, PEV_RECORD_CPU_MAP, 0);
	rb_u16(&b, PEV_CPU_MAP_CPUS); rb_u16(&b, 3);
	rb_u16(&b, 0xffff); rb_u16(&b, 2); rb_u16(&b, 5);
	rb_pad8(&b);
	if (!decode("CPU_MAP cpus")) {
		CHECK_EQ_INT(pev_cpu_map_cpus(&rec.u.cpu_map.map, cpus, 16), 3);
		CHECK(cpus[0] == -1 && cpus[1] == 2 && cpus[2] == 5);
	}
	/* 32-bit mask: cpus 0, 3, 33. */
	rb_begin(&b, PEV_RECORD_CPU_MAP, 0);
	rb_u16(&b, PEV_CPU_MAP_MASK); rb_u16(&b, 2); rb_u16(&b, 4);
	rb_u32(&b, 0x9); rb_u32(&b, 0x2);
	rb_pad8(&b);
	if (!decode("CPU_MAP mask32")) {
		CHECK_EQ_INT(pev_cpu_map_cpus(&rec.u.cpu_map.map, cpus, 16), 3);
		CHECK(cpus[0] == 0 && cpus[1] == 3 && cpus[2] == 33);
		CHECK_EQ_INT(pev_cpu_map_cpus(&rec.u.cpu_map.map, cpus, 1), 3);
	}
	/* 64-bit mask (4 pad bytes): cpus 1, 64. */
	rb_begin(&b, PEV_RECORD_CPU_MAP, 0);
	rb_u16(&b, PEV_CPU_MAP_MASK); rb_u16(&b, 2); rb_u16(&b, 8);
	rb_u32(&b, 0);
	rb_u64(&b, 0x2); rb_u64(&b, 0x1);
	rb_pad8(&b);
	if (!decode("CPU_MAP mask64")) {
		CHECK_EQ_INT(pev_cpu_map_cpus(&rec.u.cpu_map.map, cpus, 16), 2);
		CHECK(cpus[0] == 1 && cpus[1] == 64);
	}
	/* Range 4..7 with any cpu. */
	rb_begin(&b, PEV_RECORD_CPU_MAP, 0);
	rb_u16(&b, PEV_CPU_MAP_RANGE); rb_u8(&b, 1); rb_u8(&b, 0);
	rb_u16(&b, 4); rb_u16(&b, 7);
	if (!decode("CPU_MAP range")) {
		CHECK_EQ_INT(pev_cpu_map_cpus(&rec.u.cpu_map.map, cpus, 16), 5);
		CHECK(cpus[0] == -1 && cpus[1] == 4 && cpus[4] == 7);
	}
	/* Bad long_size and unknown type. */
	rb_begin(&b, PEV_RECORD_CPU_MAP, 0);
	rb_u16(&b, PEV_CPU_MAP_MASK); rb_u16(&b, 1); rb_u16(&b, 2); rb_u16(&b, 0);
	CHECK_EQ_INT(pev_record_decode(NULL, rb_p(&b), rb_end(&b), &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "cpu_map.long_size");
	rb_begin(&b, PEV_RECORD_CPU_MAP, 0);
	rb_u16(&b, 9); rb_u16(&b, 0); rb_u32(&b, 0);
	CHECK_EQ_INT(pev_record_decode(NULL, rb_p(&b), rb_end(&b), &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "cpu_map.type");
}

static void t_update_conv(void)
{
	rb_begin(&b, PEV_RECORD_EVENT_UPDATE, 0);
	rb_u64(&b, PEV_EVENT_UPDATE_NAME); rb_u64(&b, 9); rb_str(&b, "my-event");
	if (!decode("EVENT_UPDATE name")) {
		CHECK_EQ_U64(rec.u.event_update.id, 9);
		CHECK_STR(rec.u.event_update.str, "my-event");
	}
	rb_begin(&b, PEV_RECORD_EVENT_UPDATE, 0);
	rb_u64(&b, PEV_EVENT_UPDATE_UNIT); rb_u64(&b, 9); rb_str(&b, "MiB");
	if (!decode("EVENT_UPDATE unit"))
		CHECK_STR(rec.u.event_update.str, "MiB");
	double sc = 0.25;
	uint64_t scv;
	memcpy(&scv, &sc, 8);
	rb_begin(&b, PEV_RECORD_EVENT_UPDATE, 0);
	rb_u64(&b, PEV_EVENT_UPDATE_SCALE); rb_u64(&b, 9); rb_u64(&b, scv);
	if (!decode("EVENT_UPDATE scale"))
		CHECK(rec.u.event_update.scale == 0.25);
	rb_begin(&b, PEV_RECORD_EVENT_UPDATE, 0);
	rb_u64(&b, PEV_EVENT_UPDATE_CPUS); rb_u64(&b, 9);
	rb_u16(&b, PEV_CPU_MAP_CPUS); rb_u16(&b, 1); rb_u16(&b, 3);
	rb_pad8(&b);
	if (!decode("EVENT_UPDATE cpus")) {
		int32_t c[2];
		CHECK_EQ_INT(pev_cpu_map_cpus(&rec.u.event_update.cpus, c, 2), 1);
		CHECK_EQ_INT(c[0], 3);
	}

	rb_begin(&b, PEV_RECORD_TIME_CONV, 0);
	rb_u64(&b, 31); rb_u64(&b, 500); rb_u64(&b, 1000);
	if (!decode("TIME_CONV old")) {
		CHECK(rec.u.time_conv.time_shift == 31 && rec.u.time_conv.time_mult == 500);
		CHECK(rec.u.time_conv.time_zero == 1000 && !rec.u.time_conv.has_cycles);
	}
	rb_u64(&b, 77); rb_u64(&b, 0xffff); rb_u8(&b, 1); rb_u8(&b, 1);
	rb_pad8(&b);
	if (!decode("TIME_CONV")) {
		CHECK(rec.u.time_conv.has_cycles && rec.u.time_conv.time_cycles == 77);
		CHECK(rec.u.time_conv.time_mask == 0xffff);
		CHECK(rec.u.time_conv.cap_user_time_zero == 1 &&
		      rec.u.time_conv.cap_user_time_short == 1);
	}
}

static void t_payloads(void)
{
	rb_begin(&b, PEV_RECORD_HEADER_FEATURE, 0);
	rb_u64(&b, 3); rb_u32(&b, 5); rb_raw(&b, "host", 5);
	if (!decode("HEADER_FEATURE")) {
		CHECK_EQ_U64(rec.u.feature.feat_id, 3);
		CHECK_EQ_U64(rec.u.feature.size, 9);
	}
	rb_begin(&b, PEV_RECORD_COMPRESSED, 0);
	rb_raw(&b, "\x28\xb5\x2f\xfd\x01", 5);
	if (!decode("COMPRESSED")) {
		CHECK_EQ_U64(rec.u.compressed.size, 5);
		CHECK(!memcmp(rec.u.compressed.data, "\x28\xb5\x2f\xfd", 4));
	}
	rb_begin(&b, PEV_RECORD_COMPRESSED2, 0);
	rb_u64(&b, 5); rb_raw(&b, "\x28\xb5\x2f\xfd\x01", 5); rb_pad8(&b);
	if (!decode("COMPRESSED2")) {
		CHECK_EQ_U64(rec.u.compressed.size, 5);
		CHECK_STR(pev_record_type_name(rec.type), "COMPRESSED2");
	}
	for (uint32_t t = PEV_RECORD_BPF_METADATA; t <= 90; t++) {
		rb_begin(&b, t, 0);
		rb_u64(&b, 0x1234);
		if (!decode("newer user type")) {
			CHECK_EQ_U64(rec.u.payload.size, 8);
			CHECK(!memcmp(rec.u.payload.data, rb_p(&b) + 8, 8));
		}
	}
	CHECK_STR(pev_record_type_name(PEV_RECORD_SCHEDSTAT_DOMAIN), "SCHEDSTAT_DOMAIN");
	CHECK(pev_record_type_name(87) == NULL);
	/* user types other than the three exceptions must be aligned */
	rb_begin(&b, PEV_RECORD_STAT_ROUND, 0);
	rb_u64(&b, 1); rb_u32(&b, 1);
	CHECK_EQ_INT(pev_record_decode(NULL, rb_p(&b), rb_end(&b), &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "header.size");
	/* EVENT_TYPE name without NUL in its 64 bytes. */
	char name[64];
	memset(name, 'x', 64);
	rb_begin(&b, PEV_RECORD_HEADER_EVENT_TYPE, 0);
	rb_u64(&b, 1); rb_raw(&b, name, 64);
	CHECK_EQ_INT(pev_record_decode(NULL, rb_p(&b), rb_end(&b), &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "name");
	/* THREAD_MAP nr beyond the record. */
	rb_begin(&b, PEV_RECORD_THREAD_MAP, 0);
	rb_u64(&b, 1ULL << 62);
	CHECK_EQ_INT(pev_record_decode(NULL, rb_p(&b), rb_end(&b), &rec), -EBADMSG);
	CHECK_STR(rec.error.field, "nr");
}

int main(void)
{
	t_attr();
	t_small();
	t_build_id();
	t_index_aux();
	t_maps();
	t_update_conv();
	t_payloads();
	return t_done();
}
