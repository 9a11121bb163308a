// SPDX-License-Identifier: GPL-2.0-only
/* cli/common/json_out.c (compiled in here): every byte string becomes a JSON
 * string that a JSON parser reads back.  Expected texts written by hand
 * from RFC 8259 (escapes) and RFC 3629 (valid UTF-8: overlong forms,
 * surrogates, code points past U+10FFFF and cut sequences are not). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "../../cli/common/json_out.c"

static void same(const char *in, size_t n, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);

	if (!o)
		T_FATAL("open_memstream failed");
	json_put_strn(o, in, n);
	fclose(o);
	if (strcmp(buf, want))
		T_FAIL("json_put_strn(%zu bytes): got %s, want %s", n, buf, want);
	free(buf);
}

#define SAME(lit, want) same(lit, sizeof(lit) - 1, want)

int main(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *o;

	/* plain ASCII is copied */
	SAME("", "\"\"");
	SAME("main", "\"main\"");
	SAME("std::vector<int>::push_back(int const&)", "\"std::vector<int>::push_back(int const&)\"");
	/* quotes, backslashes and control characters */
	SAME("a\"b\\c", "\"a\\\"b\\\\c\"");
	SAME("\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\"");
	SAME("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	same("a\0b", 3, "\"a\\u0000b\"");
	/* valid UTF-8 of each length is kept: é (2), € (3), 😀 (4),
	 * U+10FFFF, U+D7FF, U+E000 */
	SAME("caf\xc3\xa9", "\"caf\xc3\xa9\"");
	SAME("\xe2\x82\xac", "\"\xe2\x82\xac\"");
	SAME("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");
	SAME("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");
	SAME("\xed\x9f\xbf\xee\x80\x80", "\"\xed\x9f\xbf\xee\x80\x80\"");
	/* line and paragraph separators escaped */
	SAME("a\xe2\x80\xa8" "b\xe2\x80\xa9", "\"a\\u2028b\\u2029\"");
	/* invalid: a lone continuation byte, 0xff, overlong '/' (2 bytes),
	 * overlong 3-byte form, a surrogate U+D800, past U+10FFFF, a cut
	 * sequence at the end and one cut by ASCII: one U+FFFD per byte */
	SAME("\x80", "\"\\ufffd\"");
	SAME("x\xffy", "\"x\\ufffdy\"");
	SAME("\xc0\xaf", "\"\\ufffd\\ufffd\"");
	SAME("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");
	SAME("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	SAME("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	SAME("ab\xe2\x82", "\"ab\\ufffd\\ufffd\"");
	SAME("\xc3" "a", "\"\\ufffda\"");
	/* the length bounds the read: a valid sequence cut by n */
	same("\xe2\x82\xac", 2, "\"\\ufffd\\ufffd\"");

	/* json_put_str: NULL is null */
	o = open_memstream(&buf, &len);
	if (!o)
		T_FATAL("open_memstream failed");
	json_put_str(o, NULL);
	fputc(' ', o);
	json_put_str(o, "q\"");
	fclose(o);
	CHECK_STR(buf, "null \"q\\\"\"");
	free(buf);

	/* numbers: integers, and fixed decimals exact (no double) */
	o = open_memstream(&buf, &len);
	if (!o)
		T_FATAL("open_memstream failed");
	json_put_u64(o, 0);
	fputc(' ', o);
	json_put_u64(o, UINT64_MAX);
	fputc(' ', o);
	json_put_decimal(o, 0, 6);
	fputc(' ', o);
	json_put_decimal(o, 1234567, 6);
	fputc(' ', o);
	json_put_decimal(o, 5, 3);
	fputc(' ', o);
	json_put_decimal(o, 18446744073709551615ull, 3);
	fputc(' ', o);
	json_put_decimal(o, 42, 0);
	fclose(o);
	CHECK_STR(buf, "0 18446744073709551615 0.000000 1.234567 0.005 18446744073709551.615 42");
	free(buf);
	return t_done();
}
