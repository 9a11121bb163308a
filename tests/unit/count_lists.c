// SPDX-License-Identifier: GPL-2.0-only
/* CPU lists and id lists: syntax, ordering, bounds. */
#include <perfev/perfev.h>
#include "testutil.h"

int main(void)
{
	int cpus[16];
	pid_t ids[4];

	CHECK_EQ_INT(pev_cpulist_parse("0-1,3", cpus, 16), 3);
	CHECK_EQ_INT(cpus[0], 0);
	CHECK_EQ_INT(cpus[1], 1);
	CHECK_EQ_INT(cpus[2], 3);
	/* sysfs style with a newline; overlapping and unordered ranges. */
	CHECK_EQ_INT(pev_cpulist_parse("5,2-4,3\n", cpus, 16), 4);
	CHECK_EQ_INT(cpus[0], 2);
	CHECK_EQ_INT(cpus[3], 5);
	CHECK_EQ_INT(pev_cpulist_parse("7", cpus, 16), 1);
	CHECK_EQ_INT(cpus[0], 7);
	/* Counting only, then too small an array. */
	CHECK_EQ_INT(pev_cpulist_parse("0-9", NULL, 0), 10);
	CHECK_EQ_INT(pev_cpulist_parse("0-9", cpus, 9), -ERANGE);
	CHECK_EQ_INT(pev_cpulist_parse("0-8191", NULL, 0), 8192);
	/* Malformed. */
	const char *bad[] = { "", "\n", "-1", "1-", "3-1", "a", "1,,2", "1,", ",1",
			      "8192", "0-8192", "99999999999999999999", "1 2", "1-2-3", "1\n2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_MSG(pev_cpulist_parse(bad[i], cpus, 16) == -EINVAL, "cpulist \"%s\" accepted", bad[i]);
	CHECK_EQ_INT(pev_cpulist_parse(NULL, cpus, 16), -EINVAL);

	CHECK_EQ_INT(pev_idlist_parse("12, 345,6", ids, 4), 3);
	CHECK_EQ_INT(ids[0], 12);
	CHECK_EQ_INT(ids[1], 345);
	CHECK_EQ_INT(ids[2], 6);
	CHECK_EQ_INT(pev_idlist_parse("1,2,3,4,5", ids, 4), -ERANGE);
	CHECK_EQ_INT(pev_idlist_parse("1,2,3,4,5", NULL, 0), 5);
	const char *badid[] = { "", "0", "-3", "1,", "x", "1-2", "2147483648", "1;2" };
	for (size_t i = 0; i < sizeof(badid) / sizeof(badid[0]); i++)
		CHECK_MSG(pev_idlist_parse(badid[i], ids, 4) == -EINVAL, "idlist \"%s\" accepted", badid[i]);

	/* The machine's online list parses and is not empty. */
	int n = pev_cpus_online(NULL, 0);
	CHECK(n >= 1);
	CHECK_EQ_INT(pev_wait_status_code(0), 0);
	CHECK_EQ_INT(pev_wait_status_code(3 << 8), 3);
	CHECK_EQ_INT(pev_wait_status_code(9), 137);
	return t_done();
}
