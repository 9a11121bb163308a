// SPDX-License-Identifier: GPL-2.0-only
/* uprobe:/proc/self/exe:SYMBOL resolves to the file offset that
 * /proc/self/maps implies, and the probe really fires that many times. */
#include <unistd.h>
#include <perfev/perfev.h>
#include "testutil.h"

__attribute__((noinline, used)) int probe_me(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static uint64_t maps_offset(void *fn)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t a = (uint64_t)(uintptr_t)fn, off = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, fo;
		if (sscanf(line, "%llx-%llx %*s %llx", &lo, &hi, &fo) == 3 && a >= lo && a < hi) {
			off = a - lo + fo;
			break;
		}
	}
	if (f)
		fclose(f);
	return off;
}

int main(void)
{
	struct pev_evlist *l = pev_evlist_new();
	struct pev_parse_error err;
	int r = pev_evlist_parse(l, "uprobe:/proc/self/exe:probe_me,uretprobe:/proc/self/exe:probe_me",
				 NULL, &err);
	if (access("/sys/bus/event_source/devices/uprobe/type", R_OK))
		T_SKIP("no uprobe PMU in /sys/bus/event_source/devices");
	CHECK_MSG(r == 0, "parse: %s", err.msg);
	if (r)
		return t_done();
	struct pev_event *e = pev_evlist_event(l, 0);
	CHECK_EQ_U64(e->attr.attr.config2, maps_offset((void *)probe_me));
	CHECK_EQ_U64(pev_evlist_event(l, 1)->attr.attr.config & 1, 1);

	volatile int sink = 0;
	for (int k = 0; k < 2; k++) {
		struct perf_event_attr a = pev_evlist_event(l, k)->attr.attr;
		a.exclude_kernel = 1;
		int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		/* Probe: the raw uprobe attr built here from sysfs and /proc. */
		if (fd < 0) {
			struct perf_event_attr p = { .size = sizeof(p), .exclude_kernel = 1 };
			FILE *tf = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
			unsigned type = 0;

			if (tf && fscanf(tf, "%u", &type) != 1)
				type = 0;
			if (tf)
				fclose(tf);
			p.type = type;
			p.config = k;	/* retprobe is bit 0 on x86 (format/retprobe) */
			p.config1 = (uint64_t)(uintptr_t)"/proc/self/exe";
			p.config2 = maps_offset((void *)probe_me);
			T_SKIP_UNLESS_KERNEL_CAN(fd, &p, 0, -1, "uprobe event");
		}
		CHECK_MSG(fd >= 0, "open %s: %s", pev_evlist_event(l, k)->name, strerror(-fd));
		if (fd < 0)
			continue;
		for (int i = 0; i < 7; i++)
			sink += probe_me(i);
		uint64_t v = 0;
		CHECK(read(fd, &v, sizeof(v)) == sizeof(v));
		CHECK_EQ_U64(v, 7);
		close(fd);
	}
	(void)sink;
	pev_evlist_free(l);
	return t_done();
}
