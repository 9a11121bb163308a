// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Packed sample values: PERF_SAMPLE_DATA_SRC (decoded by shifts: the
 * kernel builds it with PERF_MEM_S(), so the numeric layout is the same
 * on every byte order), WEIGHT_STRUCT and TRANSACTION, and their text
 * forms as perf prints them. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "sample/record_internal.h"

PEV_EXPORT struct pev_data_src pev_data_src_decode(uint64_t v)
{
	struct pev_data_src d;

	d.mem_op = (uint8_t)(v & 0x1f);
	d.mem_lvl = (uint16_t)((v >> 5) & 0x3fff);
	d.mem_snoop = (uint8_t)((v >> 19) & 0x1f);
	d.mem_lock = (uint8_t)((v >> 24) & 0x3);
	d.mem_dtlb = (uint8_t)((v >> 26) & 0x7f);
	d.mem_lvl_num = (uint8_t)((v >> 33) & 0xf);
	d.mem_remote = (uint8_t)((v >> 37) & 0x1);
	d.mem_snoopx = (uint8_t)((v >> 38) & 0x3);
	d.mem_blk = (uint8_t)((v >> 40) & 0x7);
	d.mem_hops = (uint8_t)((v >> 43) & 0x7);
	return d;
}

/* snprintf into a buffer that may be too small; tracks the full length. */
struct sbuf {
	char *p;
	size_t cap, len;
};

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room = b->len < b->cap ? b->cap - b->len : 0;

	va_start(ap, fmt);
	int n = vsnprintf(room ? b->p + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
}

/* Names of set bits joined by " or "; returns how many were printed. */
static int sb_bits(struct sbuf *b, unsigned bits, const char *const *names,
		   size_t n, int printed)
{
	for (size_t i = 0; i < n; i++) {
		if (!((bits >> i) & 1))
			continue;
		sb_printf(b, "%s%s", printed++ ? " or " : "", names[i]);
	}
	return printed;
}

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* perf 6.1's tables (mem-events.c). perf names only the level numbers
 * below; the others print as "L<n>". */
static const char *const mem_lvl[] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
	"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
	"Remote Cache (2 hops)", "I/O", "Uncached",
};
static const char *const mem_lvlnum[16] = {
	[PERF_MEM_LVLNUM_CXL] = "CXL",
	[PERF_MEM_LVLNUM_IO] = "I/O",
	[PERF_MEM_LVLNUM_ANY_CACHE] = "Any cache",
	[PERF_MEM_LVLNUM_LFB] = "LFB/MAB",
	[PERF_MEM_LVLNUM_RAM] = "RAM",
	[PERF_MEM_LVLNUM_PMEM] = "PMEM",
	[PERF_MEM_LVLNUM_NA] = "N/A",
};
static const char *const mem_hops[8] = {
	"N/A", "core, same node", "node, same socket", "socket, same board",
	"board",
};
static const char *const snoop_names[] = { "N/A", "None", "Hit", "Miss", "HitM", "Fwd", "Peer" };
static const char *const tlb_names[] = {
	"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault",
};

/* The legacy level bits (hit and miss apart), or the hops when set, then
 * the level number, all joined by " or "; "N/A" when that is empty;
 * then hit and miss. */
static void fmt_lvl(struct sbuf *b, const struct pev_data_src *d)
{
	size_t start = b->len;
	int n = 0;

	if (d->mem_remote)
		sb_printf(b, "Remote ");
	if (d->mem_hops)	/* perf indexes its table unchecked: 5..7 print nothing */
		sb_printf(b, "%s ", mem_hops[d->mem_hops] ? mem_hops[d->mem_hops] : "");
	else
		n = sb_bits(b, d->mem_lvl & ~(unsigned)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS),
			    mem_lvl, ARRAY_LEN(mem_lvl), 0);
	if (d->mem_lvl_num) {
		if (n++)
			sb_printf(b, " or ");
		if (mem_lvlnum[d->mem_lvl_num])
			sb_printf(b, "%s", mem_lvlnum[d->mem_lvl_num]);
		else
			sb_printf(b, "L%u", d->mem_lvl_num);
	}
	if (b->len == start)
		sb_printf(b, "N/A");
	if (d->mem_lvl & PERF_MEM_LVL_HIT)
		sb_printf(b, " hit");
	if (d->mem_lvl & PERF_MEM_LVL_MISS)
		sb_printf(b, " miss");
}

static void fmt_part(struct sbuf *b, const struct pev_data_src *d,
		     enum pev_data_src_part part)
{
	switch (part) {
	case PEV_DATA_SRC_OP:
		sb_printf(b, "%s", (d->mem_op & PERF_MEM_OP_NA) ? "N/A" :
			  (d->mem_op & PERF_MEM_OP_LOAD) ? "LOAD" :
			  (d->mem_op & PERF_MEM_OP_STORE) ? "STORE" :
			  (d->mem_op & PERF_MEM_OP_PFETCH) ? "PFETCH" :
			  (d->mem_op & PERF_MEM_OP_EXEC) ? "EXEC" : "No");
		break;
	case PEV_DATA_SRC_LVL:
		fmt_lvl(b, d);
		break;
	case PEV_DATA_SRC_SNOOP:
		/* snoopx's bits follow snoop's in the names */
		if (!sb_bits(b, d->mem_snoop | (unsigned)d->mem_snoopx << 5, snoop_names,
			     ARRAY_LEN(snoop_names), 0))
			sb_printf(b, "N/A");
		break;
	case PEV_DATA_SRC_TLB:
		if (!sb_bits(b, d->mem_dtlb & ~(unsigned)(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS),
			     tlb_names, ARRAY_LEN(tlb_names), 0))
			sb_printf(b, "N/A");
		if (d->mem_dtlb & PERF_MEM_TLB_HIT)
			sb_printf(b, " hit");
		if (d->mem_dtlb & PERF_MEM_TLB_MISS)
			sb_printf(b, " miss");
		break;
	case PEV_DATA_SRC_LOCK:
		sb_printf(b, "%s", (d->mem_lock & PERF_MEM_LOCK_NA) ? "N/A" :
			  (d->mem_lock & PERF_MEM_LOCK_LOCKED) ? "Yes" : "No");
		break;
	case PEV_DATA_SRC_BLK:
		/* perf prints a space before each blocking reason */
		if (!d->mem_blk || (d->mem_blk & PERF_MEM_BLK_NA)) {
			sb_printf(b, " N/A");
			break;
		}
		if (d->mem_blk & PERF_MEM_BLK_DATA)
			sb_printf(b, " Data");
		if (d->mem_blk & PERF_MEM_BLK_ADDR)
			sb_printf(b, " Addr");
		break;
	}
}

PEV_EXPORT int pev_data_src_format_part(uint64_t v, enum pev_data_src_part part,
					char *buf, size_t len)
{
	struct pev_data_src d = pev_data_src_decode(v);
	struct sbuf b = { .p = buf, .cap = buf ? len : 0 };

	if (b.cap)
		buf[0] = '\0';
	fmt_part(&b, &d, part);
	return (int)b.len;
}

PEV_EXPORT int pev_data_src_format(uint64_t v, char *buf, size_t len)
{
	static const char *const heads[] = { "|OP ", "|LVL ", "|SNP ", "|TLB ", "|LCK ", "|BLK " };
	struct pev_data_src d = pev_data_src_decode(v);
	struct sbuf b = { .p = buf, .cap = buf ? len : 0 };

	if (b.cap)
		buf[0] = '\0';
	for (unsigned i = PEV_DATA_SRC_OP; i <= PEV_DATA_SRC_BLK; i++) {
		sb_printf(&b, "%s", heads[i]);
		fmt_part(&b, &d, (enum pev_data_src_part)i);
	}
	return (int)b.len;
}

PEV_EXPORT struct pev_weight pev_weight_decode(uint64_t v)
{
	struct pev_weight w = {
		.var1_dw = (uint32_t)v,
		.var2_w = (uint16_t)(v >> 32),
		.var3_w = (uint16_t)(v >> 48),
	};
	return w;
}

PEV_EXPORT struct pev_txn pev_txn_decode(uint64_t v)
{
	struct pev_txn t = {
		.flags = (uint32_t)v,
		.abort_code = (uint32_t)(v >> PERF_TXN_ABORT_SHIFT),
	};
	return t;
}

PEV_EXPORT int pev_txn_format(uint64_t v, char *buf, size_t len)
{
	static const struct { uint32_t flag; const char *name; } bits[] = {
		{ PERF_TXN_ELISION, "EL " },
		{ PERF_TXN_TRANSACTION, "TX " },
		{ PERF_TXN_SYNC, "SYNC " },
		{ PERF_TXN_ASYNC, "ASYNC " },
		{ PERF_TXN_RETRY, "RETRY " },
		{ PERF_TXN_CONFLICT, "CON " },
		{ PERF_TXN_CAPACITY_WRITE, "CAP-WRITE " },
		{ PERF_TXN_CAPACITY_READ, "CAP-READ " },
	};
	struct sbuf b = { .p = buf, .cap = buf ? len : 0 };

	if (b.cap)
		buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_LEN(bits); i++)
		if (v & bits[i].flag)
			sb_printf(&b, "%s", bits[i].name);
	if (v && !(v & (PERF_TXN_SYNC | PERF_TXN_ASYNC)))
		sb_printf(&b, "NEITHER ");
	if (v & PERF_TXN_ABORT_MASK)
		sb_printf(&b, ":%" PRIx64, v >> PERF_TXN_ABORT_SHIFT);
	return (int)b.len;
}
