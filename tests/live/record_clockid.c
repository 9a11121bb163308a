// SPDX-License-Identifier: GPL-2.0-only
/* perfev record -k: every attr has use_clockid and the clock, the file
 * carries CLOCKID (clock_getres) and CLOCK_DATA, sample times are readings
 * of that clock; an unknown name is a usage error; perf reads the file. */
#include <time.h>

#include <perfev/record.h>
#include "record_util.h"

#define PERF "/usr/bin/perf"

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Checks the file's attrs and features; counts samples and those whose
 * time lies in [lo, hi]. */
static void check_file(const char *path, int clockid, uint64_t lo, uint64_t hi,
		       uint64_t *samples, uint64_t *in_range)
{
	struct pev_data_open_opts o = { .size = sizeof(o) };
	char err[256] = "";
	struct pev_data *d = pev_data_open(path, &o, err, sizeof(err));
	struct pev_data_event ev;
	struct timespec res;

	*samples = *in_range = 0;
	CHECK_MSG(d != NULL, "%s: %s", path, err);
	if (!d)
		return;
	const struct pev_decoder *dec = pev_data_decoder(d);

	CHECK(pev_decoder_nr_attrs(dec) >= 1);
	for (size_t i = 0; i < pev_decoder_nr_attrs(dec); i++) {
		const struct perf_event_attr *a = pev_decoder_attr(dec, i);

		CHECK_EQ_U64(a->use_clockid, 1);
		CHECK_EQ_U64(a->clockid, (uint64_t)clockid);
	}
	while (pev_data_next(d, &ev) > 0)
		if (!ev.decode_error && ev.rec.type == PERF_RECORD_SAMPLE) {
			(*samples)++;
			*in_range += ev.rec.u.sample.time >= lo &&
				     ev.rec.u.sample.time <= hi;
		}
	const struct pev_data_features *f = pev_data_features(d);

	CHECK_OK(clock_getres(clockid, &res));
	CHECK(pev_data_features_has(f, PEV_FEAT_CLOCKID));
	CHECK_EQ_U64(f->clockid_res_ns,
		     (uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec);
	CHECK(pev_data_features_has(f, PEV_FEAT_CLOCK_DATA));
	CHECK_EQ_U64(f->clock_data.version, 1);
	CHECK_EQ_U64(f->clock_data.clockid, (uint64_t)clockid);
	/* Read at start: between the test's readings, and the wall clock
	 * of the same moment (within a minute, allowing for a slow VM). */
	CHECK_MSG(f->clock_data.clockid_ns >= lo && f->clock_data.clockid_ns <= hi,
		  "clockid_ns %llu not in [%llu, %llu]",
		  (unsigned long long)f->clock_data.clockid_ns,
		  (unsigned long long)lo, (unsigned long long)hi);
	uint64_t tod = now_ns(CLOCK_REALTIME);

	CHECK(f->clock_data.tod_ns <= tod && tod - f->clock_data.tod_ns < 60000000000ULL);
	CHECK_EQ_U64(f->clock_data.tod_ns % 1000, 0);	/* gettimeofday, as perf */
	pev_data_close(d);
}

int main(void)
{
	const char *out = rt_tmp("clockid.data");
	uint64_t lo, hi, n, in;
	struct t_run r;

	/* -k mono: sample times are CLOCK_MONOTONIC readings. */
	lo = now_ns(CLOCK_MONOTONIC);
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-k", "mono", "-e", "cpu-clock", "-F",
			      "1000", "-o", (char *)out, "--", (char *)rt_work(), "-m", "100"));
	hi = now_ns(CLOCK_MONOTONIC);
	CHECK_MSG(r.exit_code == 0, "-k mono: %s", r.err);
	t_run_free(&r);
	check_file(out, CLOCK_MONOTONIC, lo, hi, &n, &in);
	CHECK_MSG(n >= 30, "%llu samples", (unsigned long long)n);
	CHECK_EQ_U64(in, n);

	/* Another spelling and clock, in a pipe stream: CLOCK_BOOTTIME. */
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s record -q --clockid CLOCK_BOOTTIME -e cpu-clock "
		 "-F 1000 -o - -- %s -m 50 > %s", t_perfev(), rt_work(), out);
	lo = now_ns(CLOCK_BOOTTIME);
	CHECK_OK(t_run_argv((char *const[]){ "sh", "-c", cmd, NULL }, NULL, &r));
	hi = now_ns(CLOCK_BOOTTIME);
	CHECK_MSG(r.exit_code == 0, "--clockid CLOCK_BOOTTIME: %s", r.err);
	t_run_free(&r);
	check_file(out, CLOCK_BOOTTIME, lo, hi, &n, &in);
	CHECK(n >= 10);
	CHECK_EQ_U64(in, n);

	/* A number is the clock itself. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-k", "4", "-e", "cpu-clock",
			      "-o", (char *)out, "--", "true"));
	CHECK_MSG(r.exit_code == 0, "-k 4: %s", r.err);
	t_run_free(&r);
	lo = 0;
	hi = UINT64_MAX;
	check_file(out, CLOCK_MONOTONIC_RAW, lo, hi, &n, &in);

	/* Unknown names: usage error, nothing run. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-k", "nosuchclock", "-e", "cpu-clock",
			      "-o", (char *)out, "--", "true"));
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK_MSG(strstr(r.err, "unknown clock 'nosuchclock'") != NULL, "%s", r.err);
	t_run_free(&r);

	/* perf reads it: the header lines and a clean perf script. */
	if (access(PERF, X_OK) == 0) {
		CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-k", "mono", "-e", "cpu-clock",
				      "-F", "1000", "-o", (char *)out, "--",
				      (char *)rt_work(), "-m", "50"));
		CHECK_EQ_INT(r.exit_code, 0);
		t_run_free(&r);
		CHECK_OK(t_run_argv((char *const[]){ PERF, "report", "--header-only", "-i",
						     (char *)out, NULL }, NULL, &r));
		CHECK_EQ_INT(r.exit_code, 0);
		CHECK_MSG(strstr(r.out, "# clockid: monotonic (1)") != NULL, "%s", r.out);
		CHECK(strstr(r.out, "# clockid frequency: ") != NULL);
		CHECK(strstr(r.out, "(TOD) = ") != NULL);
		CHECK(strstr(r.out, "use_clockid = 1") != NULL);
		t_run_free(&r);
		CHECK_OK(t_run_argv((char *const[]){ PERF, "script", "-i", (char *)out, NULL },
				    NULL, &r));
		CHECK_EQ_INT(r.exit_code, 0);
		CHECK_MSG(r.err[0] == '\0', "perf script: %s", r.err);
		CHECK(strstr(r.out, "record_work") != NULL);
		t_run_free(&r);
	} else {
		printf("# %s missing: perf compat part not run\n", PERF);
	}
	unlink(out);
	return t_done();
}
