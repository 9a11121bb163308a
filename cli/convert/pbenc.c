// SPDX-License-Identifier: GPL-2.0-only
/* The protocol-buffers encoder of pbenc.h. */
#include <stdlib.h>
#include <string.h>

#include "convert/pbenc.h"

static bool room(struct pb *p, size_t n)
{
	if (p->oom)
		return false;
	if (p->len + n <= p->cap)
		return true;
	size_t cap = p->cap ? p->cap : 256;

	while (cap < p->len + n) {
		if (cap > SIZE_MAX / 2) {
			p->oom = true;
			return false;
		}
		cap *= 2;
	}
	uint8_t *b = realloc(p->b, cap);

	if (!b) {
		p->oom = true;
		return false;
	}
	p->b = b;
	p->cap = cap;
	return true;
}

void pb_reset(struct pb *p)
{
	p->len = 0;
}

void pb_free(struct pb *p)
{
	free(p->b);
	memset(p, 0, sizeof(*p));
}

size_t pb_varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void pb_varint(struct pb *p, uint64_t v)
{
	if (!room(p, 10))
		return;
	while (v >= 0x80) {
		p->b[p->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p->b[p->len++] = (uint8_t)v;
}

void pb_key(struct pb *p, uint32_t field, unsigned wire_type)
{
	pb_varint(p, (uint64_t)field << 3 | wire_type);
}

void pb_uint(struct pb *p, uint32_t field, uint64_t v)
{
	if (!v)
		return;
	pb_key(p, field, PB_VARINT);
	pb_varint(p, v);
}

void pb_int(struct pb *p, uint32_t field, int64_t v)
{
	pb_uint(p, field, (uint64_t)v);
}

void pb_bool(struct pb *p, uint32_t field, bool v)
{
	pb_uint(p, field, v ? 1 : 0);
}

void pb_bytes(struct pb *p, uint32_t field, const void *data, size_t n)
{
	pb_key(p, field, PB_LEN);
	pb_varint(p, n);
	if (!room(p, n))
		return;
	if (n)
		memcpy(p->b + p->len, data, n);
	p->len += n;
}

void pb_str(struct pb *p, uint32_t field, const char *s)
{
	pb_bytes(p, field, s, strlen(s));
}

void pb_msg(struct pb *p, uint32_t field, const struct pb *sub)
{
	if (sub->oom) {
		p->oom = true;
		return;
	}
	pb_bytes(p, field, sub->b, sub->len);
}

void pb_packed(struct pb *p, uint32_t field, const uint64_t *v, size_t n)
{
	size_t len = 0;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		len += pb_varint_size(v[i]);
	pb_key(p, field, PB_LEN);
	pb_varint(p, len);
	for (size_t i = 0; i < n; i++)
		pb_varint(p, v[i]);
}
