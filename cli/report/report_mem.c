// SPDX-License-Identifier: GPL-2.0-only
/* perfev report: the memory keys' columns as perf 6.1 prints them
 * (sort.c's hist_entry__*_snprintf, hists__calc_col_len; the data_src
 * texts come from the library, as in perfev script) and --mem-mode's checks. */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "report/report.h"

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
	case PEV_SORT_SNOOP:
	case PEV_SORT_TLB:
		pev_data_src_format_part(e->data_src, k == PEV_SORT_MEM ? PEV_DATA_SRC_LVL :
					 k == PEV_SORT_SNOOP ? PEV_DATA_SRC_SNOOP : PEV_DATA_SRC_TLB,
					 s, sizeof(s));
		return snprintf(b, sz, "%-*s", w, s);
	case PEV_SORT_LOCKED:
	case PEV_SORT_BLOCKED:
		pev_data_src_format_part(e->data_src, k == PEV_SORT_LOCKED ? PEV_DATA_SRC_LOCK :
					 PEV_DATA_SRC_BLK, s, sizeof(s));
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
			/* perf: [s] in a shared file mapping, [X] without a
			 * map; the line of the map address */
			if (e->daddr_shared)
				lv = 's';
			else if (!d || !d->dso)
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
