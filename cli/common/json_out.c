// SPDX-License-Identifier: GPL-2.0-only
/* JSON strings (see json_out.h). */
#include <string.h>

#include "common/json_out.h"

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if none:
 * the ranges of RFC 3629's table, so overlong forms and surrogates
 * are invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void json_put_strn(FILE *o, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;	/* s[i - run, i) is waiting to be copied */

	fputc('"', o);
	while (i < n) {
		unsigned char c = s[i];
		const char *esc = NULL;
		char buf[8];
		size_t len = 1;

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			i++;
			run++;
			continue;
		}
		if (c >= 0x80) {
			len = utf8_len(s + i, n - i);
			if (len == 3 && c == 0xe2 && s[i + 1] == 0x80 &&
			    (s[i + 2] == 0xa8 || s[i + 2] == 0xa9))
				esc = s[i + 2] == 0xa8 ? "\\u2028" : "\\u2029";
			else if (!len) {
				esc = "\\ufffd";
				len = 1;
			} else {
				i += len;
				run += len;
				continue;
			}
		} else if (c == '"')
			esc = "\\\"";
		else if (c == '\\')
			esc = "\\\\";
		else if (c == '\n')
			esc = "\\n";
		else if (c == '\t')
			esc = "\\t";
		else if (c == '\r')
			esc = "\\r";
		else if (c == '\b')
			esc = "\\b";
		else if (c == '\f')
			esc = "\\f";
		else {
			snprintf(buf, sizeof(buf), "\\u%04x", c);
			esc = buf;
		}
		fwrite(s + i - run, 1, run, o);
		run = 0;
		fputs(esc, o);
		i += len;
	}
	fwrite(s + i - run, 1, run, o);
	fputc('"', o);
}

void json_put_str(FILE *o, const char *s)
{
	if (s)
		json_put_strn(o, s, strlen(s));
	else
		fputs("null", o);
}

void json_put_u64(FILE *o, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), o);
}

void json_put_decimal(FILE *o, uint64_t v, unsigned places)
{
	char buf[48], *p = buf + sizeof(buf);

	if (places > 18)
		places = 18;
	for (unsigned i = 0; i < places; i++) {
		*--p = (char)('0' + v % 10);
		v /= 10;
	}
	if (places)
		*--p = '.';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), o);
}
