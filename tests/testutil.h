/* Test helpers: every test is a standalone program.  Exit 0 = pass,
 * 1 = fail, 77 = skip (the kernel or machine lacks a feature; say which). */
#ifndef PEV_TESTUTIL_H
#define PEV_TESTUTIL_H

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Turn a kernel refusal into a skip with a reason; anything else fails. */
#define T_SKIP_IF_UNSUPPORTED(ret, what) do { long _r = (long)(ret); \
	if (_r == -ENOENT || _r == -EOPNOTSUPP || _r == -ENODEV || _r == -ENOSYS) \
		T_SKIP("%s: kernel refused (%s)", what, strerror((int)-_r)); } while (0)

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
