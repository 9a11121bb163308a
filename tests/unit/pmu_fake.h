/* SPDX-License-Identifier: GPL-2.0-only */
/* A fake sysfs PMU tree and tracefs under mkdtemp, shared by the pmu_* and
 * event_* unit tests. */
#ifndef PEV_TEST_PMU_FAKE_H
#define PEV_TEST_PMU_FAKE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fake_root[256];	/* sysfs root */
static char fake_tracefs[300];

static void fake_mkdirs(const char *path)
{
	char tmp[1024];
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(tmp, 0755);
			*p = '/';
		}
	mkdir(tmp, 0755);
}

/* Write text into root/rel, creating directories. */
static void fake_write(const char *root, const char *rel, const char *text)
{
	char path[1024], dir[1024];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	fake_mkdirs(dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

#define DEV "bus/event_source/devices/"

static void fake_build(void)
{
	char tmpl[] = "/tmp/pev-fake-XXXXXX";
	if (!mkdtemp(tmpl)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(fake_root, sizeof(fake_root), "%s", tmpl);
	snprintf(fake_tracefs, sizeof(fake_tracefs), "%s/tracing", tmpl);
	const char *r = fake_root;
	fake_write(r, DEV "fakepmu/type", "42\n");
	fake_write(r, DEV "fakepmu/format/event", "config:0-7\n");
	fake_write(r, DEV "fakepmu/format/umask", "config:8-15\n");
	fake_write(r, DEV "fakepmu/format/scat", "config1:1,6-10,44\n");
	fake_write(r, DEV "fakepmu/format/hi", "config2:63\n");
	fake_write(r, DEV "fakepmu/format/c3", "config3:0-3\n");
	fake_write(r, DEV "fakepmu/events/cycles-x", "event=0x3c,umask=0x00\n");
	fake_write(r, DEV "fakepmu/events/energy", "event=0x02\n");
	fake_write(r, DEV "fakepmu/events/energy.scale", "2.3283064365386962890625e-10\n");
	fake_write(r, DEV "fakepmu/events/energy.unit", "Joules\n");
	fake_write(r, DEV "fakepmu/events/energy.per-pkg", "1\n");
	fake_write(r, DEV "fakepmu/events/energy.snapshot", "1\n");
	fake_write(r, DEV "fakepmu/events/needs", "event=0x5,umask=?\n");
	fake_write(r, DEV "fakepmu/events/badalias", "event=0x5,nosuch=1\n");
	fake_write(r, DEV "fakepmu/cpumask", "0,2\n");
	fake_write(r, DEV "fakepmu/caps/max_precise", "3\n");
	fake_write(r, DEV "fakepmu/caps/branches", "32\n");
	fake_write(r, DEV "uncore_box_0/type", "60\n");
	fake_write(r, DEV "uncore_box_0/format/event", "config:0-7\n");
	fake_write(r, DEV "uncore_box_1/type", "61\n");
	fake_write(r, DEV "uncore_box_1/format/event", "config:0-7\n");
	fake_write(r, DEV "uprobe/type", "7\n");
	fake_write(r, DEV "uprobe/format/retprobe", "config:0\n");
	fake_write(r, DEV "uprobe/format/ref_ctr_offset", "config:32-63\n");
	fake_write(r, DEV "software/type", "1\n");
	fake_write(r, DEV "tracepoint/type", "2\n");
	fake_write(r, DEV "breakpoint/type", "5\n");
	fake_write(r, DEV "badpmu/type", "50\n");
	fake_write(r, DEV "badpmu/format/x", "config:9-3\n");
	const char *t = fake_tracefs;
	fake_write(t, "events/sched/sched_switch/id", "316\n");
	fake_write(t, "events/sched/sched_wakeup/id", "317\n");
	fake_write(t, "events/sched/sched_waking/id", "318\n");
	fake_write(t, "events/sched/enable", "0\n");
	fake_write(t, "events/syscalls/sys_enter_read/id", "600\n");
	fake_write(t, "events/syscalls/sys_enter_write/id", "601\n");
	fake_write(t, "events/syscalls/sys_exit_read/id", "602\n");
	fake_write(t, "events/enable", "0\n");
}

static void fake_cleanup(void)
{
	char cmd[400];
	if (fake_root[0] && !strncmp(fake_root, "/tmp/pev-fake-", 14)) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
		if (system(cmd)) { /* best effort */ }
	}
}

#endif
