// SPDX-License-Identifier: GPL-2.0-only
/* perfev list: the text listing, the filters, -h, and --json checked by a
 * small JSON parser. */
#include <perfev/perfev.h>
#include "testutil.h"
#include "cliutil.h"

/* ---- a minimal strict JSON checker ---- */
struct js { const char *p; int objects; int bad_objects; };

static void ws(struct js *j) { while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r') j->p++; }
static int value(struct js *j, int depth);

static int string(struct js *j, char *out, size_t size)
{
	size_t n = 0;
	if (*j->p != '"')
		return -1;
	j->p++;
	while (*j->p && *j->p != '"') {
		char ch = *j->p++;
		if ((unsigned char)ch < 0x20)
			return -1;
		if (ch == '\\') {
			ch = *j->p++;
			if (ch == 'u') {
				for (int i = 0; i < 4; i++)
					if (!strchr("0123456789abcdefABCDEF", *j->p++) || !j->p[-1])
						return -1;
				ch = '?';
			} else if (!strchr("\"\\/bfnrt", ch) || !ch) {
				return -1;
			}
		}
		if (out && n + 1 < size)
			out[n++] = ch;
	}
	if (*j->p != '"')
		return -1;
	j->p++;
	if (out)
		out[n] = '\0';
	return 0;
}

static int object(struct js *j, int depth)
{
	bool name = false, type = false, unit = false, avail = false;
	j->p++;
	ws(j);
	if (*j->p == '}') { j->p++; return 0; }
	for (;;) {
		char key[64];
		ws(j);
		if (string(j, key, sizeof(key)))
			return -1;
		ws(j);
		if (*j->p++ != ':')
			return -1;
		ws(j);
		if (!strcmp(key, "Available"))
			avail = !strncmp(j->p, "true", 4) || !strncmp(j->p, "false", 5);
		if (!strcmp(key, "EventName")) name = *j->p == '"';
		if (!strcmp(key, "EventType")) type = *j->p == '"';
		if (!strcmp(key, "Unit")) unit = *j->p == '"';
		if (value(j, depth + 1))
			return -1;
		ws(j);
		if (*j->p == ',') { j->p++; continue; }
		if (*j->p == '}') { j->p++; break; }
		return -1;
	}
	j->objects++;
	if (!(name && type && unit && avail))
		j->bad_objects++;
	return 0;
}

static int value(struct js *j, int depth)
{
	if (depth > 16)
		return -1;
	ws(j);
	if (*j->p == '{')
		return object(j, depth);
	if (*j->p == '[') {
		j->p++;
		ws(j);
		if (*j->p == ']') { j->p++; return 0; }
		for (;;) {
			if (value(j, depth + 1))
				return -1;
			ws(j);
			if (*j->p == ',') { j->p++; continue; }
			if (*j->p == ']') { j->p++; return 0; }
			return -1;
		}
	}
	if (*j->p == '"')
		return string(j, NULL, 0);
	if (!strncmp(j->p, "true", 4)) { j->p += 4; return 0; }
	if (!strncmp(j->p, "false", 5)) { j->p += 5; return 0; }
	if (!strncmp(j->p, "null", 4)) { j->p += 4; return 0; }
	if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9')) {
		j->p++;
		while ((*j->p >= '0' && *j->p <= '9') || *j->p == '.')
			j->p++;
		return 0;
	}
	return -1;
}

static bool has_line(const char *out, const char *name, const char *tag)
{
	char want[256];
	snprintf(want, sizeof(want), "  %-50s [%s]\n", name, tag);
	return strstr(out, want) != NULL;
}

int main(void)
{
	struct t_run r;

	CHECK_OK(T_RUN_PERFEV(&r, "list"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK(has_line(r.out, "cpu-clock", "Software event"));
	CHECK(has_line(r.out, "context-switches OR cs", "Software event"));
	CHECK(has_line(r.out, "rNNN", "Raw hardware event descriptor"));
	CHECK(has_line(r.out, "mem:<addr>[/len][:access]", "Hardware breakpoint"));
	struct pev_pmu_list *pmus = pev_pmu_list_load(NULL);
	if (pmus && pev_pmu_list_find(pmus, "msr"))
		CHECK(has_line(r.out, "msr/tsc/", "Kernel PMU event"));
	bool have_cpu_pmu = pmus && pev_pmu_list_find(pmus, "cpu");
	pev_pmu_list_free(pmus);
	/* no hardware PMU here: cycles is marked, never silently dropped */
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .size = sizeof(a),
				     .config = PERF_COUNT_HW_CPU_CYCLES, .disabled = 1, .exclude_kernel = 1, .exclude_hv = 1 };
	int fd = pev_sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		CHECK(has_line(r.out, "cpu-cycles OR cycles", "Hardware event, not supported here"));
	else {
		CHECK(has_line(r.out, "cpu-cycles OR cycles", "Hardware event"));
		close(fd);
	}
	(void)have_cpu_pmu;
	char tfs[256];
	bool tracing = pev_tracefs_find(tfs, sizeof(tfs), false) >= 0;
	if (tracing)
		CHECK(has_line(r.out, "sched:sched_switch", "Tracepoint event"));
	t_run_free(&r);

	CHECK_OK(T_RUN_PERFEV(&r, "list", "sw"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK(has_line(r.out, "cpu-clock", "Software event"));
	CHECK(!strstr(r.out, "Hardware event") && !strstr(r.out, "Tracepoint") && !strstr(r.out, "rNNN"));
	int lines = 0;
	for (const char *p = r.out; *p; p++)
		lines += *p == '\n';
	CHECK_EQ_INT(lines, 15);	/* perf list sw: 12 software, 3 tool events */
	t_run_free(&r);

	if (tracing) {
		CHECK_OK(T_RUN_PERFEV(&r, "list", "sched:*"));
		CHECK_EQ_INT(r.exit_code, 0);
		CHECK(has_line(r.out, "sched:sched_switch", "Tracepoint event"));
		for (const char *p = r.out; *p; p = strchr(p, '\n') + 1) {
			CHECK_MSG(!strncmp(p, "  sched:", 8), "line outside the glob: %.60s", p);
			if (!strchr(p, '\n'))
				break;
		}
		t_run_free(&r);
	}

	CHECK_OK(T_RUN_PERFEV(&r, "list", "--json"));
	CHECK_EQ_INT(r.exit_code, 0);
	struct js j = { r.out, 0, 0 };
	int bad = value(&j, 0);
	ws(&j);
	CHECK_MSG(!bad && *j.p == '\0', "invalid JSON near: %.80s", j.p);
	CHECK(j.objects > 50);
	CHECK_EQ_INT(j.bad_objects, 0);
	CHECK(strstr(r.out, "\"EventName\": \"cpu-clock\""));
	CHECK(strstr(r.out, "\"EventAlias\": \"cs\""));
	t_run_free(&r);

	CHECK_OK(T_RUN_PERFEV(&r, "list", "-h"));
	CHECK_EQ_INT(r.exit_code, 0);
	CHECK(strstr(r.out, "usage: perfev list") && strstr(r.out, "--json"));
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "list", "--bogus"));
	CHECK_EQ_INT(r.exit_code, 2);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "list", "a", "b"));
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK(strstr(r.err, "at most one filter"));
	t_run_free(&r);
	return t_done();
}
