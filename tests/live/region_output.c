// SPDX-License-Identifier: GPL-2.0-only
/* The report files, parsed back: a child of this test (main thread and 2
 * workers, regions with known getppid() and rt_probe_fn() counts) exits
 * normally with PERFEV_OUTPUT=json:FILE, csv:FILE or text:FILE.
 *  - JSON: read strictly by python3's json module
 *    (tests/helpers/region_json.py checks the shape and types);
 *  - CSV: parsed here (RFC 4180 quoting, the header row checked);
 * and in both, for every region and thread, exactly one row per event: the
 * exact calls, raw and value (scaled) of the tracepoint and the uprobe,
 * running fraction 1.0 and enabled == running for these unmultiplexed
 * software events; task-clock ran (raw > 0), its value in msec below raw
 * ns; no row of a region a thread did not run.  The text report names the
 * regions and threads. */
#include <pthread.h>
#include "region_util.h"

#define SPEC "task-clock," RT_TP_SPEC "," RT_UPROBE_SPEC

struct row {
	char region[64], event[128], unit[16], error[128];
	long tid;
	uint64_t calls, raw, enabled, running;
	double value, fraction, overhead;
};

/* ---- the child ---- */

static void work(const char *region, int calls, long tp, long up)
{
	for (int i = 0; i < calls; i++) {
		pev_region_begin(region);
		call_getppid(tp);
		rt_call_probe(up);
		pev_region_end(region);
	}
}

static void *worker(void *arg)
{
	long i = (long)(intptr_t)arg;

	printf("worker %ld %d\n", i, (int)rt_gettid());
	work("o_work", 2, 100 * (i + 1), 7 * (i + 1));
	return NULL;
}

static int child(void)
{
	pthread_t th[2];

	printf("main %d\n", (int)rt_gettid());
	work("o_main", 3, 11, 5);
	work("o_work", 1, 1, 1);
	for (long i = 0; i < 2; i++) {
		pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
		pthread_join(th[i], NULL);	/* one after the other: stdout in order */
	}
	return 0;	/* the report is written at exit */
}

/* ---- parsing ---- */

/* Split a CSV line (RFC 4180 quoting) in place into up to max fields;
 * their number. */
static int csv_split(char *line, char **f, int max)
{
	int n = 0;
	char *w = line, *p = line;

	while (n < max) {
		f[n++] = w;
		if (*p == '"') {
			for (p++; *p; p++) {
				if (*p == '"' && p[1] == '"')
					*w++ = *p++;
				else if (*p == '"') {
					p++;
					break;
				} else
					*w++ = *p;
			}
		}
		while (*p && *p != ',')
			*w++ = *p++;
		if (!*p) {
			*w = 0;
			break;
		}
		*w++ = 0;
		p++;
	}
	return n;
}

static void copy(char *dst, size_t size, const char *s)
{
	snprintf(dst, size, "%s", s);
}

/* Rows from the JSON helper's lines (tab-separated). */
static int rows_from_json(char *text, struct row *rows, int max, char *events, size_t esize)
{
	int n = 0;

	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		char *f[16];
		int k = 0;

		for (char *p = l; k < 16; ) {
			f[k++] = p;
			p = strchr(p, '\t');
			if (!p)
				break;
			*p++ = 0;
		}
		if (!strcmp(f[0], "events")) {
			events[0] = 0;
			for (int i = 1; i < k; i++)
				snprintf(events + strlen(events), esize - strlen(events), "%s%s", i > 1 ? "," : "", f[i]);
			continue;
		}
		if (!strcmp(f[0], "calibrated"))
			continue;
		if (k != 12 || n == max) {
			T_FAIL("bad line from region_json.py (%d fields): %s", k, f[0]);
			continue;
		}
		struct row *r = &rows[n++];
		copy(r->region, sizeof(r->region), f[0]);
		r->tid = strtol(f[1], NULL, 10);
		r->calls = strtoull(f[2], NULL, 10);
		copy(r->event, sizeof(r->event), f[3]);
		copy(r->unit, sizeof(r->unit), f[4]);
		r->value = strtod(f[5], NULL);
		r->raw = strtoull(f[6], NULL, 10);
		r->enabled = strtoull(f[7], NULL, 10);
		r->running = strtoull(f[8], NULL, 10);
		r->fraction = strtod(f[9], NULL);
		r->overhead = strtod(f[10], NULL);
		copy(r->error, sizeof(r->error), strcmp(f[11], "-") ? f[11] : "");
	}
	return n;
}

static int rows_from_csv(char *text, struct row *rows, int max)
{
	int n = 0, line = 0;
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save), line++) {
		char *f[16];
		int k = csv_split(l, f, 16);

		if (line == 0) {
			static const char *hdr[13] = { "region", "tid", "comm", "calls", "event", "value",
						       "unit", "raw", "enabled", "running", "fraction",
						       "overhead", "error" };
			CHECK_EQ_INT(k, 13);
			for (int i = 0; i < k && i < 13; i++)
				CHECK_STR(f[i], hdr[i]);
			continue;
		}
		if (k != 13 || n == max) {
			T_FAIL("CSV line %d: %d fields, expected 13", line + 1, k);
			continue;
		}
		struct row *r = &rows[n++];
		copy(r->region, sizeof(r->region), f[0]);
		r->tid = strtol(f[1], NULL, 10);
		r->calls = strtoull(f[3], NULL, 10);
		copy(r->event, sizeof(r->event), f[4]);
		r->value = strtod(f[5], NULL);
		copy(r->unit, sizeof(r->unit), f[6]);
		r->raw = strtoull(f[7], NULL, 10);
		r->enabled = strtoull(f[8], NULL, 10);
		r->running = strtoull(f[9], NULL, 10);
		r->fraction = strtod(f[10], NULL);
		r->overhead = strtod(f[11], NULL);
		copy(r->error, sizeof(r->error), f[12]);
	}
	return n;
}

/* ---- the checks ---- */

struct expect { const char *region; int who; uint64_t calls; long tp, up; };

static const struct row *find(const struct row *rows, int n, const char *region, long tid,
			      const char *event, int *count)
{
	const struct row *hit = NULL;

	*count = 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].region, region) && rows[i].tid == tid &&
		    !strcmp(rows[i].event, event)) {
			hit = &rows[i];
			++*count;
		}
	return hit;
}

static void check_rows(const char *what, const struct row *rows, int n, const long tids[3])
{
	/* who: 0 main, 1 and 2 the workers */
	static const struct expect ex[] = {
		{ "o_main", 0, 3, 11, 5 },	/* per call */
		{ "o_work", 0, 1, 1, 1 },
		{ "o_work", 1, 2, 100, 7 },
		{ "o_work", 2, 2, 200, 14 },
	};
	const char *up_name = NULL;

	for (int i = 0; i < n; i++)
		if (strcmp(rows[i].event, "task-clock") && strcmp(rows[i].event, RT_TP_SPEC))
			up_name = rows[i].event;
	CHECK_MSG(up_name != NULL, "%s: no uprobe rows", what);
	CHECK_MSG(n == 4 * 3, "%s: %d rows, expected 12 (4 region-thread pairs x 3 events)", what, n);
	for (size_t e = 0; e < sizeof(ex) / sizeof(ex[0]); e++) {
		const char *events[3] = { "task-clock", RT_TP_SPEC, up_name ? up_name : "?" };
		long want[3] = { -1, ex[e].tp * (long)ex[e].calls, ex[e].up * (long)ex[e].calls };

		for (int k = 0; k < 3; k++) {
			int cnt;
			const struct row *r = find(rows, n, ex[e].region, tids[ex[e].who], events[k], &cnt);

			CHECK_MSG(cnt == 1, "%s: %d rows for %s, thread %ld, %s; expected 1", what, cnt,
				  ex[e].region, tids[ex[e].who], events[k]);
			if (!r)
				continue;
			CHECK_MSG(r->calls == ex[e].calls && r->fraction == 1.0 && r->enabled == r->running &&
				  r->enabled > 0 && !r->error[0],
				  "%s: %s thread %ld %s: calls %" PRIu64 " fraction %g enabled %" PRIu64
				  " running %" PRIu64 " error '%s'; expected calls %" PRIu64 ", fraction 1,"
				  " enabled == running > 0, no error", what, ex[e].region, r->tid, r->event,
				  r->calls, r->fraction, r->enabled, r->running, r->error, ex[e].calls);
			if (k == 0) {
				CHECK_MSG(r->raw > 0 && r->value > 0 && r->value <= (double)r->raw / 1e6 &&
					  !strcmp(r->unit, "msec"),
					  "%s: %s thread %ld task-clock: raw %" PRIu64 " ns, value %g %s; "
					  "expected raw > 0 and 0 < value <= raw / 1e6 msec", what,
					  ex[e].region, r->tid, r->raw, r->value, r->unit);
			} else {
				CHECK_MSG(r->raw == (uint64_t)want[k] && r->value == (double)want[k] &&
					  r->overhead == 0,
					  "%s: %s thread %ld %s: raw %" PRIu64 " value %g overhead %g; "
					  "expected %ld, %ld, 0", what, ex[e].region, r->tid, r->event,
					  r->raw, r->value, r->overhead, want[k], want[k]);
			}
		}
	}
}

/* The child's tids, from its stdout. */
static void child_tids(const char *out, long tids[3])
{
	const char *p = strstr(out, "main ");
	tids[0] = p ? strtol(p + 5, NULL, 10) : -2;
	for (int i = 0; i < 2; i++) {
		char key[32];
		snprintf(key, sizeof(key), "worker %d ", i);
		p = strstr(out, key);
		tids[i + 1] = p ? strtol(p + strlen(key), NULL, 10) : -2;
	}
}

static void run_with(const char *dir, const char *fmt, char *path, size_t psize, long tids[3])
{
	char env[300];
	struct t_run r;

	snprintf(path, psize, "%s/report.%s", dir, fmt);
	snprintf(env, sizeof(env), "PERFEV_OUTPUT=%s:%s", fmt, path);
	rt_run_child("child", (const char *const[]){ "PERFEV_EVENTS=" SPEC, env, NULL }, &r);
	printf("-- %s: exit %d\nstdout:\n%sstderr:\n%s", env, r.exit_code, r.out, r.err);
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK_MSG(!r.err[0], "%s: stderr not empty", env);
	child_tids(r.out, tids);
	t_run_free(&r);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/pev-region-output-XXXXXX", path[256], cmd[512];
	struct row rows[64];
	long tids[3];
	size_t len;
	int n;

	if (argc > 1)
		return child();
	rt_need_tracepoint();
	rt_need_uprobe();
	if (t_sh("python3 -c '' 2>/dev/null"))
		T_SKIP("no python3 to read the JSON report with");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp: %s", strerror(errno));

	/* JSON */
	run_with(dir, "json", path, sizeof(path), tids);
	snprintf(cmd, sizeof(cmd), "python3 tests/helpers/region_json.py %s > %s/json.rows", path, dir);
	CHECK_EQ_INT(t_sh("%s", cmd), 0);
	snprintf(path, sizeof(path), "%s/json.rows", dir);
	char *text = t_slurp(path, &len), events[512] = "";
	printf("json rows:\n%s", text);
	n = rows_from_json(text, rows, 64, events, sizeof(events));
	CHECK_MSG(!strncmp(events, "task-clock," RT_TP_SPEC ",", strlen("task-clock," RT_TP_SPEC ",")),
		  "json: events \"%s\", expected task-clock, %s, the uprobe", events, RT_TP_SPEC);
	check_rows("json", rows, n, tids);
	free(text);

	/* CSV */
	run_with(dir, "csv", path, sizeof(path), tids);
	text = t_slurp(path, &len);
	printf("csv:\n%s", text);
	n = rows_from_csv(text, rows, 64);
	check_rows("csv", rows, n, tids);
	free(text);

	/* text */
	run_with(dir, "text", path, sizeof(path), tids);
	text = t_slurp(path, &len);
	CHECK_MSG(strstr(text, "o_main") && strstr(text, "o_work"), "text: the regions are not named");
	for (int i = 0; i < 3; i++) {
		char t[32];
		snprintf(t, sizeof(t), "%ld", tids[i]);
		CHECK_MSG(strstr(text, t) != NULL, "text: thread %s is not named", t);
	}
	free(text);
	t_sh("rm -rf %s", dir);
	return t_done();
}
