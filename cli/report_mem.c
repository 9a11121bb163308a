/* perfev report: the memory keys' columns as perf 6.1 prints them
 * (sort.c's hist_entry__*_snprintf, mem-events.c's perf_mem__*_scnprintf,
 * hists__calc_col_len) and --mem-mode's checks. */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static const char *const lvl_names[] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
	"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
	"Remote Cache (2 hops)", "I/O", "Uncached",
};
static const char *const lvlnum_names[16] = {
	[0x0b] = "Any cache", [0x0c] = "LFB/MAB", [0x0d] = "RAM", [0x0e] = "PMEM",
	[0x0f] = "N/A",
};
static const char *const hops_names[] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};
static const char *const snoop_names[] = { "N/A", "None", "Hit", "Miss", "HitM" };
static const char *const snoopx_names[] = { "Fwd", "Peer" };
static const char *const tlb_names[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Names of the set bits of m joined by " or " after *printed others. */
static size_t bits(char *o, size_t sz, size_t l, uint64_t m, const char *const *names,
		   size_t n, int *printed)
{
	for (size_t i = 0; m && i < n; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if ((*printed)++)
			l += (size_t)snprintf(o + l, l < sz ? sz - l : 0, " or ");
		l += (size_t)snprintf(o + l, l < sz ? sz - l : 0, "%s", names[i]);
	}
	return l;
}

/* perf 6.1's perf_mem__lvl_scnprintf */
static void lvl_str(uint64_t ds, char *o, size_t sz)
{
	struct pev_data_src d = pev_data_src_decode(ds);
	uint64_t m = d.mem_lvl & ~(uint64_t)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS);
	int printed = 0;
	size_t l = 0;

	o[0] = 0;
	if (d.mem_remote)
		l += (size_t)snprintf(o + l, sz - l, "Remote ");
	if (d.mem_hops)
		l += (size_t)snprintf(o + l, sz - l, "%s ",
				      d.mem_hops < N(hops_names) ? hops_names[d.mem_hops] : "");
	else
		l = bits(o, sz, l, m, lvl_names, N(lvl_names), &printed);
	if (d.mem_lvl_num && l < sz) {
		if (printed++)
			l += (size_t)snprintf(o + l, sz - l, " or ");
		if (lvlnum_names[d.mem_lvl_num])
			l += (size_t)snprintf(o + l, l < sz ? sz - l : 0, "%s", lvlnum_names[d.mem_lvl_num]);
		else
			l += (size_t)snprintf(o + l, l < sz ? sz - l : 0, "L%d", d.mem_lvl_num);
	}
	if (!l)
		l += (size_t)snprintf(o, sz, "N/A");
	if (d.mem_lvl & PERF_MEM_LVL_HIT && l < sz)
		l += (size_t)snprintf(o + l, sz - l, " hit");
	if (d.mem_lvl & PERF_MEM_LVL_MISS && l < sz)
		snprintf(o + l, sz - l, " miss");
}

static void snoop_str(uint64_t ds, char *o, size_t sz)
{
	struct pev_data_src d = pev_data_src_decode(ds);
	int printed = 0;
	size_t l = bits(o, sz, 0, d.mem_snoop, snoop_names, N(snoop_names), &printed);

	l = bits(o, sz, l, d.mem_snoopx, snoopx_names, N(snoopx_names), &printed);
	if (!l)
		snprintf(o, sz, "N/A");
}

static void tlb_str(uint64_t ds, char *o, size_t sz)
{
	struct pev_data_src d = pev_data_src_decode(ds);
	int printed = 0;
	size_t l = bits(o, sz, 0, d.mem_dtlb & ~(uint64_t)(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS),
			tlb_names, N(tlb_names), &printed);

	if (!l)
		l = (size_t)snprintf(o, sz, "N/A");
	if (d.mem_dtlb & PERF_MEM_TLB_HIT && l < sz)
		l += (size_t)snprintf(o + l, sz - l, " hit");
	if (d.mem_dtlb & PERF_MEM_TLB_MISS && l < sz)
		snprintf(o + l, sz - l, " miss");
}

static const char *lock_str(uint64_t ds)
{
	struct pev_data_src d = pev_data_src_decode(ds);

	return d.mem_lock & PERF_MEM_LOCK_NA ? "N/A" :
	       d.mem_lock & PERF_MEM_LOCK_LOCKED ? "Yes" : "No";
}

static void blk_str(uint64_t ds, char *o, size_t sz)
{
	struct pev_data_src d = pev_data_src_decode(ds);

	if (!d.mem_blk || (d.mem_blk & PERF_MEM_BLK_NA)) {
		snprintf(o, sz, " N/A");
		return;
	}
	snprintf(o, sz, "%s%s", d.mem_blk & PERF_MEM_BLK_DATA ? " Data" : "",
		 d.mem_blk & PERF_MEM_BLK_ADDR ? " Addr" : "");
}

/* perf's unit_number__scnprintf: divide by 1024 while more than 1024 is left */
static void page_size_str(uint64_t n, char *o, size_t sz)
{
	static const char unit[] = "BKMG";
	int i = 0;

	if (!n) {
		snprintf(o, sz, "N/A");
		return;
	}
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(o, sz, "%" PRIu64 "%c", n, unit[i]);
}

bool report_is_mem_key(enum pev_sort_key k)
{
	return k >= PEV_SORT_MEM && k <= PEV_SORT_SYM_IADDR;
}

/* hists__calc_col_len's memory columns */
int report_mem_width(struct report *r, const struct pev_profile_entry *e,
		     enum pev_sort_key k)
{
	const struct pev_profile_frame *d = e->daddr_frame;
	char b[32];

	switch (k) {
	case PEV_SORT_MEM: return 24;
	case PEV_SORT_SNOOP: return 12;
	case PEV_SORT_TLB: return 22;
	case PEV_SORT_LOCKED: return 6;
	case PEV_SORT_BLOCKED: return 10;
	case PEV_SORT_PHYS_DADDR:
	case PEV_SORT_DATA_PAGE_SIZE: return 22;
	case PEV_SORT_SYM_DADDR:
		return d && d->sym ? (int)strlen(d->sym->name) + 22 : 22;
	case PEV_SORT_SYM_IADDR:
		return e->frame && e->frame->sym ? (int)strlen(e->frame->sym->name) + 22 : 22;
	case PEV_SORT_DCACHELINE:
		return d && d->sym ? (int)strlen(d->sym->name) + 23 : 22;
	case PEV_SORT_DSO_DADDR:
		if (d && d->dso)
			return (int)strlen(pev_profile_dso_shown(d->dso, b, sizeof(b)));
		return r->fopts.dso ? 0 : 16;
	default:
		return 0;
	}
}

int report_mem_cell(const struct pev_profile_entry *e, enum pev_sort_key k, int w,
		    char *b, size_t sz)
{
	const struct pev_profile_frame *d = e->daddr_frame;
	char s[128];
	char lv = e->level ? e->level : '.';

	switch (k) {
	case PEV_SORT_MEM:
		lvl_str(e->data_src, s, sizeof(s));
		return snprintf(b, sz, "%-*s", w, s);
	case PEV_SORT_SNOOP:
		snoop_str(e->data_src, s, sizeof(s));
		return snprintf(b, sz, "%-*s", w, s);
	case PEV_SORT_TLB:
		tlb_str(e->data_src, s, sizeof(s));
		return snprintf(b, sz, "%-*s", w, s);
	case PEV_SORT_LOCKED:
		return snprintf(b, sz, "%.*s", w, lock_str(e->data_src));
	case PEV_SORT_BLOCKED:
		blk_str(e->data_src, s, sizeof(s));
		return snprintf(b, sz, "%.*s", w, s);
	case PEV_SORT_DATA_PAGE_SIZE:
		page_size_str(e->data_page_size, s, sizeof(s));
		return snprintf(b, sz, "%-*s", w, s);
	case PEV_SORT_PHYS_DADDR:
		return snprintf(b, sz, "[%c] %-#.*" PRIx64, lv, 16, e->phys_addr);
	case PEV_SORT_SYM_IADDR:
		if (e->frame && e->frame->sym && e->frame->dso)
			return snprintf(b, sz, "[%c] %.*s", lv, w > 4 ? w - 4 : 0, e->frame->sym->name);
		return snprintf(b, sz, "[%c] %-#.*" PRIx64, lv, 16, e->iaddr);
	case PEV_SORT_DSO_DADDR:
		return snprintf(b, sz, "%-*.*s", w, w,
				d && d->dso ? pev_profile_dso_shown(d->dso, s, sizeof(s)) : "[unknown]");
	case PEV_SORT_SYM_DADDR:
	case PEV_SORT_DCACHELINE: {
		uint64_t a = e->daddr;

		if (k == PEV_SORT_DCACHELINE) {
			/* perf: [X] without a map; the line of the map address */
			if (!d || !d->dso)
				lv = 'X';
			a = (d && d->dso ? d->addr : e->daddr) & ~63ull;
		}
		/* perf: an object's name and the offset of the address
		 * shown from the object's start in memory (for dcacheline,
		 * the map-relative line minus that: perf's own arithmetic),
		 * a function's name */
		if (d && d->sym && d->dso && d->sym->type == STT_OBJECT)
			return snprintf(b, sz, "[%c] %s+0x%" PRIx64, lv, d->sym->name,
					k == PEV_SORT_SYM_DADDR ? e->daddr_sym_off :
					a - e->daddr + e->daddr_sym_off);
		if (d && d->sym && d->dso)
			return snprintf(b, sz, "[%c] %.*s", lv, w > 4 ? w - 4 : 0, d->sym->name);
		return snprintf(b, sz, "[%c] %-#.*" PRIx64, lv, 16, a);
	}
	default:
		return snprintf(b, sz, "%-*s", w, "");
	}
}
