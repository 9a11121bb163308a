// SPDX-License-Identifier: GPL-2.0-only
/* pev_user_access_*: what a machine allows for user-space counter reads,
 * read from fake /proc and /sys trees, and the attr bits that ask for it.
 *  - arm64 (Documentation/arch/arm64/perf.rst): reads need the sysctl
 *    kernel.perf_user_access = 1 and config1 bit 1 ("rdpmc"); config1
 *    bit 0 ("long") asks for a 64-bit counter, refused by PMUs without;
 *    the core PMUs are the armv8_* folders (one per core type on
 *    big.LITTLE) and *pmu* folders whose format has rdpmc;
 *  - x86: devices/cpu/rdpmc (cpu_core on hybrid parts) 0 means no rdpmc,
 *    1 or 2 allow it; no attr bit.
 * The expected values and sentences are written here by hand. */
#include <stddef.h>
#include <perfev/perfev.h>

#include "testutil.h"
#include "arch_fake.h"

static const char arm_off[] =
	"user-space counter reads are off (/proc/sys/kernel/perf_user_access is 0); "
	"counters are read with read(2); to turn them on: "
	"echo 1 > /proc/sys/kernel/perf_user_access";

static struct perf_event_attr attr_of(uint32_t type, uint64_t config1)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = type, .config1 = config1 };

	return a;
}

static void t_arm64(void)
{
	char root[64], buf[512];
	struct pev_user_access ua = { .size = sizeof(ua) };
	struct perf_event_attr a;

	arch_fake_root(root, sizeof(root));
	arch_fake_write(root, ARCH_UA, "0\n");
	/* big.LITTLE: two core PMUs; a DSU PMU (no rdpmc format) is not one;
	 * a *pmu* folder with format/rdpmc is. */
	arch_fake_write(root, ARCH_DEV "armv8_cortex_a53/type", "8\n");
	arch_fake_write(root, ARCH_DEV "armv8_cortex_a53/format/rdpmc", "config1:1\n");
	arch_fake_write(root, ARCH_DEV "armv8_cortex_a53/format/long", "config1:0\n");
	arch_fake_write(root, ARCH_DEV "armv8_cortex_a72/type", "9\n");
	arch_fake_write(root, ARCH_DEV "arm_dsu_pmu_0/type", "10\n");
	arch_fake_write(root, ARCH_DEV "arm_dsu_pmu_0/format/event", "config:0-31\n");
	arch_fake_write(root, ARCH_DEV "vendor_pmu_0/type", "11\n");
	arch_fake_write(root, ARCH_DEV "vendor_pmu_0/format/rdpmc", "config1:1\n");
	arch_fake_write(root, ARCH_DEV "software/type", "1\n");

	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_ARM64, root));
	CHECK_EQ_INT(ua.arch, PEV_ARCH_ARM64);
	CHECK_EQ_INT(ua.perf_user_access, 0);
	CHECK_EQ_INT(ua.rdpmc, -1);
	CHECK(ua.pmu);
	CHECK_EQ_U64(ua.pmu_types[0], 8);
	CHECK_EQ_U64(ua.pmu_types[1], 9);
	CHECK_EQ_U64(ua.pmu_types[2], 11);
	CHECK_EQ_U64(ua.pmu_types[3], 0);

	/* Which events the core PMU counts. */
	a = attr_of(PERF_TYPE_HARDWARE, 0);
	CHECK(pev_user_access_applies(&ua, &a));
	a = attr_of(PERF_TYPE_HW_CACHE, 0);
	CHECK(pev_user_access_applies(&ua, &a));
	a = attr_of(PERF_TYPE_RAW, 0);
	CHECK(pev_user_access_applies(&ua, &a));
	a = attr_of(9, 0);
	CHECK(pev_user_access_applies(&ua, &a));
	a = attr_of(11, 0);
	CHECK(pev_user_access_applies(&ua, &a));
	a = attr_of(10, 0);
	CHECK(!pev_user_access_applies(&ua, &a));
	a = attr_of(PERF_TYPE_SOFTWARE, 0);
	CHECK(!pev_user_access_applies(&ua, &a));
	a = attr_of(PERF_TYPE_TRACEPOINT, 0);
	CHECK(!pev_user_access_applies(&ua, &a));

	/* Off: nothing requested, and the exact command to turn it on. */
	a = attr_of(PERF_TYPE_HARDWARE, 0x10);
	CHECK(!pev_user_access_request(&ua, &a));
	CHECK_EQ_U64(a.config1, 0x10);
	CHECK_EQ_INT(pev_user_access_explain(&ua, buf, sizeof(buf)), (int)strlen(arm_off));
	CHECK_STR(buf, arm_off);
	/* snprintf's contract: the length even when it does not fit. */
	CHECK_EQ_INT(pev_user_access_explain(&ua, buf, 10), (int)strlen(arm_off));
	CHECK_STR(buf, "user-spac");

	/* On: config1 bits 1 and 0 on hardware events, nothing elsewhere. */
	arch_fake_write(root, ARCH_UA, "1\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_ARM64, root));
	CHECK_EQ_INT(ua.perf_user_access, 1);
	CHECK_EQ_INT(pev_user_access_explain(&ua, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	a = attr_of(PERF_TYPE_HARDWARE, 0x10);
	CHECK(pev_user_access_request(&ua, &a));
	CHECK_EQ_U64(a.config1, 0x13);
	CHECK(!pev_user_access_request(&ua, &a));	/* already asked */
	CHECK_EQ_U64(a.config1, 0x13);
	a = attr_of(9, 0);
	CHECK(pev_user_access_request(&ua, &a));
	CHECK_EQ_U64(a.config1, 0x3);
	a = attr_of(PERF_TYPE_SOFTWARE, 0);
	CHECK(!pev_user_access_request(&ua, &a));
	CHECK_EQ_U64(a.config1, 0);

	/* Retries: "long" first (EOPNOTSUPP: no 64-bit counters), then
	 * "rdpmc", then nothing left; errors the bits cannot cause leave
	 * the attr alone. */
	a = attr_of(PERF_TYPE_HARDWARE, 0x13);
	CHECK(!pev_user_access_retry(&ua, &a, EACCES));
	CHECK(!pev_user_access_retry(&ua, &a, -ENOENT));
	CHECK_EQ_U64(a.config1, 0x13);
	CHECK(pev_user_access_retry(&ua, &a, EOPNOTSUPP));
	CHECK_EQ_U64(a.config1, 0x12);
	CHECK(pev_user_access_retry(&ua, &a, -EINVAL));
	CHECK_EQ_U64(a.config1, 0x10);
	CHECK(!pev_user_access_retry(&ua, &a, EINVAL));
	CHECK_EQ_U64(a.config1, 0x10);

	/* A kernel before the sysctl (5.17). */
	arch_fake_unlink(root, ARCH_UA);
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_ARM64, root));
	CHECK_EQ_INT(ua.perf_user_access, -1);
	pev_user_access_explain(&ua, buf, sizeof(buf));
	CHECK_STR(buf, "user-space counter reads are off: this kernel has no "
		  "/proc/sys/kernel/perf_user_access (linux 5.17 or later has it); "
		  "counters are read with read(2)");
	a = attr_of(PERF_TYPE_HARDWARE, 0);
	CHECK(!pev_user_access_request(&ua, &a));

	/* The same tree seen as x86: no core PMU, nothing to say or set. */
	arch_fake_write(root, ARCH_UA, "0\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_X86_64, root));
	CHECK(!ua.pmu);
	CHECK_EQ_INT(ua.rdpmc, -1);
	CHECK_EQ_INT(pev_user_access_explain(&ua, buf, sizeof(buf)), 0);
	a = attr_of(PERF_TYPE_HARDWARE, 0);
	CHECK(!pev_user_access_request(&ua, &a));
	CHECK(!pev_user_access_applies(&ua, &a));
	arch_fake_remove(root);

	/* No core PMU on arm64 (a VM without one): nothing to explain. */
	arch_fake_root(root, sizeof(root));
	arch_fake_write(root, ARCH_UA, "0\n");
	arch_fake_write(root, ARCH_DEV "software/type", "1\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_ARM64, root));
	CHECK(!ua.pmu);
	CHECK_EQ_INT(pev_user_access_explain(&ua, buf, sizeof(buf)), 0);
	arch_fake_remove(root);
}

static void t_x86(void)
{
	char root[64], buf[512];
	struct pev_user_access ua = { .size = sizeof(ua) };
	struct perf_event_attr a;

	arch_fake_root(root, sizeof(root));
	arch_fake_write(root, ARCH_DEV "cpu/type", "4\n");
	arch_fake_write(root, ARCH_DEV "cpu/rdpmc", "0\n");
	arch_fake_write(root, ARCH_DEV "software/type", "1\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_X86_64, root));
	CHECK_EQ_INT(ua.rdpmc, 0);
	CHECK_EQ_INT(ua.perf_user_access, -1);
	CHECK(ua.pmu);
	CHECK_EQ_U64(ua.pmu_types[0], 4);
	CHECK_STR(ua.rdpmc_pmu, "cpu");
	pev_user_access_explain(&ua, buf, sizeof(buf));
	CHECK_STR(buf, "user-space counter reads (rdpmc) are off "
		  "(/sys/bus/event_source/devices/cpu/rdpmc is 0); counters are read with "
		  "read(2); to turn them on: echo 1 > /sys/bus/event_source/devices/cpu/rdpmc");
	a = attr_of(PERF_TYPE_HARDWARE, 0);
	CHECK(pev_user_access_applies(&ua, &a));
	CHECK(!pev_user_access_request(&ua, &a));	/* x86 has no bit */
	CHECK_EQ_U64(a.config1, 0);
	a.config1 = 3;
	CHECK(!pev_user_access_retry(&ua, &a, EINVAL));
	CHECK_EQ_U64(a.config1, 3);

	arch_fake_write(root, ARCH_DEV "cpu/rdpmc", "2\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_X86_64, root));
	CHECK_EQ_INT(ua.rdpmc, 2);
	CHECK_EQ_INT(pev_user_access_explain(&ua, buf, sizeof(buf)), 0);
	arch_fake_write(root, ARCH_DEV "cpu/rdpmc", "1\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_X86_64, root));
	CHECK_EQ_INT(ua.rdpmc, 1);
	CHECK_EQ_INT(pev_user_access_explain(&ua, buf, sizeof(buf)), 0);
	arch_fake_remove(root);

	/* Hybrid: cpu_core and cpu_atom, rdpmc in cpu_core. */
	arch_fake_root(root, sizeof(root));
	arch_fake_write(root, ARCH_DEV "cpu_core/type", "8\n");
	arch_fake_write(root, ARCH_DEV "cpu_core/rdpmc", "0\n");
	arch_fake_write(root, ARCH_DEV "cpu_atom/type", "10\n");
	arch_fake_write(root, ARCH_DEV "cpu_atom/rdpmc", "1\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_X86_64, root));
	CHECK_EQ_INT(ua.rdpmc, 0);
	CHECK_STR(ua.rdpmc_pmu, "cpu_core");
	CHECK_EQ_U64(ua.pmu_types[0], 8);
	CHECK_EQ_U64(ua.pmu_types[1], 10);
	a = attr_of(10, 0);
	CHECK(pev_user_access_applies(&ua, &a));
	pev_user_access_explain(&ua, buf, sizeof(buf));
	CHECK(strstr(buf, "echo 1 > /sys/bus/event_source/devices/cpu_core/rdpmc") != NULL);
	arch_fake_remove(root);

	/* A VM without a PMU: nothing to explain. */
	arch_fake_root(root, sizeof(root));
	arch_fake_write(root, ARCH_DEV "software/type", "1\n");
	CHECK_OK(pev_user_access_probe(&ua, PEV_ARCH_X86_64, root));
	CHECK(!ua.pmu);
	CHECK_EQ_INT(ua.rdpmc, -1);
	CHECK_EQ_INT(pev_user_access_explain(&ua, buf, sizeof(buf)), 0);
	arch_fake_remove(root);
}

/* A caller built against the first version of the struct (no pmu_types):
 * the probe writes no further than its size. */
static void t_old_size(void)
{
	char root[64];
	struct {
		struct pev_user_access ua;
		unsigned char guard[64];
	} s;
	size_t old = offsetof(struct pev_user_access, pmu_types);

	arch_fake_root(root, sizeof(root));
	arch_fake_write(root, ARCH_UA, "1\n");
	arch_fake_write(root, ARCH_DEV "armv8_pmuv3_0/type", "8\n");
	memset(&s, 0xa5, sizeof(s));
	s.ua.size = old;
	CHECK_OK(pev_user_access_probe(&s.ua, PEV_ARCH_ARM64, root));
	CHECK_EQ_U64(s.ua.size, old);
	CHECK_EQ_INT(s.ua.perf_user_access, 1);
	CHECK(s.ua.pmu);
	for (size_t i = old; i < sizeof(s.ua); i++)
		CHECK_MSG(((unsigned char *)&s.ua)[i] == 0xa5, "byte %zu written", i);
	/* And the functions read no further: a type match needs pmu_types. */
	struct perf_event_attr a = attr_of(8, 0);
	CHECK(!pev_user_access_applies(&s.ua, &a));
	a = attr_of(PERF_TYPE_HARDWARE, 0);
	CHECK(pev_user_access_request(&s.ua, &a));
	CHECK_EQ_U64(a.config1, 3);
	arch_fake_remove(root);
}

/* This machine, through "/", against the files read here. */
static void t_live(void)
{
	struct pev_user_access ua = { .size = sizeof(ua) };
	long v;

	CHECK_OK(pev_user_access_probe(&ua, pev_arch_host(), NULL));
	if (t_read_long("/proc/sys/kernel/perf_user_access", &v) == 0)
		CHECK_EQ_INT(ua.perf_user_access, v);
	else
		CHECK_EQ_INT(ua.perf_user_access, -1);
	if (pev_arch_host() == PEV_ARCH_X86_64) {
		if (t_read_long("/sys/bus/event_source/devices/cpu/rdpmc", &v) == 0)
			CHECK_EQ_INT(ua.rdpmc, v);
		CHECK_EQ_INT(ua.pmu, access("/sys/bus/event_source/devices/cpu", F_OK) == 0 ||
				      access("/sys/bus/event_source/devices/cpu_core", F_OK) == 0);
	}
}

int main(void)
{
#if defined(__aarch64__)
	CHECK_EQ_INT(pev_arch_host(), PEV_ARCH_ARM64);
#elif defined(__x86_64__)
	CHECK_EQ_INT(pev_arch_host(), PEV_ARCH_X86_64);
#endif
	CHECK_EQ_INT(pev_user_access_probe(NULL, PEV_ARCH_ARM64, NULL), -EINVAL);
	t_arm64();
	t_x86();
	t_old_size();
	t_live();
	return t_done();
}
