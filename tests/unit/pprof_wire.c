// SPDX-License-Identifier: GPL-2.0-only
/* cli/convert/pbenc.c (compiled in here), the protocol-buffers encoder behind
 * `perfev convert --to pprof`, against bytes computed by hand from the
 * wire format (https://protobuf.dev/programming-guides/encoding/; the
 * 150, "testing", nested-message and packed examples are the ones that
 * page works through): varints of 1 to 10 bytes, keys of field numbers
 * past 15, a negative int64 as 10 bytes, proto3 defaults left out, an
 * empty string kept (string_table[0]), nested messages, packed repeated
 * fields, and a small profile.proto Profile. */
#include "testutil.h"
#include "../../cli/convert/pbenc.c"

static void same(const char *what, const struct pb *p, const uint8_t *want, size_t n)
{
	bool eq = !p->oom && p->len == n && !memcmp(p->b, want, n);

	CHECK_MSG(eq, "%s: %zu bytes, want %zu", what, p->len, n);
	if (!eq) {
		printf("  got: ");
		for (size_t i = 0; i < p->len; i++)
			printf(" %02x", p->b[i]);
		printf("\n  want:");
		for (size_t i = 0; i < n; i++)
			printf(" %02x", want[i]);
		printf("\n");
	}
}

#define SAME(what, p, ...) do { static const uint8_t w_[] = { __VA_ARGS__ }; \
		same(what, p, w_, sizeof(w_)); } while (0)

int main(void)
{
	struct pb p = { 0 }, sub = { 0 }, sub2 = { 0 };

	pb_varint(&p, 0);
	SAME("varint 0", &p, 0x00);
	pb_reset(&p);
	pb_varint(&p, 1);
	pb_varint(&p, 127);
	SAME("varints 1, 127", &p, 0x01, 0x7f);
	pb_reset(&p);
	pb_varint(&p, 128);
	pb_varint(&p, 300);
	SAME("varints 128, 300", &p, 0x80, 0x01, 0xac, 0x02);
	pb_reset(&p);
	pb_varint(&p, UINT64_MAX);
	SAME("varint 2^64-1", &p, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
	CHECK_EQ_INT(pb_varint_size(0), 1);
	CHECK_EQ_INT(pb_varint_size(127), 1);
	CHECK_EQ_INT(pb_varint_size(128), 2);
	CHECK_EQ_INT(pb_varint_size(16383), 2);
	CHECK_EQ_INT(pb_varint_size(16384), 3);
	CHECK_EQ_INT(pb_varint_size(UINT64_MAX), 10);

	/* Test1 { int32 a = 1; } with a = 150 */
	pb_reset(&p);
	pb_uint(&p, 1, 150);
	SAME("a = 150", &p, 0x08, 0x96, 0x01);
	/* defaults are left out */
	pb_reset(&p);
	pb_uint(&p, 1, 0);
	pb_int(&p, 2, 0);
	pb_bool(&p, 7, false);
	CHECK_EQ_INT(p.len, 0);
	pb_bool(&p, 7, true);
	SAME("bool 7 = true", &p, 0x38, 0x01);
	/* a negative int64: two's complement, 10 bytes */
	pb_reset(&p);
	pb_int(&p, 2, -1);
	SAME("int64 -1", &p, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
	/* keys: field 16 needs two bytes; field 14 LEN */
	pb_reset(&p);
	pb_uint(&p, 16, 1);
	pb_key(&p, 14, PB_LEN);
	SAME("keys 16/varint, 14/len", &p, 0x80, 0x01, 0x01, 0x72);
	/* Test2 { string b = 2; } with b = "testing" */
	pb_reset(&p);
	pb_str(&p, 2, "testing");
	SAME("b = testing", &p, 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g');
	/* an empty element of a repeated string is written */
	pb_reset(&p);
	pb_str(&p, 6, "");
	SAME("string_table \"\"", &p, 0x32, 0x00);
	/* Test3 { Test1 c = 3; } with c.a = 150 */
	pb_reset(&p);
	pb_uint(&sub, 1, 150);
	pb_msg(&p, 3, &sub);
	SAME("c = {a = 150}", &p, 0x1a, 0x03, 0x08, 0x96, 0x01);
	/* an empty nested message still marks its presence */
	pb_reset(&p);
	pb_reset(&sub);
	pb_msg(&p, 4, &sub);
	SAME("empty message", &p, 0x22, 0x00);
	/* Test4 { repeated int32 d = 4 [packed]; } with d = 3, 270, 86942 */
	pb_reset(&p);
	{
		uint64_t d[] = { 3, 270, 86942 };

		pb_packed(&p, 4, d, 3);
		SAME("packed d", &p, 0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05);
		pb_reset(&p);
		pb_packed(&p, 4, d, 0);
		CHECK_EQ_INT(p.len, 0);
	}
	/* two levels: Profile.sample { location_id: [1, 2] (packed),
	 * label { key: 3, num: 0 } } - num 0 written with a bare key, as
	 * convert_pprof.c writes a pid of 0 */
	pb_reset(&p);
	pb_reset(&sub);
	{
		uint64_t ids[] = { 1, 2 };

		pb_packed(&sub, 1, ids, 2);
		pb_int(&sub2, 1, 3);
		pb_key(&sub2, 3, PB_VARINT);
		pb_varint(&sub2, 0);
		pb_msg(&sub, 3, &sub2);
		pb_msg(&p, 2, &sub);
		SAME("sample", &p, 0x12, 0x0a, 0x0a, 0x02, 0x01, 0x02, 0x1a, 0x04, 0x08, 0x03, 0x18, 0x00);
	}
	/* a length of 200 bytes takes a two-byte varint */
	pb_reset(&p);
	{
		char s[201];

		memset(s, 'x', 200);
		s[200] = 0;
		pb_str(&p, 5, s);
		CHECK_EQ_INT(p.len, 203);
		CHECK(p.b[0] == 0x2a && p.b[1] == 0xc8 && p.b[2] == 0x01 && p.b[3] == 'x');
	}
	/* out of memory poisons a message and whoever embeds it */
	pb_reset(&p);
	sub.oom = true;
	pb_msg(&p, 3, &sub);
	CHECK(p.oom);
	pb_free(&p);
	pb_free(&sub);
	pb_free(&sub2);
	CHECK(p.b == NULL && p.len == 0 && !p.oom);
	return t_done();
}
