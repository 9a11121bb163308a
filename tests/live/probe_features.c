// SPDX-License-Identifier: GPL-2.0-only
/* pev_probe against the running kernel: every probe answers 0 or 1 as
 * root, the features a 6.x kernel has are there, the hardware-PMU probe
 * agrees with sysfs, and answers are stable when probed from many threads. */
#include <dirent.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include "testutil.h"

static bool sysfs_cpu_pmu(void)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	bool found = stat("/sys/bus/event_source/devices/cpu", &st) == 0;

	if (!found && (d = opendir("/sys/bus/event_source/devices"))) {
		while (!found && (e = readdir(d)))
			found = !strncmp(e->d_name, "cpu_", 4) || !strncmp(e->d_name, "armv", 4);
		closedir(d);
	}
	return found;
}

static int answers[8][PEV_FEAT__COUNT];

static void *prober(void *arg)
{
	int *out = arg;
	for (int f = PEV_FEAT__COUNT - 1; f >= 0; f--)
		out[f] = pev_probe(f);
	return NULL;
}

int main(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (access("/proc/sys/kernel/perf_event_paranoid", F_OK))
		T_SKIP("kernel without perf events");
	uname(&u);
	sscanf(u.release, "%d.%d", &major, &minor);

	/* Names: all there, distinct; out of range gives NULL / -EINVAL. */
	for (int f = 0; f < PEV_FEAT__COUNT; f++) {
		CHECK_MSG(pev_feature_name(f) != NULL, "feature %d has no name", f);
		for (int g = 0; g < f; g++)
			CHECK(strcmp(pev_feature_name(f), pev_feature_name(g)));
	}
	CHECK(pev_feature_name(PEV_FEAT__COUNT) == NULL);
	CHECK_EQ_INT(pev_probe(PEV_FEAT__COUNT), -EINVAL);
	CHECK_EQ_INT(pev_probe((enum pev_feature)-1), -EINVAL);

	/* Probe from several threads at once: same answers everywhere. */
	pthread_t th[8];
	for (int i = 0; i < 8; i++)
		pthread_create(&th[i], NULL, prober, answers[i]);
	for (int i = 0; i < 8; i++)
		pthread_join(th[i], NULL);
	for (int f = 0; f < PEV_FEAT__COUNT; f++) {
		int r = pev_probe(f);
		printf("%-16s %d\n", pev_feature_name(f), r);
		if (geteuid() == 0)
			CHECK_MSG(r == 0 || r == 1, "%s: %d (%s)", pev_feature_name(f), r,
				  r < 0 ? strerror(-r) : "");
		for (int i = 0; i < 8; i++)
			CHECK_MSG(answers[i][f] == r, "%s: thread %d saw %d, now %d",
				  pev_feature_name(f), i, answers[i][f], r);
	}

	/* Features this kernel must have (all older than 5.13). */
	if (major > 5 || (major == 5 && minor >= 13)) {
		static const enum pev_feature must[] = {
			PEV_FEAT_SIGTRAP, PEV_FEAT_REMOVE_ON_EXEC, PEV_FEAT_CONTEXT_SWITCH,
			PEV_FEAT_MMAP2, PEV_FEAT_SAMPLE_ID_ALL, PEV_FEAT_COMM_EXEC,
			PEV_FEAT_USE_CLOCKID, PEV_FEAT_WRITE_BACKWARD, PEV_FEAT_INHERIT_THREAD,
			PEV_FEAT_MMAP2_BUILD_ID, PEV_FEAT_WEIGHT_STRUCT, PEV_FEAT_CODE_PAGE_SIZE,
			PEV_FEAT_DATA_PAGE_SIZE, PEV_FEAT_KSYMBOL, PEV_FEAT_BPF_EVENT,
			PEV_FEAT_TEXT_POKE, PEV_FEAT_CGROUP, PEV_FEAT_EXCLUDE_GUEST,
			PEV_FEAT_AUX_OUTPUT, PEV_FEAT_BRANCH_HW_INDEX, PEV_FEAT_ATTR_SIZE,
		};
		for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
			CHECK_MSG(pev_probe(must[i]) == 1, "%s missing on %s",
				  pev_feature_name(must[i]), u.release);
	}
	if (major >= 6)
		CHECK_EQ_INT(pev_probe(PEV_FEAT_FORMAT_LOST), 1);

	/* The attr size: 128 up to 6.2, 136 since 6.3 (config3). */
	int sz = pev_probe_attr_size();
	printf("attr size %d\n", sz);
	if (major > 6 || (major == 6 && minor >= 3))
		CHECK(sz >= PERF_ATTR_SIZE_VER8);
	CHECK(sz >= PERF_ATTR_SIZE_VER0 && sz % 8 == 0 && sz < 4096);
	CHECK_EQ_INT(pev_probe_attr_size(), sz);

	/* A hardware PMU exactly when sysfs has a core PMU, or cycles opens. */
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		close(fd);
	bool want = sysfs_cpu_pmu() || fd >= 0;
	CHECK_EQ_INT(pev_probe(PEV_FEAT_HW_PMU), want ? 1 : 0);
	struct pev_system_settings s;
	pev_system_settings_read(&s);
	CHECK_EQ_INT(s.has_hw_pmu, want ? 1 : 0);
	CHECK_EQ_INT(s.attr_size, sz);
	return t_done();
}
