// SPDX-License-Identifier: GPL-2.0-only
/* perfev script: the output buffer and hand-written number formatting
 * (printf per field costs more than everything else in the hot path). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "script/script_out.h"

#define OB_CAP (1u << 20)

int so_init(struct obuf *o, int fd)
{
	o->buf = malloc(OB_CAP);
	if (!o->buf)
		return -ENOMEM;
	o->cap = OB_CAP;
	o->len = 0;
	o->fd = fd;
	o->err = 0;
	return 0;
}

void so_release(struct obuf *o)
{
	free(o->buf);
	o->buf = NULL;
	o->cap = o->len = 0;
}

void so_flush(struct obuf *o)
{
	size_t off = 0;

	while (off < o->len && !o->err) {
		ssize_t w = write(o->fd, o->buf + off, o->len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			o->err = -errno;
			break;
		}
		off += (size_t)w;
	}
	o->len = 0;
}

char *so_grow(struct obuf *o, size_t n)
{
	so_flush(o);
	if (o->cap < n) {
		char *b = realloc(o->buf, n);

		if (!b) {
			/* Out of memory for one huge field: drop it, keep
			 * going with what fits. */
			o->err = o->err ? o->err : -ENOMEM;
			return o->buf;
		}
		o->buf = b;
		o->cap = n;
	}
	return o->buf + o->len;
}

void so_mem(struct obuf *o, const char *s, size_t n)
{
	if (o->cap - o->len < n) {
		so_grow(o, n);
		if (o->cap < n)
			return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

void so_str(struct obuf *o, const char *s)
{
	so_mem(o, s, strlen(s));
}

void so_spaces(struct obuf *o, size_t n)
{
	char *p = so_reserve(o, n);

	if (o->cap - o->len < n)
		return;
	memset(p, ' ', n);
	o->len += n;
}

void so_str_w(struct obuf *o, const char *s, int width, bool left)
{
	size_t n = strlen(s);
	size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;

	if (!left)
		so_spaces(o, pad);
	so_mem(o, s, n);
	if (left)
		so_spaces(o, pad);
}

/* Writes v's digits backwards ending at end; returns the start. */
static char *u64_digits(uint64_t v, char *end)
{
	char *p = end;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return p;
}

void so_u64(struct obuf *o, uint64_t v, int width)
{
	char tmp[24], *p = u64_digits(v, tmp + sizeof(tmp));
	size_t n = (size_t)(tmp + sizeof(tmp) - p);

	if (width > 0 && (size_t)width > n)
		so_spaces(o, (size_t)width - n);
	so_mem(o, p, n);
}

void so_s64(struct obuf *o, int64_t v, int width, bool left)
{
	char tmp[24], *end = tmp + sizeof(tmp);
	char *p = u64_digits(v < 0 ? -(uint64_t)v : (uint64_t)v, end);

	if (v < 0)
		*--p = '-';
	size_t n = (size_t)(end - p);
	size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;

	if (!left)
		so_spaces(o, pad);
	so_mem(o, p, n);
	if (left)
		so_spaces(o, pad);
}

void so_u64_zero(struct obuf *o, uint64_t v, int digits)
{
	char tmp[24], *end = tmp + sizeof(tmp), *p = u64_digits(v, end);

	while (end - p < digits)
		*--p = '0';
	so_mem(o, p, (size_t)(end - p));
}

void so_hex(struct obuf *o, uint64_t v, int width)
{
	static const char hx[] = "0123456789abcdef";
	char tmp[16], *end = tmp + sizeof(tmp), *p = end;

	do {
		*--p = hx[v & 15];
		v >>= 4;
	} while (v);
	size_t n = (size_t)(end - p);

	if (width > 0 && (size_t)width > n)
		so_spaces(o, (size_t)width - n);
	so_mem(o, p, n);
}

void so_hex_alt(struct obuf *o, uint64_t v)
{
	if (v)
		so_mem(o, "0x", 2);
	so_hex(o, v, 0);
}

void so_printf(struct obuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf ? o->buf + o->len : NULL, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= o->cap - o->len) {
		so_reserve(o, (size_t)n + 1);
		if (o->cap - o->len <= (size_t)n)
			return;
		va_start(ap, fmt);
		vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
	}
	o->len += (size_t)n;
}
