// SPDX-License-Identifier: GPL-2.0-only
/* Format-file parsing ("config1:1,6-10,44") and scattering values into the
 * bits it names. */
#include <perfev/perfev.h>
#include "testutil.h"

static void ok(const char *text, int word, uint64_t mask)
{
	int w = -1;
	uint64_t m = 0;
	char err[128] = "";
	int r = pev_pmu_format_parse(text, &w, &m, err, sizeof(err));
	CHECK_MSG(r == 0, "'%s' refused: %s", text, err);
	CHECK_EQ_INT(w, word);
	CHECK_EQ_U64(m, mask);
}

static void bad(const char *text, const char *why)
{
	int w;
	uint64_t m;
	char err[128] = "";
	int r = pev_pmu_format_parse(text, &w, &m, err, sizeof(err));
	CHECK_MSG(r == -EINVAL, "'%s' accepted (r=%d)", text, r);
	CHECK_MSG(strstr(err, why), "'%s': message '%s' lacks '%s'", text, err, why);
}

int main(void)
{
	ok("config:0-7", 0, 0xff);
	ok("config:0-7\n", 0, 0xff);
	ok("config1:1,6-10,44", 1, (1ULL << 1) | (0x1fULL << 6) | (1ULL << 44));
	ok("config2:63", 2, 1ULL << 63);
	ok("config3:0-3", 3, 0xf);
	ok("config:0-63", 0, ~0ULL);
	ok("config:32-63", 0, 0xffffffff00000000ULL);
	ok("config:0", 0, 1);

	bad("config4:0", "unknown config word");
	bad("conf:0", "expected 'config'");
	bad("config:", "expected a bit number");
	bad("config:64", "expected a bit number");
	bad("config:7-3", "ends before it starts");
	bad("config:0-7,4", "overlap");
	bad("config:0-7x", "unexpected 'x'");
	bad("config:1,", "expected a bit number");
	bad("config:-1", "expected a bit number");
	bad("config:100", "expected a bit number");
	bad("config:0-", "expected a bit number");
	bad("", "expected 'config'");
	bad("config1 :1", "unknown config word");

	/* scattering: value bits land on the mask's set bits, low first */
	uint64_t c = 0, mask = (1ULL << 1) | (0x1fULL << 6) | (1ULL << 44);
	CHECK_OK(pev_pmu_format_apply(mask, 0x7f, &c));	/* 7 bits: 1,6,7,8,9,10,44 */
	CHECK_EQ_U64(c, mask);
	c = 0;
	CHECK_OK(pev_pmu_format_apply(mask, 0x41, &c));	/* bit0->1, bit6->44 */
	CHECK_EQ_U64(c, (1ULL << 1) | (1ULL << 44));
	c = 0;
	CHECK_OK(pev_pmu_format_apply(mask, 0x2, &c));	/* bit1->6 */
	CHECK_EQ_U64(c, 1ULL << 6);
	CHECK_EQ_INT(pev_pmu_format_apply(mask, 0x80, &c), -ERANGE);	/* 8 bits into 7 */
	CHECK_EQ_U64(pev_pmu_format_max(mask), 0x7f);
	c = 0xffff;
	CHECK_OK(pev_pmu_format_apply(0xff00, 0x12, &c));	/* clears the field first */
	CHECK_EQ_U64(c, 0x12ff);
	c = 0;
	CHECK_OK(pev_pmu_format_apply(~0ULL, ~0ULL, &c));
	CHECK_EQ_U64(c, ~0ULL);
	c = 0;
	CHECK_OK(pev_pmu_format_apply(1ULL << 63, 1, &c));
	CHECK_EQ_U64(c, 1ULL << 63);
	CHECK_EQ_INT(pev_pmu_format_apply(1ULL << 63, 2, &c), -ERANGE);
	return t_done();
}
