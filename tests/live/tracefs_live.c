// SPDX-License-Identifier: GPL-2.0-only
/* tracefs on this machine: found or mounted, ids equal the id files, globs
 * expand to what the directories hold, formats load with libtraceevent. */
#include <dirent.h>
#include <perfev/perfev.h>
#include "testutil.h"

int main(void)
{
	char tfs[256];
	int r = pev_tracefs_find(tfs, sizeof(tfs), true);
	if (r < 0) {
		/* The probe: tracefs already there, or a kernel that has it
		 * (/proc/filesystems) and a root that can mount it. */
		FILE *fs = fopen("/proc/filesystems", "r");
		char line[128];
		bool known = false;

		while (fs && fgets(line, sizeof(line), fs))
			known |= strstr(line, "\ttracefs") != NULL;
		if (fs)
			fclose(fs);
		if (access("/sys/kernel/tracing/events", F_OK) &&
		    access("/sys/kernel/debug/tracing/events", F_OK) && (!known || geteuid()))
			T_SKIP("tracefs unavailable: not mounted, and %s",
			       known ? "not root" : "not in /proc/filesystems");
		T_FATAL("pev_tracefs_find failed (%s) where tracefs can be had", strerror(-r));
	}
	CHECK_OK(r);
	CHECK_EQ_INT(r, (int)strlen(tfs));
	CHECK_OK(pev_tracefs_mount());	/* already there: still 0 */
	char small[4];
	CHECK_EQ_INT(pev_tracefs_find(small, sizeof(small), false), -ENAMETOOLONG);

	char path[512];
	long id = -1;
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", tfs);
	FILE *f = fopen(path, "r");
	if (!f)
		T_SKIP("no sched:sched_switch tracepoint in this kernel");
	CHECK(fscanf(f, "%ld", &id) == 1);
	fclose(f);
	CHECK_EQ_INT(pev_tracepoint_id(tfs, "sched", "sched_switch"), id);

	struct pev_evlist *l = pev_evlist_new();
	struct pev_parse_error err;
	CHECK_OK(pev_evlist_parse(l, "sched:sched_switch", NULL, &err));
	CHECK(pev_evlist_count(l) == 1 && pev_evlist_event(l, 0)->attr.attr.type == PERF_TYPE_TRACEPOINT &&
	      (long)pev_evlist_event(l, 0)->attr.attr.config == id);

	/* sched:* expands to one event per directory with an id */
	size_t dirs = 0;
	snprintf(path, sizeof(path), "%s/events/sched", tfs);
	DIR *d = opendir(path);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (de->d_type == DT_DIR && de->d_name[0] != '.')
			dirs++;
	if (d)
		closedir(d);
	size_t before = pev_evlist_count(l);
	CHECK_OK(pev_evlist_parse(l, "sched:*", NULL, &err));
	CHECK_EQ_U64(pev_evlist_count(l) - before, dirs);
	CHECK(dirs > 5);
	/* sorted, and every id matches its file */
	for (size_t i = before + 1; i < pev_evlist_count(l); i++)
		CHECK(strcmp(pev_evlist_event(l, i - 1)->name, pev_evlist_event(l, i)->name) < 0);
	pev_evlist_free(l);

	/* the walker agrees */
	struct { int n; } cnt = { 0 };
	int count_cb(const char *s, const char *n, void *u);
	r = pev_tracepoint_foreach(tfs, "sched", NULL, count_cb, &cnt);
	CHECK_EQ_INT(r, (int)dirs);
	CHECK_EQ_INT(cnt.n, (int)dirs);

	/* the format through libtraceevent */
	struct pev_tp_format *fmt = pev_tp_format_load(tfs, "sched", "sched_switch");
	CHECK_MSG(fmt, "format: %s", strerror(errno));
	if (fmt) {
		CHECK_EQ_INT(pev_tp_format_id(fmt), id);
		CHECK(pev_tp_format_tep(fmt) && pev_tp_format_event(fmt));
		bool prev_pid = false, common_pid = false;
		for (size_t i = 0; i < pev_tp_format_nr_fields(fmt); i++) {
			const struct pev_tp_field *fl = pev_tp_format_field(fmt, i);
			if (!strcmp(fl->name, "prev_pid"))
				prev_pid = !fl->is_common && fl->size == 4 && fl->is_signed;
			if (!strcmp(fl->name, "common_pid"))
				common_pid = fl->is_common;
		}
		CHECK(prev_pid && common_pid);
		CHECK(pev_tp_format_field(fmt, pev_tp_format_nr_fields(fmt)) == NULL);
		pev_tp_format_free(fmt);
	}
	errno = 0;
	CHECK(pev_tp_format_load(tfs, "sched", "nosuch") == NULL && errno == ENOENT);
	pev_tp_format_free(NULL);
	return t_done();
}

int count_cb(const char *s, const char *n, void *u)
{
	(void)s; (void)n;
	(*(int *)u)++;
	return 0;
}
