// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer: pev_evlist_parse on arbitrary bytes, against a fake sysfs and
 * tracefs built once at start-up (so the fuzzer never touches /sys). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perfev/perfev.h>

static char root[64], tfs[96];

static void put(const char *rel, const char *text)
{
	char path[512], dir[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	snprintf(root, sizeof(root), "/tmp/pev-fuzz-XXXXXX");
	if (!mkdtemp(root))
		abort();
	snprintf(tfs, sizeof(tfs), "%s/tracing", root);
	put("bus/event_source/devices/cpu/type", "4\n");
	put("bus/event_source/devices/cpu/format/event", "config:0-7\n");
	put("bus/event_source/devices/cpu/format/umask", "config:8-15\n");
	put("bus/event_source/devices/cpu/format/scat", "config1:1,6-10,44\n");
	put("bus/event_source/devices/cpu/format/c3", "config3:0-3\n");
	put("bus/event_source/devices/cpu/events/cycles-t", "event=0x3c,umask=?\n");
	put("bus/event_source/devices/cpu/events/e1", "event=0x1\n");
	put("bus/event_source/devices/cpu/events/e1.scale", "0.5\n");
	put("bus/event_source/devices/msr/type", "9\n");
	put("bus/event_source/devices/msr/format/event", "config:0-63\n");
	put("bus/event_source/devices/msr/events/tsc", "event=0x00\n");
	put("bus/event_source/devices/uprobe/type", "8\n");
	put("bus/event_source/devices/uprobe/format/retprobe", "config:0\n");
	put("bus/event_source/devices/software/type", "1\n");
	put("tracing/events/sched/sched_switch/id", "316\n");
	put("tracing/events/sched/sched_wakeup/id", "317\n");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	struct pev_parse_opts o = { .size = sizeof(o), .sysfs_root = root, .tracefs_root = tfs, .no_pfm = true };
	struct pev_evlist *l = pev_evlist_new();
	struct pev_parse_error err;
	char buf[1024];
	int r = pev_evlist_parse(l, spec, &o, &err);
	if (r < 0) {
		if (err.pos < 0 || (size_t)err.pos > strlen(spec) || err.len < 1)
			abort();
		pev_parse_error_format(&err, spec, buf, sizeof(buf));
	} else {
		for (size_t i = 0; i < pev_evlist_count(l); i++) {
			struct pev_event *e = pev_evlist_event(l, i);
			if (!e->name || e->leader < 0 || (size_t)e->leader > i)
				abort();
		}
	}
	pev_evlist_free(l);
	free(spec);
	return 0;
}
