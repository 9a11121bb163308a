/* SPDX-License-Identifier: GPL-2.0-only */
/* JSON text for the convert writers (and any other JSON output): strings
 * escaped so that any byte string becomes valid JSON (RFC 8259). */
#ifndef PEV_CLI_JSON_OUT_H
#define PEV_CLI_JSON_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Writes s (n bytes) as a quoted JSON string: '"' and '\\' escaped,
 * control characters and DEL as \n, \t, ... or \u00XX, U+2028 and U+2029 as
 * \u2028 and \u2029 (JavaScript parsers before ES2019 reject them raw),
 * and every byte that does not start a valid UTF-8 sequence (overlong
 * forms, surrogates, past U+10FFFF, cut sequences) as \ufffd, one per
 * byte.  Valid UTF-8 is copied as is.  Errors show in ferror(o). */
void json_put_strn(FILE *o, const char *s, size_t n);
/* The same for a NUL-terminated string; NULL writes null. */
void json_put_str(FILE *o, const char *s);

/* v in decimal. */
void json_put_u64(FILE *o, uint64_t v);
/* v / 10^places with exactly `places` decimals (places <= 18), exact:
 * nanoseconds as milliseconds are json_put_decimal(o, ns, 6). */
void json_put_decimal(FILE *o, uint64_t v, unsigned places);

#endif
