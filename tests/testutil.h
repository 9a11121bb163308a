/* SPDX-License-Identifier: GPL-2.0-only */
/* Test helpers: every test is a standalone program.  Exit 0 = pass,
 * 1 = fail, 77 = skip (the kernel or machine lacks a feature; say which). */
#ifndef PEV_TESTUTIL_H
#define PEV_TESTUTIL_H

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#include <linux/perf_event.h>

static int t_failures;

#define T_SKIP(...) do { printf("SKIP: "); printf(__VA_ARGS__); printf("\n"); exit(77); } while (0)
#define T_FAIL(...) do { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); t_failures++; } while (0)
#define T_FATAL(...) do { T_FAIL(__VA_ARGS__); exit(1); } while (0)

#define CHECK(cond) do { if (!(cond)) T_FAIL("CHECK(%s)", #cond); } while (0)
#define CHECK_MSG(cond, ...) do { if (!(cond)) T_FAIL(__VA_ARGS__); } while (0)
#define CHECK_EQ_U64(a, b) do { uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b); \
	if (_a != _b) T_FAIL("%s == %" PRIu64 ", expected %s == %" PRIu64, #a, _a, #b, _b); } while (0)
#define CHECK_EQ_INT(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
	if (_a != _b) T_FAIL("%s == %lld, expected %s == %lld", #a, _a, #b, _b); } while (0)
#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b); \
	if (!_a || !_b || strcmp(_a, _b)) T_FAIL("%s == \"%s\", expected \"%s\"", #a, _a ? _a : "(null)", _b ? _b : "(null)"); } while (0)
/* A call that must succeed (>= 0); prints -errno as text when it does not. */
#define CHECK_OK(expr) do { long _r = (long)(expr); \
	if (_r < 0) T_FAIL("%s failed: %s", #expr, strerror((int)-_r)); } while (0)

/* Independent probes of the machine.  A test skips only when one of these
 * shows that the kernel lacks what the test needs: a raw perf_event_open(2)
 * issued here, with an attr the test built itself, never a call into
 * libperfev (a broken attr builder must fail the test, not skip it). */
static inline int t_raw_open(const struct perf_event_attr *attr, pid_t pid, int cpu,
			     int group_fd, unsigned long flags)
{
	struct perf_event_attr a = *attr;
	long fd;

	if (!a.size)
		a.size = sizeof(a);
	fd = syscall(SYS_perf_event_open, &a, pid, cpu, group_fd, flags);
	return fd < 0 ? -errno : (int)fd;
}

/* 0 when the kernel opens attr for (pid, cpu) (the fd is closed again),
 * else -errno. */
static inline int t_probe_attr(const struct perf_event_attr *attr, pid_t pid, int cpu)
{
	int fd = t_raw_open(attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* 0 when the kernel opens a minimal counter of (type, config) on this
 * thread (cpu = -1) or on cpu (pid = -1) when cpu >= 0; else -errno. */
static inline int t_probe_event(uint32_t type, uint64_t config, int cpu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	return t_probe_attr(&a, cpu >= 0 ? -1 : 0, cpu);
}

/* Call after a libperfev call failed with ret (< 0): skip when the raw probe
 * of the same attr on the same target fails too (the kernel cannot do it
 * here), else fail: the kernel can, so perfev broke it. */
#define T_SKIP_UNLESS_KERNEL_CAN(ret, attr, pid, cpu, what) do { long _r = (long)(ret); \
	if (_r < 0) { \
		int _p = t_probe_attr((attr), (pid), (cpu)); \
		if (_p < 0) \
			T_SKIP("%s: the kernel refuses a raw perf_event_open of it too (%s)", \
			       what, strerror(-_p)); \
		T_FATAL("%s: perfev failed (%s) where a raw perf_event_open of the " \
			"same attr succeeds", what, strerror((int)-_r)); \
	} } while (0)

/* The first number in a /proc or /sys file read here; 0, or -errno. */
static inline int t_read_long(const char *path, long *out)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%ld", out) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

/* The first cgroup2 mount point in /proc/mounts, read here (the probe for
 * the cgroup tests; pev_cgroup2_mount is checked against it).  0, or -ENOENT. */
static inline int t_cgroup2_mount(char *buf, size_t size)
{
	FILE *f = fopen("/proc/mounts", "r");
	char dev[256], dir[512], type[64];
	int r = -ENOENT;

	while (f && fscanf(f, "%255s %511s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(type, "cgroup2")) {
			snprintf(buf, size, "%s", dir);
			r = 0;
			break;
		}
	if (f)
		fclose(f);
	return r;
}

/* The cgroup2 mount; skips when /proc/mounts has none, fails when
 * pev_cgroup2_mount disagrees with it. */
#define T_NEED_CGROUP2(buf, size) do { char _want[512]; \
	if (t_cgroup2_mount(_want, sizeof(_want)) < 0) \
		T_SKIP("no cgroup v2 mount in /proc/mounts"); \
	if (pev_cgroup2_mount((buf), (size)) < 0 || strcmp((buf), _want)) \
		T_FATAL("pev_cgroup2_mount: not %s as in /proc/mounts", _want); \
	} while (0)

/* Set a /proc/sys file (root) for the length of a test.  The value it had
 * before the first t_sysctl_set is written back by t_sysctl_restore(): at
 * the exit of the process that set it (not of its forked children), and on
 * SIGINT, SIGTERM and SIGHUP.  Up to four files. */
struct t_sysctls {
	struct { const char *path; long value; } v[4];
	int n;
	pid_t owner;
	bool hooked;
};

static inline struct t_sysctls *t_sysctls_(void)
{
	static struct t_sysctls s;
	return &s;
}

static inline void t_sysctl_restore(void)
{
	struct t_sysctls *s = t_sysctls_();

	if (getpid() != s->owner)
		return;
	for (int i = s->n - 1; i >= 0; i--) {
		FILE *f = fopen(s->v[i].path, "w");

		if (f) {
			fprintf(f, "%ld\n", s->v[i].value);
			fclose(f);
		}
	}
	s->n = 0;
}

static inline void t_sysctl_on_signal_(int sig)
{
	t_sysctl_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static inline void t_sysctl_set(const char *path, long value)
{
	struct t_sysctls *s = t_sysctls_();
	int i = 0;
	FILE *f;

	while (i < s->n && strcmp(s->v[i].path, path))
		i++;
	if (i == s->n) {
		if (s->n == 4 || t_read_long(path, &s->v[i].value) < 0)
			T_FATAL("cannot save %s", path);
		s->v[i].path = path;
		s->n++;
		s->owner = getpid();
		if (!s->hooked) {
			s->hooked = true;
			atexit(t_sysctl_restore);
			signal(SIGINT, t_sysctl_on_signal_);
			signal(SIGTERM, t_sysctl_on_signal_);
			signal(SIGHUP, t_sysctl_on_signal_);
		}
	}
	f = fopen(path, "w");
	if (!f || fprintf(f, "%ld\n", value) < 0 || fclose(f) != 0)
		T_FATAL("cannot write %ld to %s", value, path);
}

/* Monotonic time in seconds, for tests that time how fast perfev ends. */
static inline double t_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline void t_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* LeakSanitizer cannot run under ptrace: a sanitizer build of perfev run
 * under strace would fail at its exit for that alone.  Call before running
 * perfev under strace. */
static inline void t_no_leak_check_under_ptrace(void)
{
	const char *ao = getenv("ASAN_OPTIONS");
	char buf[512];

	snprintf(buf, sizeof(buf), "%s%sdetect_leaks=0", ao ? ao : "", ao && *ao ? ":" : "");
	setenv("ASAN_OPTIONS", buf, 1);
}

static inline int t_done(void)
{
	if (t_failures) {
		printf("%d check(s) failed\n", t_failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}

#endif
