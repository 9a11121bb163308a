// SPDX-License-Identifier: GPL-2.0-only
/* This machine's PMUs as sysfs shows them. */
#include <unistd.h>
#include <perfev/perfev.h>
#include "testutil.h"

static long read_type(const char *pmu)
{
	char path[256];
	long v = -1;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int main(void)
{
	if (access("/sys/bus/event_source/devices", F_OK))
		T_SKIP("no /sys/bus/event_source/devices here");
	struct pev_pmu_list *l = pev_pmu_list_load(NULL);
	if (!l)
		T_FATAL("pev_pmu_list_load: %s", strerror(errno));
	const struct pev_pmu *sw = pev_pmu_list_find(l, "software");
	const struct pev_pmu *tp = pev_pmu_list_find(l, "tracepoint");
	const struct pev_pmu *bp = pev_pmu_list_find(l, "breakpoint");
	CHECK(sw && sw->type == PERF_TYPE_SOFTWARE && !sw->error);
	CHECK(tp && tp->type == PERF_TYPE_TRACEPOINT);
	CHECK(bp && bp->type == PERF_TYPE_BREAKPOINT);
	for (size_t i = 0; i < pev_pmu_list_count(l); i++) {
		const struct pev_pmu *p = pev_pmu_list_get(l, i);
		CHECK_MSG(!p->error, "PMU %s: %s", p->name, p->error);
		CHECK_EQ_INT(p->type, read_type(p->name));
	}
	const struct pev_pmu *msr = pev_pmu_list_find(l, "msr");
	if (msr) {
		CHECK(msr->type >= PERF_TYPE_MAX);
		const struct pev_pmu_alias *a = pev_pmu_find_alias(msr, "tsc");
		CHECK(a && !strcmp(a->terms, "event=0x00"));
		const struct pev_pmu_format *f = pev_pmu_find_format(msr, "event");
		CHECK(f && f->word == 0 && f->mask == ~0ULL);
		struct pev_evlist *ev = pev_evlist_new();
		CHECK_OK(pev_evlist_parse(ev, "msr/tsc/", NULL, NULL));
		CHECK(pev_evlist_count(ev) == 1 && pev_evlist_event(ev, 0)->attr.attr.type == msr->type &&
		      pev_evlist_event(ev, 0)->attr.attr.config == 0);
		/* and it counts: the TSC only goes up */
		struct perf_event_attr a2 = pev_evlist_event(ev, 0)->attr.attr;
		a2.exclude_guest = 0;	/* msr refuses every exclude bit */
		int fd = pev_sys_open(&a2, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		CHECK_MSG(fd >= 0, "open msr/tsc/: %s", strerror(-fd));
		if (fd >= 0) {
			uint64_t v = 0;
			for (volatile int i = 0; i < 100000; i++)
				;
			CHECK(read(fd, &v, sizeof(v)) == sizeof(v) && v > 0);
			close(fd);
		}
		pev_evlist_free(ev);
	} else {
		printf("no msr PMU here; its checks are skipped\n");
	}
	const struct pev_pmu *up = pev_pmu_list_find(l, "uprobe");
	if (up) {
		const struct pev_pmu_format *f = pev_pmu_find_format(up, "retprobe");
		CHECK(f && f->word == 0 && f->mask == 1);
		f = pev_pmu_find_format(up, "ref_ctr_offset");
		if (f)
			CHECK(f->word == 0 && f->mask == 0xffffffff00000000ULL);
	}
	pev_pmu_list_free(l);
	return t_done();
}
