// SPDX-License-Identifier: GPL-2.0-only
/* pev_filter: perf 6.1's option grammar, with hand-computed expectations
 * (perf's util/time-utils.c for --time, strlist/intlist for the lists,
 * perf_cpu_map__new for -C), and malformed inputs refused with EINVAL and
 * one message naming the option. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "testutil.h"
#include <perfev/filter.h>

static struct pev_filter *mk(const char *which, const char *val, char *err)
{
	struct pev_filter_opts o = { .size = sizeof(o) };

	if (!strcmp(which, "comm")) o.comm = val;
	else if (!strcmp(which, "pid")) o.pid = val;
	else if (!strcmp(which, "tid")) o.tid = val;
	else if (!strcmp(which, "cpu")) o.cpu = val;
	else if (!strcmp(which, "time")) o.time = val;
	else if (!strcmp(which, "dso")) o.dso = val;
	else o.symbols = val;
	err[0] = '\0';
	return pev_filter_new(&o, err, 256);
}

static void bad(const char *which, const char *val, const char *want)
{
	char err[256];
	struct pev_filter *f = mk(which, val, err);

	CHECK_MSG(!f && errno == EINVAL, "%s '%s' accepted", which, val);
	CHECK_MSG(strstr(err, want), "%s '%s': message '%s' lacks '%s'", which, val, err, want);
	CHECK_MSG(!strchr(err, '\n'), "%s '%s': message has a newline", which, val);
	pev_filter_free(f);
}

/* --time val resolved on [first, last]: n ranges, then (start, end) pairs. */
static void ranges(const char *val, uint64_t first, uint64_t last, size_t n, ...)
{
	char err[256];
	struct pev_filter *f = mk("time", val, err);
	uint64_t st[8], en[8];
	va_list ap;

	CHECK_MSG(f, "--time '%s' refused: %s", val, err);
	if (!f)
		return;
	if (pev_filter_needs_sample_time(f))
		CHECK_OK(pev_filter_set_sample_time(f, first, last, err, sizeof(err)));
	CHECK_EQ_U64(pev_filter_time_ranges(f, st, en, 8), n);
	va_start(ap, n);
	for (size_t i = 0; i < n; i++) {
		uint64_t s = va_arg(ap, uint64_t), e = va_arg(ap, uint64_t);

		CHECK_MSG(st[i] == s && en[i] == e, "--time '%s' range %zu: %llu,%llu want %llu,%llu",
			  val, i, (unsigned long long)st[i], (unsigned long long)en[i],
			  (unsigned long long)s, (unsigned long long)e);
	}
	va_end(ap);
	pev_filter_free(f);
}

#define S(x) ((uint64_t)(x))

int main(void)
{
	char err[256];
	struct pev_filter *f;

	/* No options: everything passes, nothing needed. */
	f = pev_filter_new(NULL, err, sizeof(err));
	CHECK(f && pev_filter_needs(f) == 0);
	struct pev_filter_sample any = { .time = 5, .cpu = 4000, .pid = 1, .tid = 1 };
	CHECK_EQ_INT(pev_filter_match(f, &any), 0);
	pev_filter_free(f);
	CHECK_EQ_INT(pev_filter_match(NULL, &any), 0);

	/* --time, absolute: seconds with up to 9 decimals, open ends. */
	ranges("1.5,2.000000001", 0, 0, 1, S(1500000000), S(2000000001));
	ranges(",2", 0, 0, 1, S(0), S(2000000000));
	ranges("10598.9,", 0, 0, 1, S(10598900000000), S(0));
	ranges("1.,2", 0, 0, 1, S(1000000000), S(2000000000));
	ranges("1,2 3,4", 0, 0, 2, S(1000000000), S(2000000000), S(3000000000), S(4000000000));
	ranges("1,2 3,", 0, 0, 2, S(1000000000), S(2000000000), S(3000000000), S(0));
	ranges(" 1, 2", 0, 0, 1, S(1000000000), S(2000000000));
	/* percent of [1000, 2000]: first + (last - first) * fraction */
	ranges("10%", 1000, 2000, 1, S(1000), S(1100));
	ranges("10%/2", 1000, 2000, 1, S(1100), S(1200));
	ranges("25%/4", 1000, 2000, 1, S(1750), S(2000));
	ranges("0%-10%,30%-40%", 1000, 2000, 2, S(1000), S(1100), S(1300), S(1400));
	ranges("10%/1,10%/3", 1000, 2000, 2, S(1000), S(1100), S(1200), S(1300));
	ranges("10%/1,10%/3,", 1000, 2000, 2, S(1000), S(1100), S(1200), S(1300));
	ranges("100%", 1000, 2000, 1, S(1000), S(2000));
	/* truncation as perf: 1/3 of 1000 ns is 333.33 -> 333 */
	ranges("33.333333333333336%", 0, 1000, 1, S(0), S(333));

	/* time matching: ends included, time 0 passes, open end */
	f = mk("time", "1,2 3,", err);
	CHECK(f && pev_filter_time_ok(f, 1000000000) && pev_filter_time_ok(f, 2000000000));
	CHECK(f && !pev_filter_time_ok(f, 2000000001) && !pev_filter_time_ok(f, 999999999));
	CHECK(f && pev_filter_time_ok(f, 0) && pev_filter_time_ok(f, UINT64_MAX));
	pev_filter_free(f);

	/* percent ranges need SAMPLE_TIME */
	f = mk("time", "10%", err);
	CHECK(f && pev_filter_needs_sample_time(f));
	CHECK_EQ_INT(pev_filter_set_sample_time(f, 0, 0, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "first and last sample") != NULL);
	pev_filter_free(f);

	bad("time", "1.5", "--time '1.5'");
	bad("time", "2,1", "--time");
	bad("time", "abc", "--time");
	bad("time", "1.1234567891,", "--time");
	bad("time", "1,2,3,4", "--time");
	bad("time", "3,4 1,2", "increasing");
	bad("time", "1,3 2,4", "overlap");
	bad("time", "1, 2,3", "--time");
	bad("time", "", "--time");
	bad("time", "150%", "percent");
	bad("time", "10%,20%", "percent");
	bad("time", "20%-10%", "percent");
	bad("time", "0%/1", "percent");
	bad("time", "10%/x", "percent");
	bad("time", "10%/0", "percent");
	bad("time", "60%/2", "percent");
	bad("time", "10%-", "percent");
	bad("time", "10%x", "percent");

	/* -C: perf's CPU list (strtoul base 0) */
	f = mk("cpu", "0-3,6,0x8", err);
	CHECK(f && pev_filter_cpu_ok(f, 0) && pev_filter_cpu_ok(f, 3) && pev_filter_cpu_ok(f, 6) &&
	      pev_filter_cpu_ok(f, 8));
	CHECK(f && !pev_filter_cpu_ok(f, 4) && !pev_filter_cpu_ok(f, 7) &&
	      !pev_filter_cpu_ok(f, 4096) && !pev_filter_cpu_ok(f, UINT32_MAX));
	struct pev_filter_sample nocpu = { .cpu = 0, .has_cpu = false };
	CHECK_EQ_INT(pev_filter_match(f, &nocpu), PEV_FILTER_CPU);
	pev_filter_free(f);
	f = mk("cpu", "4095", err);
	CHECK(f && pev_filter_cpu_ok(f, 4095));
	pev_filter_free(f);
	bad("cpu", "", "CPU list");
	bad("cpu", "x", "CPU list");
	bad("cpu", "1-0", "backwards");
	bad("cpu", "0,0", "twice");
	bad("cpu", "0-2,1", "twice");
	bad("cpu", "4096", "too large");
	bad("cpu", "1,", "CPU list");
	bad("cpu", "1-", "CPU list");
	bad("cpu", "-1", "CPU list");
	bad("cpu", "1 2", "CPU list");

	/* --pid / --tid */
	f = mk("pid", " 12, 7,30000", err);
	CHECK(f && pev_filter_needs(f) == 0);	/* pid and tid are always given */
	CHECK(f && pev_filter_thread_ok(f, 7, 1, NULL) && pev_filter_thread_ok(f, 30000, 1, NULL));
	CHECK(f && !pev_filter_thread_ok(f, 8, 7, NULL));
	pev_filter_free(f);
	f = mk("tid", "5", err);
	CHECK(f && pev_filter_thread_ok(f, 1, 5, NULL) && !pev_filter_thread_ok(f, 5, 1, NULL));
	pev_filter_free(f);
	bad("pid", "abc", "--pid list 'abc': 'abc' is not a process id");
	bad("tid", "12x", "is not a thread id");
	bad("pid", "", "empty --pid");
	bad("pid", ",", "empty --pid");
	bad("pid", "-1", "--pid");
	bad("pid", "99999999999", "--pid");

	/* --comm: exact names, sorted lookup; file:// lists */
	f = mk("comm", "thr,perf,a b", err);
	CHECK(f && pev_filter_needs(f) & PEV_FILTER_NEED_COMM);
	CHECK(f && pev_filter_thread_ok(f, 1, 1, "perf") && pev_filter_thread_ok(f, 1, 1, "a b"));
	CHECK(f && !pev_filter_thread_ok(f, 1, 1, "per") && !pev_filter_thread_ok(f, 1, 1, NULL));
	pev_filter_free(f);
	bad("comm", "", "empty --comm");
	char path[64] = "/tmp/perfev-filter-XXXXXX", opt[96];
	int fd = mkstemp(path);

	CHECK(fd >= 0 && write(fd, "alpha\nbeta\n", 11) == 11);
	close(fd);
	snprintf(opt, sizeof(opt), "gamma,file://%s", path);
	f = mk("comm", opt, err);
	CHECK(f && pev_filter_thread_ok(f, 1, 1, "alpha") && pev_filter_thread_ok(f, 1, 1, "beta") &&
	      pev_filter_thread_ok(f, 1, 1, "gamma") && !pev_filter_thread_ok(f, 1, 1, "delta"));
	pev_filter_free(f);
	unlink(path);
	f = mk("comm", "file:///nonexistent/perfev-list", err);
	CHECK(!f && errno == ENOENT && strstr(err, "/nonexistent/perfev-list"));

	/* --dso: short or long name; no map fails */
	f = mk("dso", "libc.so.6,/opt/x/libfoo.so", err);
	struct pev_filter_sample s1 = { .dso_short = "libc.so.6", .dso_long = "/usr/lib/libc.so.6" };
	struct pev_filter_sample s2 = { .dso_short = "libfoo.so", .dso_long = "/opt/x/libfoo.so" };
	struct pev_filter_sample s3 = { .dso_short = "libm.so.6", .dso_long = "/usr/lib/libm.so.6" };
	struct pev_filter_sample s4 = { .dso_short = NULL };

	CHECK(f && pev_filter_match(f, &s1) == 0 && pev_filter_match(f, &s2) == 0);
	CHECK(f && pev_filter_match(f, &s3) == PEV_FILTER_DSO && pev_filter_match(f, &s4) == PEV_FILTER_DSO);
	pev_filter_free(f);

	/* --symbols: the name, or 0x of the sample's ip when a symbol holds it */
	f = mk("symbols", "main,0x401234", err);
	struct pev_filter_sample y1 = { .sym = "main", .ip = 0x1 };
	struct pev_filter_sample y2 = { .sym = "other", .ip = 0x401234 };
	struct pev_filter_sample y3 = { .sym = NULL, .ip = 0x401234 };
	struct pev_filter_sample y4 = { .sym = "other", .ip = 0x401235 };

	CHECK(f && pev_filter_match(f, &y1) == 0 && pev_filter_match(f, &y2) == 0);
	CHECK(f && pev_filter_match(f, &y3) == PEV_FILTER_SYMBOL &&
	      pev_filter_match(f, &y4) == PEV_FILTER_SYMBOL);
	pev_filter_free(f);

	/* Everything at once: each failing filter has its bit. */
	struct pev_filter_opts all = { .size = sizeof(all), .comm = "a", .pid = "1", .cpu = "0",
				       .time = "1,2", .dso = "d", .symbols = "s" };
	f = pev_filter_new(&all, err, sizeof(err));
	struct pev_filter_sample ok = { .time = 1500000000, .cpu = 0, .has_cpu = true, .pid = 1,
					.tid = 9, .comm = "a", .dso_short = "d", .sym = "s" };
	struct pev_filter_sample no = { .time = 3000000000, .cpu = 1, .has_cpu = true, .pid = 2,
					.tid = 9, .comm = "a", .dso_short = "e", .sym = "t" };
	CHECK(f && pev_filter_match(f, &ok) == 0);
	CHECK(f && pev_filter_match(f, &no) == (PEV_FILTER_TIME | PEV_FILTER_CPU | PEV_FILTER_THREAD |
						 PEV_FILTER_DSO | PEV_FILTER_SYMBOL));
	pev_filter_free(f);

	/* A caller with an older, smaller opts struct */
	struct pev_filter_opts small = { .size = sizeof(size_t) };
	f = pev_filter_new(&small, err, sizeof(err));
	CHECK(f && pev_filter_needs(f) == 0);
	pev_filter_free(f);
	return t_done();
}
