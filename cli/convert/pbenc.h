/* SPDX-License-Identifier: GPL-2.0-only */
/* A small protocol-buffers encoder: just what `perfev convert --to
 * pprof` needs to write profile.proto (proto3) messages.
 *
 * Wire format (https://protobuf.dev/programming-guides/encoding/):
 *  - a field is a key, (field number << 3 | wire type), as a varint, then
 *    its value;
 *  - varints: 7 bits a byte, least significant group first, the high bit
 *    set on every byte but the last (at most 10 bytes for 64 bits);
 *  - wire type 0 (VARINT): int64, uint64, bool; a negative int64 is its
 *    two's complement as uint64 (10 bytes); sint zigzag is not needed;
 *  - wire type 2 (LEN): a varint byte count, then the bytes: strings,
 *    bytes, nested messages, and packed repeated scalars (the varints of
 *    every element one after another);
 *  - proto3 leaves out scalar fields equal to their default (0, false,
 *    ""): pb_uint and pb_int skip 0, pb_bool skips false; elements of a
 *    repeated field are always written (pb_str: string_table's "").
 *
 * A nested message is built in its own struct pb and appended with
 * pb_msg (its length must be known before its bytes).  Running out of
 * memory sets ->oom and makes every later call a no-op. */
#ifndef PEV_CLI_PBENC_H
#define PEV_CLI_PBENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { PB_VARINT = 0, PB_LEN = 2 };

struct pb {
	uint8_t *b;
	size_t len, cap;
	bool oom;
};

/* Empties p, keeping its memory; pb_free gives it back. */
void pb_reset(struct pb *p);
void pb_free(struct pb *p);
/* A raw varint, and a key. */
void pb_varint(struct pb *p, uint64_t v);
void pb_key(struct pb *p, uint32_t field, unsigned wire_type);
/* Scalar fields, left out when 0/false (proto3 defaults). */
void pb_uint(struct pb *p, uint32_t field, uint64_t v);
void pb_int(struct pb *p, uint32_t field, int64_t v);
void pb_bool(struct pb *p, uint32_t field, bool v);
/* LEN fields, always written. */
void pb_bytes(struct pb *p, uint32_t field, const void *data, size_t n);
void pb_str(struct pb *p, uint32_t field, const char *s);
void pb_msg(struct pb *p, uint32_t field, const struct pb *sub);
/* A packed repeated uint64/int64 field (nothing when n is 0). */
void pb_packed(struct pb *p, uint32_t field, const uint64_t *v, size_t n);
/* The bytes of a varint (for sizes). */
size_t pb_varint_size(uint64_t v);

#endif
