// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* libperfev: x86 instruction lengths (no disassembly: only how many
 * bytes an instruction takes, from its prefixes, opcode, ModRM/SIB,
 * displacement and immediate).  The opcode facts follow the Intel SDM
 * opcode maps (volume 2, appendix A). */
#include <errno.h>

#include <perfev/insn.h>

/* Bitmaps of 256 bits: bit n set for opcode n. */
#define B(n) (1ull << ((n) & 63))
#define IN(map, op) (((map)[(op) >> 6] >> ((op) & 63)) & 1)

/* One-byte map: opcodes with a ModRM byte. */
static const uint64_t map1_modrm[4] = {
	/* 00-3f: the ALU ops' first four of each row of eight */
	0x0f0f0f0f0f0f0f0full,
	/* 40-7f: 62 63 69 6b */
	B(0x62) | B(0x63) | B(0x69) | B(0x6b),
	/* 80-bf: 80-8f */
	0xffffull,
	/* c0-ff: c0 c1 c4 c5 c6 c7 d0-d3 d8-df f6 f7 fe ff */
	B(0xc0) | B(0xc1) | B(0xc4) | B(0xc5) | B(0xc6) | B(0xc7) |
	B(0xd0) | B(0xd1) | B(0xd2) | B(0xd3) | 0xff000000ull |
	B(0xf6) | B(0xf7) | B(0xfe) | B(0xff),
};

/* Invalid in 64-bit mode (VEX/EVEX/REX bytes handled before). */
static const uint64_t map1_inv64[4] = {
	B(0x06) | B(0x07) | B(0x0e) | B(0x16) | B(0x17) | B(0x1e) | B(0x1f) |
	B(0x27) | B(0x2f) | B(0x37) | B(0x3f),
	B(0x60) | B(0x61) | B(0x62),
	B(0x82) | B(0x9a),
	B(0xc4) | B(0xc5) | B(0xce) | B(0xd4) | B(0xd5) | B(0xd6) | B(0xea),
};

/* 0F map: opcodes WITHOUT a ModRM byte (all others have one). */
static const uint64_t map2_no_modrm[4] = {
	B(0x05) | B(0x06) | B(0x07) | B(0x08) | B(0x09) | B(0x0b) | B(0x0e) |
	B(0x30) | B(0x31) | B(0x32) | B(0x33) | B(0x34) | B(0x35) | B(0x37),
	B(0x77),
	0xffffull /* 80-8f jcc */ | B(0xa0) | B(0xa1) | B(0xa2) | B(0xa8) |
	B(0xa9) | B(0xaa),
	0xff00ull /* c8-cf bswap */,
};

/* 0F map: invalid opcodes. */
static const uint64_t map2_inv[4] = {
	B(0x04) | B(0x0a) | B(0x0c) | B(0x36) | B(0x39) | B(0x3b) | B(0x3c) |
	B(0x3d) | B(0x3e) | B(0x3f),
	0,
	B(0xa6) | B(0xa7),
	0,
};

/* 0F map (and VEX/EVEX map 1): opcodes with an imm8. */
static bool map2_imm8(uint8_t op)
{
	return (op >= 0x70 && op <= 0x73) || op == 0xa4 || op == 0xac ||
	       op == 0xba || op == 0xc2 || op == 0xc4 || op == 0xc5 ||
	       op == 0xc6 || op == 0x0f;
}

struct dec {
	const uint8_t *p;
	size_t len, pos;
	bool mode64;
	bool opsize16, addr16;	/* 66 / 67 prefixes (67: 32-bit in 64-bit mode) */
	bool rex_w;
};

static int take(struct dec *d, size_t n)
{
	if (d->len - d->pos < n)
		return -ENODATA;
	d->pos += n;
	return 0;
}

/* ModRM, SIB and displacement. */
static int modrm(struct dec *d)
{
	if (d->pos >= d->len)
		return -ENODATA;
	uint8_t m = d->p[d->pos++];
	unsigned mod = m >> 6, rm = m & 7;

	if (mod == 3)
		return 0;
	if (!d->mode64 && d->addr16) {
		/* 16-bit addressing: no SIB; disp16 for mod 2 and [disp16]. */
		if (mod == 1)
			return take(d, 1);
		if (mod == 2 || (mod == 0 && rm == 6))
			return take(d, 2);
		return 0;
	}
	if (rm == 4) {
		if (d->pos >= d->len)
			return -ENODATA;
		uint8_t sib = d->p[d->pos++];

		if (mod == 0 && (sib & 7) == 5)
			return take(d, 4);
	}
	if (mod == 1)
		return take(d, 1);
	if (mod == 2 || (mod == 0 && rm == 5))
		return take(d, 4);
	return 0;
}

/* The size of an "Iz"/"Jz" immediate: 2 with the 66 prefix, else 4. */
static size_t immz(const struct dec *d)
{
	return d->opsize16 && !d->rex_w ? 2 : 4;
}

static int one_byte(struct dec *d, uint8_t op)
{
	int err;

	if (d->mode64 && IN(map1_inv64, op))
		return -EINVAL;
	if (IN(map1_modrm, op) && (err = modrm(d)) < 0)
		return err;
	if (op < 0x40) {
		switch (op & 7) {
		case 4: return take(d, 1);
		case 5: return take(d, immz(d));
		default: return 0;
		}
	}
	if (op >= 0x70 && op <= 0x7f)
		return take(d, 1);
	if (op >= 0xb0 && op <= 0xb7)
		return take(d, 1);
	if (op >= 0xb8 && op <= 0xbf)
		return take(d, d->rex_w ? 8 : immz(d));
	if (op >= 0xa0 && op <= 0xa3)	/* moffs */
		return take(d, d->mode64 ? (d->addr16 ? 4 : 8) : (d->addr16 ? 2 : 4));
	switch (op) {
	case 0x6a: case 0x6b: case 0x80: case 0x82: case 0x83: case 0xa8:
	case 0xc0: case 0xc1: case 0xc6: case 0xcd: case 0xd4: case 0xd5:
	case 0xe0: case 0xe1: case 0xe2: case 0xe3: case 0xe4: case 0xe5:
	case 0xe6: case 0xe7: case 0xeb:
		return take(d, 1);
	case 0x68: case 0x69: case 0x81: case 0xa9: case 0xc7:
	case 0xe8: case 0xe9:
		return take(d, immz(d));
	case 0xc2: case 0xca:
		return take(d, 2);
	case 0xc8:
		return take(d, 3);
	case 0x9a: case 0xea:		/* far pointer (32-bit mode) */
		return take(d, immz(d) + 2);
	default:
		return 0;
	}
}

/* The opcode after 0F (map 1), 0F 38 (map 2) or 0F 3A (map 3). */
static int escaped(struct dec *d, unsigned map, bool vex)
{
	int err;

	if (d->pos >= d->len)
		return -ENODATA;
	uint8_t op = d->p[d->pos++];

	if (map == 1) {
		if (!vex && IN(map2_inv, op))
			return -EINVAL;
		/* VEX 0F 77 (vzeroupper/all) has no ModRM either. */
		if (!IN(map2_no_modrm, op) && (err = modrm(d)) < 0)
			return err;
		if (!vex && op >= 0x80 && op <= 0x8f)
			return take(d, immz(d));
		return map2_imm8(op) ? take(d, 1) : 0;
	}
	if ((err = modrm(d)) < 0)
		return err;
	return map == 3 ? take(d, 1) : 0;
}

int pev_x86_insn_length(const uint8_t *code, size_t len, bool mode64)
{
	struct dec d = { .p = code, .len = len > 15 ? 15 : len, .mode64 = mode64 };
	int err;

	if (!code)
		return -EINVAL;
	for (;;) {
		if (d.pos >= d.len)
			return -ENODATA;
		uint8_t b = code[d.pos];

		if (b == 0x66)
			d.opsize16 = true;
		else if (b == 0x67)
			d.addr16 = true;
		else if (!(b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x2e ||
			   b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64 ||
			   b == 0x65))
			break;
		d.pos++;
	}
	uint8_t op = code[d.pos++];

	if (mode64 && op >= 0x40 && op <= 0x4f) {
		/* REX: must come right before the opcode. */
		d.rex_w = op & 8;
		if (d.pos >= d.len)
			return -ENODATA;
		op = code[d.pos++];
	}
	bool vex_ok = d.pos < d.len && (mode64 || (code[d.pos] & 0xc0) == 0xc0);

	if ((op == 0xc4 || op == 0xc5) && vex_ok) {
		unsigned map = 1;

		if (op == 0xc4) {
			if (d.len - d.pos < 2)
				return -ENODATA;
			map = code[d.pos] & 0x1f;
			d.rex_w = code[d.pos + 1] & 0x80;
			d.pos += 2;
		} else {
			d.pos += 1;
		}
		if (map < 1 || map > 3)
			return -EINVAL;
		err = escaped(&d, map, true);
	} else if (op == 0x62 && vex_ok) {
		/* EVEX: P0 P1 P2, then the opcode of map mmm. */
		if (d.len - d.pos < 3)
			return -ENODATA;
		unsigned map = code[d.pos] & 7;

		d.pos += 3;
		if (map == 0 || map == 4 || map == 7)
			return -EINVAL;
		/* Maps 5 and 6 (FP16) have no immediates, like 0F38. */
		err = escaped(&d, map == 5 || map == 6 ? 2 : map, true);
	} else if (op == 0x0f) {
		if (d.pos >= d.len)
			return -ENODATA;
		uint8_t m = code[d.pos];

		if (m == 0x38 || m == 0x3a) {
			d.pos++;
			err = escaped(&d, m == 0x38 ? 2 : 3, false);
		} else {
			err = escaped(&d, 1, false);
		}
	} else {
		size_t at = d.pos;

		err = one_byte(&d, op);
		/* TEST (F6/F7 /0 and /1) has an imm8 / Iz after its ModRM. */
		if (!err && (op == 0xf6 || op == 0xf7) && ((code[at] >> 3) & 7) < 2)
			err = take(&d, op == 0xf6 ? 1 : immz(&d));
	}
	if (err < 0)
		return err;
	return (int)d.pos;
}
