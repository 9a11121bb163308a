// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat -v's line on user-space counter reads, on fake trees (this
 * VM is x86 and has no PMU): on arm64 with kernel.perf_user_access 0 and
 * a hardware event counted, one line with the exact command; nothing for
 * software events only, nor once the sysctl is 1; x86's rdpmc 0 gets its
 * own command.  The sentences are written here by hand. */
#include "../../cli/stat/stat_explain.c"
#include "testutil.h"
#include "arch_fake.h"

int main(void)
{
	char root[64], line[640];
	struct pev_user_access ua = { .size = sizeof(ua) };
	struct perf_event_attr clk = { .size = sizeof(clk), .type = PERF_TYPE_SOFTWARE,
				       .config = PERF_COUNT_SW_TASK_CLOCK };
	struct perf_event_attr cyc = { .size = sizeof(cyc), .type = PERF_TYPE_HARDWARE,
				       .config = PERF_COUNT_HW_CPU_CYCLES };
	struct perf_event_attr pmu8 = { .size = sizeof(pmu8), .type = 8, .config = 0x11 };
	const struct perf_event_attr *both[] = { &clk, &cyc }, *sw[] = { &clk, NULL },
				     *raw[] = { &pmu8 };

	arch_fake_root(root, sizeof(root));
	arch_fake_write(root, ARCH_UA, "0\n");
	arch_fake_write(root, ARCH_DEV "armv8_pmuv3_0/type", "8\n");
	arch_fake_write(root, ARCH_DEV "armv8_pmuv3_0/format/rdpmc", "config1:1\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_ARM64, root));

	CHECK(stat_user_access_note(&ua, both, 2, line, sizeof(line)));
	CHECK_STR(line, "perfev: note: user-space counter reads are off "
		  "(/proc/sys/kernel/perf_user_access is 0); counters are read with read(2); "
		  "to turn them on: echo 1 > /proc/sys/kernel/perf_user_access");
	/* The PMU's own type (armv8_pmuv3_0/type 8) counts too. */
	CHECK(stat_user_access_note(&ua, raw, 1, line, sizeof(line)));
	/* Software events only (a NULL attr is skipped). */
	CHECK(!stat_user_access_note(&ua, sw, 2, line, sizeof(line)));
	CHECK_STR(line, "");

	arch_fake_write(root, ARCH_UA, "1\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_ARM64, root));
	CHECK(!stat_user_access_note(&ua, both, 2, line, sizeof(line)));
	CHECK_STR(line, "");
	arch_fake_remove(root);

	arch_fake_root(root, sizeof(root));
	arch_fake_write(root, ARCH_DEV "cpu/type", "4\n");
	arch_fake_write(root, ARCH_DEV "cpu/rdpmc", "0\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_X86_64, root));
	CHECK(stat_user_access_note(&ua, both, 2, line, sizeof(line)));
	CHECK_STR(line, "perfev: note: user-space counter reads (rdpmc) are off "
		  "(/sys/bus/event_source/devices/cpu/rdpmc is 0); counters are read with "
		  "read(2); to turn them on: echo 1 > /sys/bus/event_source/devices/cpu/rdpmc");
	arch_fake_remove(root);
	return t_done();
}
