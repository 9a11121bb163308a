/* SPDX-License-Identifier: GPL-2.0-only */
/* perfev script: the output buffer and number formatting (script_out.c),
 * below everything else in script; it needs nothing from script.h. */
#ifndef PEV_CLI_SCRIPT_OUT_H
#define PEV_CLI_SCRIPT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Output buffer: hand-formatted, written in large chunks. */
struct obuf {
	char *buf;
	size_t len, cap;
	int fd;
	int err;		/* first write error (-errno), sticky */
};

int so_init(struct obuf *o, int fd);
void so_release(struct obuf *o);
void so_flush(struct obuf *o);
/* so_reserve's slow path: grows or flushes the buffer. */
char *so_grow(struct obuf *o, size_t n);
/* Makes room for n more bytes (flushing when the buffer is large). */
static inline char *so_reserve(struct obuf *o, size_t n)
{
	if (o->cap - o->len < n)
		return so_grow(o, n);
	return o->buf + o->len;
}
static inline void so_char(struct obuf *o, char c)
{
	char *p = so_reserve(o, 1);

	*p = c;
	o->len++;
}
void so_mem(struct obuf *o, const char *s, size_t n);
void so_str(struct obuf *o, const char *s);
void so_spaces(struct obuf *o, size_t n);
/* printf("%*s") / ("%-*s"): s right- (or left-) aligned in width. */
void so_str_w(struct obuf *o, const char *s, int width, bool left);
/* Unsigned decimal, right-aligned in width (0: no padding). */
void so_u64(struct obuf *o, uint64_t v, int width);
/* Signed decimal: right-aligned, or left-aligned when left. */
void so_s64(struct obuf *o, int64_t v, int width, bool left);
/* Zero-padded unsigned decimal of exactly `digits` digits (or more). */
void so_u64_zero(struct obuf *o, uint64_t v, int digits);
/* Lowercase hex without 0x, right-aligned in width. */
void so_hex(struct obuf *o, uint64_t v, int width);
/* printf("%#lx"): "0" for zero, else "0x..." */
void so_hex_alt(struct obuf *o, uint64_t v);
void so_printf(struct obuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
